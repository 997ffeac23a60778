//go:build unix

package atomicfile

import (
	"errors"
	"os"
	"syscall"
)

// nonBlockingOpen is O_NONBLOCK: opening a FIFO for reading returns at once.
const nonBlockingOpen = syscall.O_NONBLOCK

// lockFile takes an exclusive advisory lock on f, waiting for it. The kernel releases it
// when the process dies, so a killed writer never leaves the lock held.
func lockFile(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

func unlockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
