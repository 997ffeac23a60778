//go:build linux

package probe

import (
	"encoding/binary"
	"io/fs"
	"sync"

	"golang.org/x/sys/unix"
)

// bufs holds getdents buffers: a probe lists every folder discovery meets, and
// os.File.ReadDir would allocate a buffer and an entry per name each time.
var bufs = sync.Pool{New: func() any { b := make([]byte, 8192); return &b }}

// readNames fills types with the entries of dir and reports whether that is all of
// them (the folder could be read to its end within maxEntries). It reads the kernel's
// linux_dirent64 records itself: the name and d_type are all a probe needs.
func readNames(dir string, types map[string]fs.FileMode) bool {
	fd, err := openDir(dir)
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	bp := bufs.Get().(*[]byte)
	defer bufs.Put(bp)
	for {
		n, err := unix.Getdents(fd, *bp)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return false
		}
		if n <= 0 {
			return len(types) <= maxEntries
		}
		if !parseDirents((*bp)[:n], dir, types) || len(types) > maxEntries {
			return false
		}
	}
}

func openDir(dir string) (int, error) {
	for {
		fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// parseDirents adds the names and types of buf's linux_dirent64 records (d_ino u64,
// d_off s64, d_reclen u16, d_type u8, d_name NUL-terminated) to types, without "." and
// "..". An entry of unknown type (DT_UNKNOWN: some file systems never fill d_type) is
// asked of Lstat. false: a record does not fit its buffer, which the kernel never
// writes; the listing is then not trusted.
func parseDirents(buf []byte, dir string, types map[string]fs.FileMode) bool {
	for len(buf) > 0 {
		if len(buf) < 19 {
			return false
		}
		reclen := int(binary.NativeEndian.Uint16(buf[16:18]))
		if reclen < 19 || reclen > len(buf) {
			return false
		}
		typ, name := buf[18], buf[19:reclen]
		for i, c := range name {
			if c == 0 {
				name = name[:i]
				break
			}
		}
		buf = buf[reclen:]
		s := string(name)
		if s == "." || s == ".." || s == "" {
			continue
		}
		switch typ {
		case unix.DT_REG:
			types[s] = 0
		case unix.DT_DIR:
			types[s] = fs.ModeDir
		case unix.DT_LNK:
			types[s] = fs.ModeSymlink
		case unix.DT_FIFO:
			types[s] = fs.ModeNamedPipe
		case unix.DT_SOCK:
			types[s] = fs.ModeSocket
		case unix.DT_CHR:
			types[s] = fs.ModeDevice | fs.ModeCharDevice
		case unix.DT_BLK:
			types[s] = fs.ModeDevice
		default:
			var st unix.Stat_t
			if err := unix.Lstat(dir+"/"+s, &st); err != nil {
				return false
			}
			types[s] = modeType(st.Mode)
		}
	}
	return true
}

func modeType(m uint32) fs.FileMode {
	switch m & unix.S_IFMT {
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFLNK:
		return fs.ModeSymlink
	case unix.S_IFIFO:
		return fs.ModeNamedPipe
	case unix.S_IFSOCK:
		return fs.ModeSocket
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		return fs.ModeDevice
	}
	return 0
}
