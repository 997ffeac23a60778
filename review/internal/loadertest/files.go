// Package loadertest holds what the format loaders' tests share: writing and copying the
// files a test builds its package from (failing the test on any error, so a test reads as the
// layout it builds), and listing the diagnostics a loaded package carries.
package loadertest

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// WriteFile writes body to path (mode 0644), making its parent folders first.
func WriteFile(t testing.TB, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// CopyTree copies every folder and file below from into to, keeping each file's permission
// bits (an executable stays executable), so a test can change a committed fixture's copy.
func CopyTree(t testing.TB, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}
