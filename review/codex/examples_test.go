package codex

import (
	"testing"

	"vouch/model"
	"vouch/review/internal/loadertest"
)

// TestExamples keeps examples/codex and its README honest.
func TestExamples(t *testing.T) {
	const dir = "../../examples/codex/"
	cases := map[string]struct {
		valid bool
		code  string
		hooks int
	}{
		"commit-guard":            {valid: true, hooks: 2},
		"broken-hooks-schema":     {code: "hooks-file-rejected"},
		"broken-matcher":          {code: "hooks-matcher-invalid", hooks: 1},
		"empty-hooks-two-clients": {valid: true, code: "hooks-default-replaced"},
	}
	for name, w := range cases {
		t.Run(name, func(t *testing.T) {
			p := Load(dir+name, Options{})
			// Validity is at the narrowest boundary (a rejected hooks file leaves the
			// plugin valid); a broken example always carries an error.
			if errs := p.Count().Errors; !p.Valid() || (errs == 0) != w.valid {
				t.Errorf("valid = %v, %d errors: %v", p.Valid(), errs, loadertest.Codes(p))
			}
			if w.code != "" && !hasCode(p, w.code) {
				t.Errorf("missing %s: %v", w.code, loadertest.Codes(p))
			}
			n := 0
			for _, c := range p.Components {
				if c.Kind == model.KindHook && c.Contract != nil {
					n++
				}
			}
			if n != w.hooks {
				t.Errorf("%d approvable hooks, want %d", n, w.hooks)
			}
		})
	}
	pkgs := LoadMarketplace(dir+"team-marketplace", Options{})
	if len(pkgs) != 2 || !pkgs[0].Valid() || !pkgs[1].Valid() {
		t.Fatal("team-marketplace must load clean with its plugin")
	}
	h := pkgs[1].Component(model.KindHook, "codex-hooks.json:post_tool_use:0:0")
	if key, _ := h.Details.Get("codex trust key"); key != "lint-on-save@team:codex-hooks.json:post_tool_use:0:0" {
		t.Fatalf("README's key: %v", key)
	}
	if to, _ := h.Contract.Fields.Get("timeout"); to != int64(1) {
		t.Fatalf("timeout 0 must become 1 s, got %v", to)
	}
}
