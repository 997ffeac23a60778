// Package loadertest holds what the format loaders' tests share: writing the files a test
// builds its package from (vouch/internal/testtree copies a committed fixture) (failing the test on any error, so a test reads as the
// layout it builds), and listing the diagnostics a loaded package carries.
package loadertest

import (
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
