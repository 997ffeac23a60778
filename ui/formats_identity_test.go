package ui

import (
	"path/filepath"
	"testing"

	"vouch/model"
)

// selectIn moves the selection to the component ref of the package of format f.
func selectIn(t *testing.T, m *Model, f model.Format, ref string) {
	t.Helper()
	press(t, m, "g")
	for i := 0; i < len(m.tree.visible); i++ {
		p, c, _, _ := m.selection()
		if c != nil && p.Format == f && p.Ref(c) == ref {
			return
		}
		press(t, m, "j")
	}
	t.Fatalf("%s:%s not reachable with j", f, ref)
}

func authOfFormat(t *testing.T, m *Model, f model.Format, ref string) model.Authorization {
	t.Helper()
	for _, p := range m.data.pkgs {
		for _, c := range p.Components {
			if p.Format == f && p.Ref(c) == ref {
				return authOf(m.data.statusOf(p, c))
			}
		}
	}
	t.Fatalf("no %s:%s", f, ref)
	return ""
}

// wantReadings fails t unless the Codex and the Claude Code readings of ref stand as
// codex and claude after the keys step names.
func wantReadings(t *testing.T, m *Model, ref, step string, codex, claude model.Authorization) {
	t.Helper()
	gotCodex, gotClaude := authOfFormat(t, m, model.FormatCodex, ref), authOfFormat(t, m, model.FormatClaudeCode, ref)
	if gotCodex != codex || gotClaude != claude {
		t.Fatalf("after %s: Codex reading %s, Claude Code reading %s; want %s and %s", step, gotCodex, gotClaude, codex, claude)
	}
}

// TestConsoleFormatIdentity: in the console, approving the Codex reading's server leaves
// the Claude Code reading's server of the same name unreviewed (not "changed"), revoking
// it leaves the other approved, and y copies the ref with the format in front. The twin
// fixture is one folder read by two clients: a Codex and a Claude Code plugin of the same
// name, each with its own server "db".
func TestConsoleFormatIdentity(t *testing.T) {
	m := diskModel(t, 110, 40, filepath.Join("testdata", "twin"))
	const ref = "twin#mcp-server:db"

	selectIn(t, m, model.FormatCodex, ref)
	press(t, m, "a", "y")
	wantReadings(t, m, ref, "a, y on the Codex reading", model.Approved, model.Unreviewed)

	selectIn(t, m, model.FormatClaudeCode, ref)
	var copied []string
	m.clipboard = func(s string) { copied = append(copied, s) }
	press(t, m, "y")
	if len(copied) != 1 || copied[0] != osc52("claude-code:"+ref) {
		t.Errorf("copied %q, want the ref with its format in front", copied)
	}
	press(t, m, "a", "y")
	selectIn(t, m, model.FormatCodex, ref)
	press(t, m, "x", "y")
	wantReadings(t, m, ref, "x, y on the Codex reading", model.Revoked, model.Approved)
}
