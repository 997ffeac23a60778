package trust

import (
	"fmt"
	"os"
)

// openRegular opens path for reading without waiting on it and refuses anything but a
// regular file. A ledger, its cache or a file named with --ledger can be a FIFO (a team
// ledger comes with a repository, and a path on the command line can name anything):
// plain open would block until a writer appears, so the open is non-blocking and the
// kind is checked on the opened file before a byte is read.
func openRegular(path string) (*os.File, os.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlockingOpen, 0)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%s is not a regular file", path)
	}
	return f, st, nil
}
