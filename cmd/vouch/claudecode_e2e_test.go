package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
)

// A Claude Code plugin: a PreToolUse hook on Bash that runs a bundled script.
var claudePlugin = map[string]string{
	".claude-plugin/plugin.json": `{"name": "guard", "version": "1.0.0"}`,
	"hooks/hooks.json": `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
  {"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}\"/scripts/check.sh", "timeout": 10}]}]}}`,
	"scripts/check.sh": "#!/bin/sh\n# blocks force pushes\nexit 0\n",
	"README.md":        "guard\n",
}

// TestTrustRoundTripClaudeHook: approve a hook, edit the script it runs, see changed with
// the diff, check exits 1, re-approve, revoke.
func TestTrustRoundTripClaudeHook(t *testing.T) {
	home, src := newSource(t, claudePlugin)
	const hook = "guard#hook:PreToolUse:0:0"
	out, _ := expectRun(t, home, "validate", 0, "validate", src)
	if !strings.Contains(out, "claude-code guard") || !strings.Contains(out, "hook:PreToolUse:0:0") {
		t.Fatalf("validate does not list the hook:\n%s", out)
	}
	wantStatus(t, home, src, hook, "unreviewed", "hook is %s before any decision")
	expectRun(t, home, "check unreviewed", 1, "check", src, hook)

	expectRun(t, home, "approve", 0, "approve", "--yes", src, hook)
	wantStatus(t, home, src, hook, "approved", "hook is %s after approval")
	expectRun(t, home, "check approved", 0, "check", src, hook)

	// Edit the script the hook runs: changed, the diff shows the line, check exits 1.
	editChanges(t, home, src, hook, "scripts/check.sh", "exit 0", "exit 2", "-exit 0", "+exit 2")

	// Any other file of the plugin is in the closure too (a hook can run any of them).
	expectRun(t, home, "re-approve", 0, "approve", "--yes", src, hook)
	testtree.WriteFiles(t, src, map[string]string{"scripts/lib.sh": "x=1\n"})
	wantStatus(t, home, src, hook, "changed", "a new file in the plugin left the hook %s")
	os.Remove(filepath.Join(src, "scripts", "lib.sh"))
	wantStatus(t, home, src, hook, "approved", "hook is %s after the new file was removed again")

	expectRun(t, home, "revoke", 0, "revoke", "--yes", src, hook)
	wantStatus(t, home, src, hook, "revoked", "hook is %s after revoke")
	expectRun(t, home, "check revoked", 1, "check", src, hook)
}
