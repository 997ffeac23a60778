//go:build !unix

package review

import (
	"errors"
	"io"
	"io/fs"
	"os"
)

// readManifest reads a manifest for a probe: a regular file, not a link (a link is left
// to the loader, which knows where it may lead), of at most max bytes. found is false
// when nothing is there; ok is false when something is but could not be read so.
// Windows has neither O_NOFOLLOW nor O_NONBLOCK: the Lstat before the open and the
// Stat after it refuse anything but a regular file.
func readManifest(p string, max int64) (data []byte, found, ok bool) {
	st, err := os.Lstat(p)
	if err != nil {
		return nil, !errors.Is(err, fs.ErrNotExist), false
	}
	if !st.Mode().IsRegular() || st.Size() > max {
		return nil, true, false
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, true, false
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, true, false
	}
	data, err = io.ReadAll(io.LimitReader(f, max+1))
	if err != nil || int64(len(data)) > max {
		return nil, true, false
	}
	return data, true, true
}
