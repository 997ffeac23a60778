//go:build linux && !vouch_osroot

package fsguard

import (
	"encoding/binary"
	"io/fs"

	"golang.org/x/sys/unix"
)

// parseDirents appends up to max names of buf's linux_dirent64 records (d_ino u64,
// d_off s64, d_reclen u16, d_type u8, d_name NUL-terminated), without "." and "..", and
// the type d_type gives each (unknownType for DT_UNKNOWN: some file systems never fill
// it). A record that does not fit the buffer, which the kernel never writes, ends the
// parse.
func parseDirents(buf []byte, max int, names []string, types []fs.FileMode) ([]string, []fs.FileMode) {
	for n := 0; len(buf) >= 19 && n < max; {
		reclen := int(binary.NativeEndian.Uint16(buf[16:18]))
		if reclen < 19 || reclen > len(buf) {
			break
		}
		typ, name := buf[18], buf[19:reclen]
		for i, c := range name {
			if c == 0 {
				name = name[:i]
				break
			}
		}
		buf = buf[reclen:]
		if len(name) == 0 || string(name) == "." || string(name) == ".." {
			continue
		}
		names = append(names, string(name))
		types = append(types, direntType(typ))
		n++
	}
	return names, types
}

func direntType(t byte) fs.FileMode {
	switch t {
	case unix.DT_REG:
		return 0
	case unix.DT_DIR:
		return fs.ModeDir
	case unix.DT_LNK:
		return fs.ModeSymlink
	case unix.DT_FIFO:
		return fs.ModeNamedPipe
	case unix.DT_SOCK:
		return fs.ModeSocket
	case unix.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.DT_BLK:
		return fs.ModeDevice
	}
	return unknownType
}
