package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
	"vouch/model"
)

// The console round trip for an MCP Bundle server, a standalone skill's script, a Claude
// Code hook and a Codex hook: approve with a and y, edit the file it runs, R shows
// changed, approve again, revoke with x and y.
func TestConsoleRoundTripMCPBAndSkill(t *testing.T) {
	for _, tc := range []struct {
		example, ref, edit, dialog string
	}{
		{"../examples/mcpb/notes-server", "notes-server#mcp-server:notes-server", "server/search.js", "server/search.js"},
		{"../examples/skills/roll-dice", "roll-dice#skill:roll-dice", "scripts/roll.sh", "scripts/roll.sh"},
		{"../examples/claude-code/commit-guard", "commit-guard#hook:PreToolUse:0:0", "scripts/check-git.sh", "scripts/check-git.sh"},
		{"../examples/codex/commit-guard", "commit-guard#hook:hooks/hooks.json:pre_tool_use:0:0", "hooks/guard.sh", "hooks/guard.sh"},
	} {
		t.Run(filepath.Base(tc.example), func(t *testing.T) {
			src := filepath.Join(t.TempDir(), filepath.Base(tc.example))
			testtree.Copy(t, tc.example, src)
			m := diskModel(t, 120, 40, src)
			selectRef(t, m, tc.ref)
			press(t, m, "a")
			if m.dialog() == nil || !strings.Contains(screen(m), "Approve "+tc.ref) {
				t.Fatalf("a did not open the confirmation:\n%s", screen(m))
			}
			listed := false
			for _, f := range m.dialog().grant.Files {
				listed = listed || f.Path == tc.dialog
			}
			if !listed {
				t.Fatalf("the confirmation does not grant %s: %+v", tc.dialog, m.dialog().grant.Files)
			}
			press(t, m, "y")
			if got := ledgerAuth(t, m, tc.ref); got != model.Approved {
				t.Fatalf("after a, y: %s", got)
			}
			appendFile(t, filepath.Join(src, tc.edit), "# edited after approval\n")
			press(t, m, "R")
			if got := authIn(t, m, tc.ref); got != model.Changed {
				t.Fatalf("after an edit and R: %s", got)
			}
			selectRef(t, m, tc.ref)
			press(t, m, "a", "y")
			if got := authIn(t, m, tc.ref); got != model.Approved {
				t.Fatalf("after re-approval: %s", got)
			}
			press(t, m, "x", "y")
			if got := ledgerAuth(t, m, tc.ref); got != model.Revoked {
				t.Fatalf("after x, y: %s", got)
			}
		})
	}
}
