package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
)

// A Codex plugin with one command hook and the script it runs.
var codexPlugin = map[string]string{
	".codex-plugin/plugin.json": `{"name": "guard", "version": "1.0.0", "description": "blocks risky shell"}`,
	"hooks/hooks.json":          `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "${PLUGIN_ROOT}/hooks/guard.sh", "timeout": 5}]}]}}`,
	"hooks/guard.sh":            "#!/bin/sh\nexit 0\n",
}

// TestCodexHookRoundTrip: approve a Codex hook, check passes; edit the script it runs,
// check exits 1 and status says changed; approve again, revoke, check exits 1. Then
// status --codex shows Codex's own record beside vouch's, and the JSON validates.
func TestCodexHookRoundTrip(t *testing.T) {
	home, src := newSource(t, codexPlugin)
	ref := "guard#hook:hooks/hooks.json:pre_tool_use:0:0"

	expectRun(t, home, "check unreviewed", 1, "check", src, ref)
	expectRun(t, home, "approve", 0, "approve", "--yes", src, ref)
	expectRun(t, home, "check approved", 0, "check", src, ref)

	editChanges(t, home, src, ref, "hooks/guard.sh", "exit 0", "exit 2", "-exit 0", "+exit 2")
	expectRun(t, home, "approve again", 0, "approve", "--yes", src, ref)
	expectRun(t, home, "revoke", 0, "revoke", "--yes", src, ref)
	expectRun(t, home, "check revoked", 1, "check", src, ref)

	// Codex's own trust, read-only: one install, its hook trusted for another definition.
	codexHome := t.TempDir()
	t.Setenv("CODEX_HOME", codexHome)
	cfg := "[plugins.\"guard@team\"]\nenabled = true\n\n[hooks.state.\"guard@team:hooks/hooks.json:pre_tool_use:0:0\"]\ntrusted_hash = \"sha256:" + strings.Repeat("0", 64) + "\"\n"
	testtree.WriteFiles(t, codexHome, map[string]string{"config.toml": cfg})
	out, _ := expectRun(t, home, "status --codex", 0, "status", "--json", "--codex", src)
	validateReport(t, reportSchema(t), out)
	var rep struct {
		Packages []struct {
			Components []struct {
				Ref           string `json:"ref"`
				Authorization string `json:"authorization"`
				Codex         []struct {
					Key, Status string
				} `json:"codex_trust"`
			} `json:"components"`
		} `json:"packages"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	c := rep.Packages[0].Components[0]
	if c.Ref != ref || c.Authorization != "revoked" || len(c.Codex) != 1 || c.Codex[0].Status != "modified" || c.Codex[0].Key != "guard@team:hooks/hooks.json:pre_tool_use:0:0" {
		t.Fatalf("status --codex: %+v", c)
	}
	out, _ = expectRun(t, home, "status --codex text", 0, "status", "--codex", src)
	if !strings.Contains(out, "codex: modified  guard@team:hooks/hooks.json:pre_tool_use:0:0") {
		t.Fatalf("text status lacks the Codex column:\n%s", out)
	}
	if after := testtree.ReadFile(t, filepath.Join(codexHome, "config.toml")); after != cfg {
		t.Fatal("status --codex changed Codex's config.toml")
	}
}
