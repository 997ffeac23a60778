//go:build windows

package atomicfile

import (
	"os"

	"golang.org/x/sys/windows"
)

// nonBlockingOpen: Windows has no FIFOs under file names.
const nonBlockingOpen = 0

// lockFile takes an exclusive lock on the first byte of f, waiting for it. Windows
// releases it when the process exits.
func lockFile(f *os.File) error {
	var ol windows.Overlapped
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, &ol)
}

func unlockFile(f *os.File) error {
	var ol windows.Overlapped
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, &ol)
}
