package review

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"vouch/model"
	"vouch/review/internal/loadertest"
)

// An installed plugin whose directory marketplace no longer loads it (here the
// marketplace.json lost its string name, which fails the whole marketplace) is reviewed on its own,
// with the install note and a warning; it never drops out of the review.
func TestInstalledPluginNeverDropped(t *testing.T) {
	base := t.TempDir()
	market, plugins := filepath.Join(base, "market"), filepath.Join(base, "claude", "plugins")
	loadertest.WriteFile(t, filepath.Join(market, ".claude-plugin/marketplace.json"), `{"name":5,"owner":{"name":"o"},"plugins":[{"name":"fmt","source":"./fmt"}]}`)
	loadertest.WriteFile(t, filepath.Join(market, "fmt/.claude-plugin/plugin.json"), `{"name":"fmt"}`)
	loadertest.WriteFile(t, filepath.Join(market, "fmt/hooks/hooks.json"), `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo hi"}]}]}}`)
	loadertest.WriteFile(t, filepath.Join(plugins, "installed_plugins.json"), `{"version":2,"plugins":{"fmt@m":[{"scope":"user","installPath":"`+filepath.Join(plugins, "cache/m/fmt/1")+`"}]}}`)
	loadertest.WriteFile(t, filepath.Join(plugins, "known_marketplaces.json"), `{"m":{"source":{"source":"directory","path":"`+market+`"},"installLocation":"`+market+`"}}`)
	p := openInstalled(t, plugins)
	var codes []string
	for _, d := range p.Diagnostics {
		codes = append(codes, d.Code)
	}
	joined := strings.Join(codes, " ")
	if p.Name != "fmt" || !slices.Contains(codes, "claude-installed") || !strings.Contains(joined, "claude-installed-entry-not-loaded") {
		t.Fatalf("package %s with diagnostics %v", p.Name, codes)
	}
	if len(p.Components) == 0 {
		t.Fatalf("the hook of the installed plugin is not listed")
	}
}

// TestInstalledFromCopiedMarketplace: a plugin installed from a marketplace Claude Code
// copied (GitHub here) runs from its cache folder with its marketplace entry merged
// (Claude Code 2.1.328). A strict: false entry is the whole definition: its hook and LSP
// server run although the cache folder holds only a README, so they are reviewed.
func TestInstalledFromCopiedMarketplace(t *testing.T) {
	base := t.TempDir()
	plugins := filepath.Join(base, "claude", "plugins")
	mcopy, cache := filepath.Join(plugins, "marketplaces", "gh"), filepath.Join(plugins, "cache", "gh", "lsp", "1.0.0")
	loadertest.WriteFile(t, filepath.Join(mcopy, ".claude-plugin/marketplace.json"), `{"name":"gh","owner":{"name":"o"},"plugins":[{"name":"lsp","source":{"source":"github","repo":"o/lsp"},"strict":false,
		"lspServers":{"go":{"command":"gopls","extensionToLanguage":{".go":"go"}}},
		"hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo stop"}]}]}}]}`)
	loadertest.WriteFile(t, filepath.Join(cache, "README.md"), "only a README\n")
	loadertest.WriteFile(t, filepath.Join(plugins, "installed_plugins.json"), `{"version":2,"plugins":{"lsp@gh":[{"scope":"user","installPath":"`+cache+`"}]}}`)
	loadertest.WriteFile(t, filepath.Join(plugins, "known_marketplaces.json"), `{"gh":{"source":{"source":"github","repo":"o/market"},"installLocation":"`+mcopy+`"}}`)
	p := openInstalled(t, plugins)
	kinds := map[string]bool{}
	for _, c := range p.Components {
		kinds[string(c.Kind)] = true
	}
	if p.Name != "lsp" || p.Root != cache || !kinds["hook"] || !kinds["lsp-server"] {
		var refs []string
		for _, c := range p.Components {
			refs = append(refs, string(c.Kind)+":"+c.ID)
		}
		t.Fatalf("package %s at %s has %v; want the entry's hook and LSP server from %s", p.Name, p.Root, refs, cache)
	}
}

// openInstalled opens the Claude Code plugins folder and returns the one package it must
// hold, the installed plugin.
func openInstalled(t *testing.T, plugins string) *model.Package {
	t.Helper()
	res := mustOpen(t, Options{}, plugins)
	if len(res.Packages) != 1 {
		t.Fatalf("%d packages, want the installed plugin: %+v", len(res.Packages), res.Diagnostics)
	}
	return res.Packages[0]
}
