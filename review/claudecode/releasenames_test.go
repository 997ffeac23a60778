package claudecode

import (
	"path/filepath"
	"regexp"
	"testing"

	"vouch/internal/testtree"
	"vouch/model"
)

// clientReleases reports, for each modelled client a sentence names, whether it also
// names one of that client's releases.
func clientReleases(text string) map[string]bool {
	out := map[string]bool{}
	for _, c := range model.Clients() {
		if len(c.Versions) == 0 || !regexp.MustCompile(`\b`+regexp.QuoteMeta(c.Name)+`\b`).MatchString(text) {
			continue
		}
		out[c.Name] = false
		for _, v := range c.Versions {
			if regexp.MustCompile(`(^|[^.\d])` + regexp.QuoteMeta(v) + `($|[^.\d])`).MatchString(text) {
				out[c.Name] = true
			}
		}
	}
	return out
}

// TestRareSummariesNameARelease: the summary lines and capability details no example or
// recorded fixture reaches (an invalid LSP entry, the events whose account names Claude
// Code, an over-long hooks file, an entry that installs nothing) name a release of each
// client they mention, as the release-sentence test of the review package holds the rest.
func TestRareSummariesNameARelease(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		kind  model.Kind // the component whose texts must name a client
	}{
		{"invalid LSP entry", map[string]string{lspFile: `{"go": {"extensionToLanguage": {".go": "go"}}}`}, model.KindLSPServer},
		{"Setup hook", map[string]string{hooksFile: `{"hooks": {"Setup": [{"hooks": [{"type": "command", "command": "echo setup"}]}]}}`}, model.KindHook},
		{"PermissionRequest hook", map[string]string{hooksFile: `{"hooks": {"PermissionRequest": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo ask"}]}]}}`}, model.KindHook},
		{"hooks file over the bound", map[string]string{hooksFile: manyHandlers(1025), "run.sh": "#!/bin/sh\n"}, model.KindHook},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			testtree.WriteFile(t, filepath.Join(dir, manifestFile), `{"name": "rare"}`, 0o644)
			for name, data := range tc.files {
				testtree.WriteFile(t, filepath.Join(dir, name), data, 0o644)
			}
			p := LoadPlugin(dir, Options{})
			checkClientTexts(t, p, tc.kind)
		})
	}
}

// TestEmptyEntrySummaryNamesARelease: a marketplace entry whose folder holds nothing
// Claude Code loads says so with the releases that was observed on.
func TestEmptyEntrySummaryNamesARelease(t *testing.T) {
	dir := t.TempDir()
	testtree.WriteFile(t, filepath.Join(dir, marketplaceFile), `{"name": "m", "owner": {"name": "o"}, "plugins": [{"name": "empty", "source": "./empty"}]}`, 0o644)
	testtree.WriteFile(t, filepath.Join(dir, "empty", manifestFile), `{"name": "empty"}`, 0o644)
	mk, _, _ := LoadMarketplace(dir, Options{})
	if mk == nil {
		t.Fatal("no marketplace package")
	}
	checkClientTexts(t, mk, model.KindPlugin)
}

// checkClientTexts fails on a summary line or capability detail of p that names a client
// without a release, and when no component of kind has a text naming a client at all
// (the case would then hold nothing).
func checkClientTexts(t *testing.T, p *model.Package, kind model.Kind) {
	t.Helper()
	naming := 0
	reported := map[string]bool{} // one report per sentence, however many components give it
	for _, c := range p.Components {
		texts := append([]string(nil), c.Summary...)
		for _, cp := range c.Capabilities {
			texts = append(texts, cp.Detail)
		}
		for _, s := range texts {
			named := clientReleases(s)
			if c.Kind == kind && len(named) > 0 {
				naming++
			}
			for who, ok := range named {
				if !ok && !reported[who+s] {
					reported[who+s] = true
					t.Errorf("%s %s: names %s without one of its releases: %q", c.Kind, c.ID, who, s)
				}
			}
		}
	}
	if naming == 0 {
		t.Errorf("no summary line or capability of a %s names a client", kind)
	}
}
