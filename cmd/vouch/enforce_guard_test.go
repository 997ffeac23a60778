package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
)

func hookRun(t *testing.T, home, sub, input string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	a := &app{stdout: &out, stderr: &errb, stdin: strings.NewReader(input)}
	code := a.run([]string{"--home", home, "hook", sub})
	return code, out.String(), errb.String()
}

const mcpCall = `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"mcp__plugin_p_db__query","tool_input":{},"mcp_server":{"name":"plugin:p:db","source":"plugin"}}`

// denied checks the refusal is both of the forms Claude Code honours, and returns the
// reason.
func denied(t *testing.T, what string, code int, out, errs string) string {
	t.Helper()
	if code != 2 {
		t.Fatalf("%s: exit %d, want 2 (a refusal)\nstdout: %s\nstderr: %s", what, code, out, errs)
	}
	var d struct {
		HookSpecificOutput struct {
			HookEventName            string `json:"hookEventName"`
			PermissionDecision       string `json:"permissionDecision"`
			PermissionDecisionReason string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil || d.HookSpecificOutput.PermissionDecision != "deny" || d.HookSpecificOutput.HookEventName != "PreToolUse" {
		t.Fatalf("%s: stdout is not a deny decision (%v): %s", what, err, out)
	}
	return d.HookSpecificOutput.PermissionDecisionReason
}

func TestGuardPreToolUse(t *testing.T) {
	w := newEnforceWorld(t, true)
	expectRun(t, w.home, "approve", 0, "approve", "--yes", w.src, pHook, pDB)
	expectRun(t, w.home, "add", 0, "enforce", "claude", "add", w.src)

	code, out, errs := hookRun(t, w.home, "claude-pre-tool-use", mcpCall)
	if code != 0 || out != "" {
		t.Fatalf("an approved server's call was not let through: exit %d\n%s%s", code, out, errs)
	}

	staged := filepath.Join(w.home, "enforce", "claude-code", "plugins", "p", "server.mjs")
	if err := os.WriteFile(staged, []byte("tampered\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = hookRun(t, w.home, "claude-pre-tool-use", mcpCall)
	if why := denied(t, "server bytes changed", code, out, errs); !strings.Contains(why, "p#mcp-server:db") || !strings.Contains(why, "changed") {
		t.Fatalf("the refusal does not say the server changed: %s", why)
	}
	expectRun(t, w.home, "sync", 0, "enforce", "sync")
	if code, out, errs = hookRun(t, w.home, "claude-pre-tool-use", mcpCall); code != 0 {
		t.Fatalf("after sync the call is still refused: %s%s", out, errs)
	}

	// A project file turns the original install back on, and its copy was edited: both
	// copies could have started the server, so the call is refused.
	cwd, _ := os.Getwd()
	testtree.WriteFiles(t, cwd, map[string]string{".claude/settings.json": `{"enabledPlugins": {"p@upstream": true}}`})
	testtree.Replace(t, filepath.Join(w.claude, "plugins", "cache", "upstream", "p", "1.0.0", "server.mjs"), "db", "other")
	code, out, errs = hookRun(t, w.home, "claude-pre-tool-use", mcpCall)
	if why := denied(t, "an edited copy enabled by the project", code, out, errs); !strings.Contains(why, "upstream") {
		t.Fatalf("the refusal does not name the other copy: %s", why)
	}
	os.Remove(filepath.Join(cwd, ".claude", "settings.json"))

	for _, tc := range []struct{ name, input, want string }{
		{"not JSON", `{"mcp_server":`, "not JSON"},
		{"no server named", `{"hook_event_name":"PreToolUse","tool_name":"mcp__x__y"}`, "mcp_server.name"},
		{"a key in another case", `{"tool_name":"mcp__x__y","MCP_Server":{"name":"plugin:p:db"}}`, "mcp_server.name"},
		{"not a plugin's server", `{"tool_name":"mcp__db__q","mcp_server":{"name":"db","source":"user"}}`, "not a plugin's"},
		{"an unknown plugin", `{"tool_name":"mcp__plugin_q_db__q","mcp_server":{"name":"plugin:q:db"}}`, "no enabled copy"},
		{"an unknown server", `{"tool_name":"mcp__plugin_p_x__q","mcp_server":{"name":"plugin:p:x"}}`, "not a component"},
	} {
		code, out, errs := hookRun(t, w.home, "claude-pre-tool-use", tc.input)
		if why := denied(t, tc.name, code, out, errs); !strings.Contains(why, tc.want) {
			t.Fatalf("%s: reason %q does not contain %q", tc.name, why, tc.want)
		}
	}

	// Its own failure is a refusal, never exit 1: a damaged ledger.
	if err := os.WriteFile(filepath.Join(w.home, "ledger.toml"), []byte("[[decision]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs = hookRun(t, w.home, "claude-pre-tool-use", mcpCall)
	denied(t, "damaged ledger", code, out, errs)
}

func TestGuardSessionStartAndStatusNameEveryWayAround(t *testing.T) {
	w := newEnforceWorld(t, true)
	expectRun(t, w.home, "approve", 0, "approve", "--yes", w.src, pHook, pDB)
	expectRun(t, w.home, "add", 0, "enforce", "claude", "add", "--strict", w.src)
	hooks := testtree.ReadFile(t, filepath.Join(w.home, "enforce", "claude-code", "plugins", "vouch-guard", "hooks", "hooks.json"))
	if !strings.Contains(hooks, "claude-user-prompt-submit") {
		t.Fatalf("--strict did not add the UserPromptSubmit hook:\n%s", hooks)
	}
	cwd, _ := os.Getwd()
	session := `{"hook_event_name":"SessionStart","cwd":` + quoteJSON(cwd) + `}`
	code, out, errs := hookRun(t, w.home, "claude-session-start", session)
	if code != 0 || out != "" {
		t.Fatalf("nothing loads outside vouch, yet SessionStart said: exit %d %s%s", code, out, errs)
	}
	code, _, errs = hookRun(t, w.home, "claude-user-prompt-submit", session)
	if code != 0 {
		t.Fatalf("strict blocked a prompt with nothing outside vouch: %s", errs)
	}

	ways := []struct {
		files            map[string]string
		root, want, code string
	}{
		{map[string]string{"skills/sk/.claude-plugin/plugin.json": `{"name": "sk"}`}, w.claude, "sk@skills-dir", "skills-dir-plugin"},
		{map[string]string{".mcp.json": `{"mcpServers": {"local-db": {"command": "x"}}}`}, cwd, "local-db", "project-mcp-server"},
		{map[string]string{".claude/settings.json": `{"enabledPlugins": {"other@x": true}}`}, cwd, "other@x", "project-override"},
	}
	for _, way := range ways {
		testtree.WriteFiles(t, way.root, way.files)
		out, _ = expectRun(t, w.home, "status with "+way.code, 1, "enforce", "status", "--json")
		if !strings.Contains(out, `"code": "`+way.code+`"`) || !strings.Contains(out, way.want) {
			t.Fatalf("status does not name %s (%s):\n%s", way.want, way.code, out)
		}
		code, out, errs = hookRun(t, w.home, "claude-session-start", session)
		var msg struct {
			SystemMessage string `json:"systemMessage"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &msg) != nil || !strings.Contains(msg.SystemMessage, way.want) {
			t.Fatalf("SessionStart does not list %s: exit %d %s%s", way.want, code, out, errs)
		}
		code, _, errs = hookRun(t, w.home, "claude-user-prompt-submit", session)
		if code != 2 || !strings.Contains(errs, way.want) {
			t.Fatalf("strict did not block with %s: exit %d %s", way.want, code, errs)
		}
		for rel := range way.files {
			os.Remove(filepath.Join(way.root, rel))
		}
	}

	// A plugin of another marketplace, enabled and installed.
	other := filepath.Join(w.claude, "plugins", "cache", "x", "other", "1.0.0")
	testtree.WriteFiles(t, other, map[string]string{".claude-plugin/plugin.json": `{"name": "other"}`})
	testtree.WriteFiles(t, w.claude, map[string]string{"plugins/installed_plugins.json": `{"version": 2, "plugins": {"p@vouch": [{"scope": "user", "installPath": "/nonexistent", "version": "1"}], "other@x": [{"scope": "user", "installPath": "` + other + `", "version": "1.0.0"}]}}`})
	out, _ = expectRun(t, w.home, "status with another marketplace", 1, "enforce", "status")
	if !strings.Contains(out, "other@x is enabled") {
		t.Fatalf("status does not name the other marketplace's plugin:\n%s", out)
	}
}
