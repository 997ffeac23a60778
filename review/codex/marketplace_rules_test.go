package codex

import (
	"strings"
	"testing"

	"vouch/model"
)

// TestMarketplaceInstallsNothing: what makes Codex 0.169.0 and 0.171.0 install nothing
// is an error, never a warning: an unknown authentication policy or an entry without a
// source rejects the whole file (recorded: "missing field `source`", every entry "not
// found in marketplace"), and an entry whose folder has no plugin manifest Codex reads
// fails to install.
func TestMarketplaceInstallsNothing(t *testing.T) {
	bare := t.TempDir()
	writeFiles(t, bare, map[string]string{
		".agents/plugins/marketplace.json": `{"name": "bare", "plugins": [{"name": "p", "source": {"source": "local", "path": "./plugins/p"}}]}`,
		"plugins/p/skills/s/SKILL.md":      "---\nname: s\ndescription: d\n---\n",
	})
	for _, tc := range []struct {
		dir, code string
		pkgLevel  bool
	}{
		{"testdata/marketplaces/bad-auth", "marketplace-policy-invalid", true},
		{"testdata/marketplaces/mismatch", "marketplace-source-missing", true},
		{bare, "marketplace-entry-no-codex-manifest", false},
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

// TestMarketplaceInstallsClaudeManifest: Codex 0.169.0 and 0.171.0 install an entry whose
// folder has only .claude-plugin/plugin.json (recorded: exit 0, and plugin/read answers
// that manifest's version), so the entry is supported and its folder is read as the
// Codex package Codex installs.
func TestMarketplaceInstallsClaudeManifest(t *testing.T) {
	pkgs := LoadMarketplace("testdata/marketplaces/claude-only", Options{})
	entry := pkgs[0].Component(model.KindPlugin, "cc")
	if entry == nil || entry.Validity != model.Valid || len(entry.Diagnostics) != 0 {
		t.Fatalf("entry: %+v", entry)
	}
	if len(entry.Support) != 1 || entry.Support[0].Status != model.Supported || !strings.Contains(entry.Support[0].Detail, ".claude-plugin/plugin.json") {
		t.Errorf("support: %+v", entry.Support)
	}
	if !containsSub(entry.Summary, "Codex 0.169.0 and 0.171.0 install it") {
		t.Errorf("summary: %q", entry.Summary)
	}
	if len(pkgs) != 2 || pkgs[1].Name != "cc" || !hasCode(pkgs[1], "codex-reads-claude-manifest") {
		t.Fatalf("want the Codex package of plugins/cc read from its Claude Code manifest, got %d packages", len(pkgs))
	}
}
