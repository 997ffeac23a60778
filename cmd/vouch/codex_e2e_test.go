package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	home, src := t.TempDir(), t.TempDir()
	writeTree(t, src, codexPlugin)
	ref := "guard#hook:hooks/hooks.json:pre_tool_use:0:0"

	code, out, errs := trustRun(t, home, "check", src, ref)
	expect(t, "check unreviewed", code, 1, out, errs)
	code, out, errs = trustRun(t, home, "approve", "--yes", src, ref)
	expect(t, "approve", code, 0, out, errs)
	code, out, errs = trustRun(t, home, "check", src, ref)
	expect(t, "check approved", code, 0, out, errs)

	editByte(t, filepath.Join(src, "hooks/guard.sh"), "exit 0", "exit 2")
	code, out, errs = trustRun(t, home, "check", src, ref)
	expect(t, "check after the script changed", code, 1, out, errs)
	if st := statusOf(t, home, src, ref); st != "changed" {
		t.Fatalf("status after edit = %s, want changed", st)
	}
	code, out, errs = trustRun(t, home, "approve", "--yes", src, ref)
	expect(t, "approve again", code, 0, out, errs)
	code, out, errs = trustRun(t, home, "revoke", "--yes", src, ref)
	expect(t, "revoke", code, 0, out, errs)
	code, out, errs = trustRun(t, home, "check", src, ref)
	expect(t, "check revoked", code, 1, out, errs)

	// Codex's own trust, read-only: one install, its hook trusted for another definition.
	codexHome := t.TempDir()
	t.Setenv("CODEX_HOME", codexHome)
	cfg := "[plugins.\"guard@team\"]\nenabled = true\n\n[hooks.state.\"guard@team:hooks/hooks.json:pre_tool_use:0:0\"]\ntrusted_hash = \"sha256:" + strings.Repeat("0", 64) + "\"\n"
	cfgPath := filepath.Join(codexHome, "config.toml")
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = trustRun(t, home, "status", "--json", "--codex", src)
	expect(t, "status --codex", code, 0, out, errs)
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
	code, out, errs = trustRun(t, home, "status", "--codex", src)
	expect(t, "status --codex text", code, 0, out, errs)
	if !strings.Contains(out, "codex: modified  guard@team:hooks/hooks.json:pre_tool_use:0:0") {
		t.Fatalf("text status lacks the Codex column:\n%s", out)
	}
	after, _ := os.ReadFile(cfgPath)
	if string(after) != cfg {
		t.Fatal("status --codex changed Codex's config.toml")
	}
}
