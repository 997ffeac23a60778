package claudecode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/model"
	"vouch/review/closure/closuretest"
)

// TestClosureLayouts runs the hostile layouts every loader shares (closuretest) against a
// Claude Code hook, a stdio server and an LSP server: each layout is built at the plugin
// root, the folder their commands run files from, and either blocks all three with a
// diagnostic naming the link, or a mutation of what they run changes every digest.
func TestClosureLayouts(t *testing.T) {
	refs := []struct {
		kind model.Kind
		id   string
	}{{model.KindHook, "PreToolUse:0:0"}, {model.KindMCPServer, "s"}, {model.KindLSPServer, "py"}}
	load := func(dir string) *model.Package { return Load(dir, Options{})[0] }
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
			p := load(dir)
			before := map[string]string{}
			for _, r := range refs {
				c := p.Component(r.kind, r.id)
				if c == nil {
					t.Fatalf("%s:%s not listed: %v", r.kind, r.id, codes(p))
				}
				if l.Blocks {
					if c.Contract != nil || !hasCodeSuffix(c.Diagnostics, "plugin"+l.Code) {
						t.Errorf("%s: contract %v, diagnostics %+v", r.kind, c.Contract != nil, c.Diagnostics)
					}
					continue
				}
				if c.Contract == nil {
					t.Fatalf("%s: no contract: %+v", r.kind, c.Diagnostics)
				}
				before[r.id] = c.Contract.MustDigest()
			}
			if l.Blocks {
				return
			}
			l.Mutate(t, dir)
			p = load(dir)
			for _, r := range refs {
				if c := p.Component(r.kind, r.id); c == nil || c.Contract == nil || c.Contract.MustDigest() == before[r.id] {
					t.Errorf("%s: the mutation kept the approval", r.kind)
				}
			}
		})
	}
}

func hasCodeSuffix(ds []model.Diagnostic, code string) bool {
	for _, d := range ds {
		if d.Code == code || strings.HasSuffix(d.Code, code) {
			return true
		}
	}
	return false
}
