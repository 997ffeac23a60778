package instructions

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"vouch/internal/goldenfile"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

const (
	testPkg   = "demo"
	testInstr = "style"
	newBody   = "Use tabs.\nKeep lines short.\n"
	lastBody  = "Use tabs.\n" // what vouch wrote before, for the blocks already in the corpus
)

// missingTarget is a corpus entry that has no file: apply creates it.
const missingTarget = "missing.md"

func corpus(t *testing.T) []string {
	t.Helper()
	ents, err := os.ReadDir("testdata/targets")
	if err != nil {
		t.Fatal(err)
	}
	names := []string{missingTarget}
	for _, e := range ents {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

// stage copies a corpus file into a fresh directory and returns its Target.
func stage(t *testing.T, name string) (Target, []byte, bool) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", name)
	data, err := os.ReadFile(filepath.Join("testdata/targets", name))
	exists := err == nil
	if exists {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return Target{Spec: path, Path: path, AppliesTo: "test"}, data, exists
}

func describe(w *strings.Builder, p *Preview, err error, commitErr error) {
	var me *MarkerError
	switch {
	case errors.As(err, &me):
		fmt.Fprintln(w, "refused: damaged markers")
		for _, pr := range me.Problems {
			fmt.Fprintf(w, "  %s line %d (other %d) %s %s\n", pr.Kind, pr.Line, pr.OtherLine, pr.Manager, pr.ID)
		}
		return
	case err != nil:
		fmt.Fprintf(w, "refused: %v\n", err)
		return
	}
	fmt.Fprintf(w, "exists=%v present=%v nochange=%v eol=%q\n", p.Exists, p.Present, p.NoChange, p.EOL)
	for _, b := range p.Foreign {
		fmt.Fprintf(w, "foreign: %s %s lines %d-%d\n", b.Manager, b.ID, b.StartLine, b.EndLine)
	}
	for _, b := range p.Owned {
		fmt.Fprintf(w, "other vouch block: %s lines %d-%d\n", b.ID, b.StartLine, b.EndLine)
	}
	if c := p.Conflict; c != nil {
		fmt.Fprintf(w, "conflict: last=%q current=%q new=%q\n", c.LastWritten, c.Current, c.New)
	}
	if commitErr != nil {
		fmt.Fprintf(w, "commit without overwrite: %v\n", errors.Unwrap(commitErr))
	}
	w.WriteString(p.Diff)
}

// run performs one action on a staged copy and returns the file's bytes afterwards
// (nil when refused) and the report.
func runAction(t *testing.T, name, action string) ([]byte, string) {
	t.Helper()
	tg, _, _ := stage(t, name)
	id := BlockID(testPkg, testInstr)
	var p *Preview
	var err error
	if action == ActionApply {
		p, err = PreviewApply(tg, id, newBody, lastBody)
	} else {
		p, err = PreviewRemove(tg, id, lastBody)
	}
	var w strings.Builder
	if err != nil {
		describe(&w, nil, err, nil)
		return nil, w.String()
	}
	var cerr error
	if p.Conflict != nil {
		cerr = Commit(p, false)
		if !errors.Is(cerr, ErrConflict) {
			t.Errorf("%s %s: Commit without overwrite = %v, want ErrConflict", name, action, cerr)
		}
	}
	describe(&w, p, nil, cerr)
	if err := Commit(p, true); err != nil {
		t.Fatalf("%s %s: Commit: %v", name, action, err)
	}
	got, err := os.ReadFile(tg.Path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, w.String() + "(no file)\n"
	}
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, p.After) {
		t.Errorf("%s %s: the file holds %q, the preview promised %q", name, action, got, p.After)
	}
	return got, strings.ReplaceAll(w.String(), tg.Path, "TARGET")
}

func checkGolden(t *testing.T, path string, got []byte, present bool) {
	t.Helper()
	if present {
		goldenfile.Check(t, path, got, *update, "run go test -update")
		return
	}
	if *update {
		os.Remove(path)
		return
	}
	if _, err := os.ReadFile(path); err == nil {
		t.Errorf("%s exists but the action was refused", path)
	}
}

func TestGoldenCorpus(t *testing.T) {
	names := corpus(t)
	if len(names) < 30 {
		t.Fatalf("corpus has %d targets, want at least 30", len(names))
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			var report strings.Builder
			for _, action := range []string{ActionApply, ActionRemove} {
				got, rep := runAction(t, name, action)
				fmt.Fprintf(&report, "== %s\n%s", action, rep)
				checkGolden(t, filepath.Join("testdata/golden", name+"."+action), got, got != nil)
			}
			checkGolden(t, filepath.Join("testdata/golden", name+".txt"), []byte(report.String()), true)
		})
	}
}

// TestCorpusRoundTrip: for every corpus file without the block, apply then remove
// returns the original bytes; for files with a well-formed block, remove then apply of
// the same text restores it.
func TestCorpusRoundTrip(t *testing.T) {
	id := BlockID(testPkg, testInstr)
	for _, name := range corpus(t) {
		tg, orig, exists := stage(t, name)
		blocks, problems := Scan(orig)
		if len(problems) > 0 {
			continue
		}
		if _, had := findBlock(blocks, id); had {
			continue
		}
		p, err := PreviewApply(tg, id, newBody, "")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := Commit(p, false); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		r, err := PreviewRemove(tg, id, newBody)
		if err != nil || r.Conflict != nil {
			t.Fatalf("%s: remove preview: %v %+v", name, err, r.Conflict)
		}
		if err := Commit(r, false); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := os.ReadFile(tg.Path)
		if err != nil {
			t.Fatal(err)
		}
		if !exists {
			orig = []byte{} // a created file stays, empty
		}
		if !bytes.Equal(got, orig) {
			t.Errorf("%s: apply+remove gave %q, want %q", name, got, orig)
		}
	}
}
