package testtree

import (
	"os"
	"path/filepath"
	"testing"
)

// sampleFiles is a small package tree for these tests: a file at the top, a script, and
// a file three folders down.
var sampleFiles = map[string]string{
	"top.txt":         "top\n",
	"bin/run":         "#!/bin/sh\nexit 0\n",
	"a/b/c/deep.json": "{}",
}

func TestWriteFilesAndReadFile(t *testing.T) {
	root := t.TempDir()
	WriteFiles(t, root, sampleFiles)
	// A second call adds to the tree: an empty file and two empty folders.
	WriteFiles(t, root, map[string]string{"empty": "", "folder/": "", "deep/folder/": "ignored"})
	for _, dir := range []string{"folder", "deep/folder"} {
		entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
		if err != nil || len(entries) != 0 {
			t.Errorf("%s/: %d entries, %v; want an empty folder", dir, len(entries), err)
		}
	}
	for _, tc := range []struct {
		rel, body string
		mode      os.FileMode
	}{
		{"top.txt", sampleFiles["top.txt"], 0o644},
		{"bin/run", sampleFiles["bin/run"], 0o755},
		{"a/b/c/deep.json", sampleFiles["a/b/c/deep.json"], 0o644},
		{"empty", "", 0o644},
	} {
		p := filepath.Join(root, filepath.FromSlash(tc.rel))
		if got := ReadFile(t, p); got != tc.body {
			t.Errorf("%s: %q, want %q", tc.rel, got, tc.body)
		}
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		// The owner's bits survive any umask a test runs under; the others may not.
		if st.Mode().Perm()&0o700 != tc.mode&0o700 {
			t.Errorf("%s: mode %v, want the owner's bits of %v", tc.rel, st.Mode().Perm(), tc.mode)
		}
	}
}

func TestReplace(t *testing.T) {
	for _, tc := range []struct {
		name, body, old, new, want string
		mode                       os.FileMode
		fails                      bool
	}{
		{name: "first of two", body: "exit 0\nexit 0\n", old: "exit 0", new: "exit 2", want: "exit 2\nexit 0\n", mode: 0o644},
		{name: "script stays executable", body: "#!/bin/sh\nexit 0\n", old: "exit 0", new: "exit 1", want: "#!/bin/sh\nexit 1\n", mode: 0o755},
		{name: "to nothing", body: "abc", old: "b", new: "", want: "ac", mode: 0o600},
		{name: "missing text fails and leaves the file", body: "abc", old: "x", new: "y", want: "abc", mode: 0o644, fails: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "f")
			if err := os.WriteFile(p, []byte(tc.body), tc.mode); err != nil {
				t.Fatal(err)
			}
			if failed := Fails(func(tb testing.TB) { Replace(tb, p, tc.old, tc.new) }); failed != tc.fails {
				t.Fatalf("Replace failed the test: %v, want %v", failed, tc.fails)
			}
			if got := ReadFile(t, p); got != tc.want {
				t.Errorf("file holds %q, want %q", got, tc.want)
			}
			if st, err := os.Stat(p); err != nil || st.Mode().Perm()&0o700 != tc.mode&0o700 {
				t.Errorf("stat %v, want mode with the owner's bits of %v", err, tc.mode)
			}
		})
	}
}

func TestReadFileMissingFails(t *testing.T) {
	p := filepath.Join(t.TempDir(), "none")
	if !Fails(func(tb testing.TB) { ReadFile(tb, p) }) {
		t.Fatal("ReadFile of a missing file did not fail the test")
	}
}
