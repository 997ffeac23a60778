//go:build unix

package review

import (
	"golang.org/x/sys/unix"
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
	buf := make([]byte, 0, st.Size+1)
	for int64(len(buf)) <= max {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		chunk := buf[len(buf):min(cap(buf), int(max)+1)]
		n, err := unix.Read(fd, chunk)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, true, false
		}
		buf = buf[:len(buf)+n]
		if n == 0 || (n < len(chunk) && int64(len(buf)) == st.Size) {
			break // the end, or a short read ending on the bytes fstat counted
		}
	}
	if int64(len(buf)) > max {
		return nil, true, false
	}
	return buf, true, true
}
