package splice

import (
	"path/filepath"
	"testing"
	"vouch/internal/testtree"

	"vouch/model"
	"vouch/review/closure/closuretest"
	"vouch/review/internal/loadertest"
)

// TestToolClosureLayouts runs the hostile layouts every loader shares against a Splice
// folder's tool: Splice refuses symlinks and special files (the package is invalid, so
// every tool is blocked); anything else a tool can import is bound, so a mutation changes
// its digest. The exec bit is no part of a Splice closure (the runtime never executes
// package files, and an archive stores 0644), so that layout must keep the digest.
func TestToolClosureLayouts(t *testing.T) {
	base := filepath.Join(fixtures, "skills-example", "files")
	for _, l := range closuretest.Layouts() {
		t.Run(l.Name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "pkg")
			testtree.Copy(t, base, dir)
			closuretest.Build(t, dir, l)
			pkg := Load(dir, Options{})
			c := pkg.Component(model.KindTool, "hello")
			if c == nil {
				t.Fatalf("no tool: %+v", pkg.Diagnostics)
			}
			if l.Blocks || l.HasLinks() {
				code := "package-symlink"
				if l.Code == "-file-special" {
					code = "package-special-file"
				}
				if d := findDiag(pkg, code); d == nil || d.Boundary != model.BoundaryPackage || pkg.Valid() {
					t.Fatalf("want %s at the package boundary: %+v", code, loadertest.Diagnostics(pkg))
				}
				return
			}
			if c.Contract == nil {
				t.Fatalf("no contract: %+v", loadertest.Diagnostics(pkg))
			}
			before := c.Contract.MustDigest()
			l.Mutate(t, dir)
			after := Load(dir, Options{}).Component(model.KindTool, "hello").Contract.MustDigest()
			if l.Name == "exec bit set" {
				if after != before {
					t.Errorf("the exec bit changed a Splice digest")
				}
				return
			}
			if after == before {
				t.Errorf("the mutation kept the approval")
			}
		})
	}
}
