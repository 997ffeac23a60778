// Package loadertest holds what the format loaders' tests share: writing the files a test
// builds its package from, failing the test on any error so that a test reads as the
// layout it builds (vouch/internal/testtree holds the general helpers, and copies
// committed fixtures), and listing the diagnostics a loaded package carries.
package loadertest

import (
	"testing"

	"vouch/internal/testtree"
)

// WriteFile writes body to path (mode 0644), making its parent folders first.
func WriteFile(t testing.TB, path, body string) {
	t.Helper()
	testtree.WriteFile(t, path, body, 0o644)
}
