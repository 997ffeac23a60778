package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
	"vouch/model"
	"vouch/trust"
	"vouch/trust/instructions"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// askTarget answers i with spec and enter, as a person names the file to write into.
func askTarget(t *testing.T, m *Model, spec string) {
	t.Helper()
	press(t, m, "i")
	typeText(t, m, spec)
	press(t, m, "enter")
}

// openPreview names spec at the i prompt and requires the preview of what y would write.
func openPreview(t *testing.T, m *Model, spec string) {
	t.Helper()
	askTarget(t, m, spec)
	if m.prompt() == nil || m.prompt().preview == nil {
		t.Fatalf("no preview for %s: %+v\n%s", spec, m.prompt(), screen(m))
	}
}

// activate writes the selected instruction into target the way a person does: i, the
// target, enter for the preview, y.
func activate(t *testing.T, m *Model, spec string) {
	t.Helper()
	selectRef(t, m, instrRef)
	openPreview(t, m, spec)
	press(t, m, "y")
	if m.prompt() != nil || m.flashIsErr {
		t.Fatalf("activation in %s did not complete: %s", spec, m.flash)
	}
}

// writeFile writes s to path (mode 0644), making its parent folders first, as a person
// creating the file would.
func writeFile(t *testing.T, path, s string) {
	t.Helper()
	testtree.WriteFile(t, path, s, 0o644)
}

// appendFile adds s to the end of an existing file, as an editor saving a change would.
func appendFile(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.WriteString(s)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
}

// decisions reads the ledger back from disk, newest first.
func decisions(t *testing.T, m *Model) []trust.Decision {
	t.Helper()
	tr, err := trust.Open(trust.Options{Home: m.opts.Home})
	if err != nil {
		t.Fatal(err)
	}
	ds, err := tr.Decisions()
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

func activeTargets(t *testing.T, m *Model, ref string) []string {
	t.Helper()
	var out []string
	for _, a := range instructions.Activations(decisions(t, m)) {
		if a.Ref == ref {
			out = append(out, a.Target)
		}
	}
	return out
}

const original = "# Mine\n\nKeep this.\n"

// activeInFile activates the instruction in a new AGENTS.md that held original and
// returns the file's path.
func activeInFile(t *testing.T, m *Model) string {
	t.Helper()
	target := filepath.Join(t.TempDir(), "AGENTS.md")
	writeFile(t, target, original)
	activate(t, m, target)
	return target
}

// previewRemoval activates the instruction in a new file and presses x, which must
// preview the removal; it returns the file's path and what vouch wrote into it.
func previewRemoval(t *testing.T, m *Model) (target, written string) {
	t.Helper()
	target = activeInFile(t, m)
	written = testtree.ReadFile(t, target)
	press(t, m, "x")
	if m.prompt() == nil || m.prompt().preview == nil {
		t.Fatalf("x did not preview the removal: %+v", m.prompt())
	}
	return target, written
}

// editByHand puts replacement for the first old in the file at path, as a person editing
// the block vouch wrote would, and returns what the file then holds. A file without old
// fails the test: an edit that changed nothing would pass for one that did.
func editByHand(t *testing.T, path, old, replacement string) string {
	t.Helper()
	testtree.Replace(t, path, old, replacement)
	return testtree.ReadFile(t, path)
}

func TestRemoveInstruction(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 100, 30)
	target := filepath.Join(t.TempDir(), "AGENTS.md")
	writeFile(t, target, original)

	selectRef(t, m, instrRef)
	if applies(m, "revoke") {
		t.Fatal("x enabled on an instruction active nowhere and never approved")
	}
	press(t, m, "x")
	if m.prompt() != nil || m.dialog() != nil || !strings.Contains(m.flash, "active in no file and was never approved") {
		t.Fatalf("disabled x does not say why: prompt %v dialog %v flash %q", m.prompt(), m.dialog(), m.flash)
	}

	activate(t, m, target)
	written := testtree.ReadFile(t, target)
	if !strings.Contains(screen(m), "x remove instruction") || !applies(m, "revoke") {
		t.Fatalf("help does not offer x as removal:\n%s", screen(m))
	}

	press(t, m, "x")
	if m.dialog() != nil {
		t.Fatal("x on an active instruction opened the revoke dialog, not the removal")
	}
	if m.prompt() == nil || m.prompt().preview == nil || m.prompt().action != instructions.ActionRemove {
		t.Fatalf("x did not preview the removal: %+v", m.prompt())
	}
	v := screen(m)
	wantShown(t, "removal preview", v, "Remove "+instrRef, target, "- <!-- vouch:start", "- Always ask for the design doc first.", "y write this change", "(enter does nothing)")
	if strings.Contains(v, "backspace") {
		t.Error("one target, yet the preview offers another")
	}
	press(t, m, "enter", "enter", "space", "q", "o")
	if m.prompt() == nil || testtree.ReadFile(t, target) != written {
		t.Fatal("enter, space, q or o closed the preview or wrote")
	}
	if got := activeTargets(t, m, instrRef); len(got) != 1 {
		t.Fatalf("ledger changed before y: %v", got)
	}

	press(t, m, "y")
	if got := testtree.ReadFile(t, target); got != original {
		t.Fatalf("after removal the file is %q, want %q", got, original)
	}
	if m.prompt() != nil || m.flashIsErr || !strings.Contains(m.flash, "Removed "+instrRef) {
		t.Fatalf("removal did not complete: prompt %v flash %q", m.prompt(), m.flash)
	}
	d := decisions(t, m)[0]
	if d.Action != trust.ActionRevoke || d.Target != target || d.ReviewerKind != trust.ReviewerHuman || d.Component != instrRef {
		t.Fatalf("latest decision %+v, want a human revoke at %s", d, target)
	}
	if got := activeTargets(t, m, instrRef); len(got) != 0 {
		t.Fatalf("still active at %v", got)
	}
	if a := authIn(t, m, instrRef); a != model.Revoked {
		t.Fatalf("tree shows %s after removal, want revoked", a)
	}
	// Active nowhere now: x is disabled again, and says why.
	if applies(m, "revoke") || strings.Contains(screen(m), "remove instruction") {
		t.Fatalf("x still offered after the last removal:\n%s", screen(m))
	}
}

func TestRemoveInstructionCancel(t *testing.T) {
	for _, k := range []string{"n", "N", "esc"} {
		t.Run(k, func(t *testing.T) {
			m := newTestModel(t, fixturePackages(), 100, 30)
			target, written := previewRemoval(t, m)
			press(t, m, k)
			if m.prompt() != nil {
				t.Fatalf("%s did not close the removal", k)
			}
			if testtree.ReadFile(t, target) != written {
				t.Fatal("cancel wrote the file")
			}
			if got := activeTargets(t, m, instrRef); len(got) != 1 {
				t.Fatalf("cancel changed the ledger: %v", got)
			}
			if !strings.Contains(m.flash, "Cancelled: nothing was written.") {
				t.Errorf("flash %q", m.flash)
			}
		})
	}
}

// Active in two files: x lists both, the person picks one, only that one changes.
func TestRemoveInstructionPickTarget(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 100, 30)
	dir := t.TempDir()
	a := filepath.Join(dir, "a", "AGENTS.md")
	b := filepath.Join(dir, "b", "CLAUDE.md")
	activate(t, m, a) // created by the apply
	writeFile(t, b, "Claude notes\r\nmore\r\n")
	activate(t, m, b)
	aBytes := testtree.ReadFile(t, a)

	press(t, m, "x")
	if m.prompt() == nil || !m.prompt().picking || len(m.prompt().targets) != 2 {
		t.Fatalf("x did not offer a choice of two targets: %+v", m.prompt())
	}
	v := screen(m)
	wantShown(t, "picker", v, "Active in 2 files", "1. "+a, "2. "+b, "present: Unchanged")
	if h := ansi.Strip(m.helpView()); !strings.Contains(h, "enter preview removal") || strings.Contains(h, "confirm") {
		t.Errorf("picker help: %q", h)
	}
	bBytes := testtree.ReadFile(t, b)
	press(t, m, "y")
	if m.prompt() == nil || m.prompt().preview != nil || testtree.ReadFile(t, b) != bBytes || testtree.ReadFile(t, a) != aBytes {
		t.Fatal("y in the picker did something")
	}
	press(t, m, "j", "enter")
	if m.prompt() == nil || m.prompt().preview == nil || m.prompt().preview.Target.Path != b {
		t.Fatalf("enter did not preview the chosen target: %+v", m.prompt())
	}
	if !strings.Contains(screen(m), "backspace: other target") {
		t.Error("two targets, yet the preview offers no way back")
	}
	press(t, m, "backspace")
	if !m.prompt().picking || m.prompt().preview != nil {
		t.Fatal("backspace did not go back to the choice")
	}
	press(t, m, "enter", "enter", "y")
	if got := testtree.ReadFile(t, b); got != "Claude notes\r\nmore\r\n" {
		t.Fatalf("b after removal: %q", got)
	}
	if testtree.ReadFile(t, a) != aBytes {
		t.Fatal("removing from b touched a")
	}
	if got := activeTargets(t, m, instrRef); len(got) != 1 || got[0] != a {
		t.Fatalf("active at %v, want only %s", got, a)
	}
	// Still active in a: the approval stands and x still removes.
	if st := authIn(t, m, instrRef); st != model.Approved {
		t.Fatalf("instruction %s while active in a, want approved", st)
	}
	press(t, m, "x")
	if m.prompt() == nil || m.prompt().picking || m.prompt().preview == nil || m.prompt().preview.Target.Path != a {
		t.Fatalf("with one target left x should preview it directly: %+v", m.prompt())
	}
	press(t, m, "y")
	if got := testtree.ReadFile(t, a); got != "" {
		t.Fatalf("a file apply created is empty after removal, got %q", got)
	}
}

// The ledger refuses the revocation: the file gets its block back.
func TestRemoveInstructionLedgerFailureReverts(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 100, 30)
	target, written := previewRemoval(t, m)
	ledger := filepath.Join(m.opts.Home, "ledger.toml")
	appendFile(t, ledger, "\n[[decision\nbroken")
	press(t, m, "y")
	if got := testtree.ReadFile(t, target); got != written {
		t.Fatalf("the file was not restored after the ledger failed: %q", got)
	}
	if !m.flashIsErr || !strings.Contains(m.flash, "Nothing removed") || !strings.Contains(m.flash, "the file was restored") {
		t.Fatalf("flash %q", m.flash)
	}
}

// A block edited by hand shows the three versions and needs o, then y.
func TestOverwriteHandEditedBlock(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 100, 40)
	target := activeInFile(t, m)
	edited := editByHand(t, target, "Always ask for the design doc first.", "Always ask for the design doc first.\nAnd my own rule \x1b]8;;http://x\x07here\u202e.")

	askTarget(t, m, target)
	pr := m.prompt()
	if pr == nil || pr.preview == nil || pr.preview.Conflict == nil {
		t.Fatalf("no conflict for a hand-edited block: %+v", pr)
	}
	v := screen(m)
	wantShown(t, "conflict view", v, "edited by hand", "Last written by vouch", "Now in the file", "vouch would write", "│ And my own rule ␛]8;;http://x␇here⟨U+202E", "o overwrite the hand edits, then y")
	assertNoRawControls(t, "conflict", m.View().Content)
	if m.keys.Confirm.Enabled() || !m.keys.Overwrite.Enabled() {
		t.Fatalf("before o: y enabled %v, o enabled %v", m.keys.Confirm.Enabled(), m.keys.Overwrite.Enabled())
	}
	help := m.helpView()
	if !strings.Contains(help, "overwrite hand edits") || strings.Contains(help, "y confirm") {
		t.Errorf("help before o: %q", help)
	}

	press(t, m, "y", "Y", "enter")
	if testtree.ReadFile(t, target) != edited || m.prompt() == nil {
		t.Fatal("y before o wrote over hand edits")
	}
	if !strings.Contains(m.flash, "press o") {
		t.Errorf("y before o does not say what to do: %q", m.flash)
	}
	press(t, m, "o")
	if !m.prompt().overwrite || !m.keys.Confirm.Enabled() || m.keys.Overwrite.Enabled() {
		t.Fatal("o did not arm the overwrite")
	}
	if !strings.Contains(screen(m), "y overwrite and write") {
		t.Errorf("armed view:\n%s", screen(m))
	}
	press(t, m, "enter")
	if testtree.ReadFile(t, target) != edited {
		t.Fatal("enter wrote after o")
	}
	press(t, m, "y")
	got := testtree.ReadFile(t, target)
	if strings.Contains(got, "my own rule") || !strings.Contains(got, "Always ask for the design doc first.") {
		t.Fatalf("overwrite did not replace the edits: %q", got)
	}
	if m.flashIsErr {
		t.Fatalf("overwrite failed: %s", m.flash)
	}
	// The block now holds exactly what vouch wrote: removal has no conflict and restores
	// the original bytes.
	press(t, m, "x")
	if m.prompt() == nil || m.prompt().preview == nil || m.prompt().preview.Conflict != nil {
		t.Fatalf("removal after overwrite: %+v", m.prompt())
	}
	press(t, m, "y")
	if got := testtree.ReadFile(t, target); got != original {
		t.Fatalf("after removal %q, want %q", got, original)
	}
}

// Cancelling an armed overwrite writes nothing; backspace forgets the choice.
func TestOverwriteCancel(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 100, 30)
	target := activeInFile(t, m)
	edited := editByHand(t, target, "first.", "first, always.")
	askTarget(t, m, target)
	press(t, m, "o", "backspace")
	if m.prompt() == nil || m.prompt().preview != nil || m.prompt().overwrite {
		t.Fatal("backspace kept the preview or the overwrite choice")
	}
	press(t, m, "enter")
	if m.prompt().preview == nil || m.prompt().overwrite {
		t.Fatal("a new preview starts armed")
	}
	press(t, m, "o", "n")
	if m.prompt() != nil || testtree.ReadFile(t, target) != edited {
		t.Fatal("n after o did not cancel cleanly")
	}
}

// Removing a hand-edited block loses the edits: it needs o too.
func TestRemoveHandEditedBlock(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 100, 40)
	target := activeInFile(t, m)
	edited := editByHand(t, target, "first.", "first, always.")
	press(t, m, "x")
	if m.prompt() == nil || m.prompt().preview == nil || m.prompt().preview.Conflict == nil {
		t.Fatalf("no conflict: %+v", m.prompt())
	}
	v := screen(m)
	wantShown(t, "removal conflict view", v, "Removing it deletes those edits", "│ Always ask for the design doc first, always.", "After removal", "(no block: it and the edits are gone)")
	press(t, m, "y", "enter")
	if testtree.ReadFile(t, target) != edited {
		t.Fatal("y before o removed hand edits")
	}
	press(t, m, "o", "y")
	if got := testtree.ReadFile(t, target); got != original {
		t.Fatalf("after removal %q, want %q", got, original)
	}
	if d := decisions(t, m)[0]; d.Action != trust.ActionRevoke || d.Target != target {
		t.Fatalf("latest decision %+v", d)
	}
}

// The three versions are clipped to the box: no line wider than the window, and long
// versions end with a count.
func TestConflictVersionsClipped(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 80, 24)
	target := filepath.Join(t.TempDir(), "AGENTS.md")
	activate(t, m, target)
	long := strings.Repeat("wide ", 60)
	var many []string
	for i := 0; i < 30; i++ {
		many = append(many, long)
	}
	editByHand(t, target, "Always ask for the design doc first.", strings.Join(many, "\n"))
	askTarget(t, m, target)
	if m.prompt() == nil || m.prompt().preview == nil || m.prompt().preview.Conflict == nil {
		t.Fatal("no conflict")
	}
	if !strings.Contains(m.prompt().body, "… 18 more lines") {
		t.Errorf("long version not clipped with a count:\n%s", m.prompt().body)
	}
	for _, w := range []int{80, 120} {
		m.Update(tea.WindowSizeMsg{Width: w, Height: 24})
		vw := m.prompt().vp.Width()
		n := 0
		for _, l := range strings.Split(m.prompt().body, "\n") {
			if !strings.HasPrefix(ansi.Strip(l), "│ ") {
				continue
			}
			n++
			if ansi.StringWidth(l) > vw {
				t.Fatalf("width %d: version line %d cells wide in a %d-cell box", w, ansi.StringWidth(l), vw)
			}
		}
		if n < maxVersionLines {
			t.Fatalf("width %d: %d version lines shown", w, n)
		}
	}
}

// The instruction flow's boxes fit every window from the floor up: the help line stays,
// nothing is wider than the window, and the chosen file stays on screen in a long list.
func TestInstructionFlowLayout(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 100, 30)
	dir := t.TempDir()
	var targets []string
	for i := 0; i < 8; i++ {
		p := filepath.Join(dir, strings.Repeat("long-directory-name-", 3)+string(rune('a'+i)), "AGENTS.md")
		activate(t, m, p)
		targets = append(targets, p)
	}
	editByHand(t, targets[0], "first.", "first, always.")

	states := []struct {
		name  string
		keys  func()
		check string
	}{
		{"picker", func() { press(t, m, "x", "j", "j", "j", "j", "j", "j", "j") }, "› 8. "},
		{"removal-conflict", func() { press(t, m, "x", "enter") }, "Now in the file"},
		{"apply-conflict", func() { askTarget(t, m, targets[0]); press(t, m, "o") }, "y overwrite and write"},
		{"apply-input", func() { press(t, m, "i") }, "target>"},
	}
	for _, st := range states {
		m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
		st.keys()
		if m.prompt() == nil {
			t.Fatalf("%s: no prompt", st.name)
		}
		for w := MinWidth; w <= 200; w += 17 {
			for h := MinHeight; h <= 60; h += 6 {
				m.Update(tea.WindowSizeMsg{Width: w, Height: h})
				v := m.View().Content
				lines := strings.Split(v, "\n")
				if len(lines) != h {
					t.Fatalf("%s %dx%d: %d lines", st.name, w, h, len(lines))
				}
				for i, l := range lines {
					if lw := ansi.StringWidth(l); lw > w {
						t.Fatalf("%s %dx%d: line %d is %d wide", st.name, w, h, i, lw)
					}
				}
				plain := ansi.Strip(v)
				if !strings.Contains(lines[len(lines)-1], "cancel") {
					t.Fatalf("%s %dx%d: help line lost:\n%s", st.name, w, h, plain)
				}
				if st.name != "removal-conflict" && st.name != "apply-conflict" || h >= 30 {
					if !strings.Contains(plain, st.check) {
						t.Fatalf("%s %dx%d: %q not on screen:\n%s", st.name, w, h, st.check, plain)
					}
				}
			}
		}
		press(t, m, "esc")
	}
}

// Damaged markers: the removal refuses with the reason, and nothing can be confirmed.
func TestRemoveInstructionDamagedMarkers(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 100, 30)
	target := activeInFile(t, m)
	damaged := editByHand(t, target, "<!-- vouch:end", "<!-- vouch:end-oops")
	press(t, m, "x")
	if m.prompt() == nil || m.prompt().preview != nil || m.prompt().err == "" {
		t.Fatalf("damaged markers did not stop the removal: %+v", m.prompt())
	}
	if !strings.Contains(screen(m), "esc closes") || m.keys.Confirm.Enabled() {
		t.Errorf("error state:\n%s", screen(m))
	}
	press(t, m, "y", "enter", "o")
	if testtree.ReadFile(t, target) != damaged || m.prompt() == nil {
		t.Fatal("a key other than esc acted on the error state")
	}
	press(t, m, "esc")
	if m.prompt() != nil {
		t.Fatal("esc did not close")
	}
}
