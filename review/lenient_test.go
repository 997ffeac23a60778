package review

import (
	"path/filepath"
	"testing"

	"vouch/model"
)

// TestSupportFollowsTheClient: where vouch's own strictness is not the client's, the
// component is valid and supported for the clients that load it, and the format's finding
// stays as a warning (or a note): frontmatter keys outside the Agent Skills spec (Codex
// 0.169.0/0.171.0 and Claude Code load the skill), and command frontmatter that is not
// YAML (Claude Code reads it line by line).
func TestSupportFollowsTheClient(t *testing.T) {
	for _, tc := range []struct {
		dir     string
		format  model.Format
		ref     [2]string
		clients []string
		code    string
		sev     model.Severity
		field   [2]string // a detail the client reads, when one is checked
	}{
		{"standalone-extra-keys", model.FormatAgentSkills, [2]string{"skill", "standalone-extra-keys"}, []string{model.ClientClaudeCode, model.ClientCodex}, "skill-unknown-field", model.SeverityWarning, [2]string{}},
		{"codex-extra-keys", model.FormatCodex, [2]string{"skill", "notes"}, []string{model.ClientCodex}, "skill-unknown-field", model.SeverityWarning, [2]string{}},
		// The same folder's Claude Code reading: Claude Code loads its skills/ too.
		{"codex-extra-keys", model.FormatClaudeCode, [2]string{"skill", "notes"}, []string{model.ClientClaudeCode}, "skill-unknown-field", model.SeverityWarning, [2]string{}},
		{"claude-arg-hint", model.FormatClaudeCode, [2]string{"command", "triage"}, []string{model.ClientClaudeCode}, "frontmatter-lenient", model.SeverityInfo, [2]string{"argument-hint", "[issue-id] [reason]"}},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			res := mustOpen(t, Options{}, filepath.Join("testdata", "lenient", tc.dir))
			var pkg *model.Package
			for _, p := range res.Packages {
				if p.Format == tc.format {
					pkg = p
				}
			}
			if pkg == nil {
				t.Fatalf("no %s package: %+v", tc.format, res)
			}
			c := pkg.Component(model.Kind(tc.ref[0]), tc.ref[1])
			if c == nil {
				t.Fatalf("no %s:%s", tc.ref[0], tc.ref[1])
			}
			if c.Validity != model.Valid || c.Contract == nil {
				t.Errorf("validity %s (contract %v), want valid and approvable", c.Validity, c.Contract != nil)
			}
			for _, id := range tc.clients {
				found := false
				for _, s := range c.Support {
					if s.Provider == id {
						found = true
						if s.Status != model.Supported {
							t.Errorf("%s: %s (%s)", id, s.Status, s.Detail)
						}
					}
				}
				if !found {
					t.Errorf("no answer for %s", id)
				}
			}
			found := false
			for _, d := range c.Diagnostics {
				if d.Code == tc.code {
					found = true
					if d.Severity != tc.sev {
						t.Errorf("%s is %s, want %s", d.Code, d.Severity, tc.sev)
					}
				}
				if d.IsError() {
					t.Errorf("error left: %s %s", d.Code, d.Message)
				}
			}
			if !found {
				t.Errorf("no %s finding", tc.code)
			}
			if tc.field[0] != "" {
				if v, _ := c.Details.Get(tc.field[0]); v != tc.field[1] {
					t.Errorf("%s = %v, want %q", tc.field[0], v, tc.field[1])
				}
			}
		})
	}
}
