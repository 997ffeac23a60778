package loadertest

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWriteFile: the parent folders are made, and a second write replaces the body.
func TestWriteFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x", "y", "z.txt")
	for _, body := range []string{"first", "second"} {
		WriteFile(t, p, body)
		if b, err := os.ReadFile(p); err != nil || string(b) != body {
			t.Errorf("read %q, %v; want %q", b, err, body)
		}
	}
}
