package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// --claude reviews the copies Claude Code installed (what it runs), read-only.
func TestClaudeInstalled(t *testing.T) {
	home := t.TempDir()
	cfg := t.TempDir()
	dst := filepath.Join(cfg, "plugins", "cache", "team-market", "commit-guard", "1.2.0")
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("cp", "-r", filepath.Join("..", "..", "examples", "claude-code", "commit-guard"), dst).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	t.Setenv("CLAUDE_CONFIG_DIR", cfg)
	code, out, errOut := runVouch(t, home, "status", "--claude")
	if code != 0 || !strings.Contains(out, "claude-code commit-guard") || !strings.Contains(out, "hook:PreToolUse:0:0") {
		t.Fatalf("status --claude: exit %d\n%s\n%s", code, out, errOut)
	}
	code, _, _ = runVouch(t, home, "status", "--claude", "--require-approved")
	if code != 1 {
		t.Errorf("an unreviewed installed hook must fail the gate, exit %d", code)
	}
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(cfg, "missing"))
	code, _, errOut = runVouch(t, home, "validate", "--claude")
	if code != 2 || !strings.Contains(errOut, "plugins/cache, which does not exist") {
		t.Errorf("missing install dir: exit %d %q", code, errOut)
	}
	code, _, errOut = runVouch(t, home, "validate")
	if code != 2 || !strings.Contains(errOut, "requires at least 1 arg") {
		t.Errorf("no SOURCE and no --claude: exit %d %q", code, errOut)
	}
}
