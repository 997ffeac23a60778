package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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
		"codex named#skill:lint":               nil,
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
		if out, err := exec.Command("cp", "-r", filepath.Join("testdata", "skills-dir", "skills"), cfg).CombinedOutput(); err != nil {
			t.Fatalf("%v %s", err, out)
		}
		if withInstalls {
			writeTree(t, filepath.Join(cfg, "plugins"), map[string]string{"installed_plugins.json": `{"version":2,"plugins":{}}`})
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
		code, out, errs = trustRun(t, home, "approve", "--yes", src, "session-notes#hook:SessionStart:0:0")
		expect(t, "approve", code, 0, out, errs)
		code, out, errs = runVouch(t, home, "status", "--claude")
		if code != 0 || !strings.Contains(out, "approved") {
			t.Errorf("installs %v: status --claude after approval: exit %d\n%s%s", withInstalls, code, out, errs)
		}
	}
}
