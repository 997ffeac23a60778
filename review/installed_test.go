package review

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// An installed plugin whose directory marketplace no longer loads it (here the
// marketplace.json lost its string name, which fails the whole marketplace) is reviewed on its own,
// with the install note and a warning; it never drops out of the review.
func TestInstalledPluginNeverDropped(t *testing.T) {
	base := t.TempDir()
	market, plugins := filepath.Join(base, "market"), filepath.Join(base, "claude", "plugins")
	write := func(p, s string) {
		t.Helper()
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(market, ".claude-plugin/marketplace.json"), `{"name":5,"owner":{"name":"o"},"plugins":[{"name":"fmt","source":"./fmt"}]}`)
	write(filepath.Join(market, "fmt/.claude-plugin/plugin.json"), `{"name":"fmt"}`)
	write(filepath.Join(market, "fmt/hooks/hooks.json"), `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo hi"}]}]}}`)
	write(filepath.Join(plugins, "installed_plugins.json"), `{"version":2,"plugins":{"fmt@m":[{"scope":"user","installPath":"`+filepath.Join(plugins, "cache/m/fmt/1")+`"}]}}`)
	write(filepath.Join(plugins, "known_marketplaces.json"), `{"m":{"source":{"source":"directory","path":"`+market+`"},"installLocation":"`+market+`"}}`)
	res, err := Open(Options{}, plugins)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Packages) != 1 {
		t.Fatalf("%d packages, want the installed plugin: %+v", len(res.Packages), res.Diagnostics)
	}
	p := res.Packages[0]
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
