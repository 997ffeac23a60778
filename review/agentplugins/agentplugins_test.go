package agentplugins

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/model"
	"vouch/review/internal/loadertest"
)

type caseWant struct {
	rejected   bool
	pkgCode    string            // a package diagnostic that must be present
	pkgBound   model.Boundary    // its boundary
	validity   map[string]string // "kind:id" -> validity
	absent     []string          // "kind:id" that must not be listed
	compCode   map[string]string // "kind:id" -> diagnostic code on that component
	noErrors   bool              // no error diagnostic anywhere
	components int               // exact component count when >= 0 and set via hasCount
	hasCount   bool
}

func TestCases(t *testing.T) {
	const greet, ok = "skill:greet", "mcp-server:ok"
	fatal := func(code string) caseWant {
		return caseWant{rejected: true, pkgCode: code, pkgBound: model.BoundaryPackage, components: 0, hasCount: true}
	}
	mcpOff := func(code string) caseWant {
		return caseWant{pkgCode: code, pkgBound: model.BoundaryComponentType, validity: map[string]string{greet: "valid"}}
	}
	cases := map[string]caseWant{
		"manifest-invalid-json":               fatal("manifest-invalid-json"),
		"manifest-invalid-utf8":               fatal("manifest-invalid-utf8"),
		"manifest-nul-byte":                   fatal("manifest-invalid-json"),
		"manifest-not-object":                 fatal("manifest-not-object"),
		"manifest-missing-schema":             fatal("manifest-missing-schema"),
		"manifest-unsupported-version":        fatal("manifest-unsupported-version"),
		"manifest-missing-name":               fatal("manifest-missing-field"),
		"manifest-name-type":                  fatal("manifest-field-type"),
		"manifest-name-uppercase":             fatal("manifest-invalid-name"),
		"manifest-name-double-hyphen":         fatal("manifest-invalid-name"),
		"manifest-name-leading-hyphen":        fatal("manifest-invalid-name"),
		"manifest-name-too-long":              fatal("manifest-invalid-name"),
		"manifest-name-empty":                 fatal("manifest-invalid-name"),
		"manifest-author-extra-field":         fatal("manifest-unknown-nested-field"),
		"manifest-keywords-type":              fatal("manifest-field-type"),
		"manifest-extension-value-not-object": fatal("manifest-field-type"),
		"manifest-duplicate-key":              fatal("manifest-duplicate-key"),
		"manifest-duplicate-unknown-field": {pkgCode: "manifest-unknown-field", pkgBound: model.BoundaryPackage,
			validity: map[string]string{greet: "valid", ok: "valid"}, noErrors: true},
		"manifest-too-deep":        fatal("manifest-too-deep"),
		"manifest-string-too-long": fatal("manifest-string-too-long"),
		"manifest-unknown-field": {pkgCode: "manifest-unknown-field", pkgBound: model.BoundaryPackage,
			validity: map[string]string{greet: "valid", ok: "valid"}, noErrors: true},
		"manifest-extensions-not-object": {pkgCode: "manifest-extensions-not-object", pkgBound: model.BoundaryPackage,
			validity: map[string]string{greet: "valid", ok: "valid"}, noErrors: true},
		"manifest-metadata-types-only": {validity: map[string]string{greet: "valid", ok: "valid"}, noErrors: true},
		"manifest-mcp-inline": {pkgCode: "manifest-unknown-field", validity: map[string]string{greet: "valid"},
			absent: []string{"mcp-server:x"}, noErrors: true},
		"extension-namespaces": {noErrors: true, validity: map[string]string{
			"extension:dev.pi.agent": "valid", "extension:com.anthropic.claude-code": "valid",
			"extension:com.example.other": "valid", "extension:dev.getlola": "valid", "extension:notreverse": "valid"},
			compCode: map[string]string{"extension:notreverse": "extension-namespace-not-reverse-domain"}},
		"locations-missing": {noErrors: true, components: 0, hasCount: true},
		"skills-not-directory": {pkgCode: "skills-not-directory", pkgBound: model.BoundaryComponentType,
			validity: map[string]string{ok: "valid"}},
		// mcp.json is a directory here: MCP is off, and mcp.json is not an extension.
		"mcp-not-regular-file": {pkgCode: "mcp-not-regular-file", pkgBound: model.BoundaryComponentType,
			validity: map[string]string{greet: "valid"}, absent: []string{"extension:mcp.json"}},
		"skill-one-invalid": {validity: map[string]string{greet: "valid", "skill:bad": "skipped", ok: "valid"}},
		"skill-nested-not-discovered": {validity: map[string]string{greet: "valid"}, absent: []string{"skill:group", "skill:inner"},
			pkgCode: "skill-md-missing", noErrors: true},
		"skill-md-wrong-case":     {validity: map[string]string{greet: "valid"}, absent: []string{"skill:lower"}, noErrors: true},
		"skill-md-directory":      {validity: map[string]string{greet: "valid"}, absent: []string{"skill:odd"}, pkgCode: "skill-md-not-regular-file", noErrors: true},
		"skill-md-at-skills-root": {validity: map[string]string{greet: "valid"}, absent: []string{"skill:skills"}, pkgCode: "skill-md-not-in-directory", noErrors: true},
		"mcp-invalid-json":        mcpOff("mcp-invalid-json"),
		"mcp-invalid-utf8":        mcpOff("mcp-invalid-utf8"),
		"mcp-version-mismatch":    mcpOff("mcp-version-mismatch"),
		"mcp-unsupported-schema":  mcpOff("mcp-unsupported-schema"),
		"mcp-missing-schema":      mcpOff("mcp-missing-schema"),
		"mcp-unknown-field":       mcpOff("mcp-unknown-field"),
		"mcp-missing-servers":     mcpOff("mcp-missing-servers"),
		"mcp-servers-not-object":  mcpOff("mcp-servers-not-object"),
		"mcp-not-object":          mcpOff("mcp-not-object"),
		"mcp-servers-empty":       {validity: map[string]string{greet: "valid"}, noErrors: true},
	}
	entries, err := os.ReadDir("testdata/cases")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if _, listed := cases[e.Name()]; !listed && e.Name() != "servers" {
			t.Errorf("fixture %s has no table entry", e.Name())
		}
	}
	for name, w := range cases {
		t.Run(name, func(t *testing.T) {
			pkg := Load(filepath.Join("testdata/cases", name), Options{DataDir: "/data"})
			checkWant(t, pkg, w)
		})
	}
}

func checkWant(t *testing.T, pkg *model.Package, w caseWant) {
	t.Helper()
	if pkg.Rejected != w.rejected {
		t.Errorf("Rejected = %v, want %v; diagnostics %v", pkg.Rejected, w.rejected, loadertest.Codes(pkg))
	}
	if w.pkgCode != "" {
		found := false
		for _, d := range pkg.Diagnostics {
			if d.Code == w.pkgCode && (w.pkgBound == "" || d.Boundary == w.pkgBound) {
				found = true
				checkDiag(t, d)
			}
		}
		if !found {
			t.Errorf("no package diagnostic %s (%s); got %v", w.pkgCode, w.pkgBound, loadertest.Codes(pkg))
		}
	}
	if w.hasCount && len(pkg.Components) != w.components {
		t.Errorf("%d components, want %d", len(pkg.Components), w.components)
	}
	for key, v := range w.validity {
		c := find(pkg, key)
		if c == nil {
			t.Errorf("component %s not listed; have %v", key, keys(pkg))
			continue
		}
		if string(c.Validity) != v {
			t.Errorf("%s validity %s, want %s (%v)", key, c.Validity, v, c.Diagnostics)
		}
	}
	for _, key := range w.absent {
		if find(pkg, key) != nil {
			t.Errorf("component %s must not be discovered", key)
		}
	}
	for key, code := range w.compCode {
		c := find(pkg, key)
		if c == nil || !loadertest.HasCode(c.Diagnostics, code) {
			t.Errorf("component %s lacks diagnostic %s", key, code)
		}
	}
	if w.noErrors {
		for _, d := range loadertest.Diagnostics(pkg) {
			if d.IsError() {
				t.Errorf("unexpected error %s: %s", d.Code, d.Message)
			}
		}
	}
	for _, d := range loadertest.Diagnostics(pkg) {
		checkDiag(t, d)
	}
}

// checkDiag asserts the conventions every diagnostic follows.
func checkDiag(t *testing.T, d model.Diagnostic) {
	t.Helper()
	if d.Code == "" || d.Boundary == "" || d.Severity == "" || !(strings.HasPrefix(d.Spec, "agent-plugins §") || strings.HasPrefix(d.Spec, "agent-skills") || strings.HasPrefix(d.Spec, "vouch: ")) || !strings.HasSuffix(d.Message, ".") {
		t.Errorf("malformed diagnostic %+v", d)
	}
	if strings.ToLower(d.Code) != d.Code || strings.Contains(d.Code, " ") {
		t.Errorf("code %q is not kebab-case", d.Code)
	}
}

func find(pkg *model.Package, key string) *model.Component {
	k, id, _ := strings.Cut(key, ":")
	return pkg.Component(model.Kind(k), id)
}

func keys(pkg *model.Package) []string {
	var out []string
	for _, c := range pkg.Components {
		out = append(out, string(c.Kind)+":"+c.ID+"="+string(c.Validity))
	}
	return out
}

// TestServers: every server entry of one mcp.json is validated alone; each invalid entry
// carries its own code and the valid ones beside it stay valid.
func TestServers(t *testing.T) {
	pkg := Load("testdata/cases/servers", Options{DataDir: "/data"})
	if pkg.Rejected || len(pkg.Diagnostics) != 0 {
		t.Fatalf("package: rejected=%v %v", pkg.Rejected, loadertest.Codes(pkg))
	}
	want := map[string]string{
		"valid-stdio-bundled": "", "valid-stdio-bare": "", "valid-cwd-root": "", "valid-cwd-data": "",
		"valid-https": "", "valid-http-localhost": "", "valid-http-loopback-v4": "", "valid-http-loopback-v6": "",
		"valid-command-missing-file": "",
		"valid-http-localhost-upper": "", "valid-port-leading-zeros": "",
		"url-port-out-of-range": "mcp-url-invalid", "url-port-too-long": "mcp-url-invalid",
		"server-not-object": "mcp-server-not-object",
		"missing-type":      "mcp-server-missing-type",
		"unknown-type":      "mcp-server-unknown-type",
		"type-not-string":   "mcp-server-unknown-type",
		"foreign-field":     "mcp-server-foreign-field",
		"unknown-field":     "mcp-server-unknown-field",
		"missing-command":   "mcp-server-missing-field",
		"empty-command":     "mcp-server-empty-field",
		"args-not-array":    "mcp-server-field-type",
		// One token even with a space or a ';' in it (§7.2.1): valid, with a warning.
		"command-shell-string": "", "command-shell-operator": "",
		"command-absolute":   "mcp-command-form",
		"command-parent":     "mcp-command-form",
		"command-dot-escape": "mcp-command-escape",
		// Cleaned, not resolved: a missing folder before the .. does not keep it inside.
		"command-missing-dir-escape": "mcp-command-escape",
		"command-placeholder":        "mcp-command-form",
		"cwd-bare":                   "mcp-cwd-form",
		"cwd-absolute":               "mcp-cwd-form",
		"cwd-escape":                 "mcp-cwd-escape",
		"cwd-root-escape":            "mcp-cwd-escape",
		"cwd-data-escape":            "mcp-cwd-escape",
		"cwd-placeholder-prefix":     "mcp-cwd-form",
		"env-reserved":               "mcp-env-reserved",
		"env-value-not-string":       "mcp-server-field-type",
		"url-relative":               "mcp-url-scheme",
		"url-scheme":                 "mcp-url-scheme",
		"url-userinfo":               "mcp-url-userinfo",
		"url-fragment":               "mcp-url-fragment",
		"url-http-remote":            "mcp-url-insecure",
		"url-http-unspecified":       "mcp-url-insecure",
		"url-http-localhost-dot":     "mcp-url-insecure",
		"header-name-invalid":        "mcp-header-name-invalid",
		"header-value-invalid":       "mcp-header-value-invalid",
		"header-value-padded":        "mcp-header-value-invalid",
		"header-duplicate-case":      "mcp-header-duplicate",
		"headers-wrong-variant":      "mcp-server-foreign-field",
		"dup-name":                   "mcp-server-duplicate-name",
	}
	if len(pkg.Components) != len(want) {
		t.Errorf("%d components, want %d: %v", len(pkg.Components), len(want), keys(pkg))
	}
	for id, code := range want {
		c := pkg.Component(model.KindMCPServer, id)
		if c == nil {
			t.Errorf("server %s not listed", id)
			continue
		}
		for _, d := range c.Diagnostics {
			checkDiag(t, d)
			if d.File != "mcp.json" || !strings.HasPrefix(d.Pointer, "/mcpServers/"+id) || d.Line < 2 {
				t.Errorf("%s: diagnostic location %s %s:%d", id, d.File, d.Pointer, d.Line)
			}
		}
		if code == "" {
			if c.Validity != model.Valid || c.Contract == nil {
				t.Errorf("%s: validity %s contract %v, want valid: %v", id, c.Validity, c.Contract, c.Diagnostics)
			}
			continue
		}
		if c.Validity != model.Invalid || c.Contract != nil {
			t.Errorf("%s: validity %s, want invalid", id, c.Validity)
		}
		if !loadertest.HasCode(c.Diagnostics, code) {
			t.Errorf("%s: want %s, got %v", id, code, c.Diagnostics)
		}
		for _, s := range c.Support {
			if s.Status != model.NotSupported {
				t.Errorf("%s: invalid entry supported by %s", id, s.Provider)
			}
		}
	}
}

// TestManifestDuplicateKeys: a repeated unknown field is reported once and ignored like
// the field (§5.2); a repeated known field rejects the plugin under vouch's own rule,
// with one diagnostic that does not cite §5.2.
func TestManifestDuplicateKeys(t *testing.T) {
	const head = `{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", `
	for _, tc := range []struct {
		name, manifest string
		rejected       bool
		code           string
	}{
		{"unknown twice", head + `"name": "p", "x": 1, "x": 2}`, false, "manifest-unknown-field"},
		{"unknown thrice", head + `"name": "p", "x": 1, "x": 2, "x": 3}`, false, "manifest-unknown-field"},
		{"known twice", head + `"name": "p", "name": "q"}`, true, "manifest-duplicate-key"},
		{"known thrice", head + `"name": "p", "description": "a", "description": "b", "description": "c"}`, true, "manifest-duplicate-key"},
		{"nested in known", head + `"name": "p", "author": {"name": "a", "name": "b"}}`, true, "manifest-duplicate-key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			loadertest.WriteFile(t, dir+"/plugin.json", tc.manifest)
			pkg := Load(dir, Options{})
			if pkg.Rejected != tc.rejected {
				t.Fatalf("rejected = %v, want %v; %v", pkg.Rejected, tc.rejected, pkg.Diagnostics)
			}
			if len(pkg.Diagnostics) != 1 || pkg.Diagnostics[0].Code != tc.code {
				t.Fatalf("want exactly one %s, got %v", tc.code, pkg.Diagnostics)
			}
			d := pkg.Diagnostics[0]
			checkDiag(t, d)
			if tc.rejected && d.Spec != specDuplicateKeys {
				t.Errorf("spec = %q: the rule is vouch's, not the specification's", d.Spec)
			}
			if !tc.rejected && (d.Severity != model.SeverityWarning || !strings.Contains(d.Message, "times")) {
				t.Errorf("unknown repeated field: %+v", d)
			}
		})
	}
}
