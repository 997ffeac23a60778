//go:build unix

package testtree

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMake: each value makes what its notation says, at its slash path, with the folders
// above it (links and pipes beside WriteFiles' files and folders); "$ROOT" in a link
// target becomes the folder Make returns.
func TestMake(t *testing.T) {
	root := Make(t, map[string]string{
		"a/b/file.txt": "body",
		"empty":        "",
		"rel":          "->a/b/file.txt",
		"abs":          "->$ROOT/a",
		"bin/run":      "#!/bin/sh\n",
		"d/e/":         "",
		"p/pipe":       "<fifo>",
		"p/link":       "->pipe",
	})
	for _, tc := range []struct {
		path string
		mode os.FileMode // the type bits Lstat reports, and a file's permission bits
		body string      // a file's text, or a link's target
	}{
		{"a/b/file.txt", 0o644, "body"},
		{"empty", 0o644, ""},
		{"bin/run", 0o755, "#!/bin/sh\n"},
		{"rel", os.ModeSymlink, "a/b/file.txt"},
		{"abs", os.ModeSymlink, filepath.Join(root, "a")},
		{"d/e", os.ModeDir, ""},
		{"p/pipe", os.ModeNamedPipe, ""},
		{"p/link", os.ModeSymlink, "pipe"},
	} {
		full := filepath.Join(root, filepath.FromSlash(tc.path))
		st, err := os.Lstat(full)
		if err != nil || st.Mode().Type() != tc.mode.Type() {
			t.Errorf("%s: %v, %v; want type %v", tc.path, st, err, tc.mode.Type())
			continue
		}
		var body string
		switch tc.mode.Type() {
		case 0:
			body = ReadFile(t, full)
			// The owner's bits survive any umask a test runs under; the others may not.
			if st.Mode().Perm()&0o700 != tc.mode&0o700 {
				t.Errorf("%s: mode %v, want the owner's bits of %v", tc.path, st.Mode().Perm(), tc.mode)
			}
		case os.ModeSymlink:
			body, _ = os.Readlink(full)
		}
		if body != tc.body {
			t.Errorf("%s holds %q, want %q", tc.path, body, tc.body)
		}
	}
}
