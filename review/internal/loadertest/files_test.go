package loadertest

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCopyTree: a copy holds every file at its relative path with its bytes and permission
// bits, nested folders included, and the source stays as it was.
func TestCopyTree(t *testing.T) {
	from := t.TempDir()
	files := []struct {
		rel, body string
		perm      os.FileMode
	}{
		{"a.txt", "one", 0o644},
		{"bin/run", "#!/bin/sh\n", 0o755},
		{"deep/er/b.json", "{}", 0o600},
	}
	for _, f := range files {
		WriteFile(t, filepath.Join(from, f.rel), f.body)
		if err := os.Chmod(filepath.Join(from, f.rel), f.perm); err != nil {
			t.Fatal(err)
		}
	}
	to := filepath.Join(t.TempDir(), "copy")
	CopyTree(t, from, to)
	for _, f := range files {
		p := filepath.Join(to, f.rel)
		b, err := os.ReadFile(p)
		if err != nil || string(b) != f.body {
			t.Errorf("%s: %q, %v; want %q", f.rel, b, err, f.body)
			continue
		}
		if info, _ := os.Stat(p); info.Mode().Perm() != f.perm {
			t.Errorf("%s: mode %v, want %v", f.rel, info.Mode().Perm(), f.perm)
		}
	}
	if err := os.WriteFile(filepath.Join(to, "a.txt"), []byte("changed"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(from, "a.txt")); string(b) != "one" {
		t.Errorf("the source changed with its copy: %q", b)
	}
}

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
