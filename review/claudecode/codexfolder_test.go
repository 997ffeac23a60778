package claudecode

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"vouch/internal/testtree"
	"vouch/model"
	"vouch/review/internal/loadertest"
)

// TestCodexFolderDefaultLayout: a Codex plugin folder (.codex-plugin/plugin.json, no
// .claude-plugin/) that holds any part of Claude Code's default layout is a Claude Code
// plugin too, read without a manifest, with a note naming the Claude Code releases that
// load it; one that holds none of it (only Codex's own files, bin/ or settings.json) is
// not. The folders are built in a temporary directory: a committed folder with
// .codex-plugin/ under a testdata folder is a fixture the client recorder must run.
func TestCodexFolderDefaultLayout(t *testing.T) {
	const codexManifest = `{"name": "cx", "version": "1.0.0", "description": "A Codex plugin."}`
	hooks := `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}}`
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string // the kind:id of every component of the Claude Code package; nil: none
	}{
		{"hooks only", map[string]string{hooksFile: hooks}, []string{"hook:PreToolUse:0:0"}},
		{"skills only", map[string]string{"skills/tidy/SKILL.md": "---\nname: tidy\ndescription: Tidies.\n---\nTidy up.\n"}, []string{"skill:tidy"}},
		{".mcp.json only", map[string]string{mcpFile: `{"mcpServers": {"db": {"command": "node", "args": ["db.js"]}}}`, "db.js": ""}, []string{"mcp-server:db"}},
		{".lsp.json only", map[string]string{lspFile: `{"go": {"command": "gopls", "extensionToLanguage": {".go": "go"}}}`}, []string{"lsp-server:go"}},
		{"commands only", map[string]string{"commands/st.md": "---\ndescription: Status.\n---\nSay the status.\n"}, []string{"command:st"}},
		{"agents only", map[string]string{"agents/rev.md": "---\nname: rev\ndescription: Reviews.\n---\nReview.\n"}, []string{"agent:rev"}},
		{"top SKILL.md", map[string]string{"SKILL.md": "---\nname: cx\ndescription: Tidies.\n---\nTidy up.\n"}, []string{"skill:cx"}},
		{"nothing of Claude's", map[string]string{".app.json": `{"apps": {"t": {"id": "t"}}}`, "codex-hooks.json": hooks}, nil},
		{"bin/ only", map[string]string{"bin/tool": "#!/bin/sh\n"}, nil},
		{"settings.json only", map[string]string{settingsFile: `{"agent": "rev"}`}, nil},
		// Claude Code reads a folder holding a marketplace as a folder of plugins.
		{"a Claude marketplace's folder", map[string]string{hooksFile: hooks, marketplaceFile: `{"name": "m", "owner": {"name": "o"}, "plugins": []}`}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "cx")
			testtree.WriteFile(t, filepath.Join(dir, ".codex-plugin/plugin.json"), codexManifest, 0o644)
			for rel, body := range tc.files {
				testtree.WriteFile(t, filepath.Join(dir, filepath.FromSlash(rel)), body, 0o644)
			}
			if got := IsRoot(dir); got != (tc.want != nil) {
				t.Fatalf("IsRoot = %v, want %v", got, tc.want != nil)
			}
			pkgs := Load(dir, Options{})
			if tc.want == nil {
				for _, p := range pkgs {
					if p.Format == model.FormatClaudeCode {
						t.Fatalf("Load gave the Claude Code plugin %s, want none", p.Name)
					}
				}
				return
			}
			if len(pkgs) != 1 || pkgs[0].Format != model.FormatClaudeCode || pkgs[0].Rejected {
				t.Fatalf("Load gave %+v, want one Claude Code package", pkgs)
			}
			p := pkgs[0]
			var have []string
			for _, c := range p.Components {
				if c.Validity != model.Valid {
					t.Errorf("%s:%s is %s", c.Kind, c.ID, c.Validity)
				}
				have = append(have, string(c.Kind)+":"+c.ID)
			}
			sort.Strings(have)
			if strings.Join(have, " ") != strings.Join(tc.want, " ") {
				t.Errorf("components %v, want %v", have, tc.want)
			}
			note := loadertest.Find(p.Diagnostics, "claude-reads-codex-folder")
			if note == nil {
				t.Fatalf("no claude-reads-codex-folder note: %+v", p.Diagnostics)
			}
			for _, want := range []string{"Codex plugin folder", "--plugin-dir", "marketplace entry", model.ClientAt(model.ClientClaudeCode, model.ClaudeCode328), model.ClientAt(model.ClientCodex, model.Codex169), `"cx"`} {
				if !strings.Contains(note.Message, want) {
					t.Errorf("note %q does not say %q", note.Message, want)
				}
			}
			for _, not := range []string{"claude-no-manifest", "codex-reads-other-manifest"} {
				if loadertest.Find(p.Diagnostics, not) != nil {
					t.Errorf("the package also says %s, which describes a folder without .codex-plugin/ or with .claude-plugin/", not)
				}
			}
		})
	}
}

// TestCodexFolderKeepsClaudeManifestReading: a folder with both manifests is read
// through .claude-plugin/plugin.json as before, without the Codex-folder note.
func TestCodexFolderKeepsClaudeManifestReading(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "both")
	testtree.WriteFile(t, filepath.Join(dir, ".codex-plugin/plugin.json"), `{"name": "both"}`, 0o644)
	testtree.WriteFile(t, filepath.Join(dir, manifestFile), `{"name": "both"}`, 0o644)
	testtree.WriteFile(t, filepath.Join(dir, "bin/tool"), "#!/bin/sh\n", 0o755)
	pkgs := Load(dir, Options{})
	if len(pkgs) != 1 || pkgs[0].Format != model.FormatClaudeCode {
		t.Fatalf("Load gave %+v, want the Claude Code package", pkgs)
	}
	if loadertest.Find(pkgs[0].Diagnostics, "claude-reads-codex-folder") != nil || loadertest.Find(pkgs[0].Diagnostics, "codex-reads-other-manifest") == nil {
		t.Errorf("diagnostics %+v, want codex-reads-other-manifest and no Codex-folder note", pkgs[0].Diagnostics)
	}
}

// TestCodexReadsOtherSentence: a Claude package component that Codex does not load
// because Codex reads the folder through .codex-plugin/plugin.json says "instead of
// .claude-plugin/plugin.json" only when that manifest is there; in a Codex folder read by
// Claude Code's default layout it points at the folder's Codex package instead.
func TestCodexReadsOtherSentence(t *testing.T) {
	hooks := `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}}`
	for _, tc := range []struct {
		name    string
		claude  bool // the folder also holds .claude-plugin/plugin.json
		want    string
		wantNot string
	}{
		{"beside a Claude manifest", true, "instead of .claude-plugin/plugin.json", "Codex package lists"},
		{"default layout only", false, "the folder's Codex package lists what Codex loads", "instead of .claude-plugin"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "cx")
			// The Codex manifest names its own hooks file, so Codex does not load hooks/hooks.json.
			testtree.WriteFile(t, filepath.Join(dir, ".codex-plugin/plugin.json"), `{"name": "cx", "version": "1.0.0", "hooks": "./codex-hooks.json"}`, 0o644)
			testtree.WriteFile(t, filepath.Join(dir, "codex-hooks.json"), hooks, 0o644)
			testtree.WriteFile(t, filepath.Join(dir, hooksFile), hooks, 0o644)
			if tc.claude {
				testtree.WriteFile(t, filepath.Join(dir, manifestFile), `{"name": "cx"}`, 0o644)
			}
			var details []string
			for _, p := range Load(dir, Options{}) {
				for _, c := range p.Components {
					if c.Kind != model.KindHook {
						continue
					}
					for _, s := range c.Support {
						if s.Provider == model.ClientCodex {
							details = append(details, s.Detail)
						}
					}
				}
			}
			all := strings.Join(details, "\n")
			if !strings.Contains(all, tc.want) || strings.Contains(all, tc.wantNot) {
				t.Fatalf("Codex details of the Claude package's hook:\n%s\nwant %q and not %q", all, tc.want, tc.wantNot)
			}
		})
	}
}
