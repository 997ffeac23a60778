//go:build !linux

package probe

import (
	"io"
	"io/fs"
	"os"
)

// readNames fills types with the entries of dir and reports whether that is all of
// them (the folder could be read to its end within maxEntries).
func readNames(dir string, types map[string]fs.FileMode) bool {
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer f.Close()
	// ReadDir(n) reads on to n entries or the end.
	entries, err := f.ReadDir(maxEntries + 1)
	for _, e := range entries {
		types[e.Name()] = e.Type()
	}
	return (err == nil || err == io.EOF) && len(entries) <= maxEntries
}
