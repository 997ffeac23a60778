package ui

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"vouch/model"

	tea "charm.land/bubbletea/v2"
)

// After a tool file is edited while the console is open, R reads the source again: the
// approved tool and its hook show as changed, and the selection stays on the tool.
func TestReloadShowsAChangeMadeAfterApproval(t *testing.T) {
	src := filepath.Join(t.TempDir(), "design-review")
	if out, err := exec.Command("cp", "-r", daloExample, src).CombinedOutput(); err != nil {
		t.Fatalf("copy example: %v %s", err, out)
	}
	m := New(Options{Sources: []string{src}, Home: t.TempDir()})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	run(t, m, m.loadCmd())
	const tool, hook = "design-review#tool:context", "design-review#hook:review-context"
	selectRef(t, m, tool)
	press(t, m, "a", "y")
	selectRef(t, m, hook)
	press(t, m, "a", "y")
	for _, ref := range []string{tool, hook} {
		if got := authIn(t, m, ref); got != model.Approved {
			t.Fatalf("%s is %s after approval", ref, got)
		}
	}
	selectRef(t, m, tool)

	entry := filepath.Join(src, "plugins", "design-review", "context.mjs")
	f, err := os.OpenFile(entry, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("// edited after approval\n")
	f.Close()
	if got := authIn(t, m, tool); got != model.Approved {
		t.Fatalf("before reload the console still shows what it loaded, got %s", got)
	}

	press(t, m, "R")
	for _, ref := range []string{tool, hook} {
		if got := authIn(t, m, ref); got != model.Changed {
			t.Fatalf("%s is %s after reload, want changed", ref, got)
		}
	}
	if p, c, _, ok := m.selection(); !ok || c == nil || p.Ref(c) != tool {
		t.Fatalf("the selection did not follow the tool across the reload")
	}
	if !strings.Contains(m.flash, "1 changed") && !strings.Contains(m.flash, "2 changed") {
		t.Fatalf("flash after reload: %q", m.flash)
	}
}

// Packages handed in memory have no source to read again: R is disabled and says nothing.
func TestReloadDisabledForInMemoryPackages(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 100, 30)
	if applies(m, "reload") {
		t.Fatal("reload is enabled without a source to read")
	}
}
