package splice

import (
	"path/filepath"
	"strings"
	"testing"

	"vouch/model"
	"vouch/review/internal/loadertest"
)

// The examples under examples/splice behave as their README says.
func TestExamples(t *testing.T) {
	dir := filepath.Join("..", "..", "examples", "splice")
	cases := []struct {
		path  string
		valid bool
		code  string
	}{
		{"example", true, ""},
		{"splice-example-0.1.1.tar.gz", true, ""},
		{"splice-example-0.1.1.splice-bundle.json", true, ""},
		{"web-notes", true, ""},
		{"broken-manifest", false, "manifest-unknown-field"},
		{"hostile-zip-slip.tar.gz", false, "archive-unsafe-path"},
		{"hostile-symlink.tar.gz", false, "archive-unsupported-entry"},
		{"hostile-case-duplicate.tar.gz", false, "archive-duplicate-path"},
		{"hostile-bad-checksum.tar.gz", false, "archive-checksum-mismatch"},
		{"hostile-zip-slip.splice-bundle.json", false, "bundle-unsafe-path"},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			pkg := Load(filepath.Join(dir, c.path), Options{})
			if pkg.Valid() != c.valid {
				t.Fatalf("valid = %v: %+v", pkg.Valid(), loadertest.Diagnostics(pkg))
			}
			if c.code != "" && findDiag(pkg, c.code) == nil {
				t.Errorf("no %s: %+v", c.code, loadertest.Diagnostics(pkg))
			}
		})
	}
	pkg := Load(filepath.Join(dir, "web-notes"), Options{})
	c := pkg.Component(model.KindTool, "clip")
	if c == nil || c.Contract == nil {
		t.Fatalf("no clip tool: %+v", loadertest.Diagnostics(pkg))
	}
	if testing.Verbose() {
		t.Logf("package %s %s", pkg.Name, pkg.Version)
		for _, f := range pkg.Manifest {
			t.Logf("manifest %s = %v", f.Key, f.Value)
		}
		for _, s := range c.Summary {
			t.Logf("summary: %s", s)
		}
		for _, cp := range c.Capabilities {
			t.Logf("cap %s %v: %s", cp.Kind, cp.Scope, cp.Detail)
		}
		for _, f := range c.Details {
			t.Logf("detail %s = %v", f.Key, f.Value)
		}
		canon, _ := c.Contract.Canonical()
		t.Logf("contract %s", canon)
	}
	ann, _ := c.Details.Get("annotations")
	if !strings.Contains(strings.TrimSpace(fmtFields(ann)), "readOnlyHint=false destructiveHint=true openWorldHint=true") {
		t.Errorf("annotations %v", ann)
	}
	if v, _ := pkg.Manifest.Get("vendor data (x-*, ignored by Splice)"); v == nil {
		t.Error("x-* vendor data not shown")
	}
	if v, _ := c.Details.Get("vendor data (x-*, ignored by Splice)"); v == nil {
		t.Error("tool x-* vendor data not shown")
	}
}

func fmtFields(v any) string {
	f, _ := v.(model.Fields)
	var parts []string
	for _, x := range f {
		parts = append(parts, x.Key+"="+map[bool]string{true: "true", false: "false"}[x.Value == true])
	}
	return strings.Join(parts, " ")
}
