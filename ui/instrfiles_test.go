package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/trust/instructions"

	"github.com/charmbracelet/x/ansi"
)

// The preview says which directories y creates, and an instruction's
// Overview lists every file it is active in, with a hand-edited copy named as such.

func TestPreviewNamesDirectoriesItCreates(t *testing.T) {
	for _, tc := range []struct {
		name, rel string
		want      []string
	}{
		{"file in an existing directory", "AGENTS.md", []string{"The file does not exist yet: y creates it."}},
		{"a missing directory (as ~/.codex)", ".codex/AGENTS.md", []string{"The directory", ".codex does not exist: y creates it"}},
		{"two missing directories", "a/b/AGENTS.md", []string{"2 directories do not exist", "/a\n", "/a/b\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			target := filepath.Join(root, tc.rel)
			m := newTestModel(t, fixturePackages(), 160, 48)
			selectRef(t, m, instrRef)
			openPreview(t, m, target)
			wantShown(t, "preview", ansi.Strip(m.prompt().body), tc.want...)
			// What the preview said is what y does.
			press(t, m, "y")
			if _, err := os.Stat(target); err != nil {
				t.Fatalf("y did not write %s: %v", target, err)
			}
			for dir := filepath.Dir(target); dir != root; dir = filepath.Dir(dir) {
				if st, err := os.Stat(dir); err != nil || st.Mode().Perm() != instructions.DirMode {
					t.Fatalf("%s: %v %v", dir, st, err)
				}
			}
		})
	}
	// An existing file creates nothing and says nothing about directories.
	target := filepath.Join(t.TempDir(), "AGENTS.md")
	writeFile(t, target, "# Mine\n")
	m := newTestModel(t, fixturePackages(), 160, 48)
	selectRef(t, m, instrRef)
	askTarget(t, m, target)
	if body := ansi.Strip(m.prompt().body); strings.Contains(body, "creates") || strings.Contains(body, "does not exist") {
		t.Fatalf("preview of an existing file talks of creating:\n%s", body)
	}
	// A file where a directory would be: the preview says the write cannot happen.
	blocker := filepath.Join(t.TempDir(), "file")
	writeFile(t, blocker, "x")
	m = newTestModel(t, fixturePackages(), 160, 48)
	selectRef(t, m, instrRef)
	askTarget(t, m, filepath.Join(blocker, "sub", "AGENTS.md"))
	if m.prompt() == nil {
		t.Fatal("prompt closed")
	}
	if v := screen(m); !strings.Contains(v, "not a directory") {
		t.Fatalf("a file in the way is not reported:\n%s", v)
	}
}

// overviewOf is the selection's Overview text.
func overviewOf(t *testing.T, m *Model) string {
	t.Helper()
	press(t, m, "1")
	b := &textBuilder{s: &m.styles}
	m.detail.overview(b)
	return ansi.Strip(b.String())
}

func TestOverviewListsActiveFiles(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 160, 48)
	selectRef(t, m, instrRef)
	if v := overviewOf(t, m); !strings.Contains(v, "Active in: no file") {
		t.Fatalf("overview before any activation:\n%s", v)
	}
	dir := t.TempDir()
	one, two := filepath.Join(dir, "one", "AGENTS.md"), filepath.Join(dir, "CLAUDE.md")
	for _, target := range []string{one, two} {
		askTarget(t, m, target)
		press(t, m, "y")
		if m.prompt() != nil || m.flashIsErr {
			t.Fatalf("activation in %s failed: %s", target, m.flash)
		}
	}
	v := overviewOf(t, m)
	wantShown(t, "overview", v, "Active in: 2 files", one, two, "✓ as vouch wrote it")
	if strings.Contains(v, "edited by hand") {
		t.Fatalf("nothing was edited yet:\n%s", v)
	}
	// Edit one copy by hand: after R (files are read with the ledger) the Overview says so
	// for that file only, as `vouch instructions list` does.
	editByHand(t, two, "Always ask", "Never ask")
	m.opts.Packages = fixturePackages() // a reload reads the ledger and the files again
	run(t, m, m.loadCmd())
	selectRef(t, m, instrRef)
	v = overviewOf(t, m)
	if strings.Count(v, "edited by hand") != 1 || strings.Count(v, "✓ as vouch wrote it") != 1 {
		t.Fatalf("one copy edited by hand, one untouched:\n%s", v)
	}
	i, j := strings.Index(v, two), strings.Index(v, "edited by hand")
	if i < 0 || j < i {
		t.Fatalf("the edited state is not under the edited file:\n%s", v)
	}
	// The same list as the command's own function gives.
	tr := m.trust.t
	ds, _ := tr.Decisions()
	list := instructions.ListInForce(tr.Home(), ds)
	if len(list) != 2 || len(m.data.files[instrRef]) != 2 {
		t.Fatalf("ListInForce %d, console %d", len(list), len(m.data.files[instrRef]))
	}
	for k := range list {
		if list[k] != m.data.files[instrRef][k] {
			t.Fatalf("console %+v, list %+v", m.data.files[instrRef][k], list[k])
		}
	}
}
