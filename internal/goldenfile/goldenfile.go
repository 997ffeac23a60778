// Package goldenfile holds a test's output to a golden file, the way the tests of several
// packages do: each package keeps its own -update flag and passes its value in. Only
// tests import it.
package goldenfile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// Check holds got to the golden file at path. With update set it first writes got there
// (making the folder), so a run with -update rewrites every golden file it reaches and
// then passes. Without it, a missing file fails the test with hint (how to create the
// file), and a difference fails it with the first line that differs, quoted so that
// line breaks and control bytes show.
func Check(t testing.TB, path string, got []byte, update bool, hint string) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (%s)", err, hint)
	}
	if !bytes.Equal(got, want) {
		line, g, w := firstDifference(got, want)
		t.Errorf("%s differs from the golden file at line %d:\n got %q\nwant %q", path, line, g, w)
	}
}

// firstDifference returns the number of the first line where a and b differ and that
// line of each, line break included ("" past the end of one of them).
func firstDifference(a, b []byte) (line int, la, lb []byte) {
	for line = 1; ; line++ {
		la, a = cutLine(a)
		lb, b = cutLine(b)
		if !bytes.Equal(la, lb) || len(la) == 0 {
			return line, la, lb
		}
	}
}

func cutLine(s []byte) (line, rest []byte) {
	if i := bytes.IndexByte(s, '\n'); i >= 0 {
		return s[:i+1], s[i+1:]
	}
	return s, nil
}
