//go:build linux && !vouch_osroot

package fsguard

import (
	"io/fs"

	"vouch/internal/dirent"
)

// parseDirents appends up to max names of buf's records, without "." and "..", and the
// type each record gives (unknownType where it gives none).
func parseDirents(buf []byte, max int, names []string, types []fs.FileMode) ([]string, []fs.FileMode) {
	n := 0
	dirent.Parse(buf, func(name string, typ fs.FileMode) bool {
		if n >= max {
			return false
		}
		if typ == dirent.Unknown {
			typ = unknownType
		}
		names, types = append(names, name), append(types, typ)
		n++
		return true
	})
	return names, types
}
