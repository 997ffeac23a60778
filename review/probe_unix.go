//go:build unix

package review

import (
	"io"

	"golang.org/x/sys/unix"

	"vouch/internal/boundedread"
)

// readManifest reads a manifest for a probe: a regular file, not a link (a link is left
// to the loader, which knows where it may lead), of at most max bytes. found is false
// when nothing is there; ok is false when something is but could not be read so. It is
// an open without following a link or waiting on a FIFO, an fstat and one read: the
// gate reads one manifest of every folder of a wide SOURCE.
func readManifest(p string, max int64) (data []byte, found, ok bool) {
	var fd int
	var err error
	for {
		fd, err = unix.Open(p, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return nil, err != unix.ENOENT, false
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG || st.Size > max {
		return nil, true, false
	}
	buf, err := boundedread.Read(fdReader(fd), st.Size, max)
	if err != nil || int64(len(buf)) > max {
		return nil, true, false
	}
	return buf, true, true
}

// fdReader reads a raw descriptor as an io.Reader (0 bytes is the end).
type fdReader int

func (f fdReader) Read(p []byte) (int, error) {
	for {
		n, err := unix.Read(int(f), p)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return 0, err
		}
		if n == 0 && len(p) > 0 {
			return 0, io.EOF
		}
		return n, nil
	}
}
