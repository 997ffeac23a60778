//go:build unix

package fsguard

import "syscall"

// openFileLimit is the number of descriptors the process may have open (the soft
// RLIMIT_NOFILE, which Go raises to the hard limit at start-up), or 256 when the system
// does not say.
func openFileLimit() int64 {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil || rl.Cur == 0 {
		return 256
	}
	return int64(min(rl.Cur, 1<<20))
}
