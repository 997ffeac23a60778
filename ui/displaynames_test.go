package ui

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"vouch/model"
)

// TestTreeAndOverviewShowDisplayNames: where a client lists a component under another
// name than its id, the tree row shows it beside the id and the overview says which
// client uses it; package text is escaped on the way.
func TestTreeAndOverviewShowDisplayNames(t *testing.T) {
	pkgs := openedPackages(t, "../review/testdata/display-names", nil)
	var agent *model.Component
	for _, p := range pkgs {
		if p.Format == model.FormatClaudeCode {
			agent = p.Component(model.KindAgent, "reviewer")
		}
	}
	if agent == nil {
		t.Fatalf("no agent:reviewer in %d packages", len(pkgs))
	}
	m := newTestModel(t, pkgs, 140, 60)
	v := screen(m)
	wantShown(t, "tree", v, "agent:reviewer · code-reviewer", "output-style:terse · Terse Answers", "skill:extra/fmt · fmt")
	if strings.Contains(v, "skill:lint ·") {
		t.Errorf("a skill every client lists by its id is shown with a second name:\n%s", v)
	}
	selectRef(t, m, "named#agent:reviewer")
	if v := screen(m); !strings.Contains(v, "Shown as: code-reviewer (in Claude Code)") {
		t.Errorf("overview does not say which client shows the name:\n%s", v)
	}

	agent.DisplayNames[model.ClientClaudeCode] = "evil\x1b[2Jname"
	m = newTestModel(t, pkgs, 140, 60)
	selectRef(t, m, "named#agent:reviewer")
	if v := screen(m); strings.Contains(v, "\x1b[2J") || !strings.Contains(v, "evil␛[2Jname") {
		t.Errorf("a display name reached the screen unescaped:\n%s", v)
	}
}

// TestConsoleLoadsSkillsDirPlugins: the console reviewing what Claude Code loads (review
// --claude) lists a plugin of Claude's skills folder and its hook, and says on the
// package how Claude loads it.
func TestConsoleLoadsSkillsDirPlugins(t *testing.T) {
	m := New(Options{Sources: []string{"testdata/two-formats"}, ClaudeSkillsDir: "../cmd/vouch/testdata/skills-dir/skills", Home: t.TempDir()})
	m.Update(tea.WindowSizeMsg{Width: 140, Height: 60})
	rt := newRuntime(t, m)
	defer rt.close()
	rt.exec(m.loadCmd())
	rt.until(func() bool { return !m.loading && len(m.data.pkgs) > 0 })
	var names []string
	for _, p := range m.data.pkgs {
		names = append(names, p.Name)
	}
	if !slices.Contains(names, "session-notes") || slices.Contains(names, "tidy") {
		t.Fatalf("loaded %v, want the skills folder's plugin session-notes (and not its plain skill tidy)", names)
	}
	selectRef(t, m, "session-notes#hook:SessionStart:0:0")
	press(t, m, "k") // the package row above its first component
	press(t, m, "5") // its Diagnostics tab
	if v := screen(m); !strings.Contains(v, "session-notes@skills-dir") {
		t.Errorf("the package does not say Claude loads it as session-notes@skills-dir:\n%s", v)
	}
}
