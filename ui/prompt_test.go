package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/model"
	"vouch/trust"
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
	if err := os.WriteFile(target, []byte("# Mine\n\nKeep this.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	selectRef(t, m, toolRef)
	if m.keys.Instructions.Enabled() {
		t.Error("i enabled on a tool")
	}
	selectRef(t, m, instrRef)
	if !m.keys.Instructions.Enabled() || !strings.Contains(screen(m), "i activate instruction") {
		t.Fatal("i not offered on an instruction")
	}
	press(t, m, "i")
	if m.prompt == nil {
		t.Fatal("i did not ask for a target")
	}
	// Keys are text here: a, y and q must not approve, confirm or quit.
	typeText(t, m, target)
	press(t, m, "enter")
	if m.prompt == nil || m.prompt.preview == nil {
		t.Fatalf("enter did not show a preview: %+v", m.prompt)
	}
	v := screen(m)
	for _, want := range []string{"+ <!-- vouch:start", "+ Always ask for the design doc first.", "y write this change"} {
		if !strings.Contains(v, want) {
			t.Errorf("preview lacks %q:\n%s", want, v)
		}
	}
	press(t, m, "enter")
	if got, _ := os.ReadFile(target); string(got) != "# Mine\n\nKeep this.\n" {
		t.Fatalf("enter wrote the file: %q", got)
	}
	press(t, m, "y")
	got, _ := os.ReadFile(target)
	if !strings.HasPrefix(string(got), "# Mine\n\nKeep this.\n\n<!-- vouch:start") || !strings.Contains(string(got), "Always ask for the design doc first.") {
		t.Fatalf("file after y: %q", got)
	}
	if m.prompt != nil {
		t.Fatal("prompt still open after y")
	}
	if a := authIn(t, m, instrRef); a != model.Approved {
		t.Fatalf("instruction = %s after activation, want approved", a)
	}
	tr, _ := trust.Open(trust.Options{Home: m.opts.Home})
	ds, _ := tr.Decisions()
	if len(ds) == 0 || ds[0].Target != target {
		t.Fatalf("ledger does not record the target: %+v", ds)
	}
}

func TestActivateInstructionCancel(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 100, 30)
	target := filepath.Join(t.TempDir(), "CLAUDE.md")
	selectRef(t, m, instrRef)
	press(t, m, "i")
	typeText(t, m, target)
	press(t, m, "enter", "n")
	if m.prompt != nil {
		t.Fatal("n did not close the preview")
	}
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Fatalf("cancel created the target: %v", err)
	}
	press(t, m, "i", "esc")
	if m.prompt != nil {
		t.Fatal("esc did not close the prompt")
	}
}

func TestActivateInstructionBadTarget(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 100, 30)
	selectRef(t, m, instrRef)
	press(t, m, "i", "enter")
	if m.prompt == nil || m.prompt.err == "" || m.prompt.preview != nil {
		t.Fatalf("an empty target did not report an error: %+v", m.prompt)
	}
	if !strings.Contains(screen(m), "no instruction target") {
		t.Errorf("error not shown:\n%s", screen(m))
	}
}
