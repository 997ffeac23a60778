package claudecode

import (
	"strings"
	"testing"

	"vouch/model"
)

// TestBrokenExamples keeps examples/claude-code/README.md honest.
func TestBrokenExamples(t *testing.T) {
	const dir = "../../examples/claude-code/"
	cases := map[string]want{
		"broken-hooks-no-wrapper": {pkgCode: "hooks-file-no-wrapper", count: 0},
		// Claude ignores the wrapper; Codex reads it as a hooks file's and runs the hook.
		"broken-inline-hooks-wrapper": {pkgCode: "hooks-inline-wrapper", noErrors: true, count: 1, validity: map[string]string{"hook:plugin.json:PostToolUse:0:0": "valid"},
			support: map[string]string{"hook:plugin.json:PostToolUse:0:0/claude-code": "unsupported: Claude Code 2.1.328 and 2.1.332 read the \"hooks\" wrapper", "hook:plugin.json:PostToolUse:0:0/codex": "supported"}},
		"broken-unknown-event": {pkgCode: "hook-unknown-event", validity: map[string]string{"hook:postToolUse:0:0": "unsupported", "hook:AfterEdit:0:0": "unsupported"},
			support: map[string]string{"hook:postToolUse:0:0/claude-code": "unsupported", "hook:postToolUse:0:0/codex": "unsupported"}},
		"broken-reserved-name": {pkgCode: "manifest-name-reserved", noErrors: true, validity: map[string]string{"hook:PostToolUse:0:0": "valid"}},
		// Claude rejects the manifest; Codex ignores commands and runs hooks/hooks.json.
		"broken-path-prefix": {rejected: true, pkgCode: "manifest-path-prefix", count: 1,
			support: map[string]string{"hook:hooks/hooks.json:post_tool_use:0:0/claude-code": "unsupported: Claude Code rejects this plugin's manifest", "hook:hooks/hooks.json:post_tool_use:0:0/codex": "supported"}},
		"broken-duplicate-server": {compCode: map[string]string{"mcp-server:formatter": "mcp-server-duplicate-name", "mcp-server:formatter~2": "mcp-server-duplicate-name"}, summary: map[string]string{"mcp-server:formatter~2": "npx"}},
		"broken-unquoted-root":    {compCode: map[string]string{"hook:PostToolUse:0:0": "hook-unquoted-plugin-root"}},
	}
	for name, w := range cases {
		t.Run(name, func(t *testing.T) {
			pkgs := Load(dir+name, Options{})
			if len(pkgs) != 1 {
				t.Fatalf("%d packages", len(pkgs))
			}
			checkWant(t, pkgs[0], w)
		})
	}
	pkgs := Load(dir+"marketplace", Options{})
	if len(pkgs) != 3 || pkgs[0].Format != model.FormatClaudeCodeMarketplace {
		t.Fatalf("marketplace example: %d packages", len(pkgs))
	}
	checkWant(t, pkgs[0], want{noErrors: true, count: 5, summary: map[string]string{"plugin:lint-pack": "Unpinned", "plugin:docs-helper": "ref main (a branch or tag can move)"}})
	for _, p := range pkgs[1:] {
		if !p.Valid() {
			t.Errorf("%s: %v", p.Name, codes(p))
		}
		if p.Name == "go-lsp" && p.Component(model.KindLSPServer, "gopls") == nil {
			t.Errorf("go-lsp lacks the LSP server its strict:false entry declares")
		}
	}
	if s := strings.Join(pkgs[0].Component(model.KindPlugin, "lint-pack").Summary, " "); !strings.Contains(s, "lifecycle scripts") {
		t.Errorf("npm risk not stated: %s", s)
	}
}
