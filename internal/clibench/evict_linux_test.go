package clibench

import (
	"os"

	"golang.org/x/sys/unix"
)

// evictFiles drops each file's pages from the page cache, so the next read comes from
// the disk.
func evictFiles(paths []string) error {
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		err = unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED)
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}
