package claudecode

import (
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
	"vouch/model"
	"vouch/review/closure/closuretest"
)

// TestClosureLayouts runs the hostile layouts every loader shares (closuretest) against a
// Claude Code hook, a stdio server and an LSP server: each layout is built at the plugin
// root, the folder their commands run files from, and either blocks all three with a
// diagnostic naming the link, or a mutation of what they run changes every digest.
func TestClosureLayouts(t *testing.T) {
	closuretest.Run(t, "p", "plugin", func(t *testing.T, dir string) {
		testtree.WriteFile(t, filepath.Join(dir, manifestFile), `{"name": "p"}`, 0o644)
		testtree.WriteFile(t, filepath.Join(dir, hooksFile), `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "node \"${CLAUDE_PLUGIN_ROOT}/run.js\""}]}]}}`, 0o644)
		testtree.WriteFile(t, filepath.Join(dir, mcpFile), `{"mcpServers": {"s": {"command": "node", "args": ["${CLAUDE_PLUGIN_ROOT}/run.js"]}}}`, 0o644)
		testtree.WriteFile(t, filepath.Join(dir, lspFile), `{"py": {"command": "pyright", "extensionToLanguage": {".py": "python"}}}`, 0o644)
	}, func(t *testing.T, dir string) map[string]*model.Component {
		p := Load(dir, Options{})[0]
		return map[string]*model.Component{"hook": p.Component(model.KindHook, "PreToolUse:0:0"),
			"server": p.Component(model.KindMCPServer, "s"), "lsp": p.Component(model.KindLSPServer, "py")}
	})
}

// TestNotCoveredPerComponent: every Claude Code component that starts a process lists
// what its approval cannot bind in NotCovered, not in its Summary: stdio and LSP servers
// (exec form), monitors, !`…` injections, headersHelper, subagentStatusLine, and a remote
// bundle.
func TestNotCoveredPerComponent(t *testing.T) {
	dir := t.TempDir()
	for rel, body := range map[string]string{
		manifestFile:             `{"name": "p", "mcpServers": ["./.mcp.json", "https://x.invalid/b.mcpb"]}`,
		mcpFile:                  `{"mcpServers": {"s": {"command": "uvx", "args": ["tool"], "env": {"PYTHONPATH": "/opt/lib"}}, "r": {"type": "http", "url": "https://x.invalid/mcp", "headersHelper": "gh auth token"}}}`,
		lspFile:                  `{"go": {"command": "gopls", "args": ["-remote=auto"], "extensionToLanguage": {".go": "go"}}}`,
		"monitors/monitors.json": `[{"name": "ci", "command": "gh run watch", "description": "CI status"}]`,
		"commands/st.md":         "---\ndescription: Status.\n---\n!`git status`\n",
		"settings.json":          `{"subagentStatusLine": {"type": "command", "command": "jq -r .model"}}`,
	} {
		testtree.WriteFile(t, filepath.Join(dir, rel), body, 0o644)
	}
	p := Load(dir, Options{})[0]
	want := map[string]string{
		"mcp-server:s":           "path-program uvx,fetched-at-start tool,code-loading-env PYTHONPATH,outside-path /opt/lib",
		"mcp-server:r":           "path-program gh",
		"lsp-server:go":          "path-program gopls",
		"monitor:ci":             "path-program gh",
		"command:st":             "path-program git",
		"settings:settings.json": "path-program jq",
	}
	for _, c := range p.Components {
		if c.Kind == model.KindMCPServer && strings.HasSuffix(c.ID, ".mcpb") {
			want["mcp-server:"+c.ID] = "fetched-at-start https://x.invalid/b.mcpb"
		}
	}
	if len(want) != 7 {
		t.Errorf("the remote bundle is not listed: %v", codes(p))
	}
	for ref, w := range want {
		c := listed(t, p, ref)
		if c == nil {
			continue
		}
		if got := strings.Join(notCoveredAs(c, " "), ","); got != w {
			t.Errorf("%s: not_covered %q, want %q", ref, got, w)
		}
		sum := strings.Join(c.Summary, "\n")
		if !strings.Contains(sum, "see not covered") || strings.Contains(sum, "user's PATH") {
			t.Errorf("%s: the summary must point at the list and not repeat it:\n%s", ref, sum)
		}
	}
}
