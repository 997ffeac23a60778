package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
	"vouch/model"

	tea "charm.land/bubbletea/v2"
)

// loadedCopy loads a copy of the Dalo example from disk into a console of w by h cells, so
// R has something to read again.
func loadedCopy(t *testing.T, w, h int) (*Model, string) {
	t.Helper()
	src := filepath.Join(t.TempDir(), "design-review")
	testtree.Copy(t, daloExample, src)
	return diskModel(t, w, h, src), src
}

// editTool appends line to the tool's entry file in the copy at src.
func editTool(t *testing.T, src, line string) {
	t.Helper()
	appendFile(t, filepath.Join(src, "plugins", "design-review", "context.mjs"), line)
}

const exampleTool = "design-review#tool:context"

// R, then a before the reload lands, then y. The dialog was explained from the
// old packages; the reload marks it stale, and y records nothing.
func TestReloadMarksOpenDialogStale(t *testing.T) {
	m, src := loadedCopy(t, 110, 40)
	selectRef(t, m, exampleTool)
	editTool(t, src, "// edited while the dialog was open\n")
	_, reload := m.Update(keyMsg("R")) // the reload is under way, not yet landed
	press(t, m, "a")
	if m.dialog() == nil || m.dialog().stale {
		t.Fatalf("a did not open a fresh dialog: %+v", m.dialog())
	}
	run(t, m, reload)
	if m.dialog() == nil || !m.dialog().stale {
		t.Fatal("the reload did not mark the open dialog stale")
	}
	if !strings.Contains(screen(m), "The sources were reloaded while this dialog was open") {
		t.Errorf("the stale dialog does not say so:\n%s", screen(m))
	}
	if m.keys.Confirm.Enabled() {
		t.Error("y is enabled on a stale dialog")
	}
	press(t, m, "y")
	if got := ledgerAuth(t, m, exampleTool); got != model.Unreviewed {
		t.Fatalf("y on a stale dialog recorded %s", got)
	}
	if !strings.Contains(m.flash, "Nothing recorded") {
		t.Errorf("flash after y on a stale dialog: %q", m.flash)
	}
	press(t, m, "esc", "a")
	if m.dialog() == nil || m.dialog().stale || !strings.Contains(m.dialog().entries[0].digest, "sha256:") {
		t.Fatal("a after the reload did not open a fresh dialog")
	}
	press(t, m, "y")
	if got := ledgerAuth(t, m, exampleTool); got != model.Approved {
		t.Fatalf("after the reload a, y recorded %s", got)
	}
}

// The explanation is computed in a command: if a reload replaces the packages before it
// comes back, no dialog opens on data no longer shown (and nothing indexes past the end).
func TestExplainOvertakenByReload(t *testing.T) {
	m, src := loadedCopy(t, 110, 40)
	selectRef(t, m, exampleTool)
	_, explain := m.Update(keyMsg("a"))
	editTool(t, src, "// edited while the dialog was open\n")
	_, reload := m.Update(keyMsg("R"))
	run(t, m, reload)
	run(t, m, explain)
	if m.dialog() != nil {
		t.Fatal("a dialog opened from packages a reload replaced")
	}
	if got := ledgerAuth(t, m, exampleTool); got != model.Unreviewed {
		t.Fatalf("recorded %s", got)
	}
}

// The component changed after the dialog showed it: trust refuses the digest mismatch
// and the console says nothing was recorded.
func TestDigestMismatchRefused(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 100, 40)
	openApproval(t, m, toolRef)
	_, c, _, _ := m.selection()
	c.Contract.Fields = append(c.Contract.Fields, model.Field{Key: "env", Value: "X=1"})
	press(t, m, "y")
	if got := ledgerAuth(t, m, toolRef); got == model.Approved {
		t.Fatal("an approval of a digest the dialog did not show was recorded")
	}
	if !strings.Contains(m.flash, "Nothing recorded") || !strings.Contains(m.flash, "was shown at") {
		t.Errorf("flash: %q", m.flash)
	}
}

// Below the size floor no action key does anything, whatever was open.
func TestTooSmallIgnoresActionKeys(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 100, 40)
	selectRef(t, m, toolRef)
	m.Update(tea.WindowSizeMsg{Width: 40, Height: 10})
	if !strings.Contains(screen(m), "Terminal too small") {
		t.Fatalf("not the too-small view:\n%s", screen(m))
	}
	press(t, m, "a", "y", "A", "y", "x", "y", "i", "f", "j", "R", "/")
	if m.dialog() != nil || m.prompt() != nil || m.fileView() != nil || m.tree.editing || m.busy {
		t.Fatal("a key acted while the too-small view showed")
	}
	if got := ledgerAuth(t, m, toolRef); got != model.Unreviewed {
		t.Fatalf("recorded %s below the floor", got)
	}
	if _, c, _, _ := m.selection(); c == nil || m.data.pkgs[0].Ref(c) != toolRef {
		t.Fatal("j moved the selection below the floor")
	}
	// A dialog open when the window shrinks: y does nothing until it is seen again.
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
	press(t, m, "a")
	m.Update(tea.WindowSizeMsg{Width: 50, Height: 12})
	press(t, m, "y")
	if got := ledgerAuth(t, m, toolRef); got != model.Unreviewed {
		t.Fatalf("y recorded %s while the dialog was hidden by the too-small view", got)
	}
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
	if m.dialog() == nil {
		t.Fatal("the dialog was lost")
	}
	press(t, m, "y")
	if got := ledgerAuth(t, m, toolRef); got != model.Approved {
		t.Fatalf("y after enlarging recorded %s", got)
	}
	m.Update(keyMsg("q"))
	m.Update(tea.WindowSizeMsg{Width: 40, Height: 10})
	if _, cmd := m.Update(keyMsg("q")); cmd == nil {
		t.Fatal("q does not quit below the floor")
	}
}

// Two copies of one package: rows and dialogs show where each lies, and a
// decision refreshes every row it affects (identical bytes: approving one copy's tool
// approves the other's digest too).
func TestCopiesShareNameShowLocationAndRefresh(t *testing.T) {
	a := fixturePackages()[0]
	b := fixturePackages()[0]
	b.Root = "/src/elsewhere/design-review"
	m := newTestModel(t, []*model.Package{a, b}, 140, 50)
	v := screen(m)
	for _, want := range []string{"dalo/ ", "elsewhere/ "} {
		if !strings.Contains(v, want) {
			t.Errorf("the tree does not show the location %s:\n%s", want, v)
		}
	}
	selectRef(t, m, toolRef) // the first copy's tool
	press(t, m, "a")
	if !strings.Contains(screen(m), "2 packages in these sources are named design-review") || !strings.Contains(screen(m), "Location: /src/examples/dalo/design-review") {
		t.Errorf("the dialog does not say which copy:\n%s", screen(m))
	}
	press(t, m, "y")
	tb := b.Component(model.KindTool, "review-context")
	if got := authOf(m.data.statusOf(b, tb)); got != model.Approved {
		t.Fatalf("the other copy's row is %s after the decision, want approved without R", got)
	}
	// Revoking through the second copy takes both down.
	press(t, m, "G")
	for i := 0; i < 10; i++ {
		if p, c, _, _ := m.selection(); p == b && c == tb {
			break
		}
		press(t, m, "k")
	}
	press(t, m, "x", "y")
	if got := authOf(m.data.statusOf(a, a.Component(model.KindTool, "review-context"))); got != model.Revoked {
		t.Fatalf("the first copy's row is %s after revoking the second, want revoked", got)
	}
}

// The instruction prompt carries (root, ref, digest); a reload that lands while
// it shows a preview marks it stale, and y writes nothing.
func TestReloadMarksInstructionPromptStale(t *testing.T) {
	m, _ := loadedCopy(t, 110, 40)
	target := filepath.Join(t.TempDir(), "AGENTS.md")
	selectRef(t, m, "design-review#instruction:design-context")
	_, reload := m.Update(keyMsg("R"))
	openPreview(t, m, target)
	if !strings.Contains(screen(m), "Location: ") || m.prompt().digest == "" {
		t.Errorf("the prompt does not carry its location and digest:\n%s", screen(m))
	}
	run(t, m, reload)
	if m.prompt() == nil || !m.prompt().stale || m.keys.Confirm.Enabled() {
		t.Fatal("the reload did not mark the prompt stale")
	}
	press(t, m, "y")
	if _, err := os.Stat(target); err == nil {
		t.Fatal("y on a stale prompt wrote the file")
	}
	if got := ledgerAuth(t, m, "design-review#instruction:design-context"); got == model.Approved {
		t.Fatal("y on a stale prompt recorded an approval")
	}
	if !strings.Contains(screen(m), "reloaded while this was open") {
		t.Errorf("the stale prompt does not say so:\n%s", screen(m))
	}
	press(t, m, "esc")
	if m.prompt() != nil {
		t.Fatal("esc did not close the stale prompt")
	}
}
