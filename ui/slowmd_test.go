package ui

import (
	"strings"
	"testing"

	"vouch/model"
)

// A SKILL.md shaped to make markdown parsers quadratic is shown raw, at once, never handed
// to glamour (which would keep a goroutine busy for minutes), and r cannot switch to it.
func TestPathologicalMarkdownIsShownRaw(t *testing.T) {
	pkgs := fixturePackages()
	var skill *model.Component
	for _, c := range pkgs[0].Components {
		if c.Kind == model.KindSkill {
			skill = c
		}
	}
	if skill == nil {
		t.Fatal("fixture has no skill")
	}
	skill.Body = "# Bomb\n" + strings.Repeat("*a_", 100_000) + "\n"
	m := newTestModel(t, pkgs, 120, 40)
	selectRef(t, m, pkgs[0].Ref(skill))
	press(t, m, "3")
	view := m.View().Content
	if !strings.Contains(view, "Shown as raw text only") {
		t.Fatalf("no raw-only notice:\n%s", view)
	}
	if applies(m, "raw") {
		t.Fatal("r is offered although the rendered view is refused")
	}
	if len(m.detail.renderWait) != 0 {
		t.Fatal("the body was queued for glamour")
	}
	// "At once", counted: the body is judged once and the verdict kept, however many
	// keys follow (every key press asks), and r still queues nothing.
	press(t, m, "r", "3", "r")
	if why, ok := m.data.slowRender[skill]; !ok || why == "" || len(m.data.slowRender) != 1 {
		t.Fatalf("slowRender cache %v: the body must be judged once and refused", m.data.slowRender)
	}
	if len(m.detail.renderWait) != 0 || len(m.detail.rendered) != 0 {
		t.Fatal("a key press queued the body for glamour")
	}
}
