//go:build linux

package trust

import (
	"os"
	"syscall"
)

// statIdentity is the inode, device and status-change time of a file: a write in place
// that keeps the size and resets the mtime still moves the ctime, which no user can set.
func statIdentity(st os.FileInfo) (ino, dev uint64, ctime int64) {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		return sys.Ino, uint64(sys.Dev), sys.Ctim.Sec*1e9 + sys.Ctim.Nsec
	}
	return 0, 0, 0
}
