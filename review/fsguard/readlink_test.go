package fsguard

import (
	"os"
	"path/filepath"
	"testing"
)

func TestReadlink(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "a"), 0o755)
	os.WriteFile(filepath.Join(dir, "a/f"), []byte("x"), 0o644)
	os.Symlink("f", filepath.Join(dir, "a/l"))
	os.Symlink("../../outside", filepath.Join(dir, "a/out"))
	os.Symlink("a", filepath.Join(dir, "via"))
	os.Symlink("..", filepath.Join(dir, "up"))
	r, err := Open(dir, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for rel, want := range map[string]string{"a/l": "f", "a/out": "../../outside", "via": "a", "via/l": "f"} {
		if got, err := r.Readlink(rel); err != nil || got != want {
			t.Errorf("Readlink(%s) = %q, %v; want %q", rel, got, err, want)
		}
	}
	for rel, code := range map[string]Code{"a/f": CodeNotRegular, "a": CodeNotRegular, "missing": CodeNotFound, "up/x": CodeEscape, "../x": CodeEscape} {
		if _, err := r.Readlink(rel); CodeOf(err) != code {
			t.Errorf("Readlink(%s): %v, want %s", rel, err, code)
		}
	}
}
