package splice

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"vouch/internal/testtree"

	"vouch/model"
	"vouch/review/internal/loadertest"
)

const tool0 = `{"name":"hello","description":"d","entry":"tools/hello.ts","input":{"type":"object"}}`

func man(extra string) string {
	return `{"specVersion":1,"namespace":"splice","name":"example","version":"0.1.0","description":"Example"` + extra + `}`
}

// Rules beyond upstream's own examples, each with the exact upstream message(s).
func TestManifestRules(t *testing.T) {
	cases := []struct {
		name, json string
		want       []string
	}{
		{"not-object", `[1]`, []string{"manifest: must be a JSON object"}},
		{"spec-version-string", man(`,"specVersion":"1"`), []string{`specVersion: unsupported version "1" (supported: 1)`}},
		{"spec-version-float-ok", `{"specVersion":1.0,"namespace":"a","name":"b","version":"1.0.0","description":"d","tools":[` + tool0 + `]}`, []string{}},
		{"namespace-too-long", `{"specVersion":1,"namespace":"` + strings.Repeat("a", 65) + `","name":"b","version":"1.0.0","description":"d","tools":[` + tool0 + `]}`,
			[]string{"namespace: must be at most 64 characters", "namespace: may only contain lowercase letters, digits and dashes"}},
		{"leading-digit-and-dashes-ok", `{"specVersion":1,"namespace":"0a--","name":"b-","version":"1.0.0-rc.1+build.5","description":"d","tools":[` + tool0 + `]}`, []string{}},
		{"blank-description", `{"specVersion":1,"namespace":"a","name":"b","version":"1.0.0","description":" \u00a0\ufeff","tools":[` + tool0 + `]}`,
			[]string{"description: is required and must be a non-empty string"}},
		{"description-utf16-length", `{"specVersion":1,"namespace":"a","name":"b","version":"1.0.0","description":"` + strings.Repeat("😀", 251) + `","tools":[` + tool0 + `]}`,
			[]string{"description: must be at most 500 characters"}},
		{"version-unsafe-integer", `{"specVersion":1,"namespace":"a","name":"b","version":"9007199254740993.0.0","description":"d","tools":[` + tool0 + `]}`,
			[]string{`version: "9007199254740993.0.0" is not a valid semantic version`}},
		{"license-type", man(`,"license":5,"homepage":"` + strings.Repeat("h", 501) + `","tools":[` + tool0 + `]`),
			[]string{"license: must be a string of at most 500 characters", "homepage: must be a string of at most 500 characters"}},
		{"tools-missing", man(``), []string{"tools: must be a non-empty array"}},
		{"tool-not-object", man(`,"tools":[1]`), []string{"tools[0]: must be an object"}},
		{"tool-unknown-and-x", man(`,"tools":[{"name":"hello","description":"d","entry":"tools/hello.ts","input":{"type":"object"},"shell":true,"x-ok":1}]`),
			[]string{"tools[0].shell: unknown field"}},
		{"entry-rules", man(`,"tools":[{"name":"a","description":"d","entry":"tools/a.py","input":{"type":"object"}},{"name":"b","description":"d","entry":"/abs.ts","input":{"type":"object"}},{"name":"c","description":"d","entry":"./c.ts","input":{"type":"object"}},{"name":"e","description":"d","entry":"C:/e.ts","input":{"type":"object"}}]`),
			[]string{
				"tools[0].entry: must be a package-relative path without '..' ending in .ts, .mts, .js, .mjs",
				"tools[1].entry: must be a package-relative path without '..' ending in .ts, .mts, .js, .mjs",
				"tools[2].entry: must be a package-relative path without '..' ending in .ts, .mts, .js, .mjs",
				"tools[3].entry: must be a package-relative path without '..' ending in .ts, .mts, .js, .mjs",
			}},
		{"timeout-rules", man(`,"tools":[{"name":"a","description":"d","entry":"a.ts","input":{"type":"object"},"timeoutMs":0},{"name":"b","description":"d","entry":"b.ts","input":{"type":"object"},"timeoutMs":1.5},{"name":"c","description":"d","entry":"c.ts","input":{"type":"object"},"timeoutMs":"5"},{"name":"e","description":"d","entry":"e.ts","input":{"type":"object"},"timeoutMs":60000}]`),
			[]string{"tools[0].timeoutMs: must be an integer between 1 and 60000", "tools[1].timeoutMs: must be an integer between 1 and 60000", "tools[2].timeoutMs: must be an integer between 1 and 60000"}},
		{"schema-keywords", man(`,"tools":[{"name":"a","description":"d","entry":"a.ts","input":{"type":"object","properties":{"x":{"type":"str","enum":[],"minLength":-1,"maximum":1e400,"items":[],"required":[1],"additionalProperties":{},"description":5,"oneOf":[]}}},"output":5}]`),
			[]string{
				`tools[0].input.properties.x: unsupported keyword "oneOf"`,
				"tools[0].input.properties.x.type: must be one of object, string, number, integer, boolean, array, null",
				"tools[0].input.properties.x.description: must be a string",
				"tools[0].input.properties.x.required: must be an array of strings",
				"tools[0].input.properties.x.additionalProperties: must be a boolean",
				"tools[0].input.properties.x.items: must be an object",
				"tools[0].input.properties.x.enum: must be a non-empty array of primitives",
				"tools[0].input.properties.x.minLength: must be a non-negative integer",
				"tools[0].input.properties.x.maximum: must be a finite number",
				"tools[0].output: must be an object",
			}},
		{"schema-depth", man(`,"tools":[{"name":"a","description":"d","entry":"a.ts","input":{"type":"object","properties":{"a":` + strings.Repeat(`{"items":`, 16) + `{}` + strings.Repeat(`}`, 16) + `}}}]`),
			[]string{"tools[0].input.properties.a" + strings.Repeat(".items", 16) + ": schema nesting is too deep (max 16)"}},
		{"permissions", man(`,"tools":[` + tool0 + `],"permissions":{"fs":{"read":["."],"write":"data","exec":[]},"network":["*","*.example.com","Example.com","a..b","localhost","10.0.0.1","x-y.z:80"],"env":["PATH","lower","_X"],"capabilities":["web.search","shell.exec"],"x-vendor":1}`),
			[]string{
				`permissions: unknown permission "x-vendor"`,
				`permissions.fs: unknown key "exec"`,
				"permissions.fs.write: must be an array",
				`permissions.network[2]: must be a lowercase hostname, optionally prefixed with *., or "*" for any public host`,
				`permissions.network[3]: must be a lowercase hostname, optionally prefixed with *., or "*" for any public host`,
				`permissions.network[6]: must be a lowercase hostname, optionally prefixed with *., or "*" for any public host`,
				"permissions.env[1]: must be an UPPER_SNAKE_CASE name",
				"permissions.capabilities[1]: must be one of: " + strings.Join(brokerCapabilities, ", "),
			}},
		{"agent-ok-without-tools", man(`,"agent":{"instructions":"Be useful.","skills":["@splice/files"],"model":"m","examples":["a"],"x-ui":1}`), []string{}},
		{"agent-rules", man(`,"agent":{"instructions":"","skills":["@splice/example","@a/b","@a/b","bad",1],"model":"","examples":["", "b"],"tone":1}`),
			[]string{
				"agent.tone: unknown field",
				"agent.instructions: is required and must be a non-empty string",
				"agent.skills: an agent cannot list itself (@splice/example)",
				`agent.skills: duplicate package "@a/b"`,
				`agent.skills: invalid package name "bad"`,
				"agent.skills: invalid package name 1",
				"agent.model: must be a non-empty string of at most 100 characters",
				"agent.examples: must be at most 6 non-empty strings of up to 300 characters",
			}},
		{"agent-not-object", man(`,"agent":null`), []string{"agent: must be an object"}},
		{"dependencies", man(`,"tools":[` + tool0 + `],"dependencies":{"@splice/example":"1.0.0","nope":"1.0.0","@a/b":"^1.2.3","@a/c":"~1.2","@a/d":"*"}`),
			[]string{
				"dependencies: a package cannot depend on itself (@splice/example)",
				`dependencies: invalid package name "nope"`,
				"dependencies.@a/c: invalid version range (use 1.2.3, ^1.2.3, ~1.2.3 or *)",
			}},
		{"dependencies-not-object", man(`,"tools":[` + tool0 + `],"dependencies":[]`), []string{"dependencies: must be an object mapping package ids to version ranges"}},
		{"js-key-order", man(`,"zeta":1,"2":1,"10":1,"tools":[` + tool0 + `]`), []string{"2: unknown field", "10: unknown field", "zeta: unknown field"}},
		{"duplicate-key-last-wins", man(`,"tools":[` + tool0 + `],"name":"Bad"`), []string{"name: may only contain lowercase letters, digits and dashes"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, issues := ValidateManifestJSON([]byte(c.json))
			got := []string{}
			for _, is := range issues {
				got = append(got, is.Message)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("\n got %q\nwant %q", got, c.want)
			}
		})
	}
}

func TestPermissionsToCapabilities(t *testing.T) {
	m, issues := ValidateManifestJSON([]byte(man(`,"tools":[` + tool0 + `],"permissions":{"fs":{"read":["data"],"write":["out","out"]},"network":["*.example.com","api.github.com","127.0.0.1"],"env":["TOKEN"],"capabilities":["web.search"]}`)))
	if len(issues) > 0 {
		t.Fatal(issues)
	}
	if !reflect.DeepEqual(m.Permissions.Write, []string{"out"}) {
		t.Errorf("duplicates not dropped: %v", m.Permissions.Write)
	}
	caps := capabilities(m.Permissions)
	byKind := map[model.CapabilityKind][]model.Capability{}
	for _, c := range caps {
		byKind[c.Kind] = append(byKind[c.Kind], c)
	}
	reads := byKind[model.CapFilesystemRead]
	if len(reads) != 2 || !reflect.DeepEqual(reads[1].Scope, []string{"data", "out"}) {
		t.Errorf("write must imply read and the package dir is always readable: %+v", reads)
	}
	if len(byKind[model.CapFilesystemWrite]) != 1 || len(byKind[model.CapEnv]) != 1 || len(byKind[model.CapHostCapability]) != 1 {
		t.Errorf("caps %+v", caps)
	}
	nets := byKind[model.CapNetwork]
	if len(nets) != 3 || !strings.Contains(nets[0].Detail, "subdomain of example.com (not example.com itself)") ||
		!strings.Contains(nets[1].Detail, "api.github.com only") || !strings.Contains(nets[2].Detail, "non-public address") {
		t.Errorf("network details %+v", nets)
	}
	if !strings.Contains(byKind[model.CapHostCapability][0].Detail, "money") {
		t.Error("billed capability not flagged")
	}
	a := annotationsOf(m.Permissions)
	if a.ReadOnly || !a.Destructive || !a.OpenWorld {
		t.Errorf("annotations %+v", a)
	}
	lines := describePermissions(m.Permissions)
	want := []string{"read files: data", "write files: out", "network: *.example.com", "network: api.github.com", "network: 127.0.0.1",
		"environment variable: TOKEN", "host capability: web.search (run by Splice with the host's provider keys; the tool gets results, never keys) — may spend provider credits/money"}
	if !reflect.DeepEqual(lines, want) {
		t.Errorf("describePermissions\n got %q\nwant %q", lines, want)
	}
}

// A directory is reviewed as Splice would pack it, and as a harness would run it: hidden
// files and node_modules are left out of the package (a warning) but kept in the tools'
// closure; symlinks and special files are errors.
func TestDirectoryRules(t *testing.T) {
	base := filepath.Join(fixtures, "archive-test-example", "files")
	mk := func(t *testing.T) string {
		d := t.TempDir()
		testtree.Copy(t, base, d)
		return d
	}
	t.Run("hidden-skipped", func(t *testing.T) {
		d := mk(t)
		os.WriteFile(filepath.Join(d, ".env"), []byte("TOKEN=1"), 0o644)
		os.MkdirAll(filepath.Join(d, "node_modules/x"), 0o755)
		os.WriteFile(filepath.Join(d, "node_modules/x/i.js"), []byte("x"), 0o644)
		pkg := Load(d, Options{})
		if !pkg.Valid() {
			t.Fatalf("invalid: %+v", loadertest.Diagnostics(pkg))
		}
		if dg := findDiag(pkg, "package-file-skipped"); dg == nil || dg.Severity != model.SeverityWarning {
			t.Errorf("no warning about skipped files: %+v", pkg.Diagnostics)
		}
		// Never packed, but readable by a tool run from the folder: in its closure, so
		// trust must be able to re-hash it.
		if _, err := pkg.Reader.ReadFile(".env"); err != nil {
			t.Errorf("Reader cannot serve a file of the tools' closure: %v", err)
		}
		if _, err := pkg.Reader.ReadFile("elsewhere.txt"); err == nil {
			t.Error("Reader served a file that is not part of the package")
		}
	})
	t.Run("symlink", func(t *testing.T) {
		d := mk(t)
		os.Symlink("/etc/passwd", filepath.Join(d, "tools/secret.ts"))
		pkg := Load(d, Options{})
		if findDiag(pkg, "package-symlink") == nil || pkg.Valid() {
			t.Errorf("symlink accepted: %+v", loadertest.Diagnostics(pkg))
		}
	})
	t.Run("fifo", func(t *testing.T) {
		d := mk(t)
		testtree.Fifo(t, filepath.Join(d, "tools/pipe.ts"))
		pkg := Load(d, Options{})
		if findDiag(pkg, "package-special-file") == nil || pkg.Valid() {
			t.Errorf("fifo accepted: %+v", loadertest.Diagnostics(pkg))
		}
		// Detection never blocks on a FIFO either.
		if IsArtifact(filepath.Join(d, "tools/pipe.ts"), Options{}.Limits) {
			t.Error("fifo detected as artifact")
		}
	})
	t.Run("invalid-manifest-dir", func(t *testing.T) {
		d := mk(t)
		testtree.Replace(t, filepath.Join(d, "manifest.json"), `"name":"hello"`, `"name":"Hello"`)
		pkg := Load(d, Options{})
		c := pkg.Component(model.KindTool, "Hello")
		if c == nil || c.Validity != model.Invalid || len(c.Diagnostics) == 0 || c.Contract != nil {
			t.Fatalf("tool error not on the tool: %+v", c)
		}
		if c.Diagnostics[0].Pointer != "/tools/0/name" || c.Diagnostics[0].Code != "manifest-invalid-tool-name" {
			t.Errorf("diag %+v", c.Diagnostics[0])
		}
		if !pkg.Rejected || pkg.Valid() {
			t.Error("package with a manifest error accepted")
		}
	})
}

func TestInvalidNameKeepsFileName(t *testing.T) {
	pkg := Load(filepath.Join("..", "..", "examples", "splice", "broken-manifest"), Options{})
	if pkg.Name != "broken-manifest" || pkg.ID != "" {
		t.Errorf("name %q id %q: an invalid manifest name must not become the ref", pkg.Name, pkg.ID)
	}
}

func TestIssueLines(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "examples", "splice", "broken-manifest", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	_, issues := ValidateManifestJSON(data)
	lines := map[string]int{}
	for _, is := range issues {
		lines[is.Pointer] = is.Line
	}
	want := map[string]int{"/extra": 16, "/name": 4, "/version": 5, "/tools/0/name": 10, "/tools/0/entry": 12, "/tools/0/input/type": 13}
	for p, l := range want {
		if lines[p] != l {
			t.Errorf("%s on line %d, want %d (%v)", p, lines[p], l, lines)
		}
	}
}

// A rejected package never reads as if it would run: an invalid tool's summary says what
// the manifest claims and that Splice rejects it, support is not applicable, every invalid
// component says why, and a finding about one tool sits on that tool (component boundary)
// while the package is rejected by a package-boundary error.
func TestRejectedPackageExplained(t *testing.T) {
	check := func(t *testing.T, pkg *model.Package) {
		t.Helper()
		if !pkg.Rejected || pkg.Valid() {
			t.Fatal("package not rejected")
		}
		for _, c := range pkg.Components {
			if c.Validity != model.Invalid || c.Contract != nil {
				t.Errorf("%s:%s is %s in a rejected package", c.Kind, c.ID, c.Validity)
			}
			if !hasErrors(c.Diagnostics) {
				t.Errorf("%s:%s is invalid with no error saying why", c.Kind, c.ID)
			}
			for _, s := range c.Support {
				if s.Status == model.Supported || s.Detail == "" {
					t.Errorf("%s:%s support %+v in a rejected package", c.Kind, c.ID, s)
				}
			}
			if c.Kind != model.KindTool {
				continue
			}
			sum := strings.Join(c.Summary, " ")
			if strings.Contains(sum, "Runs ") || strings.Contains(sum, "when an agent calls") || !strings.Contains(sum, "rejects") {
				t.Errorf("tool:%s summary presents the tool as runnable: %q", c.ID, c.Summary)
			}
			for _, f := range c.Details {
				if f.Key == "mcpName" || f.Key == "qualifiedName" {
					t.Errorf("tool:%s shows derived %s %v", c.ID, f.Key, f.Value)
				}
			}
		}
	}

	t.Run("broken-manifest", func(t *testing.T) {
		pkg := Load(filepath.Join("..", "..", "examples", "splice", "broken-manifest"), Options{})
		check(t, pkg)
		c := pkg.Component(model.KindTool, "Hello")
		if c == nil {
			t.Fatal("no tool:Hello")
		}
		sum := strings.Join(c.Summary, " ")
		if strings.Contains(sum, "splice_Bad Name_Hello") || !strings.Contains(sum, `entry "../escape.ts"`) {
			t.Errorf("summary %q: want the claimed entry quoted as a claim, no derived MCP name", c.Summary)
		}
		for _, d := range c.Diagnostics {
			if d.Boundary != model.BoundaryComponent {
				t.Errorf("tool finding %s has boundary %s, want component", d.Code, d.Boundary)
			}
		}
		var pd *model.Diagnostic
		for i, d := range pkg.Diagnostics {
			if d.Code == "package-component-invalid" && d.Pointer == "/tools/0" {
				pd = &pkg.Diagnostics[i]
			}
		}
		if pd == nil || pd.Boundary != model.BoundaryPackage || !pd.IsError() || !strings.Contains(pd.Message, "tool:Hello") {
			t.Errorf("no package-boundary error for the invalid tool: %+v", pkg.Diagnostics)
		}
		skill := pkg.Component(model.KindSkill, "skill")
		if skill == nil || loadertest.Find(skill.Diagnostics, "package-rejected") == nil {
			t.Errorf("skill:skill gives no reason: %+v", skill)
		} else if d := loadertest.Find(skill.Diagnostics, "package-rejected"); !strings.Contains(d.Message, "package is rejected") || d.File == "" {
			t.Errorf("reason %+v", d)
		}
	})

	t.Run("package-error-only", func(t *testing.T) {
		// A valid tool in a package rejected for a package-level field.
		d := t.TempDir()
		testtree.Copy(t, filepath.Join(fixtures, "archive-test-example", "files"), d)
		testtree.Replace(t, filepath.Join(d, "manifest.json"), `"specVersion":1`, `"specVersion":1,"bogus":true`)
		pkg := Load(d, Options{})
		check(t, pkg)
		c := pkg.Component(model.KindTool, "hello")
		if c == nil {
			t.Fatal("no tool:hello")
		}
		r := loadertest.Find(c.Diagnostics, "package-rejected")
		if r == nil || !strings.Contains(r.Message, "bogus") || r.Pointer != "/bogus" {
			t.Errorf("tool:hello reason %+v", r)
		}
		if !strings.Contains(c.Summary[0], "bogus") {
			t.Errorf("summary does not say why: %q", c.Summary)
		}
	})

	t.Run("skill-missing", func(t *testing.T) {
		d := t.TempDir()
		testtree.Copy(t, filepath.Join(fixtures, "archive-test-example", "files"), d)
		os.Remove(filepath.Join(d, "SKILL.md"))
		pkg := Load(d, Options{})
		check(t, pkg)
		skill := pkg.Component(model.KindSkill, "example")
		if skill == nil || loadertest.Find(skill.Diagnostics, "skill-doc-missing") == nil || loadertest.Find(skill.Diagnostics, "skill-doc-missing").Boundary != model.BoundaryComponent {
			t.Fatalf("skill %+v", skill)
		}
		if d := loadertest.Find(pkg.Diagnostics, "package-component-invalid"); d == nil || d.Boundary != model.BoundaryPackage || d.File != "SKILL.md" {
			t.Errorf("no package-boundary error for the missing SKILL.md: %+v", pkg.Diagnostics)
		}
	})
}
