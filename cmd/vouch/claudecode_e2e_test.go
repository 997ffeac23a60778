package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	home, src := t.TempDir(), t.TempDir()
	writeTree(t, src, claudePlugin)
	const hook = "guard#hook:PreToolUse:0:0"
	code, out, errs := trustRun(t, home, "validate", src)
	expect(t, "validate", code, 0, out, errs)
	if !strings.Contains(out, "claude-code guard") || !strings.Contains(out, "hook:PreToolUse:0:0") {
		t.Fatalf("validate does not list the hook:\n%s", out)
	}
	if s := statusOf(t, home, src, hook); s != "unreviewed" {
		t.Fatalf("hook is %s before any decision", s)
	}
	code, out, errs = trustRun(t, home, "check", src, hook)
	expect(t, "check unreviewed", code, 1, out, errs)

	code, out, errs = trustRun(t, home, "approve", "--yes", src, hook)
	expect(t, "approve", code, 0, out, errs)
	if s := statusOf(t, home, src, hook); s != "approved" {
		t.Fatalf("hook is %s after approval", s)
	}
	code, out, errs = trustRun(t, home, "check", src, hook)
	expect(t, "check approved", code, 0, out, errs)

	// Edit the script the hook runs: changed, the diff shows the line, check exits 1.
	editByte(t, filepath.Join(src, "scripts/check.sh"), "exit 0", "exit 2")
	if s := statusOf(t, home, src, hook); s != "changed" {
		t.Fatalf("hook is %s after its script changed", s)
	}
	code, out, errs = trustRun(t, home, "diff", src, hook)
	expect(t, "diff", code, 1, out, errs)
	if !strings.Contains(out, "-exit 0") || !strings.Contains(out, "+exit 2") {
		t.Fatalf("diff does not show the changed line:\n%s", out)
	}
	code, out, errs = trustRun(t, home, "check", src, hook)
	expect(t, "check changed", code, 1, out, errs)

	// Any other file of the plugin is in the closure too (a hook can run any of them).
	code, out, errs = trustRun(t, home, "approve", "--yes", src, hook)
	expect(t, "re-approve", code, 0, out, errs)
	if err := os.WriteFile(filepath.Join(src, "scripts", "lib.sh"), []byte("x=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if s := statusOf(t, home, src, hook); s != "changed" {
		t.Fatalf("a new file in the plugin left the hook %s", s)
	}
	os.Remove(filepath.Join(src, "scripts", "lib.sh"))
	if s := statusOf(t, home, src, hook); s != "approved" {
		t.Fatalf("hook is %s after the new file was removed again", s)
	}

	code, out, errs = trustRun(t, home, "revoke", "--yes", src, hook)
	expect(t, "revoke", code, 0, out, errs)
	if s := statusOf(t, home, src, hook); s != "revoked" {
		t.Fatalf("hook is %s after revoke", s)
	}
	code, out, errs = trustRun(t, home, "check", src, hook)
	expect(t, "check revoked", code, 1, out, errs)
}
