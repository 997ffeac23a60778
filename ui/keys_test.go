package ui

import (
	"fmt"
	"strings"
	"testing"

	"vouch/model"

	"github.com/charmbracelet/x/ansi"
)

// Y copies a digest; in a dialog it must not record the decision y records.
func TestCapitalYNeverConfirmsADialog(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 100, 30)
	openApproval(t, m, toolRef)
	press(t, m, "Y")
	if m.dialog() == nil {
		t.Fatal("Y closed the dialog")
	}
	if got := ledgerAuth(t, m, toolRef); got != model.Unreviewed {
		t.Fatalf("Y recorded %s", got)
	}
	press(t, m, "y")
	if got := ledgerAuth(t, m, toolRef); got != model.Approved {
		t.Fatalf("y recorded %s, want approved", got)
	}
}

// While a note is typed, every letter is text (n and N too, which cancel otherwise), and
// the input is on screen even when the dialog's body is longer than the screen.
func TestNoteInputTakesEveryLetterAndIsOnScreen(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 80, MinHeight)
	openApproval(t, m, toolRef)
	press(t, m, "m")
	for _, k := range []string{"n", "o", " ", "N", "y", "Y", "q"} {
		press(t, m, k)
	}
	if m.dialog() == nil {
		t.Fatal("typing the note closed the dialog")
	}
	if got := m.dialog().note.Value(); got != "no NyYq" {
		t.Fatalf("note %q, want %q", got, "no NyYq")
	}
	if v := screen(m); !strings.Contains(v, "note> no NyYq") {
		t.Fatalf("the note input is not on screen:\n%s", v)
	}
	press(t, m, "enter")
	if got := ledgerAuth(t, m, toolRef); got != model.Unreviewed {
		t.Fatalf("typing a note recorded %s", got)
	}
}

// One folder holds a package of each of two formats with a skill of the same id: after
// R, the selection is on the skill of the format it was on, not the first at that root.
func TestReloadReselectsByFormat(t *testing.T) {
	m := diskModel(t, 100, 30, "testdata/two-formats")
	if len(m.data.pkgs) != 2 {
		t.Fatalf("%d packages, want the two formats", len(m.data.pkgs))
	}
	for _, want := range []model.Format{model.FormatClaudeCode, model.FormatCodex} {
		press(t, m, "g")
		for range len(m.tree.visible) {
			if p, c, _, _ := m.selection(); c != nil && c.Kind == model.KindSkill && p.Format == want {
				break
			}
			press(t, m, "j")
		}
		p, c, _, _ := m.selection()
		if c == nil || c.Kind != model.KindSkill || p.Format != want {
			t.Fatalf("no %s skill to select", want)
		}
		press(t, m, "R")
		p2, c2, _, ok := m.selection()
		if !ok || c2 == nil || p2 == p {
			t.Fatal("after R nothing of the reloaded packages is selected")
		}
		if p2.Format != want || c2.Kind != c.Kind || c2.ID != c.ID {
			t.Fatalf("after R the selection is %s %s:%s, want %s %s:%s", p2.Format, c2.Kind, c2.ID, want, c.Kind, c.ID)
		}
	}
}

// : lists the views; tab completes a view word as far as the views agree, then whole; a
// word that names no view says so and lists them. Tab elsewhere still turns text search on.
func TestViewsCompleteAndAnUnknownOneSaysSo(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 100, 30)
	press(t, m, ":")
	if v := treeText(m); !strings.Contains(v, "Views starting : (tab completes): :changed :exec") {
		t.Fatalf("':' does not list the views:\n%s", v)
	}
	press(t, m, "h")
	if v := treeText(m); !strings.Contains(v, ":hidden :hooks") || strings.Contains(v, ":mcp") {
		t.Fatalf("':h' does not list the views starting with it:\n%s", v)
	}
	press(t, m, "tab")
	if got := m.tree.filter.Value(); got != ":h" || m.tree.content {
		t.Fatalf("tab on ':h' (two views) made %q, text search %v", got, m.tree.content)
	}
	press(t, m, "o", "tab")
	if got := m.tree.filter.Value(); got != ":hooks " {
		t.Fatalf("tab on ':ho' made %q, want ':hooks '", got)
	}
	if len(m.tree.visible) == 0 {
		t.Fatal(":hooks shows nothing")
	}
	for _, i := range m.tree.visible {
		if it := m.tree.all[i]; !it.isPackage() && m.data.pkgs[it.pkg].Components[it.comp].Kind != model.KindHook {
			t.Fatalf(":hooks shows a %s", m.data.pkgs[it.pkg].Components[it.comp].Kind)
		}
	}
	press(t, m, "tab")
	if !m.tree.content {
		t.Fatal("tab after a whole view word did not turn text search on")
	}
	press(t, m, "esc", ":", "x", "y", "z", "enter")
	if v := treeText(m); !strings.Contains(v, "Unknown view :xyz. The views are :changed") {
		t.Fatalf("an unknown view does not say so:\n%s", v)
	}
}

// treeText is the tree pane's text with its lines joined by single spaces: a message
// wrapped over several rows reads as one.
func treeText(m *Model) string { return strings.Join(strings.Fields(ansi.Strip(m.tree.View())), " ") }

// A with a filter offers only the package's components the filter shows; space leaves
// the ▸ one out (tab moves ▸), the title says how many of how many, and y records only
// what is left in.
func TestPackageApprovalOffersWhatIsShownAndLeavesOutWhatIsMarked(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 100, 30)
	press(t, m, "A")
	if m.dialog() == nil || len(m.dialog().entries) != 4 || !strings.Contains(m.dialog().title, "Approve 4 components of design-review?") {
		t.Fatalf("A without a filter: %v", m.dialog())
	}
	press(t, m, "esc", "/", "s", "k", "i", "l", "l", ":", "enter", "g")
	shown := 0
	for _, i := range m.tree.visible {
		if !m.tree.all[i].isPackage() {
			shown++
		}
	}
	if shown == 0 || shown >= 4 {
		t.Fatalf("the filter shows %d components of design-review", shown)
	}
	press(t, m, "A")
	if m.dialog() == nil || len(m.dialog().entries) != shown {
		t.Fatalf("A with a filter showing %d offered %v", shown, m.dialog())
	}
	if want := fmt.Sprintf("Approve %d of 4 components of design-review?", shown); !strings.Contains(ansi.Strip(m.dialog().title), want) {
		t.Fatalf("title %q, want %q", ansi.Strip(m.dialog().title), want)
	}
	press(t, m, "esc", "esc") // the dialog, then the filter
	press(t, m, "g", "A")
	d := m.dialog()
	if d == nil || len(d.entries) != 4 {
		t.Fatal("A did not offer the package's four components")
	}
	press(t, m, "tab", "space") // leave out the second: the skill
	left := d.entries[1].ref
	if !d.entries[1].out || !strings.Contains(ansi.Strip(d.title), "Approve 3 of 4 components of design-review?") {
		t.Fatalf("after space: out %v, title %q", d.entries[1].out, ansi.Strip(d.title))
	}
	if v := screen(m); !strings.Contains(v, "[ ]") || !strings.Contains(v, "▸") {
		t.Fatalf("the left-out mark is not on screen:\n%s", v)
	}
	press(t, m, "y")
	if got := ledgerAuth(t, m, left); got != model.Unreviewed {
		t.Fatalf("the component left out is %s", got)
	}
	for _, e := range d.entries {
		if e.ref != left {
			if got := ledgerAuth(t, m, e.ref); got != model.Approved {
				t.Fatalf("%s is %s after approving 3 of 4", e.ref, got)
			}
		}
	}
}

// S puts the hooks that can block first, in both formats' words: the Claude Code
// loader scopes them "can-block", the Codex loader "can deny the call".
func TestSortByRiskPutsGatingHooksFirst(t *testing.T) {
	m := diskModel(t, 100, 30, "testdata/two-formats")
	for _, p := range m.data.pkgs {
		// A component with no risk first in package order: only the sort can move it.
		p.Components = append([]*model.Component{{Kind: model.KindSkill, ID: "first-in-order", Validity: model.Valid}}, p.Components...)
		if risk(p.Components[1]) != 0 || p.Components[1].Kind != model.KindHook {
			t.Fatalf("%s: the hook %s does not rank as gating (risk %d)", p.Format, p.Components[1].ID, risk(p.Components[1]))
		}
	}
	m.tree.setItems(itemsFor(m.data.pkgs))
	press(t, m, "S")
	for i, p := range m.data.pkgs {
		for _, it := range m.tree.all {
			if it.pkg == i && !it.isPackage() {
				if c := p.Components[it.comp]; c.Kind != model.KindHook {
					t.Fatalf("%s: S put %s:%s first, want the gating hook", p.Format, c.Kind, c.ID)
				}
				break
			}
		}
	}
}
