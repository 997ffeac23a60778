package claudecode

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/model"
)

// installFixture lays out a Claude config dir the way Claude Code 2.1.328 leaves it after
// `plugin marketplace add <folder>`, `plugin install` of three plugins (one from a
// directory marketplace, one from a GitHub marketplace, one disabled): the shapes below
// were taken from the files Claude wrote in a scratch HOME.
func installFixture(t *testing.T) (config, market string) {
	t.Helper()
	base := t.TempDir()
	config = filepath.Join(base, "claude")
	market = filepath.Join(base, "market")
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	js := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	write(filepath.Join(market, ".claude-plugin/marketplace.json"), `{"name":"local-tools","owner":{"name":"x"},"plugins":[{"name":"fmt","source":"./plugins/fmt"},{"name":"lsp","source":"./plugins/lsp"}]}`)
	write(filepath.Join(market, "plugins/fmt/hooks/hooks.json"), `{"hooks":{}}`)
	write(filepath.Join(market, "plugins/lsp/README.md"), "x")
	cache := filepath.Join(config, "plugins/cache")
	write(filepath.Join(cache, "gh-tools/remote/1.0.0/README.md"), "x")
	write(filepath.Join(cache, "local-tools/fmt/0.1.0/README.md"), "x")
	write(filepath.Join(cache, "local-tools/lsp/unknown/README.md"), "x")
	write(filepath.Join(config, "plugins", installedFile), js(map[string]any{"version": 2, "plugins": map[string]any{
		"fmt@local-tools":   []any{map[string]any{"scope": "user", "installPath": filepath.Join(cache, "local-tools/fmt/0.1.0"), "version": "0.1.0"}},
		"lsp@local-tools":   []any{map[string]any{"scope": "user", "installPath": filepath.Join(cache, "local-tools/lsp/unknown"), "version": "unknown"}},
		"remote@gh-tools":   []any{map[string]any{"scope": "project", "projectPath": "/work/proj", "installPath": filepath.Join(cache, "gh-tools/remote/1.0.0"), "version": "1.0.0"}},
		"gone@gh-tools":     []any{map[string]any{"scope": "user", "installPath": filepath.Join(cache, "gh-tools/gone/1.0.0")}},
		"relative@gh-tools": []any{map[string]any{"scope": "user", "installPath": "cache/x"}},
	}}))
	write(filepath.Join(config, "plugins", marketplacesFile), js(map[string]any{
		"local-tools": map[string]any{"source": map[string]any{"source": "directory", "path": market}, "installLocation": market},
		"gh-tools":    map[string]any{"source": map[string]any{"source": "github", "repo": "o/r"}, "installLocation": filepath.Join(config, "plugins/marketplaces/gh-tools")},
	}))
	write(filepath.Join(config, "settings.json"), `{"enabledPlugins":{"fmt@local-tools":true,"lsp@local-tools":true,"remote@gh-tools":["^1.0.0"]}}`)
	return config, market
}

func TestReadInstallations(t *testing.T) {
	config, market := installFixture(t)
	project := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(project, []byte(`{"enabledPlugins":{"lsp@local-tools":false}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	user := filepath.Join(config, "settings.json")
	ins, diags := ReadInstallations(filepath.Join(config, "plugins"), []string{user, project, filepath.Join(t.TempDir(), "absent.json")})
	byID := map[string]Installation{}
	for _, in := range ins {
		byID[in.ID] = in
	}
	cases := []struct {
		id, folder, marketDir, by string
		enabled                   bool
	}{
		// A directory marketplace's plugin is read from the marketplace folder, not the cache.
		{"fmt@local-tools", filepath.Join(market, "plugins/fmt"), market, user, true},
		// Project settings win over the user's.
		{"lsp@local-tools", filepath.Join(market, "plugins/lsp"), market, project, false},
		// A GitHub marketplace's plugin runs from its cache copy; a version list enables it.
		{"remote@gh-tools", filepath.Join(config, "plugins/cache/gh-tools/remote/1.0.0"), "", user, true},
	}
	for _, c := range cases {
		in, ok := byID[c.id]
		if !ok {
			t.Fatalf("%s not read; got %v", c.id, ins)
		}
		if in.Folder != c.folder || in.MarketplaceDir != c.marketDir || in.Enabled != c.enabled || in.EnabledBy != c.by {
			t.Errorf("%s = folder %s market %q enabled %v by %s; want %s %q %v %s", c.id, in.Folder, in.MarketplaceDir, in.Enabled, in.EnabledBy, c.folder, c.marketDir, c.enabled, c.by)
		}
	}
	if len(ins) != 3 {
		t.Errorf("%d installs, want 3 (gone and relative are not reviewable)", len(ins))
	}
	codes := map[string]bool{}
	for _, d := range diags {
		codes[d.Code] = true
	}
	if !codes["claude-installed-missing"] || !codes["claude-installed-entry"] {
		t.Errorf("diagnostics %v lack the missing folder and the relative installPath", diags)
	}
	note := byID["remote@gh-tools"].Note()
	for _, want := range []string{"remote@gh-tools", "project scope: only in /work/proj", "enabled by " + user} {
		if !strings.Contains(note.Message, want) {
			t.Errorf("note %q lacks %q", note.Message, want)
		}
	}
	if !strings.Contains(byID["fmt@local-tools"].Note().Message, "an edit there changes what runs") {
		t.Errorf("a directory marketplace's note does not say its folder is what runs: %s", byID["fmt@local-tools"].Note().Message)
	}
}

func TestReadInstallationsBadFiles(t *testing.T) {
	cases := map[string]struct {
		installed string
		code      string
		n         int
	}{
		"malformed":        {`{"version":2,"plugins":`, "claude-state-malformed", 0},
		"wrong shape":      {`{"version":2,"plugins":[1]}`, "claude-state-malformed", 0},
		"newer version":    {`{"version":3,"plugins":{}}`, "claude-installed-version", 0},
		"entry not object": {`{"version":2,"plugins":{"a@b":[7]}}`, "claude-installed-entry", 0},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, installedFile), []byte(c.installed), 0o644); err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(dir, marketplacesFile), []byte(`not json`), 0o644)
			ins, diags := ReadInstallations(dir, nil)
			if len(ins) != c.n {
				t.Errorf("%d installs, want %d", len(ins), c.n)
			}
			found := false
			for _, d := range diags {
				found = found || d.Code == c.code
				if d.Severity == "" || d.Message == "" {
					t.Errorf("diagnostic without severity or message: %+v", d)
				}
			}
			if !found {
				t.Errorf("no %s in %v", c.code, diags)
			}
		})
	}
}

// FuzzInstalled feeds hostile installed_plugins.json, known_marketplaces.json and
// settings bytes to the reader: a diagnostic, never a panic, and every install it
// returns names an existing folder.
func FuzzInstalled(f *testing.F) {
	f.Add([]byte(`{"version":2,"plugins":{"a@m":[{"scope":"user","installPath":"/"}]}}`), []byte(`{"m":{"source":{"source":"directory","path":"/"},"installLocation":"/"}}`), []byte(`{"enabledPlugins":{"a@m":true}}`))
	f.Add([]byte(`{"version":2,"plugins":{"a@m":[{"installPath":"/nonexistent"}]}}`), []byte(`{}`), []byte(`{"enabledPlugins":{"a@m":[1,2]}}`))
	f.Add([]byte(`{"plugins":null}`), []byte(`[]`), []byte(`7`))
	f.Fuzz(func(t *testing.T, installed, markets, settings []byte) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, installedFile), installed, 0o644)
		os.WriteFile(filepath.Join(dir, marketplacesFile), markets, 0o644)
		sp := filepath.Join(dir, "settings.json")
		os.WriteFile(sp, settings, 0o644)
		ins, _ := ReadInstallations(dir, []string{sp})
		for _, in := range ins {
			if st, err := os.Stat(in.Folder); err != nil || !st.IsDir() {
				t.Fatalf("install %s names %s, not a folder", in.ID, in.Folder)
			}
			if d := in.Note(); d.Severity != model.SeverityInfo || d.Message == "" {
				t.Fatalf("bad note %+v", d)
			}
		}
	})
}
