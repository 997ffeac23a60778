package review

import (
	"path/filepath"
	"testing"

	"vouch/model"
	"vouch/review/internal/loadertest"
)

// A Claude Code plugin is read as one: never as an Agent Plugins root named
// ".claude-plugin" (its plugin.json is not at the root), and a Claude Desktop
// manifest.json beside .claude-plugin/ is not a Splice package. A folder that also holds
// a root Agent Plugins plugin.json gives both packages (one folder, several clients).
func TestClaudeCodeDetection(t *testing.T) {
	dir := t.TempDir()
	cc := filepath.Join(dir, "cc")
	loadertest.WriteFile(t, filepath.Join(cc, ".claude-plugin", "plugin.json"), `{"name": "cc"}`)
	loadertest.WriteFile(t, filepath.Join(cc, "hooks", "hooks.json"), `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}`)
	desk := filepath.Join(dir, "desk")
	loadertest.WriteFile(t, filepath.Join(desk, ".claude-plugin", "plugin.json"), `{"name": "desk"}`)
	loadertest.WriteFile(t, filepath.Join(desk, "manifest.json"), `{"manifest_version": "0.3", "name": "desk"}`)
	both := filepath.Join(dir, "both")
	loadertest.WriteFile(t, filepath.Join(both, ".claude-plugin", "plugin.json"), `{"name": "both"}`)
	loadertest.WriteFile(t, filepath.Join(both, "plugin.json"), manifest)
	for _, src := range []string{dir, cc, desk, filepath.Join(cc, ".claude-plugin")} {
		res := mustOpen(t, Options{}, src)
		for _, p := range res.Packages {
			if p.Name == ".claude-plugin" || filepath.Base(p.Root) == ".claude-plugin" {
				t.Errorf("%s: .claude-plugin read as a package root (%s)", src, p.Format)
			}
			// The Desktop manifest is an MCP Bundle's, read beside the plugin;
			// never a Splice package.
			if filepath.Base(p.Root) == "desk" && p.Format != model.FormatClaudeCode && p.Format != model.FormatMCPB {
				t.Errorf("desk read as %s", p.Format)
			}
		}
	}
	res := mustOpen(t, Options{}, dir)
	formats := map[string][]model.Format{}
	for _, p := range res.Packages {
		formats[filepath.Base(p.Root)] = append(formats[filepath.Base(p.Root)], p.Format)
	}
	if f := formats["cc"]; len(f) != 1 || f[0] != model.FormatClaudeCode {
		t.Errorf("cc: %v", f)
	}
	if f := formats["both"]; len(f) != 2 {
		t.Errorf("both: %v, want an agent-plugins and a claude-code package", f)
	}
	cp := res.Packages[0]
	for _, p := range res.Packages {
		if filepath.Base(p.Root) == "cc" {
			cp = p
		}
	}
	if cp.Component(model.KindHook, "Stop:0:0") == nil {
		t.Errorf("the Stop hook is not listed")
	}
}
