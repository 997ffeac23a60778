package agentplugins

import (
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
	closuretest.Run(t, "p", "plugin", func(t *testing.T, dir string) {
		loadertest.WriteFile(t, dir+"/plugin.json", `{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "p", "description": "one"}`)
		loadertest.WriteFile(t, dir+"/mcp.json", mcpHead+`{"s": {"type": "stdio", "command": "node", "args": ["${PLUGIN_ROOT}/run.js"]}}}`)
	}, func(t *testing.T, dir string) map[string]*model.Component {
		return map[string]*model.Component{"s": Load(dir, Options{}).Component(model.KindMCPServer, "s")}
	})
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
			closuretest.Check(t, l, dir+"/skills/foo", "skill", func() map[string]*model.Component {
				c := Load(dir, Options{}).Component(model.KindSkill, "foo")
				if l.Blocks && c != nil && c.Validity != model.Valid {
					t.Errorf("a blocked skill must stay valid: %s, diagnostics %+v", c.Validity, c.Diagnostics)
				}
				return map[string]*model.Component{"foo": c}
			})
		})
	}
}
