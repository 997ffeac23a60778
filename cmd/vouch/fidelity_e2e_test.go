package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
)

// reportComponents maps each component ref of a JSON report to the component, by format.
func reportComponents(t *testing.T, out string) map[string]map[string]any {
	t.Helper()
	var rep struct {
		Packages []struct {
			Format     string           `json:"format"`
			Components []map[string]any `json:"components"`
		} `json:"packages"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	got := map[string]map[string]any{}
	for _, p := range rep.Packages {
		for _, c := range p.Components {
			got[p.Format+" "+c["ref"].(string)] = c
		}
	}
	return got
}

// TestValidateShowsDisplayNames: validate --json gives, beside each id, the name a client
// lists the component under where it is another (Claude Code: an agent's and an output
// style's frontmatter name; Codex: a skill's), keyed by client id, and the report keeps
// to its schema.
func TestValidateShowsDisplayNames(t *testing.T) {
	src := filepath.Join("..", "..", "review", "testdata", "display-names")
	code, out, errs := runVouch(t, t.TempDir(), "validate", "--json", src)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	validateReport(t, reportSchema(t), out)
	got := reportComponents(t, out)
	for ref, want := range map[string]map[string]any{
		"claude-code named#agent:reviewer":     {"claude-code": "code-reviewer"},
		"claude-code named#output-style:terse": {"claude-code": "Terse Answers"},
		"codex named#skill:extra/fmt":          {"codex": "fmt"},
		"claude-code named#skill:lint":         nil,
	} {
		c := got[ref]
		if c == nil {
			t.Fatalf("no component %s in %v", ref, got)
		}
		names, _ := c["display_names"].(map[string]any)
		if len(names) != len(want) {
			t.Errorf("%s: display_names %v, want %v", ref, names, want)
		}
		for k, v := range want {
			if names[k] != v {
				t.Errorf("%s: display_names[%s] = %v, want %v", ref, k, names[k], v)
			}
		}
	}
	// The Codex manifest names ./extra/, which replaces skills/ for Codex.
	if got["codex named#skill:lint"] != nil {
		t.Errorf("Codex lists skills/lint although its manifest's skills path replaces skills/")
	}
}

// TestValidateLSPDeclaredTwice: a server declared in a marketplace entry and in the
// plugin's .lsp.json is reported as one server.
func TestValidateLSPDeclaredTwice(t *testing.T) {
	src := filepath.Join("..", "..", "review", "claudecode", "testdata", "cases", "lsp-twice")
	code, out, errs := runVouch(t, t.TempDir(), "validate", "--json", src)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	validateReport(t, reportSchema(t), out)
	got := reportComponents(t, out)
	for _, ref := range []string{"claude-code same#lsp-server:rust", "claude-code differs#lsp-server:lua"} {
		c := got[ref]
		if c == nil {
			t.Fatalf("no %s in %v", ref, got)
		}
		found := false
		for _, d := range c["diagnostics"].([]any) {
			found = found || d.(map[string]any)["code"] == "lsp-server-declared-twice"
		}
		if !found {
			t.Errorf("%s does not say it is declared twice and runs once", ref)
		}
	}
	for _, ref := range []string{"claude-code same#lsp-server:rust~2", "claude-code differs#lsp-server:lua~2"} {
		if got[ref] != nil {
			t.Errorf("%s: the entry's declaration is reported as a second server", ref)
		}
	}
}

// TestClaudeSkillsDirPlugins: status --claude reviews a plugin in Claude Code's skills
// folder (<name>@skills-dir: loaded with no install step), with a note saying so, both
// beside recorded installs and with no plugins folder at all; a plain skill folder there
// is not called a plugin.
func TestClaudeSkillsDirPlugins(t *testing.T) {
	for _, withInstalls := range []bool{false, true} {
		cfg := t.TempDir()
		testtree.Copy(t, filepath.Join("testdata", "skills-dir", "skills"), filepath.Join(cfg, "skills"))
		if withInstalls {
			testtree.WriteFiles(t, filepath.Join(cfg, "plugins"), map[string]string{"installed_plugins.json": `{"version":2,"plugins":{}}`})
		}
		t.Setenv("CLAUDE_CONFIG_DIR", cfg)
		home := t.TempDir()
		code, out, errs := runVouch(t, home, "status", "--claude", "--json")
		expect(t, "status --claude", code, 0, out, errs)
		validateReport(t, reportSchema(t), out)
		got := reportComponents(t, out)
		if got["claude-code session-notes#hook:SessionStart:0:0"] == nil {
			t.Fatalf("installs %v: the skills-dir plugin's hook is not reviewed: %v", withInstalls, got)
		}
		if !strings.Contains(out, "session-notes@skills-dir") || !strings.Contains(out, "claude-skills-dir-plugin") {
			t.Errorf("installs %v: no note naming session-notes@skills-dir:\n%s", withInstalls, out)
		}
		if strings.Contains(out, "tidy@skills-dir") {
			t.Errorf("installs %v: a plain skill folder is called a plugin", withInstalls)
		}
		// The hook can be approved and checked through the folder Claude loads.
		src := filepath.Join(cfg, "skills", "session-notes")
		expectRun(t, home, "approve", 0, "approve", "--yes", src, "session-notes#hook:SessionStart:0:0")
		code, out, errs = runVouch(t, home, "status", "--claude")
		if code != 0 || !strings.Contains(out, "approved") {
			t.Errorf("installs %v: status --claude after approval: exit %d\n%s%s", withInstalls, code, out, errs)
		}
	}
}

// TestCodexTrustOfClaudePlugin: a Claude Code plugin installed in Codex as it is (no
// .codex-plugin/) has Codex's own hook trust beside vouch's answer in status --codex,
// under the keys Codex gives it, and trusting a hook's definition in config.toml shows.
func TestCodexTrustOfClaudePlugin(t *testing.T) {
	src := filepath.Join("testdata", "codex-claude-plugin")
	codexHome := t.TempDir()
	t.Setenv("CODEX_HOME", codexHome)
	cfgPath := filepath.Join(codexHome, "config.toml")
	cfg := "[plugins.\"shellguard@team\"]\nenabled = true\n"
	testtree.WriteFiles(t, codexHome, map[string]string{"config.toml": cfg})
	home := t.TempDir()
	trustOf := func() map[string][]any {
		t.Helper()
		code, out, errs := runVouch(t, home, "status", "--json", "--codex", src)
		expect(t, "status --codex", code, 0, out, errs)
		validateReport(t, reportSchema(t), out)
		got := map[string][]any{}
		for ref, c := range reportComponents(t, out) {
			if tr, ok := c["codex_trust"].([]any); ok {
				got[ref] = tr
			}
		}
		return got
	}
	got := trustOf()
	hook := got["claude-code shellguard#hook:PreToolUse:0:0"]
	if len(hook) != 1 || len(got) != 2 {
		t.Fatalf("codex_trust of the Claude plugin's hooks: %v", got)
	}
	first := hook[0].(map[string]any)
	if first["key"] != "shellguard@team:hooks/hooks.json:pre_tool_use:0:0" || first["status"] != "untrusted" {
		t.Fatalf("Codex's record of the PreToolUse hook: %v", first)
	}
	cfg += "\n[hooks.state.\"shellguard@team:hooks/hooks.json:pre_tool_use:0:0\"]\ntrusted_hash = \"" + first["definition_hash"].(string) + "\"\n"
	testtree.WriteFiles(t, codexHome, map[string]string{"config.toml": cfg})
	if tr := trustOf()["claude-code shellguard#hook:PreToolUse:0:0"]; len(tr) != 1 || tr[0].(map[string]any)["status"] != "trusted" {
		t.Errorf("after trusting the definition in config.toml: %v", tr)
	}
	if tr := trustOf()["claude-code shellguard#hook:SessionStart:0:0"]; len(tr) != 1 || tr[0].(map[string]any)["status"] != "untrusted" {
		t.Errorf("the other hook: %v", tr)
	}
	if testtree.ReadFile(t, cfgPath) != cfg {
		t.Error("status --codex changed Codex's config.toml")
	}
	// A plugin with its own Codex manifest answers through its Codex package only.
	both := t.TempDir()
	testtree.Copy(t, src, both)
	testtree.WriteFiles(t, both, map[string]string{".codex-plugin/plugin.json": `{"name": "shellguard", "version": "2.0.0"}`})
	code, out, errs := runVouch(t, home, "status", "--json", "--codex", both)
	expect(t, "status --codex of a two-manifest plugin", code, 0, out, errs)
	comps := reportComponents(t, out)
	if comps["codex shellguard#hook:hooks/hooks.json:pre_tool_use:0:0"]["codex_trust"] == nil {
		t.Fatalf("the Codex package's hook has no Codex trust: %v", comps)
	}
	for ref, c := range comps {
		if strings.HasPrefix(ref, "claude-code ") && c["codex_trust"] != nil {
			t.Errorf("%s: a Claude package beside a Codex manifest got Codex trust", ref)
		}
	}
}
