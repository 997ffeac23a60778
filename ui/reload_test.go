package ui

import (
	"strings"
	"testing"

	"vouch/model"
)

// After a tool file is edited while the console is open, R reads the source again: the
// approved tool and its hook show as changed, and the selection stays on the tool.
func TestReloadShowsAChangeMadeAfterApproval(t *testing.T) {
	m, src := loadedCopy(t, 100, 30)
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

	editTool(t, src, "// edited after approval\n")
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
