package codex

import (
	"os"
	"path/filepath"
	"testing"

	"vouch/model"
	"vouch/review/internal/loadertest"
)

// TestCases: every fixture under testdata/cases, good or bad, with the diagnostic codes it
// must produce and whether the package is rejected. Codex's own answer for the same
// files is in testdata/codex-0.169.0.json (TestMatchesCodex).
func TestCases(t *testing.T) {
	cases := map[string]struct {
		codes    []string
		rejected bool
	}{
		"apps":                      {},
		"bad-paths":                 {codes: []string{"manifest-path-ignored"}},
		"hooks-default":             {codes: []string{"hooks-event-unknown", "hook-field-ignored"}},
		"hooks-empty-object":        {codes: []string{"hooks-default-replaced"}},
		"hooks-escapes":             {codes: []string{}},
		"hooks-handler-types":       {codes: []string{"hook-field-ignored"}},
		"hooks-inline":              {},
		"hooks-inline-bare":         {codes: []string{"hooks-inline-unwrapped"}},
		"hooks-invalid-matcher":     {codes: []string{"hooks-matcher-invalid"}},
		"hooks-manifest-path":       {codes: []string{"hooks-default-replaced"}},
		"hooks-rejected-http":       {codes: []string{"hooks-file-rejected"}},
		"hooks-rejected-negtimeout": {codes: []string{"hooks-file-rejected"}},
		"hooks-rejected-schema":     {codes: []string{"hooks-file-rejected"}},
		"hooks-rejected-toplevel":   {codes: []string{"hooks-file-rejected"}},
		"manifest-field-type":       {codes: []string{"manifest-field-ignored"}},
		"manifest-interface":        {codes: []string{"manifest-name-empty", "manifest-default-prompt-dropped"}},
		"manifest-invalid-json":     {codes: []string{"manifest-invalid-json"}, rejected: true},
		"manifest-not-object":       {codes: []string{"manifest-not-object"}},
		"manifest-type-hooks":       {codes: []string{"manifest-field-ignored"}},
		"manifest-type-mcp":         {codes: []string{"manifest-field-ignored"}},
		"manifest-array":            {codes: []string{"manifest-not-object"}},
		"claude-only":               {codes: []string{"codex-reads-claude-manifest", "hooks-event-unknown"}},
		"claude-inline-hooks":       {codes: []string{"codex-reads-claude-manifest", "hooks-inline-unwrapped"}},
		"mcp-flat":                  {},
		"mcp-manifest-path":         {codes: []string{"mcp-default-replaced"}},
		"mcp-wrapped":               {},
		"precedence-root":           {codes: []string{"codex-manifest-shadowed"}},
	}
	entries, err := os.ReadDir("testdata/cases")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if _, ok := cases[e.Name()]; !ok {
			t.Errorf("fixture %s has no expectation", e.Name())
		}
	}
	for name, want := range cases {
		t.Run(name, func(t *testing.T) {
			pkg := Load(filepath.Join("testdata/cases", name), Options{})
			if pkg.Rejected != want.rejected {
				t.Fatalf("rejected = %v, want %v: %+v", pkg.Rejected, want.rejected, pkg.Diagnostics)
			}
			for _, code := range want.codes {
				if !hasCode(pkg, code) {
					t.Errorf("missing %s; got %v", code, loadertest.Codes(pkg))
				}
			}
			if want.codes == nil && !want.rejected {
				for _, c := range loadertest.Codes(pkg) {
					t.Errorf("good fixture has diagnostic %s", c)
				}
			}
			if pkg.Format != model.FormatCodex {
				t.Errorf("format %s", pkg.Format)
			}
		})
	}
}

func TestInterfaceAndName(t *testing.T) {
	pkg := Load("testdata/cases/manifest-interface", Options{})
	if pkg.Name != "manifest-interface" {
		t.Fatalf("an empty name must become the folder name, got %q", pkg.Name)
	}
	v, _ := pkg.Manifest.Get("interface")
	var prompts []string
	for _, f := range v.([]model.Field) {
		if f.Key == "defaultPrompt" {
			prompts = f.Value.([]string)
		}
	}
	if len(prompts) != 3 {
		t.Fatalf("defaultPrompt keeps 3 entries, got %v", prompts)
	}
}

func TestMCPCodexKeys(t *testing.T) {
	pkg := Load("testdata/cases/mcp-wrapped", Options{})
	local := pkg.Component(model.KindMCPServer, "local")
	remote := pkg.Component(model.KindMCPServer, "remote")
	if local == nil || remote == nil {
		t.Fatalf("servers: %v", loadertest.Codes(pkg))
	}
	scopes := func(c *model.Component, k model.CapabilityKind) []string {
		var out []string
		for _, cp := range c.Capabilities {
			if cp.Kind == k {
				out = append(out, cp.Scope...)
			}
		}
		return out
	}
	if got := scopes(local, model.CapEnv); !contains(got, "GITHUB_TOKEN") || !contains(got, "PATH") || !contains(got, "MODE") {
		t.Errorf("env_vars (reserved PATH included) and env as capabilities: %v", got)
	}
	if got := scopes(local, model.CapFilesystemRead); !contains(got, "/tmp") {
		t.Errorf("cwd as a capability: %v", got)
	}
	if got := scopes(remote, model.CapEnv); !contains(got, "EXAMPLE_TOKEN") || !contains(got, "EXAMPLE_ORG") {
		t.Errorf("bearer_token_env_var and env_http_headers as capabilities: %v", got)
	}
	if local.Contract == nil || len(local.Contract.Files) == 0 || remote.Contract == nil {
		t.Fatal("stdio server must bind the plugin folder; remote server must have a contract")
	}
	if _, ok := remote.Contract.Fields.Get("bearer_token_env_var"); !ok {
		t.Error("Codex-only keys belong to the contract")
	}
}

func contains(xs []string, x string) bool {
	for _, e := range xs {
		if e == x {
			return true
		}
	}
	return false
}

func TestApps(t *testing.T) {
	pkg := Load("testdata/cases/apps", Options{})
	c := pkg.Component(model.KindApp, "calendar")
	if c == nil || c.Contract == nil {
		t.Fatalf("app: %+v", pkg.Components)
	}
	if id, _ := c.Contract.Fields.Get("id"); id != "asdk_app_123" {
		t.Fatalf("app id %v", id)
	}
}

func TestMarketplace(t *testing.T) {
	pkgs := LoadMarketplace("testdata/marketplaces/good", Options{})
	if len(pkgs) != 2 || pkgs[0].Format != model.FormatCodexMarketplace || pkgs[0].Name != "team-tools" {
		t.Fatalf("packages: %d", len(pkgs))
	}
	alpha := pkgs[1]
	if alpha.Name != "alpha" || alpha.Format != model.FormatCodex {
		t.Fatalf("plugin package %s %s", alpha.Name, alpha.Format)
	}
	// Loaded through its marketplace, a hook's trust key is the one Codex uses.
	h := alpha.Component(model.KindHook, "hooks/hooks.json:stop:0:0")
	if key, _ := h.Details.Get("codex trust key"); key != "alpha@team-tools:hooks/hooks.json:stop:0:0" {
		t.Fatalf("key %v", key)
	}
	entry := pkgs[0].Component(model.KindPlugin, "alpha")
	if entry == nil || entry.Validity != model.Valid || !containsSub(entry.Summary, "INSTALLED_BY_DEFAULT") || !containsSub(entry.Summary, "ON_USE") {
		t.Fatalf("entry: %+v", entry)
	}
	if r := pkgs[0].Component(model.KindPlugin, "remote-one"); r == nil || !containsSub(r.Summary, "url source") {
		t.Fatalf("remote entry: %+v", r)
	}

	bad := LoadMarketplace("testdata/marketplaces/mismatch", Options{})
	for _, code := range []string{"marketplace-name-mismatch", "marketplace-entry-path", "marketplace-entry-source-missing", "marketplace-policy-unknown"} {
		if !hasCode(bad[0], code) {
			t.Errorf("marketplace: missing %s in %v", code, loadertest.Codes(bad[0]))
		}
	}
	if len(bad) != 2 || !hasCode(bad[1], "marketplace-name-mismatch") || bad[1].Valid() {
		t.Fatal("the mismatched plugin must say Codex refuses to install it")
	}
}

func containsSub(xs []string, sub string) bool {
	for _, x := range xs {
		if len(sub) > 0 && len(x) >= len(sub) && (x == sub || indexOf(x, sub) >= 0) {
			return true
		}
	}
	return false
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

func TestMatcherTable(t *testing.T) {
	for _, tc := range []struct {
		m    string
		ok   bool
		note bool
	}{
		{"", true, false},
		{"*", true, false},
		{"Bash", true, false},
		{"Edit|Write", true, false},
		{"^mcp__.*__read$", true, false},
		{"(?i)bash", true, false},
		{"Bash(", false, false},         // [obs] Codex: "regex parse error … unclosed group"
		{"[a-", false, false},           // unclosed class in both
		{`a\Qb\E`, false, false},        // Go accepts \Q…\E, Rust does not
		{"a{1001}", true, true},         // Rust accepts, Go's checker refuses: accepted with a note
		{"(?x) a b", true, true},        // verbose mode: Rust only
		{"[a-z&&[^aeiou]]", true, true}, // Rust class intersection
		{`\d+`, true, true},             // Unicode \d in Rust, ASCII in Go
		{"(?=x)", false, false},         // look-ahead: neither
		{`(a)\1`, false, false},         // backreference: neither
	} {
		ok, note := checkMatcher(tc.m)
		// An invalid matcher's note is its reason; a valid one's says where Rust differs.
		if ok != tc.ok || tc.ok && (note != "") != tc.note || !tc.ok && note == "" {
			t.Errorf("%q: ok=%v note=%q, want ok=%v note=%v", tc.m, ok, note, tc.ok, tc.note)
		}
	}
}

func TestTimeouts(t *testing.T) {
	for _, tc := range []struct {
		event string
		has   bool
		t     uint64
		want  uint64
	}{
		{"PreToolUse", false, 0, 600}, {"PreToolUse", true, 0, 1}, {"PreToolUse", true, 5, 5},
		{"SessionEnd", false, 0, 1}, {"SessionEnd", true, 10, 3}, {"SessionEnd", true, 2, 2},
		{"Interrupt", false, 0, 1}, {"Interrupt", true, 100, 100},
	} {
		got, _ := effectiveTimeout(tc.event, HookHandler{HasTimeout: tc.has, Timeout: tc.t})
		if got != tc.want {
			t.Errorf("%s %v/%d: %d, want %d", tc.event, tc.has, tc.t, got, tc.want)
		}
	}
}

// [obs] Codex read the array manifest ["x"] as a plugin named x (install then failed:
// its name did not match the marketplace entry "notobj").
func TestArrayManifestName(t *testing.T) {
	pkg := Load("testdata/cases/manifest-array", Options{})
	if pkg.Rejected || pkg.Name != "x" || pkg.Component(model.KindSkill, "s1") == nil {
		t.Fatalf("array manifest: name %q rejected %v", pkg.Name, pkg.Rejected)
	}
}
