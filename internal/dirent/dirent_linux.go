//go:build linux

// Package dirent reads the records getdents64 writes on Linux: a name and the type
// d_type gives it. The package's listings (review/fsguard) and detection's probes
// (review/probe) both want the type with the name, which golang.org/x/sys/unix's
// ParseDirent drops, and os.File.ReadDir gets only by allocating an entry per name.
package dirent

import (
	"encoding/binary"
	"io/fs"

	"golang.org/x/sys/unix"
)

// Unknown is the type of a name whose record did not give one (DT_UNKNOWN: some file
// systems never fill d_type): ask Lstat.
const Unknown = ^fs.FileMode(0)

// Parse calls fn with the name and type of each linux_dirent64 record in buf (d_ino u64,
// d_off s64, d_reclen u16, d_type u8, d_name NUL-terminated), without "." and "..",
// until fn returns false. ok is false when a record does not fit the buffer, which the
// kernel never writes: the listing is then not to be trusted.
func Parse(buf []byte, fn func(name string, typ fs.FileMode) bool) (ok bool) {
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
		if len(name) == 0 || string(name) == "." || string(name) == ".." {
			continue
		}
		if !fn(string(name), typeOf(typ)) {
			return true
		}
	}
	return true
}

// typeOf maps d_type to type bits: on Linux a DT_ constant is its S_IF constant shifted
// right by 12 (DT_REG 8, S_IFREG 0100000).
func typeOf(t byte) fs.FileMode {
	if t == unix.DT_UNKNOWN || uint32(t)<<12&^unix.S_IFMT != 0 {
		return Unknown
	}
	return TypeOfMode(uint32(t) << 12)
}

// TypeOfMode is the type bits of an lstat's st_mode (Unknown for a type it does not
// know), for a name Parse gave as Unknown.
func TypeOfMode(m uint32) fs.FileMode {
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
	case unix.S_IFREG:
		return 0
	}
	return Unknown
}
