package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"vouch/model"

	"vouch/review/jsontext"
)

func parse(t *testing.T, s string) *jsontext.Value {
	t.Helper()
	v, _, err := jsontext.Parse([]byte(s), jsontext.Limits)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

// TestManifestRefusal: Codex reads the manifest into typed fields, so a typed field of
// another type refuses the install (observed for keywords on Codex 0.169.0 and 0.171.0),
// while the component fields take any value and unknown fields are ignored.
func TestManifestRefusal(t *testing.T) {
	for _, tc := range []struct {
		manifest, want string // want: a part of the reason, "" for none
	}{
		{`{"name": "p", "keywords": "git"}`, "keywords is a JSON string"},
		{`{"name": "p", "keywords": ["git", 3]}`, "keywords holds an entry that is not a string"},
		{`{"name": "p", "keywords": ["git"]}`, ""},
		{`{"name": 5}`, "name is a JSON number"},
		{`{"name": "p", "version": null, "description": null}`, ""},
		{`{"name": "p", "version": 1}`, "version is a JSON number"},
		{`{"name": "p", "apps": ["./a.json"]}`, "apps is a JSON array"},
		{`{"name": "p", "interface": "x"}`, "interface is a JSON string"},
		{`{"name": "p", "interface": {"displayName": 3}}`, "interface.displayName is a JSON number"},
		{`{"name": "p", "interface": {"defaultPrompt": 3, "capabilities": ["a"]}}`, ""},
		{`{"name": "p", "skills": 3, "hooks": 5, "mcpServers": [1], "author": "me"}`, ""},
		{`{"name": "my plugin"}`, "invalid plugin name"},
		{`{"name": "a\u0009b"}`, "invalid plugin name"},
		{`{"name": "my.plugin_x-1"}`, ""},
		{`{"name": ""}`, ""},
		{`{"version": "1"}`, ""},
	} {
		got := ManifestRefusal(parse(t, tc.manifest))
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.manifest, got, tc.want)
		}
	}
}

// TestPathRule: Codex's manifest path rule, which the Claude Code loader asks too.
func TestPathRule(t *testing.T) {
	for _, tc := range []struct{ in, rel, why string }{
		{"./skills", "skills", ""},
		{"./a/../b", "", "it contains .."},
		{"skills", "", "it does not start with ./"},
		{"./", "", "it names the plugin root itself"},
		{"./a\\b", "", "it contains a backslash or NUL"},
		{"./more/", "more", ""},
	} {
		rel, why := PathRule(tc.in)
		if rel != tc.rel || why != tc.why {
			t.Errorf("%q: (%q, %q), want (%q, %q)", tc.in, rel, why, tc.rel, tc.why)
		}
	}
}

// TestInlineHooksRead: Codex reads an inline hooks object only in a hooks file's form.
func TestInlineHooksRead(t *testing.T) {
	for _, tc := range []struct {
		v    string
		want bool
	}{
		{`{"hooks": {"Stop": []}}`, true},
		{`{"description": "d"}`, true},
		{`{}`, true},
		{`{"Stop": [{"hooks": []}]}`, false},
		{`"./hooks.json"`, false},
	} {
		if got := InlineHooksRead(parse(t, tc.v)); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.v, got, tc.want)
		}
	}
}

// TestLoadRefusesTypedFields: the Codex loader rejects a manifest Codex refuses, with the
// refusal as its diagnostic, and still loads one whose component fields are of a kind
// Codex ignores.
func TestLoadRefusesTypedFields(t *testing.T) {
	for _, tc := range []struct {
		manifest string
		rejected bool
	}{
		{`{"name": "p", "keywords": "git"}`, true},
		{`{"name": "p", "hooks": 5}`, false},
	} {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, ".codex-plugin"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, manifestFile), []byte(tc.manifest), 0o644); err != nil {
			t.Fatal(err)
		}
		p := Load(dir, Options{})
		refused := false
		for _, d := range p.Diagnostics {
			refused = refused || d.Code == "manifest-refused" && strings.Contains(d.Message, "missing or invalid plugin.json")
		}
		if p.Rejected != tc.rejected || refused != tc.rejected {
			t.Errorf("%s: rejected %v, manifest-refused %v, want %v", tc.manifest, p.Rejected, refused, tc.rejected)
		}
	}
}

// TestHooksPathListedTwice: a hooks file the manifest names twice gives its hooks once
// (ids stay unique) and a warning; two different files both give theirs.
func TestHooksPathListedTwice(t *testing.T) {
	stop := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}`
	for _, tc := range []struct {
		paths    string
		hooks    int
		repeated bool
	}{
		{`["./h.json", "./h.json"]`, 1, true},
		{`["./h.json", "./g.json"]`, 2, false},
	} {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{
			manifestFile: `{"name": "p", "hooks": ` + tc.paths + `}`,
			"h.json":     stop, "g.json": stop,
		})
		p := Load(dir, Options{})
		hooks, seen := 0, map[string]bool{}
		for _, c := range p.Components {
			if c.Kind == model.KindHook {
				hooks++
				if seen[c.ID] {
					t.Errorf("%s: the hook %s is listed twice", tc.paths, c.ID)
				}
				seen[c.ID] = true
			}
		}
		repeated := false
		for _, d := range p.Diagnostics {
			repeated = repeated || d.Code == "hooks-path-repeated"
		}
		if hooks != tc.hooks || repeated != tc.repeated {
			t.Errorf("%s: %d hooks, hooks-path-repeated %v; want %d, %v", tc.paths, hooks, repeated, tc.hooks, tc.repeated)
		}
	}
}
