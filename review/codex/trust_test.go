package codex

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"vouch/model"
)

// TestTrustMatchesCodex reads a config.toml whose [hooks.state] entries were given to
// Codex 0.169.0 for the hooks-default fixture (installed as hooks-default@oracle) and
// checks vouch's reading against the trustStatus Codex's hooks/list answered:
//
//	pre_tool_use:0:0        both hashes Codex's own       -> Codex: trusted
//	post_tool_use:0:0       definition right, content wrong, enabled=false -> Codex: modified, disabled
//	session_end:0:0         definition wrong              -> Codex: modified
//	user_prompt_submit:0:0  definition only, no content   -> Codex: trusted
//
// vouch cannot recompute the content hash, so the first two read "definition-trusted":
// the one place where vouch says less than Codex, and says so.
func TestTrustMatchesCodex(t *testing.T) {
	data, err := os.ReadFile("testdata/trust/hooks-default.config.toml")
	if err != nil {
		t.Fatal(err)
	}
	cfg := &Config{States: map[string]HookState{}}
	if err := ParseConfig(append(data, []byte("\n[plugins.\"hooks-default@oracle\"]\nenabled = true\n")...), cfg); err != nil {
		t.Fatal(err)
	}
	pkg := Load("testdata/cases/hooks-default", Options{})
	got := map[string]HookTrust{}
	for _, h := range Trust(pkg, cfg) {
		got[h.Key] = h
	}
	want := []struct {
		key, status string
		enabled     bool
	}{
		{"hooks-default@oracle:hooks/hooks.json:pre_tool_use:0:0", TrustDefinition, true},
		{"hooks-default@oracle:hooks/hooks.json:post_tool_use:0:0", TrustDefinition, false},
		{"hooks-default@oracle:hooks/hooks.json:session_end:0:0", TrustModified, true},
		{"hooks-default@oracle:hooks/hooks.json:user_prompt_submit:0:0", TrustTrusted, true},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d entries: %v", len(got), got)
	}
	for _, w := range want {
		g, ok := got[w.key]
		if !ok || g.Status != w.status || g.Enabled != w.enabled {
			t.Errorf("%s: got %+v, want %s enabled=%v", w.key, g, w.status, w.enabled)
		}
	}
}

func TestTrustNotInstalledAndUntrusted(t *testing.T) {
	pkg := Load("testdata/cases/hooks-manifest-path", Options{})
	cfg := &Config{States: map[string]HookState{}}
	hs := Trust(pkg, cfg)
	if len(hs) != 1 || hs[0].Status != TrustNotInstalled || hs[0].Key != "hooks-manifest-path@<marketplace>:codex/hooks.json:session_start:0:0" {
		t.Fatalf("not installed: %+v", hs)
	}
	cfg.Plugins = []string{"hooks-manifest-path@a", "hooks-manifest-path@b", "other@a"}
	hs = Trust(pkg, cfg)
	if len(hs) != 2 || hs[0].Status != TrustUntrusted || hs[1].Key != "hooks-manifest-path@b:codex/hooks.json:session_start:0:0" {
		t.Fatalf("two installs: %+v", hs)
	}
}

func TestReadConfig(t *testing.T) {
	dir := t.TempDir()
	cfg, err := ReadConfig(dir)
	if err != nil || len(cfg.States) != 0 {
		t.Fatalf("missing config: %v %v", cfg, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte("[hooks.state.\"a@b:x\"]\ntrusted_hash = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadConfig(dir); err == nil {
		t.Fatal("a trusted_hash that is not a string must be an error")
	}
	big := make([]byte, MaxConfigSize+10)
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadConfig(dir); err == nil {
		t.Fatal("an oversized config must be refused")
	}
}

// An exported entry, fed back to judge as Codex's own config would hold it, reads trusted:
// the contract carries everything Codex's trust needs for the definition.
func TestExportEntryRoundTrip(t *testing.T) {
	pkg := Load("testdata/cases/hooks-inline", Options{})
	cfg := &Config{States: map[string]HookState{}, Plugins: []string{"hooks-inline@team"}}
	for _, c := range pkg.Components {
		key, hash, ok := ExportEntry(c, "hooks-inline@team")
		if !ok {
			t.Fatalf("%s: no export entry", c.ID)
		}
		cfg.States[key] = HookState{TrustedHash: hash}
	}
	hs := Trust(pkg, cfg)
	if len(hs) != 2 {
		t.Fatalf("%+v", hs)
	}
	for _, h := range hs {
		if h.Status != TrustTrusted {
			t.Errorf("%s: %s", h.Key, h.Status)
		}
	}
	if _, _, ok := ExportEntry(nil, "x@y"); ok {
		t.Error("nil component exported")
	}
}

// TestParseConfigExactKeys: Codex reads config.toml with exact key names, so a table or
// key spelled in another case is not the one Codex reads and must not count as trust or
// as an installed plugin.
func TestParseConfigExactKeys(t *testing.T) {
	cases := []struct {
		name, text    string
		states        int
		hash, plugins string
	}{
		{"exact", "[hooks.state.\"a@b:x\"]\ntrusted_hash = \"sha256:1\"\n[plugins.\"a@b\"]\n", 1, "sha256:1", "a@b"},
		{"upper table", "[HOOKS.state.\"a@b:x\"]\ntrusted_hash = \"sha256:1\"\n", 0, "", ""},
		{"upper state", "[hooks.STATE.\"a@b:x\"]\ntrusted_hash = \"sha256:1\"\n", 0, "", ""},
		{"upper field", "[hooks.state.\"a@b:x\"]\nTRUSTED_HASH = \"sha256:1\"\n", 1, "", ""},
		{"upper plugins", "[Plugins.\"a@b\"]\nenabled = true\n", 0, "", ""},
		{"case twin beside the real one", "[hooks.state.\"a@b:x\"]\ntrusted_hash = \"sha256:real\"\nTrusted_Hash = \"sha256:twin\"\n", 1, "sha256:real", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := &Config{States: map[string]HookState{}}
			if err := ParseConfig([]byte(c.text), cfg); err != nil {
				t.Fatal(err)
			}
			if len(cfg.States) != c.states || cfg.States["a@b:x"].TrustedHash != c.hash || strings.Join(cfg.Plugins, ",") != c.plugins {
				t.Fatalf("states %+v plugins %v; want %d states, hash %q, plugins %q", cfg.States, cfg.Plugins, c.states, c.hash, c.plugins)
			}
		})
	}
}

// FuzzParseConfig: hostile config.toml text is an error or a config, never a panic.
func FuzzParseConfig(f *testing.F) {
	f.Add([]byte("[hooks.state.\"a@b:x\"]\ntrusted_hash = \"sha256:1\"\nenabled = false\n[plugins.\"a@b\"]\n"))
	f.Add([]byte("hooks = 3\n"))
	f.Add([]byte("[hooks]\nstate = [1]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg := &Config{States: map[string]HookState{}}
		if ParseConfig(data, cfg) == nil && !sort.StringsAreSorted(cfg.Plugins) {
			t.Fatalf("plugins not sorted: %v", cfg.Plugins)
		}
	})
}

// TestTrustNamesTheReleaseAnswered: what Codex does with a hook's trust is said of the
// release the package's answers are for, the installed one when the caller stamped it.
func TestTrustNamesTheReleaseAnswered(t *testing.T) {
	for _, release := range []string{"", model.Codex169, model.Codex171} {
		pkg := Load("testdata/cases/hooks-manifest-path", Options{})
		StampVersion([]*model.Package{pkg}, release)
		want := model.ClientLabel(ClientCodex, release)
		if release == "" {
			want = model.ClientLabel(ClientCodex, CodexVersion)
		}
		for _, cfg := range []*Config{{States: map[string]HookState{}}, {States: map[string]HookState{}, Plugins: []string{"hooks-manifest-path@a"}}} {
			hs := Trust(pkg, cfg)
			if len(hs) == 0 {
				t.Fatalf("no trust answer for %s", pkg.Name)
			}
			for _, h := range hs {
				if !strings.Contains(h.Detail, want+" ") {
					t.Errorf("answering for %q, %s: %q does not name %s", release, h.Status, h.Detail, want)
				}
			}
		}
	}
}
