package dalo

import (
	"path/filepath"
	"strings"
	"testing"

	"vouch/model"
	"vouch/review/closure/closuretest"
	"vouch/review/internal/loadertest"
)

const layoutManifest = `schema_version = 1

[plugin]
name = "p"
description = "d"

[[tool]]
schema_version = 1
id = "t"
entry = "tools/t.mjs"
runtime = "node"
argv = []
cwd = "tool_root"
capabilities = []
availability = "required"
`

// TestToolClosureLayouts runs the hostile layouts every loader shares beside a Dalo
// tool's entry. Dalo's closure is narrower (entry + files), so: any symlink or special
// file makes the package invalid (the draft: "no symlinks or special files"); every other
// file there is outside the closure and listed under not covered, before and after the
// mutation, while the digest stays (it binds exactly entry + files).
func TestToolClosureLayouts(t *testing.T) {
	for _, l := range closuretest.Layouts() {
		t.Run(l.Name, func(t *testing.T) {
			src := t.TempDir()
			loadertest.WriteFile(t, filepath.Join(src, "plugins/p/PLUGIN.toml"), layoutManifest)
			loadertest.WriteFile(t, filepath.Join(src, "plugins/p/tools/t.mjs"), "import './x.js'\n")
			tools := filepath.Join(src, "plugins/p/tools")
			closuretest.Build(t, tools, l)
			pkg := Load(src, Options{})[0]
			c := pkg.Component(model.KindTool, "t")
			if l.Blocks || l.HasLinks() {
				if pkg.Valid() || !strings.Contains(strings.Join(allCodes(pkg), " "), "unsafe_plugin_package_entry") {
					t.Fatalf("a symlink or special file was accepted: %v", allCodes(pkg))
				}
				return
			}
			if c == nil || c.Contract == nil {
				t.Fatalf("no contract: %v", allCodes(pkg))
			}
			listed := func(c *model.Component) map[string]bool {
				out := map[string]bool{}
				for _, n := range c.NotCovered {
					if n.Kind == model.NotCoveredUnlisted {
						out[n.Subject] = true
					}
				}
				return out
			}
			for rel := range l.Files {
				if !listed(c)["plugins/p/tools/"+rel] {
					t.Errorf("%s beside the entry is not listed as not covered: %+v", rel, c.NotCovered)
				}
			}
			before := c.Contract.MustDigest()
			l.Mutate(t, tools)
			c2 := Load(src, Options{})[0].Component(model.KindTool, "t")
			if c2.Contract.MustDigest() != before {
				t.Errorf("a file outside entry + files changed the digest")
			}
			if l.Name == "new file added" && !listed(c2)["plugins/p/tools/y.js"] {
				t.Errorf("the added file is not listed: %+v", c2.NotCovered)
			}
		})
	}
}
