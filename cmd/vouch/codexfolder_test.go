package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
)

// codexFolder is a Codex plugin (no .claude-plugin/) whose hook and server sit in Claude
// Code's default layout: Claude Code loads them too once the folder is installed in it,
// so vouch gives the folder a Claude Code package beside the Codex one.
var codexFolder = map[string]string{
	".codex-plugin/plugin.json": `{"name": "cx", "version": "1.0.0", "description": "A Codex plugin."}`,
	"hooks/hooks.json": `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
  {"type": "command", "command": "sh ./scripts/check.sh"}]}]}}`,
	".mcp.json":        `{"mcpServers": {"db": {"command": "node", "args": ["./server.mjs"]}}}`,
	"scripts/check.sh": "#!/bin/sh\nexit 0\n",
	"server.mjs":       "console.log('db')\n",
}

const (
	cxCodexDB    = "codex:cx#mcp-server:db"
	cxClaudeDB   = "claude-code:cx#mcp-server:db"
	cxClaudeHook = "claude-code:cx#hook:PreToolUse:0:0"
)

// TestCodexFolderShowsClaudeReading: validate lists the Claude Code package of a Codex
// folder with the note that says why, and the two packages of the folder never share an
// approval: the server both read from the same .mcp.json needs a decision per format, a
// plain ref is refused naming both, and a revoke of one leaves the other.
func TestCodexFolderShowsClaudeReading(t *testing.T) {
	home, src := t.TempDir(), filepath.Join(t.TempDir(), "cx")
	testtree.WriteFiles(t, src, codexFolder)

	code, out, errs := trustRun(t, home, "validate", src)
	expect(t, "validate", code, 0, out, errs)
	for _, want := range []string{"codex cx 1.0.0", "claude-code cx", "claude-reads-codex-folder", "hook:PreToolUse:0:0", "2 packages"} {
		if !strings.Contains(out, want) {
			t.Errorf("validate does not show %q:\n%s", want, out)
		}
	}

	code, _, errs = trustRun(t, home, "check", src, "cx#mcp-server:db")
	expect(t, "check of the plain ref both packages hold", code, 2, "", errs)
	if !strings.Contains(errs, cxCodexDB) || !strings.Contains(errs, cxClaudeDB) {
		t.Fatalf("the ambiguity does not name both formats: %s", errs)
	}
	checkIs := func(ref string, want int, word string) {
		t.Helper()
		code, out, errs := trustRun(t, home, "check", src, ref)
		expect(t, "check "+ref, code, want, out, errs)
		if !strings.Contains(out+errs, word) {
			t.Errorf("check %s: want %q in %s%s", ref, word, out, errs)
		}
	}
	code, out, errs = trustRun(t, home, "approve", "--yes", src, cxCodexDB)
	expect(t, "approve the Codex server", code, 0, out, errs)
	checkIs(cxCodexDB, 0, "approved")
	checkIs(cxClaudeDB, 1, "unreviewed")

	code, out, errs = trustRun(t, home, "approve", "--yes", src, cxClaudeDB)
	expect(t, "approve the Claude Code server", code, 0, out, errs)
	code, out, errs = trustRun(t, home, "revoke", "--yes", src, cxCodexDB)
	expect(t, "revoke the Codex server", code, 0, out, errs)
	checkIs(cxCodexDB, 1, "revoked")
	checkIs(cxClaudeDB, 0, "approved")

	// One command naming both readings records two decisions, one per format.
	code, out, errs = trustRun(t, home, "revoke", "--yes", src, cxClaudeDB, cxCodexDB)
	expect(t, "revoke both", code, 0, out, errs)
	checkIs(cxClaudeDB, 1, "revoked")
	code, out, errs = trustRun(t, home, "approve", "--yes", src, cxCodexDB, cxClaudeDB)
	expect(t, "approve both in one command", code, 0, out, errs)
	if n := strings.Count("\n"+out, "\napproved "); n != 2 {
		t.Errorf("one approve of both readings recorded %d decisions, want 2:\n%s", n, out)
	}
	checkIs(cxCodexDB, 0, "approved")
	checkIs(cxClaudeDB, 0, "approved")
	code, out, errs = trustRun(t, home, "revoke", "--yes", src, cxCodexDB)
	expect(t, "revoke the Codex server", code, 0, out, errs)
	checkIs(cxCodexDB, 1, "revoked")
	checkIs(cxClaudeDB, 0, "approved")
}

// TestCodexFolderEnforcedForClaudeLikeAnyPlugin: vouch's Claude Code enforcement stages
// the Claude Code reading of a Codex folder only when every runnable component of it is
// approved now; approvals of the Codex package count for nothing there.
func TestCodexFolderEnforcedForClaudeLikeAnyPlugin(t *testing.T) {
	w := newEnforceWorld(t, true)
	src := filepath.Join(t.TempDir(), "cx")
	testtree.WriteFiles(t, src, codexFolder)
	staged := filepath.Join(w.home, "enforce", "claude-code", "plugins", "cx")

	code, out, errs := w.run(t, "approve", "--yes", src, cxCodexDB, "codex:cx#hook:hooks/hooks.json:pre_tool_use:0:0", cxClaudeDB)
	expect(t, "approve the Codex package and the Claude server", code, 0, out, errs)
	code, out, errs = w.run(t, "enforce", "claude", "add", src)
	expect(t, "add with the Claude hook unapproved", code, 1, out, errs)
	if !strings.Contains(errs, "cx#hook:PreToolUse:0:0 is unreviewed") {
		t.Fatalf("add does not name the unapproved Claude hook:\n%s", errs)
	}
	if _, err := os.Stat(staged); !os.IsNotExist(err) {
		t.Fatalf("a refused add staged the plugin (%v)", err)
	}

	code, out, errs = w.run(t, "approve", "--yes", src, cxClaudeHook)
	expect(t, "approve the Claude hook", code, 0, out, errs)
	code, out, errs = w.run(t, "enforce", "claude", "add", src)
	expect(t, "add", code, 0, out, errs)
	if got := testtree.ReadFile(t, filepath.Join(staged, "hooks", "hooks.json")); got != codexFolder["hooks/hooks.json"] {
		t.Fatalf("staged hooks.json = %q", got)
	}
}
