//go:build unix

package testtree

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMake: each value makes what its notation says, at its slash path, with the folders
// above it; "$ROOT" in a link target becomes the folder Make returns.
func TestMake(t *testing.T) {
	root := Make(t, map[string]string{
		"a/b/file.txt": "body",
		"empty":        "",
		"rel":          "->a/b/file.txt",
		"abs":          "->$ROOT/a",
		"d/e":          "<dir>",
		"p/pipe":       "<fifo>",
	})
	for _, tc := range []struct {
		path string
		mode os.FileMode // the type bits Lstat reports
		body string      // a file's text, or a link's target
	}{
		{"a/b/file.txt", 0, "body"},
		{"empty", 0, ""},
		{"rel", os.ModeSymlink, "a/b/file.txt"},
		{"abs", os.ModeSymlink, filepath.Join(root, "a")},
		{"d/e", os.ModeDir, ""},
		{"p/pipe", os.ModeNamedPipe, ""},
	} {
		full := filepath.Join(root, filepath.FromSlash(tc.path))
		st, err := os.Lstat(full)
		if err != nil || st.Mode().Type() != tc.mode {
			t.Errorf("%s: %v, %v; want type %v", tc.path, st, err, tc.mode)
			continue
		}
		var body string
		switch tc.mode {
		case 0:
			b, _ := os.ReadFile(full)
			body = string(b)
			if st.Mode().Perm() != 0o644 {
				t.Errorf("%s: mode %v, want 0644", tc.path, st.Mode().Perm())
			}
		case os.ModeSymlink:
			body, _ = os.Readlink(full)
		}
		if body != tc.body {
			t.Errorf("%s holds %q, want %q", tc.path, body, tc.body)
		}
	}
}
