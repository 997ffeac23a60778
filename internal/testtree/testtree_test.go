package testtree

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCopy(t *testing.T) {
	from, to := t.TempDir(), filepath.Join(t.TempDir(), "copy")
	files := []struct {
		rel, body string
		mode      os.FileMode
	}{
		{"top.txt", "top\n", 0o644},
		{"bin/run", "#!/bin/sh\n", 0o755},
		{"a/b/c/deep.json", "{}", 0o600},
	}
	for _, f := range files {
		p := filepath.Join(from, filepath.FromSlash(f.rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f.body), f.mode); err != nil {
			t.Fatal(err)
		}
	}
	Copy(t, from, to)
	for _, f := range files {
		p := filepath.Join(to, filepath.FromSlash(f.rel))
		data, err := os.ReadFile(p)
		if err != nil || string(data) != f.body {
			t.Errorf("%s: %q, %v; want %q", f.rel, data, err, f.body)
			continue
		}
		// The owner's bits survive any umask a test runs under; the others may not.
		if st, _ := os.Stat(p); st.Mode().Perm()&0o700 != f.mode&0o700 {
			t.Errorf("%s: mode %v, want the owner's bits of %v", f.rel, st.Mode().Perm(), f.mode)
		}
	}
}
