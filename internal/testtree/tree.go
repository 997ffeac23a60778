//go:build unix

package testtree

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Make builds a tree in a fresh temporary folder and returns the folder. Keys and values
// are WriteFiles' (a slash path and the file's text, a "#!" script executable, a key ending
// in "/" an empty folder), and two values stand for what a file cannot hold: "->target" a
// symbolic link to target (where "$ROOT" stands for the folder's own path, for absolute
// links that stay inside), and "<fifo>" a named pipe (made by Fifo, so a system without
// them skips the test). Parent folders are made as needed; any other failure ends the test.
func Make(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	plain := map[string]string{}
	for rel, body := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		target, link := strings.CutPrefix(body, "->")
		if !link && body != "<fifo>" {
			plain[rel] = body
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if !link {
			Fifo(t, p)
		} else if err := os.Symlink(strings.ReplaceAll(target, "$ROOT", root), p); err != nil {
			t.Fatal(err)
		}
	}
	WriteFiles(t, root, plain)
	return root
}
