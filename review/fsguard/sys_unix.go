//go:build (linux || darwin || freebsd) && !vouch_osroot

package fsguard

import (
	"io"
	"io/fs"
	"sync"

	"golang.org/x/sys/unix"
)

// The handles below are raw descriptors rather than os.Root and os.File: a package read
// is a few hundred syscalls of which os.File adds a poller registration, a finalizer and
// path splitting to each open. Containment does not depend on the handle type: every
// path element is opened or looked at relative to its parent's descriptor with
// O_NOFOLLOW (AT_SYMLINK_NOFOLLOW for lstat), and Resolve has already checked every
// symlink against the root, so a link swapped in after Resolve fails the open instead of
// being followed.

// dirHandle is an open directory: the root or a directory below it.
type dirHandle int

// fileHandle is a regular file opened for reading.
type fileHandle int

const (
	// O_NONBLOCK: a FIFO planted under a directory's or file's name cannot block the
	// open. O_DIRECTORY makes a non-directory fail with ENOTDIR before it is opened.
	dirFlags  = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_CLOEXEC
	fileFlags = unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_CLOEXEC
)

func pathErr(op, name string, err error) error {
	return &fs.PathError{Op: op, Path: name, Err: err}
}

// openRootDir opens an absolute, symlink-free directory path.
func openRootDir(abs string) (dirHandle, error) {
	for {
		fd, err := unix.Open(abs, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return -1, pathErr("open", abs, err)
		}
		return dirHandle(fd), nil
	}
}

func (d dirHandle) lstat(name string) (meta, error) {
	var st unix.Stat_t
	for {
		err := unix.Fstatat(int(d), name, &st, unix.AT_SYMLINK_NOFOLLOW)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return meta{}, pathErr("lstat", name, err)
		}
		return metaOf(&st), nil
	}
}

// openDir opens the directory name (one element) below d without following a symlink.
func (d dirHandle) openDir(name string) (dirHandle, error) {
	fd, err := d.openat(name, dirFlags)
	return dirHandle(fd), err
}

// openFile opens name (one element) below d for reading without following a symlink.
func (d dirHandle) openFile(name string) (fileHandle, error) {
	fd, err := d.openat(name, fileFlags)
	return fileHandle(fd), err
}

// openat opens name (one element) below d with flags, again when a signal interrupts
// the call; -1 with the error when it fails.
func (d dirHandle) openat(name string, flags int) (int, error) {
	for {
		fd, err := unix.Openat(int(d), name, flags, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return -1, pathErr("openat", name, err)
		}
		return fd, nil
	}
}

func (d dirHandle) readlink(name string) (string, error) {
	for size := 256; ; size *= 2 {
		buf := make([]byte, size)
		n, err := unix.Readlinkat(int(d), name, buf)
		if err == unix.EINTR {
			size /= 2
			continue
		}
		if err != nil {
			return "", pathErr("readlinkat", name, err)
		}
		if n < size {
			return string(buf[:n]), nil
		}
		if size >= 1<<16 {
			return "", pathErr("readlinkat", name, unix.ENAMETOOLONG)
		}
	}
}

var direntBufs = sync.Pool{New: func() any { b := make([]byte, 8<<10); return &b }}

// names reads at most max names of the directory (without "." and ".."), and the type
// of each as the listing gives it (unknownType where it does not). Each handle is listed
// once from its start: callers serialize listings and cache the result.
func (d dirHandle) names(max int) ([]string, []fs.FileMode, error) {
	bp := direntBufs.Get().(*[]byte)
	defer direntBufs.Put(bp)
	buf := *bp
	var names []string
	var types []fs.FileMode
	for len(names) < max {
		n, err := unix.ReadDirent(int(d), buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return names, types, pathErr("readdirent", ".", err)
		}
		if n <= 0 {
			break
		}
		names, types = parseDirents(buf[:n], max-len(names), names, types)
	}
	return names, types, nil
}

func (d dirHandle) close() error { return unix.Close(int(d)) }

func (f fileHandle) stat() (meta, error) {
	var st unix.Stat_t
	for {
		err := unix.Fstat(int(f), &st)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return meta{}, pathErr("fstat", "", err)
		}
		return metaOf(&st), nil
	}
}

// Read reads like io.Reader: 0 bytes and no error from the system means the end.
func (f fileHandle) Read(p []byte) (int, error) {
	for {
		n, err := unix.Read(int(f), p)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return 0, pathErr("read", "", err)
		}
		if n == 0 && len(p) > 0 {
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f fileHandle) close() error { return unix.Close(int(f)) }

func metaOf(st *unix.Stat_t) meta {
	m := fs.FileMode(st.Mode & 0o777)
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
	case unix.S_IFDIR:
		m |= fs.ModeDir
	case unix.S_IFLNK:
		m |= fs.ModeSymlink
	case unix.S_IFIFO:
		m |= fs.ModeNamedPipe
	case unix.S_IFSOCK:
		m |= fs.ModeSocket
	case unix.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		m |= fs.ModeDevice
	default:
		m |= fs.ModeIrregular
	}
	return meta{mode: m, size: st.Size}
}
