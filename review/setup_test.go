package review

import (
	"testing"

	"vouch/internal/gen"
)

// mustOpen opens the sources with opts, failing the test when Open itself fails (a
// problem in a package is a diagnostic, not an error).
func mustOpen(tb testing.TB, opts Options, paths ...string) *Result {
	tb.Helper()
	res, err := Open(opts, paths...)
	if err != nil {
		tb.Fatal(err)
	}
	return res
}

// generated is a fresh folder of n plugins from gen.Generate.
func generated(tb testing.TB, n int) string {
	tb.Helper()
	dir := tb.TempDir()
	if err := gen.Generate(dir, n); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// heavyPlugin is a fresh folder holding gen.HeavyPlugin with the given number of skills.
func heavyPlugin(tb testing.TB, skills int) string {
	tb.Helper()
	dir := tb.TempDir()
	if _, err := gen.HeavyPlugin(dir, skills); err != nil {
		tb.Fatal(err)
	}
	return dir
}
