// Package memfiles holds a test package's files in memory: the model.FileReader trust
// reads them through, and the model.File entry (size and SHA-256) a loader would record
// for each. Only tests import it.
package memfiles

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"

	"vouch/model"
)

// Files are a package's files, keyed by slash path relative to its root.
type Files map[string][]byte

// ReadFile returns a copy of the file at rel, so a reader cannot change the package; a
// path that is not among the files is fs.ErrNotExist.
func (m Files) ReadFile(rel string) ([]byte, error) {
	b, ok := m[rel]
	if !ok {
		return nil, fs.ErrNotExist
	}
	return append([]byte(nil), b...), nil
}

// File is the closure entry of the file at path as its bytes are now, with exec as its
// executable bit.
func (m Files) File(path string, exec bool) model.File {
	sum := sha256.Sum256(m[path])
	return model.File{Path: path, Size: int64(len(m[path])), SHA256: hex.EncodeToString(sum[:]), Exec: exec}
}
