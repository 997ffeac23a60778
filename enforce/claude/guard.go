package claude

import (
	"encoding/json"

	"vouch/enforce"
)

// Guard is how the guard plugin calls vouch: the absolute path of the vouch program and
// the vouch home its ledgers are in (hooks run with Claude's environment, which need not
// have VOUCH_HOME), and whether UserPromptSubmit blocks while anything loads outside
// vouch.
type Guard struct {
	Program string
	Home    string
	Strict  bool
}

// guardFiles are the guard plugin's files. Observed with Claude Code [Version]: a
// PreToolUse hook matching mcp__.* receives mcp_server.name = "plugin:P:S" and refuses
// the call with exit 2 or a deny decision, also under bypassPermissions (exit 1, a crash
// or a timeout let the call through, so the handler turns every error of its own into a
// refusal); SessionStart's systemMessage reaches the user; UserPromptSubmit exiting 2
// blocks the prompt.
func (g Guard) files() map[string][]byte {
	cmd := func(sub string) string {
		return shellLine([]string{g.Program, "--home", g.Home, "hook", sub})
	}
	type handler struct {
		Type    string `json:"type"`
		Command string `json:"command"`
		Timeout int    `json:"timeout"`
	}
	type group struct {
		Matcher string    `json:"matcher,omitempty"`
		Hooks   []handler `json:"hooks"`
	}
	hooks := map[string][]group{
		"PreToolUse":   {{Matcher: "mcp__.*", Hooks: []handler{{"command", cmd("claude-pre-tool-use"), 30}}}},
		"SessionStart": {{Hooks: []handler{{"command", cmd("claude-session-start"), 30}}}},
	}
	if g.Strict {
		hooks["UserPromptSubmit"] = []group{{Hooks: []handler{{"command", cmd("claude-user-prompt-submit"), 30}}}}
	}
	hj, _ := json.MarshalIndent(map[string]any{"description": "vouch: refuse MCP calls to servers not approved now; list what loads outside vouch", "hooks": hooks}, "", "  ")
	pj, _ := json.MarshalIndent(map[string]string{"name": GuardName, "version": "1.0.0", "description": "Written by vouch: refuses MCP calls to servers not approved in vouch, and lists what loads outside vouch at session start."}, "", "  ")
	return map[string][]byte{
		".claude-plugin/plugin.json": append(pj, '\n'),
		"hooks/hooks.json":           append(hj, '\n'),
	}
}

// writeGuard writes the guard plugin's folder in vouch's marketplace.
func writeGuard(l enforce.Layout, g Guard) error {
	return writeFolder(PluginDir(l, GuardName), g.files())
}
