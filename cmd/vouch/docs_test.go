package main

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
	// No Title: each page is titled after its command (VOUCH-CHECK(1)), as man(1) lists it.
	header := &doc.GenManHeader{Section: "1", Source: "vouch", Manual: "vouch manual", Date: &date}
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
		title := strings.ToUpper(strings.TrimSuffix(filepath.Base(g), ".1"))
		if !bytes.Contains(gen, []byte(`.TH "`+title+`" "1"`)) {
			t.Errorf("%s is not titled %s(1)", filepath.Base(g), title)
		}
		cur, err := os.ReadFile(filepath.Join(want, filepath.Base(g)))
		if err != nil || !bytes.Equal(gen, cur) {
			t.Errorf("docs/man/%s is not current: run go test ./cmd/vouch -run TestManPagesCurrent -update-docs", filepath.Base(g))
		}
	}
}

// TestGateBuildLeavesOutConsole: vouch-gate (-tags vouch_gate) links none of the console's
// libraries, whose package initialization is most of the full binary's start-up, and it
// still runs the gate.
func TestGateBuildLeavesOutConsole(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	out, err := exec.Command("go", "list", "-deps", "-tags", "vouch_gate", "vouch/cmd/vouch").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, console := range []string{"charm.land/glamour", "github.com/alecthomas/chroma", "charm.land/bubbletea", "charm.land/lipgloss", "vouch/ui"} {
			if dep == console || strings.HasPrefix(dep, console+"/") {
				if dep != "vouch/ui/display" {
					t.Errorf("the gate build links %s", dep)
				}
			}
		}
	}
	full, err := exec.Command("go", "list", "-deps", "vouch/cmd/vouch").CombinedOutput()
	if err != nil || !strings.Contains(string(full), "github.com/alecthomas/chroma/v2/lexers") {
		t.Fatalf("the full build no longer links chroma's lexers, so this test checks nothing: %v", err)
	}
	bin := buildVouch(t, "vouch_gate")
	home := t.TempDir()
	src := filepath.Join("..", "..", "examples", "dalo", "design-review")
	const ref = "design-review#tool:context"
	run := func(args ...string) int {
		cmd := exec.Command(bin, append([]string{"--home", home}, args...)...)
		cmd.Run()
		return cmd.ProcessState.ExitCode()
	}
	if c := run("check", src, ref); c != 1 {
		t.Fatalf("gate check of an unreviewed tool: exit %d", c)
	}
	if c := run("approve", "--yes", src, ref); c != 0 {
		t.Fatalf("gate approve: exit %d", c)
	}
	if c := run("check", src, ref); c != 0 {
		t.Fatalf("gate check after approval: exit %d", c)
	}
}
