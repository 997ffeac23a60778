// Package testtree holds the fixture-tree helpers the tests of several packages share.
// Only tests import it.
package testtree

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// Copy copies the fixture folder from into to: folders, and files with their permission
// bits (a link becomes a file holding what it points to). A failure ends the test.
func Copy(t testing.TB, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		st, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, st.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}
