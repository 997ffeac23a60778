package testtree

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// WriteFiles writes a package a test builds in place: each key of files is a slash path
// under root, its value the file's text. Parent folders are made first; a body starting
// with "#!" is a script and is written executable (0755), any other one 0644. A key
// ending in "/" is an empty folder (its value is not used). A failure ends the test.
func WriteFiles(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for rel, body := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if strings.HasSuffix(rel, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		mode := os.FileMode(0o644)
		if strings.HasPrefix(body, "#!") {
			mode = 0o755
		}
		WriteFile(t, p, body, mode)
	}
}

// WriteFile writes body to path with mode, making its parent folders first. A failure
// ends the test.
func WriteFile(t testing.TB, path, body string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
}

// ReadFile is the text of the file at path; a failure ends the test.
func ReadFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Replace edits the file at path in place, replacing the first old in it with new. The
// test fails when the file does not hold old, so an edit that changes nothing cannot pass
// for one that did. The file keeps its permission bits.
func Replace(t testing.TB, path, old, new string) {
	t.Helper()
	text := ReadFile(t, path)
	if !strings.Contains(text, old) {
		t.Fatalf("%s does not contain %q", path, old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(text, old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}
