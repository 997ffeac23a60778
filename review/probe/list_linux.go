//go:build linux

package probe

import (
	"io/fs"
	"sync"

	"golang.org/x/sys/unix"

	"vouch/internal/dirent"
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
		if !addNames((*bp)[:n], dir, types) || len(types) > maxEntries {
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

// addNames adds the names and types of buf's records to types; a name of unknown type
// (DT_UNKNOWN) is asked of Lstat. false: the listing is not to be trusted.
func addNames(buf []byte, dir string, types map[string]fs.FileMode) bool {
	ok := true
	parsed := dirent.Parse(buf, func(name string, typ fs.FileMode) bool {
		if typ == dirent.Unknown {
			var st unix.Stat_t
			if err := unix.Lstat(dir+"/"+name, &st); err != nil {
				ok = false
				return false
			}
			if typ = dirent.TypeOfMode(st.Mode); typ == dirent.Unknown {
				typ = fs.ModeIrregular
			}
		}
		types[name] = typ
		return true
	})
	return parsed && ok
}
