package codex

import (
	"testing"

	"vouch/model"
)

// TestMarketplaceInstallsNothing: what makes Codex 0.169.0 and 0.171.0 install nothing
// is an error, never a warning: an unknown authentication policy rejects the whole file,
// and an entry whose folder has no .codex-plugin/plugin.json fails to install.
func TestMarketplaceInstallsNothing(t *testing.T) {
	for _, tc := range []struct {
		dir, code string
		pkgLevel  bool
	}{
		{"testdata/marketplaces/bad-auth", "marketplace-policy-invalid", true},
		{"testdata/marketplaces/claude-only", "marketplace-entry-no-codex-manifest", false},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			mp := LoadMarketplace(tc.dir, Options{})[0]
			var found *model.Diagnostic
			for i, d := range mp.Diagnostics {
				if d.Code == tc.code {
					found = &mp.Diagnostics[i]
				}
			}
			for _, c := range mp.Components {
				for i, d := range c.Diagnostics {
					if d.Code == tc.code {
						found = &c.Diagnostics[i]
					}
				}
				for _, s := range c.Support {
					if s.Status == model.Supported {
						t.Errorf("entry %s is supported (%s); Codex installs nothing from it", c.ID, s.Detail)
					}
				}
			}
			if found == nil || found.Severity != model.SeverityError || (found.Boundary == model.BoundaryPackage) != tc.pkgLevel {
				t.Errorf("%s: %+v", tc.code, found)
			}
		})
	}
}
