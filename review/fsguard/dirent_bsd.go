//go:build (darwin || freebsd) && !vouch_osroot

package fsguard

import (
	"io/fs"

	"golang.org/x/sys/unix"
)

// parseDirents appends up to max names of buf's records; the types are left to Lstat
// (unknownType) on these systems, whose record layout differs from Linux's.
func parseDirents(buf []byte, max int, names []string, types []fs.FileMode) ([]string, []fs.FileMode) {
	before := len(names)
	_, _, names = unix.ParseDirent(buf, max, names)
	for range names[before:] {
		types = append(types, unknownType)
	}
	return names, types
}
