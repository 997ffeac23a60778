package claudecode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadInstallationsExactKeys: Claude Code 2.1.328 reads installed_plugins.json,
// known_marketplaces.json, marketplace.json and settings with JSON.parse and exact member
// names, the last of repeated names winning. A name spelled in another case beside the
// real one is a different member Claude never reads, so it must change neither the folder
// reviewed nor the enabled state.
func TestReadInstallationsExactKeys(t *testing.T) {
	type want struct {
		folder  string // relative to the fixture base
		enabled bool
	}
	cases := []struct {
		name                               string
		installed, known, settings, market string
		want                               want
	}{
		{
			name:      "installPath twin",
			installed: `{"version":2,"plugins":{"p@gh":[{"scope":"user","installPath":"$BASE/cache/real","InstallPath":"$BASE/cache/decoy"}]}}`,
			settings:  `{"enabledPlugins":{"p@gh":true}}`,
			want:      want{"cache/real", true},
		},
		{
			name:      "Plugins beside plugins",
			installed: `{"version":2,"plugins":{"p@gh":[{"scope":"user","installPath":"$BASE/cache/real"}]},"Plugins":{"p@gh":[{"scope":"user","installPath":"$BASE/cache/decoy"}]}}`,
			settings:  `{"enabledPlugins":{"p@gh":true}}`,
			want:      want{"cache/real", true},
		},
		{
			name:      "ENABLEDPLUGINS after enabledPlugins",
			installed: `{"version":2,"plugins":{"p@gh":[{"scope":"user","installPath":"$BASE/cache/real"}]}}`,
			settings:  `{"enabledPlugins":{"p@gh":true},"ENABLEDPLUGINS":{"p@gh":false}}`,
			want:      want{"cache/real", true},
		},
		{
			name:      "a directory marketplace spelled SOURCE is not one",
			installed: `{"version":2,"plugins":{"p@gh":[{"scope":"user","installPath":"$BASE/cache/real"}]}}`,
			known:     `{"gh":{"source":{"source":"github","repo":"o/r"},"SOURCE":{"source":"directory","path":"$BASE/market"},"installLocation":"$BASE/mcopy","InstallLocation":"$BASE/market"}}`,
			market:    `{"name":"gh","owner":{"name":"o"},"plugins":[{"name":"p","source":"./decoy"}]}`,
			settings:  `{"enabledPlugins":{"p@gh":true}}`,
			want:      want{"cache/real", true},
		},
		{
			name:      "the entry's source is read by its exact name",
			installed: `{"version":2,"plugins":{"p@dir":[{"scope":"user","installPath":"$BASE/cache/real"}]}}`,
			known:     `{"dir":{"source":{"source":"directory","path":"$BASE/market"},"installLocation":"$BASE/market"}}`,
			market:    `{"name":"dir","owner":{"name":"o"},"plugins":[{"name":"p","source":"./p","Source":"./decoy"}]}`,
			settings:  `{"enabledPlugins":{"p@dir":true}}`,
			want:      want{"market/p", true},
		},
		{
			// pluginRoot is prefixed to a bare name only: "./p" stays at the marketplace root.
			name:      "pluginRoot and a ./ source",
			installed: `{"version":2,"plugins":{"p@dir":[{"scope":"user","installPath":"$BASE/cache/real"}]}}`,
			known:     `{"dir":{"source":{"source":"directory","path":"$BASE/market"},"installLocation":"$BASE/market"}}`,
			market:    `{"name":"dir","owner":{"name":"o"},"metadata":{"pluginRoot":"./plugins"},"plugins":[{"name":"p","source":"./p"}]}`,
			settings:  `{"enabledPlugins":{"p@dir":true}}`,
			want:      want{"market/p", true},
		},
		{
			name:      "pluginRoot and a bare name",
			installed: `{"version":2,"plugins":{"p@dir":[{"scope":"user","installPath":"$BASE/cache/real"}]}}`,
			known:     `{"dir":{"source":{"source":"directory","path":"$BASE/market"},"installLocation":"$BASE/market"}}`,
			market:    `{"name":"dir","owner":{"name":"o"},"metadata":{"pluginRoot":"./plugins"},"plugins":[{"name":"p","source":"p"}]}`,
			settings:  `{"enabledPlugins":{"p@dir":true}}`,
			want:      want{"market/plugins/p", true},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := t.TempDir()
			for _, d := range []string{"cache/real", "cache/decoy", "market/p", "market/decoy", "market/plugins/p", "mcopy"} {
				if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			write := func(p, s string) {
				t.Helper()
				if s == "" {
					return
				}
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(strings.ReplaceAll(s, "$BASE", base)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			plugins := filepath.Join(base, "plugins")
			write(filepath.Join(plugins, installedFile), c.installed)
			write(filepath.Join(plugins, marketplacesFile), c.known)
			write(filepath.Join(base, "market", marketplaceFile), c.market)
			write(filepath.Join(base, "mcopy", marketplaceFile), c.market)
			settings := filepath.Join(base, "settings.json")
			write(settings, c.settings)
			ins, diags := ReadInstallations(plugins, []string{settings})
			if len(ins) != 1 {
				t.Fatalf("%d installs (%v), want 1", len(ins), diags)
			}
			if got := ins[0].Folder; got != filepath.Join(base, c.want.folder) || ins[0].Enabled != c.want.enabled {
				t.Fatalf("folder %s enabled %v; want %s enabled %v", got, ins[0].Enabled, filepath.Join(base, c.want.folder), c.want.enabled)
			}
		})
	}
}
