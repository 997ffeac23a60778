package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/spf13/cobra/doc"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite docs/man from the command tree")

// TestManPagesCurrent keeps docs/man in step with the commands: the pages are generated
// from the same cobra tree the binary runs, and a flag or help text changed without
// regenerating them fails here. Regenerate with:
//
//	go test ./cmd/vouch -run TestManPagesCurrent -update-docs
func TestManPagesCurrent(t *testing.T) {
	tmp := t.TempDir()
	a := &app{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
	root := a.rootCommand()
	root.DisableAutoGenTag = true
	// A fixed date: the pages change only when the commands do.
	date := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	header := &doc.GenManHeader{Title: "VOUCH", Section: "1", Source: "vouch", Manual: "vouch manual", Date: &date}
	if err := doc.GenManTree(root, header, tmp); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join("..", "..", "docs", "man")
	if *updateDocs {
		if err := os.RemoveAll(want); err != nil {
			t.Fatal(err)
		}
		if err := os.CopyFS(want, os.DirFS(tmp)); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, _ := filepath.Glob(filepath.Join(tmp, "*.1"))
	have, _ := filepath.Glob(filepath.Join(want, "*.1"))
	if len(got) == 0 {
		t.Fatal("no man pages generated")
	}
	if len(got) != len(have) {
		t.Errorf("docs/man has %d pages, the commands give %d: run go test ./cmd/vouch -run TestManPagesCurrent -update-docs", len(have), len(got))
	}
	for _, g := range got {
		gen, _ := os.ReadFile(g)
		cur, err := os.ReadFile(filepath.Join(want, filepath.Base(g)))
		if err != nil || !bytes.Equal(gen, cur) {
			t.Errorf("docs/man/%s is not current: run go test ./cmd/vouch -run TestManPagesCurrent -update-docs", filepath.Base(g))
		}
	}
}
