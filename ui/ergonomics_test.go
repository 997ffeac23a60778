package ui

import (
	"slices"
	"strings"
	"testing"

	"vouch/model"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// Progress in the header and on package rows, the position of the
// selection, next/previous package, folding, "nothing to approve" instead of blocked.
func TestTreeErgonomics(t *testing.T) {
	pkgs := fixturePackages()
	pkgs[0].Components = append(pkgs[0].Components, &model.Component{Kind: "output-style", ID: "plain", Validity: model.Valid})
	m := newTestModel(t, pkgs, 120, 40)
	v := screen(m)
	wantShown(t, "screen", v, "0 of 4 reviewed", "0/4", "row 1 of 8", "– inert")
	if strings.Count(v, "⊘ blocked") != 1 {
		t.Errorf("only the invalid MCP server is blocked:\n%s", v)
	}
	selectRef(t, m, toolRef)
	press(t, m, "a", "y")
	if v := screen(m); !strings.Contains(v, "1 of 4 reviewed") || !strings.Contains(v, "1/4") {
		t.Errorf("progress did not move after an approval:\n%s", v)
	}
	press(t, m, "}")
	if p, c, _, _ := m.selection(); c != nil || p.Name != "broken-plugin" {
		t.Fatalf("} did not go to the next package: %v %v", p.Name, c)
	}
	if !strings.Contains(screen(m), "row 7 of 8") {
		t.Errorf("position not shown:\n%s", screen(m))
	}
	press(t, m, "{")
	if p, c, _, _ := m.selection(); c != nil || p.Name != "design-review" {
		t.Fatalf("{ did not go back to the first package")
	}
	press(t, m, "c")
	if len(m.tree.visible) != 3 || !strings.Contains(screen(m), "▸") {
		t.Fatalf("c did not fold the package: %d rows\n%s", len(m.tree.visible), screen(m))
	}
	press(t, m, "j")
	if p, c, _, _ := m.selection(); c != nil || p.Name != "broken-plugin" {
		t.Fatal("j on a folded package did not skip its components")
	}
	press(t, m, "k", "c")
	if len(m.tree.visible) != 8 {
		t.Fatalf("c did not unfold: %d rows", len(m.tree.visible))
	}
}

// withLongSummary is fixturePackages with n more summary lines on the tool, so what
// shows it runs past the window.
func withLongSummary(n int) []*model.Package {
	pkgs := fixturePackages()
	tool := pkgs[0].Component(model.KindTool, "review-context")
	tool.Summary = append(tool.Summary, slices.Repeat([]string{"summary line"}, n)...)
	return pkgs
}

// visibleRefs lists the components the tree shows, by ref, packages left out.
func visibleRefs(m *Model) []string {
	var refs []string
	for _, i := range m.tree.visible {
		if it := m.tree.all[i]; !it.isPackage() {
			p := m.data.pkgs[it.pkg]
			refs = append(refs, p.Ref(p.Components[it.comp]))
		}
	}
	return refs
}

// The detail pane says when there is more below.
func TestDetailMoreBelow(t *testing.T) {
	m := newTestModel(t, withLongSummary(80), 100, 24)
	selectRef(t, m, toolRef)
	if !strings.Contains(screen(m), "↓ more below") {
		t.Fatalf("no more-below marker:\n%s", screen(m))
	}
}

// The filter finds commands, file names and diagnostic codes.
func TestFilterFindsCommandsFilesCodes(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 100, 30)
	for _, tc := range []struct{ query, want string }{
		{"node", toolRef},
		{"context.mjs", toolRef},
		{"mcp-command-not-one-token", "broken-plugin#mcp-server:fetch"},
		{"userpromptsubmit", hookRef},
	} {
		press(t, m, "/")
		typeText(t, m, tc.query)
		press(t, m, "enter")
		got := visibleRefs(m)
		if len(got) != 1 || got[0] != tc.want {
			t.Errorf("filter %q shows %v, want %s", tc.query, got, tc.want)
		}
		press(t, m, "esc")
	}
}

// A click selects the row or tab under it; behind a dialog it does nothing.
func TestClickSelectsRowsAndTabs(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 120, 40)
	// Line 0 header, 1 border, 2 first row: the tree is wide, one line a row.
	m.Update(tea.MouseClickMsg{X: 5, Y: 6, Button: tea.MouseLeft}) // header, border, package, hook (two lines and its event line), tool
	if p, c, _, _ := m.selection(); c == nil || p.Ref(c) != toolRef {
		t.Fatalf("click on the third row selected %v", c)
	}
	tw := m.treeOuterWidth()
	parts := m.detail.tabParts()
	x := tw + 1 + ansi.StringWidth(parts[0]) + ansi.StringWidth(parts[1]) + 1 // inside the third tab
	m.Update(tea.MouseClickMsg{X: x, Y: 2, Button: tea.MouseLeft})
	if m.detail.tab != tabContent {
		t.Fatalf("click on the Content tab selected tab %d", m.detail.tab)
	}
	press(t, m, "a")
	m.Update(tea.MouseClickMsg{X: 5, Y: 2, Button: tea.MouseLeft})
	if p, c, _, _ := m.selection(); c == nil || p.Ref(c) != toolRef {
		t.Fatal("a click behind the dialog moved the selection")
	}
}

// tab while filtering searches skill and instruction text too.
func TestFilterContentOnSecondKey(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 100, 30)
	press(t, m, "/")
	typeText(t, m, "ignore previous")
	if n := len(m.tree.visible); n != 0 {
		t.Fatalf("without tab the text matched %d rows", n)
	}
	press(t, m, "tab")
	got := visibleRefs(m)
	if len(got) != 1 || got[0] != skillRef || !strings.Contains(screen(m), "/(+text)") {
		t.Fatalf("content search shows %v\n%s", got, screen(m))
	}
	press(t, m, "esc")
	if m.tree.content {
		t.Fatal("esc kept content search on")
	}
}

// ':' opens the command bar; views combine with words, across packages.
func TestCommandBarViews(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 100, 30)
	for _, tc := range []struct {
		typed string
		want  []string
	}{
		{"hooks", []string{hookRef}},
		{"exec", []string{toolRef}},
		{"mcp", []string{"broken-plugin#mcp-server:fetch"}},
		{"hidden", []string{skillRef}},
		{"unreviewed skill", []string{skillRef}},
		{"nosuchview", nil},
	} {
		press(t, m, ":")
		typeText(t, m, tc.typed)
		press(t, m, "enter")
		got := visibleRefs(m)
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf(":%s shows %v, want %v", tc.typed, got, tc.want)
		}
		press(t, m, "esc")
	}
}

// S orders each package's components by risk: the gating hook first, then
// code that runs, then instructions; S again restores the package order.
func TestSortByRisk(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 100, 30)
	order := func() []string {
		var out []string
		for _, i := range m.tree.visible {
			if it := m.tree.all[i]; !it.isPackage() && it.pkg == 0 {
				out = append(out, string(m.data.pkgs[0].Components[it.comp].Kind))
			}
		}
		return out
	}
	selectRef(t, m, skillRef)
	press(t, m, "S")
	if got := strings.Join(order(), ","); got != "hook,tool,instruction,skill" {
		t.Fatalf("by risk: %s", got)
	}
	if p, c, _, _ := m.selection(); c == nil || p.Ref(c) != skillRef {
		t.Fatal("sorting moved the selection off the skill")
	}
	press(t, m, "S")
	if got := strings.Join(order(), ","); got != "hook,tool,skill,instruction" {
		t.Fatalf("package order: %s", got)
	}
}
