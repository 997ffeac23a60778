package main

import (
	"encoding/json"
	"path/filepath"
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
