//go:build unix

package testtree

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Make builds files in a fresh temporary folder and returns the folder. A key is a slash
// path inside it; its value says what stands there: "->target" a symbolic link to target
// (where "$ROOT" stands for the folder's own path, for absolute links that stay inside),
// "<dir>" a folder, "<fifo>" a named pipe (made by Fifo, so a system without them skips
// the test), and anything else a file (mode 0644) holding that text. Parent folders are
// made as needed; any other failure ends the test.
func Make(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		switch {
		case strings.HasPrefix(c, "->"):
			err = os.Symlink(strings.ReplaceAll(strings.TrimPrefix(c, "->"), "$ROOT", root), full)
		case c == "<dir>":
			err = os.MkdirAll(full, 0o755)
		case c == "<fifo>":
			Fifo(t, full)
		default:
			err = os.WriteFile(full, []byte(c), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return root
}
