package claudecode

import (
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
	"vouch/model"
	"vouch/review/internal/loadertest"
)

// TestModulesSchema: Claude Code (2.1.328, 2.1.332) takes at most one hooks module, as a
// string, and refuses the whole hooks file otherwise, its hooks with its modules; Codex
// (0.169.0, 0.171.0) rejects any hooks file that has a "modules" key, whatever it holds.
func TestModulesSchema(t *testing.T) {
	for _, tc := range []struct {
		name, modules string
		claude        model.SupportStatus // the module's and the hook's Claude answer
		refusedCode   bool
	}{
		{"one module", `["./lib/a.mjs"]`, model.Supported, false},
		{"no module", `[]`, model.Supported, false},
		{"a second entry", `["./lib/a.mjs", "./lib/b.mjs"]`, model.NotSupported, true},
		{"a number beside it", `["./lib/a.mjs", 7]`, model.NotSupported, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			testtree.WriteFile(t, filepath.Join(dir, manifestFile), `{"name": "p"}`, 0o644)
			testtree.WriteFile(t, filepath.Join(dir, hooksFile), `{"modules": `+tc.modules+`, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}`, 0o644)
			testtree.WriteFile(t, filepath.Join(dir, "lib", "a.mjs"), "export default function register() {}\n", 0o644)
			testtree.WriteFile(t, filepath.Join(dir, "lib", "b.mjs"), "export default function register() {}\n", 0o644)
			p := LoadPlugin(dir, Options{})
			if got := hasCode(p, "hook-modules-refused"); got != tc.refusedCode {
				t.Errorf("hook-modules-refused emitted = %v, want %v: %+v", got, tc.refusedCode, p.Diagnostics)
			}
			refs := []string{"hook:Stop:0:0"}
			if tc.modules != `[]` {
				refs = append(refs, "hook-module:lib/a.mjs")
			}
			for _, ref := range refs {
				c := mustListed(t, p, ref)
				if c.Validity != model.Valid {
					t.Errorf("%s: %s, want valid", ref, c.Validity)
				}
				if s := supportOf(c, clientClaude); s.Status != tc.claude {
					t.Errorf("%s: Claude %s (%s), want %s", ref, s.Status, s.Detail, tc.claude)
				}
				// Codex rejects a hooks file with a modules key; it has no modules at all.
				if s := supportOf(c, clientCodex); s.Status != model.NotSupported || c.Kind == model.KindHook && !strings.Contains(s.Detail, "unknown field `modules`") {
					t.Errorf("%s: Codex %s (%s), want not supported for the modules key", ref, s.Status, s.Detail)
				}
			}
		})
	}
}

// hasCode reports whether the package or one of its components carries the diagnostic.
func hasCode(p *model.Package, code string) bool {
	return loadertest.HasCode(loadertest.Diagnostics(p), code)
}
