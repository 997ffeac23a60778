package dalo

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"vouch/internal/testtree"

	"vouch/model"
	"vouch/review/internal/loadertest"
)

const exampleSource = "../../examples/dalo/design-review"

// copyTree copies a source into a temporary directory so a test can change it.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	testtree.Copy(t, src, dst)
	return dst
}

// allCodes lists every diagnostic code of a package and its components.
func allCodes(p *model.Package) []string {
	codes := loadertest.Codes(p)
	sort.Strings(codes)
	return codes
}

func hasCode(p *model.Package, code string) bool {
	return slices.Contains(allCodes(p), code)
}

func loadOne(t *testing.T, dir string, opts Options) *model.Package {
	t.Helper()
	pkgs := Load(dir, opts)
	if len(pkgs) != 1 {
		t.Fatalf("got %d packages, want 1", len(pkgs))
	}
	return pkgs[0]
}

func errorDiags(p *model.Package) []model.Diagnostic {
	var out []model.Diagnostic
	for _, d := range p.Diagnostics {
		if d.IsError() {
			out = append(out, d)
		}
	}
	for _, c := range p.Components {
		for _, d := range c.Diagnostics {
			if d.IsError() {
				out = append(out, d)
			}
		}
	}
	return out
}

func TestUpstreamExampleIsValidAndSupported(t *testing.T) {
	if !IsSource(exampleSource) {
		t.Fatal("IsSource = false for the upstream example")
	}
	p := loadOne(t, exampleSource, Options{})
	if errs := errorDiags(p); len(errs) > 0 || !p.Valid() {
		t.Fatalf("example invalid: %+v", errs)
	}
	if p.Name != "design-review" || p.SourceID != "validation" || p.Format != model.FormatDalo {
		t.Errorf("identity = %q %q %q", p.Name, p.SourceID, p.Format)
	}
	abs, _ := filepath.Abs(filepath.Join(exampleSource, "plugins", "design-review"))
	if p.Root != abs {
		t.Errorf("Root = %q, want %q", p.Root, abs)
	}
	if len(p.Providers) != 2 {
		t.Fatalf("providers = %+v", p.Providers)
	}
	for _, pr := range p.Providers {
		if pr.Status != model.Supported || len(pr.UnsupportedHooks) != 0 {
			t.Errorf("provider %s = %+v, want supported", pr.Provider, pr)
		}
	}
	want := map[string]model.Validity{"hook:review-context": model.Valid, "tool:context": model.Valid,
		"skill:design-review": model.Valid, "instruction:design-context": model.Valid}
	for _, c := range p.Components {
		k := string(c.Kind) + ":" + c.ID
		v, ok := want[k]
		if !ok || c.Validity != v {
			t.Errorf("component %s validity %s", k, c.Validity)
		}
		delete(want, k)
		if c.Contract == nil {
			t.Errorf("%s has no contract", k)
		}
	}
	if len(want) != 0 {
		t.Errorf("missing components %v", want)
	}
	ins := p.Component(model.KindInstruction, "design-context")
	if !ins.Inactive || ins.Requirement != "recommended" || ins.BodyFile != "instructions/design-context.md" || !strings.Contains(ins.Body, "# Design context") {
		t.Errorf("instruction = %+v", ins)
	}
	hook := p.Component(model.KindHook, "review-context")
	wantSummary := "before every user prompt; runs `context.mjs` with node; receives the session working directory; may add text to the model's context; if it fails, the failure is reported to the model and the user."
	if hook.Summary[0] != wantSummary {
		t.Errorf("hook summary\n got %q\nwant %q", hook.Summary[0], wantSummary)
	}
	if len(hook.DependsOn) != 1 || hook.DependsOn[0] != "design-review#tool:context" {
		t.Errorf("DependsOn = %v", hook.DependsOn)
	}
	for _, s := range hook.Support {
		if s.Status != model.Supported {
			t.Errorf("support %+v", s)
		}
	}
	members := map[string]string{}
	for _, m := range p.Members {
		members[m.Ref] = m.Status + "/" + m.Requirement
	}
	if members["skill:design-review"] != "resolved/required" || members["instruction:design-context"] != "resolved/recommended" {
		t.Errorf("members = %v", members)
	}
	// The reader can read every file named in every contract, and nothing else.
	for _, c := range p.Components {
		for _, f := range c.Contract.Files {
			data, err := p.Reader.ReadFile(f.Path)
			if err != nil {
				t.Errorf("Reader.ReadFile(%s): %v", f.Path, err)
				continue
			}
			if sha256Hex(data) != f.SHA256 {
				t.Errorf("%s: reader bytes differ from the contract hash", f.Path)
			}
		}
	}
	for _, bad := range []string{"../x", "plugins/other/PLUGIN.toml", "skills/other/SKILL.md", "/etc/passwd", "instructions/other.md"} {
		if _, err := p.Reader.ReadFile(bad); err == nil {
			t.Errorf("Reader read %s outside the closure", bad)
		}
	}
}

// TestPackageSchemaFixtures checks the upstream conformance table: the
// structural schema alone and the full parser each give the documented outcome.
func TestPackageSchemaFixtures(t *testing.T) {
	cases := []struct {
		file           string
		schema, parser bool
		code           string
	}{
		{"valid.toml", true, true, ""},
		{"unknown-field.toml", false, false, "manifest-unknown-field"},
		{"unknown-tool-field.toml", false, false, "manifest-unknown-field"},
		{"missing-description.toml", false, false, "manifest-missing-field"},
		{"wrong-tool-version.toml", false, false, "unsupported_active_component_schema"},
		{"semantic-missing-tool.toml", true, false, "tool-entry-missing"},
		{"bad-binding.toml", true, false, "hook-binding-field-unavailable"},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata/package-schema", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			var raw map[string]any
			if err := safeDecode(data, &raw); err != nil {
				t.Fatal(err)
			}
			tree, diags := boundTree(raw, "x")
			if len(diags) > 0 {
				t.Fatal(diags)
			}
			schemaDiags := schemaCheck(tree.(map[string]any), "x")
			if (len(schemaDiags) == 0) != tc.schema {
				t.Errorf("schema pass = %v, want %v (%+v)", len(schemaDiags) == 0, tc.schema, schemaDiags)
			}
			dir := t.TempDir()
			loadertest.WriteFile(t, filepath.Join(dir, "plugins/fixture/PLUGIN.toml"), string(data))
			loadertest.WriteFile(t, filepath.Join(dir, "plugins/fixture/handler.mjs"), "process.stdout.write('{\"kind\":\"observe\"}')\n")
			p := loadOne(t, dir, Options{})
			if p.Valid() != tc.parser {
				t.Errorf("parser valid = %v, want %v: %v", p.Valid(), tc.parser, allCodes(p))
			}
			if tc.code != "" && !hasCode(p, tc.code) {
				t.Errorf("codes %v lack %s", allCodes(p), tc.code)
			}
		})
	}
}

// TestBadFixtures runs every testdata/bad/*.toml (the rejected mutations of the reference schema
// and one fixture per further rule) as the manifest of the example package: each must
// invalidate the package with the code on its first line.
func TestBadFixtures(t *testing.T) {
	files, _ := filepath.Glob("testdata/bad/*.toml")
	if len(files) < 80 {
		t.Fatalf("only %d bad fixtures", len(files))
	}
	base := copyTree(t, exampleSource)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".toml")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(string(data), "\n")
			code := strings.TrimSpace(strings.TrimPrefix(first, "# expect:"))
			dir := filepath.Join(t.TempDir(), "src")
			if err := os.CopyFS(dir, os.DirFS(base)); err != nil {
				t.Fatal(err)
			}
			loadertest.WriteFile(t, filepath.Join(dir, "plugins/design-review/PLUGIN.toml"), string(data))
			p := loadOne(t, dir, Options{})
			if !hasCode(p, code) {
				t.Errorf("codes %v lack %s", allCodes(p), code)
			}
			if p.Valid() {
				t.Errorf("package still valid (codes %v)", allCodes(p))
			}
		})
	}
}

func TestProvidersMap(t *testing.T) {
	dir := copyTree(t, exampleSource)
	mf := filepath.Join(dir, "plugins/design-review/PLUGIN.toml")
	data, _ := os.ReadFile(mf)
	loadertest.WriteFile(t, mf, string(data)+"\n[providers.claude]\nanything = { goes = [1, 2] }\n[providers.codex]\nx = 1\n")
	p := loadOne(t, dir, Options{})
	if !p.Valid() {
		t.Fatalf("providers overlay made the package invalid: %v", allCodes(p))
	}
	v, _ := p.Manifest.Get("providers")
	if keys, _ := v.([]string); strings.Join(keys, ",") != "claude,codex" {
		t.Errorf("providers keys = %v", v)
	}
	if !hasCode(p, "provider-overlay-inert") {
		t.Error("no provider-overlay-inert info")
	}
}

func TestSourceID(t *testing.T) {
	dir := copyTree(t, exampleSource)
	mf := filepath.Join(dir, "plugins/design-review/PLUGIN.toml")
	data, _ := os.ReadFile(mf)
	loadertest.WriteFile(t, mf, strings.Replace(string(data), `ref = "skill:design-review"`, `ref = "skill:company:design-review"`, 1))
	if p := loadOne(t, dir, Options{SourceID: "company"}); !p.Valid() || p.SourceID != "company" {
		t.Errorf("same-source explicit reference not resolved: %v %+v", allCodes(p), p.Members)
	}
	p := loadOne(t, dir, Options{})
	if p.Valid() || p.Members[0].Status != "unavailable_external" {
		t.Errorf("other-source required reference = %+v", p.Members)
	}
}

func TestNoPackages(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "plugins/empty"), 0o755)
	if IsSource(dir) {
		t.Error("IsSource true without a manifest")
	}
	p := loadOne(t, dir, Options{})
	if !p.Rejected || !hasCode(p, "no_plugin_packages") {
		t.Errorf("codes %v", allCodes(p))
	}
}

func TestSymlinkedPackageDirectoryRejected(t *testing.T) {
	dir := copyTree(t, exampleSource)
	other := t.TempDir()
	os.CopyFS(filepath.Join(other, "pkg"), os.DirFS(filepath.Join(dir, "plugins/design-review")))
	if err := os.Symlink(filepath.Join(other, "pkg"), filepath.Join(dir, "plugins/linked")); err != nil {
		t.Fatal(err)
	}
	pkgs := Load(dir, Options{})
	var linked *model.Package
	for _, p := range pkgs {
		if p.Name == "linked" {
			linked = p
		}
	}
	if linked == nil || !linked.Rejected || !hasCode(linked, "unsafe_plugin_package_entry") {
		t.Fatalf("symlinked package not rejected: %+v", linked)
	}
	if len(pkgs) != 2 || !pkgs[0].Valid() {
		t.Errorf("the real package must stay valid: %d packages", len(pkgs))
	}
}
