package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
	"vouch/model"
)

const instrRef = "design-review#instruction:design-context"

func typeText(t *testing.T, m *Model, s string) {
	t.Helper()
	for _, r := range s {
		press(t, m, string(r))
	}
}

func TestActivateInstruction(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 100, 30)
	target := filepath.Join(t.TempDir(), "AGENTS.md")
	writeFile(t, target, "# Mine\n\nKeep this.\n")
	selectRef(t, m, toolRef)
	if applies(m, "instructions") {
		t.Error("i enabled on a tool")
	}
	selectRef(t, m, instrRef)
	if !applies(m, "instructions") || !strings.Contains(screen(m), "i activate instruction") {
		t.Fatal("i not offered on an instruction")
	}
	press(t, m, "i")
	if m.prompt() == nil {
		t.Fatal("i did not ask for a target")
	}
	// Keys are text here: a, y and q must not approve, confirm or quit.
	typeText(t, m, target)
	press(t, m, "enter")
	if m.prompt() == nil || m.prompt().preview == nil {
		t.Fatalf("enter did not show a preview: %+v", m.prompt())
	}
	v := screen(m)
	wantShown(t, "preview", v, "+ <!-- vouch:start", "+ Always ask for the design doc first.", "y write this change")
	press(t, m, "enter")
	if got := testtree.ReadFile(t, target); got != "# Mine\n\nKeep this.\n" {
		t.Fatalf("enter wrote the file: %q", got)
	}
	press(t, m, "y")
	got := testtree.ReadFile(t, target)
	if !strings.HasPrefix(got, "# Mine\n\nKeep this.\n\n<!-- vouch:start") || !strings.Contains(got, "Always ask for the design doc first.") {
		t.Fatalf("file after y: %q", got)
	}
	if m.prompt() != nil {
		t.Fatal("prompt still open after y")
	}
	if a := authIn(t, m, instrRef); a != model.Approved {
		t.Fatalf("instruction = %s after activation, want approved", a)
	}
	ds := decisions(t, m)
	if len(ds) == 0 || ds[0].Target != target {
		t.Fatalf("ledger does not record the target: %+v", ds)
	}
}

func TestActivateInstructionCancel(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 100, 30)
	target := filepath.Join(t.TempDir(), "CLAUDE.md")
	selectRef(t, m, instrRef)
	askTarget(t, m, target)
	press(t, m, "n")
	if m.prompt() != nil {
		t.Fatal("n did not close the preview")
	}
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Fatalf("cancel created the target: %v", err)
	}
	press(t, m, "i", "esc")
	if m.prompt() != nil {
		t.Fatal("esc did not close the prompt")
	}
}

func TestActivateInstructionBadTarget(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 100, 30)
	selectRef(t, m, instrRef)
	press(t, m, "i", "enter")
	if m.prompt() == nil || m.prompt().err == "" || m.prompt().preview != nil {
		t.Fatalf("an empty target did not report an error: %+v", m.prompt())
	}
	if !strings.Contains(screen(m), "no instruction target") {
		t.Errorf("error not shown:\n%s", screen(m))
	}
}

// A planted link: the preview and the y line name the destination, and y writes the
// destination and keeps the link. A link retargeted after the preview is not followed.
func TestActivateInstructionThroughSymlink(t *testing.T) {
	root := t.TempDir()
	dest := filepath.Join(root, "dotfiles", "AGENTS.md")
	const orig = "# dotfiles\n"
	writeFile(t, dest, orig)
	link := filepath.Join(root, "repo", "AGENTS.md")
	os.MkdirAll(filepath.Dir(link), 0o755)
	if err := os.Symlink(dest, link); err != nil {
		t.Skip(err)
	}
	open := func(m *Model) {
		t.Helper()
		selectRef(t, m, instrRef)
		openPreview(t, m, link)
	}
	m := newTestModel(t, fixturePackages(), 160, 40)
	open(m)
	v := screen(m)
	wantShown(t, "preview", v, "Writes to: "+dest, "is a symbolic link", "y write "+dest)
	// Retargeted after the preview: y writes nothing anywhere.
	other := filepath.Join(root, "other.pth")
	writeFile(t, other, orig)
	os.Remove(link)
	os.Symlink(other, link)
	press(t, m, "y")
	if got := testtree.ReadFile(t, dest); got != orig {
		t.Fatalf("the previewed destination was written after the link moved: %q", got)
	}
	if got := testtree.ReadFile(t, other); got != orig {
		t.Fatalf("the new destination was written: %q", got)
	}
	if !strings.Contains(screen(m), "Nothing activated") {
		t.Errorf("no refusal shown:\n%s", screen(m))
	}
	os.Remove(link)
	os.Symlink(dest, link)

	m = newTestModel(t, fixturePackages(), 160, 40)
	open(m)
	press(t, m, "y")
	got := testtree.ReadFile(t, dest)
	if !strings.HasPrefix(got, orig) || !strings.Contains(got, "Always ask for the design doc first.") {
		t.Fatalf("destination after y: %q", got)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced by a file")
	}
}

// A target inside the package under review is refused before any preview.
func TestActivateInstructionInsidePackage(t *testing.T) {
	pkgs := fixturePackages()
	pkgs[0].Root = t.TempDir()
	m := newTestModel(t, pkgs, 120, 30)
	selectRef(t, m, instrRef)
	target := filepath.Join(pkgs[0].Root, "AGENTS.md")
	askTarget(t, m, target)
	if m.prompt() == nil || m.prompt().preview != nil || !strings.Contains(m.prompt().err, "inside") {
		t.Fatalf("a target inside the package got a preview: %+v", m.prompt())
	}
	if _, err := os.Lstat(target); !os.IsNotExist(err) {
		t.Fatal("the target was created")
	}
}

// The activation prompt offers the scopes; ↓ fills the input, global ones are
// named as global, and the preview still comes only on enter.
func TestActivationPickerScopes(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 110, 40)
	selectRef(t, m, instrRef)
	press(t, m, "i")
	v := screen(m)
	wantShown(t, "picker", v, "1. AGENTS.md in this directory", "GLOBAL: every project")
	press(t, m, "down", "down")
	if m.prompt().input.Value() != "CLAUDE.md" || !strings.Contains(screen(m), "› 2. CLAUDE.md") {
		t.Fatalf("down down: input %q\n%s", m.prompt().input.Value(), screen(m))
	}
	press(t, m, "up", "up")
	if m.prompt().input.Value() != "" {
		t.Fatalf("back to typing: input %q", m.prompt().input.Value())
	}
	if m.prompt().preview != nil || m.prompt().loading {
		t.Fatal("moving in the picker asked for a preview")
	}
}
