package claudecode

import (
	"os"
	"path/filepath"
	"testing"

	"vouch/model"
	"vouch/review/closure/closuretest"
)

// TestClosureLayouts runs the hostile layouts every loader shares (closuretest) against a
// Claude Code hook, a stdio server and an LSP server: each layout is built at the plugin
// root, the folder their commands run files from, and either blocks all three with a
// diagnostic naming the link, or a mutation of what they run changes every digest.
func TestClosureLayouts(t *testing.T) {
	for _, l := range closuretest.Layouts() {
		t.Run(l.Name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "p")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(dir, manifestFile), `{"name": "p"}`, 0o644)
			writeFile(t, filepath.Join(dir, hooksFile), `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "node \"${CLAUDE_PLUGIN_ROOT}/run.js\""}]}]}}`, 0o644)
			writeFile(t, filepath.Join(dir, mcpFile), `{"mcpServers": {"s": {"command": "node", "args": ["${CLAUDE_PLUGIN_ROOT}/run.js"]}}}`, 0o644)
			writeFile(t, filepath.Join(dir, lspFile), `{"py": {"command": "pyright", "extensionToLanguage": {".py": "python"}}}`, 0o644)
			closuretest.Build(t, dir, l)
			closuretest.Check(t, l, dir, "plugin", func() map[string]*model.Component {
				p := Load(dir, Options{})[0]
				return map[string]*model.Component{"hook": p.Component(model.KindHook, "PreToolUse:0:0"),
					"server": p.Component(model.KindMCPServer, "s"), "lsp": p.Component(model.KindLSPServer, "py")}
			})
		})
	}
}
