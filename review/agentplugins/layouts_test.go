package agentplugins

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/model"
	"vouch/review/closure/closuretest"
	"vouch/review/internal/loadertest"
)

// TestServerClosureLayouts runs the hostile layouts every loader shares against a stdio
// server: each is built at the plugin root (the folder the server runs from), and either
// blocks the server or a mutation of what it runs changes its digest. A skill placed there
// too must hold the same line for its own directory.
func TestServerClosureLayouts(t *testing.T) {
	for _, l := range closuretest.Layouts() {
		t.Run(l.Name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "p")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			loadertest.WriteFile(t, dir+"/plugin.json", `{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "p", "description": "one"}`)
			loadertest.WriteFile(t, dir+"/mcp.json", mcpHead+`{"s": {"type": "stdio", "command": "node", "args": ["${PLUGIN_ROOT}/run.js"]}}}`)
			closuretest.Build(t, dir, l)
			c := Load(dir, Options{}).Component(model.KindMCPServer, "s")
			if c == nil {
				t.Fatal("no server")
			}
			if l.Blocks {
				if c.Contract != nil || !loadertest.HasCode(c.Diagnostics, "plugin"+l.Code) {
					t.Fatalf("contract %v, diagnostics %+v", c.Contract != nil, c.Diagnostics)
				}
				return
			}
			if c.Contract == nil {
				t.Fatalf("no contract: %+v", c.Diagnostics)
			}
			before := c.Contract.MustDigest()
			l.Mutate(t, dir)
			if after := Load(dir, Options{}).Component(model.KindMCPServer, "s").Contract; after == nil || after.MustDigest() == before {
				t.Errorf("the mutation kept the approval")
			}
		})
	}
}

// TestSkillClosureLayouts: the same layouts inside a skill directory bind or block the
// skill itself (a link inside a skill directory is bound or blocks like any other).
func TestSkillClosureLayouts(t *testing.T) {
	for _, l := range closuretest.Layouts() {
		if strings.Contains(l.Name, "out of the package") || l.Code == "-file-special" {
			// ".." from a skill directory is still inside the plugin; a skill is read by an
			// agent, not run as a process, so a FIFO in it is a warning (the servers block).
			continue
		}
		t.Run(l.Name, func(t *testing.T) {
			dir := t.TempDir()
			loadertest.WriteFile(t, dir+"/plugin.json", `{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "p", "description": "one"}`)
			loadertest.WriteFile(t, dir+"/skills/foo/SKILL.md", "---\nname: foo\ndescription: Foo.\n---\nBody.\n")
			closuretest.Build(t, dir+"/skills/foo", l)
			c := Load(dir, Options{}).Component(model.KindSkill, "foo")
			if l.Blocks {
				if c.Contract != nil || !loadertest.HasCode(c.Diagnostics, "skill"+l.Code) || c.Validity != model.Valid {
					t.Fatalf("%s contract %v, diagnostics %+v", c.Validity, c.Contract != nil, c.Diagnostics)
				}
				return
			}
			if c.Contract == nil {
				t.Fatalf("no contract: %+v", c.Diagnostics)
			}
			before := c.Contract.MustDigest()
			l.Mutate(t, dir+"/skills/foo")
			if after := Load(dir, Options{}).Component(model.KindSkill, "foo").Contract; after == nil || after.MustDigest() == before {
				t.Errorf("the mutation kept the approval")
			}
		})
	}
}
