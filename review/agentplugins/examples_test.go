package agentplugins

import (
	"strings"
	"testing"

	"vouch/model"
)

// TestExamples keeps examples/agent-plugins and its README honest: each example fails
// exactly at the boundary the README says.
func TestExamples(t *testing.T) {
	const dir = "../../examples/agent-plugins/"
	cases := map[string]caseWant{
		"release-helper": {noErrors: true, validity: map[string]string{
			"skill:changelog": "valid", "skill:version-check": "valid", "mcp-server:release-notes": "valid",
			"mcp-server:registry": "valid", "mcp-server:local-preview": "valid", "extension:dev.pi.agent": "valid"}},
		"broken-manifest":        {rejected: true, pkgCode: "manifest-invalid-name", pkgBound: model.BoundaryPackage, hasCount: true},
		"broken-skills-location": {pkgCode: "skills-not-directory", pkgBound: model.BoundaryComponentType, validity: map[string]string{"mcp-server:tool": "valid"}},
		"broken-one-skill": {validity: map[string]string{"skill:summarize": "valid", "skill:translate": "skipped"},
			compCode: map[string]string{"skill:translate": "skill-name-mismatch"}},
		"broken-mcp-version": {pkgCode: "mcp-version-mismatch", pkgBound: model.BoundaryComponentType,
			validity: map[string]string{"skill:notes": "valid", "mcp-server:tool": "skipped"}},
		"broken-one-server": {validity: map[string]string{"mcp-server:good-local": "valid", "mcp-server:good-remote": "valid",
			"mcp-server:absolute-command": "invalid", "mcp-server:shell-string": "valid", "skill:notes": "valid"},
			compCode: map[string]string{"mcp-server:absolute-command": "mcp-command-form", "mcp-server:shell-string": "mcp-command-looks-like-shell-string"}},
		"broken-insecure-url": {validity: map[string]string{"mcp-server:plain-http": "invalid", "mcp-server:all-interfaces": "invalid", "mcp-server:loopback-ok": "valid"},
			compCode: map[string]string{"mcp-server:plain-http": "mcp-url-insecure", "mcp-server:all-interfaces": "mcp-url-insecure"}},
		"broken-command-symlink": {validity: map[string]string{"mcp-server:shell": "invalid", "skill:notes": "valid"},
			compCode: map[string]string{"mcp-server:shell": "mcp-command-escape"}},
	}
	for name, w := range cases {
		t.Run(name, func(t *testing.T) {
			pkg := Load(dir+name, Options{})
			checkWant(t, pkg, w)
			if name == "release-helper" && !pkg.Valid() {
				t.Errorf("the clean example must be valid")
			}
			if name == "release-helper" {
				// The README promises the template read through ${PLUGIN_ROOT} is approved
				// with the server, with the skills and both manifests.
				c := pkg.Component(model.KindMCPServer, "release-notes")
				var paths []string
				for _, f := range c.Contract.Files {
					paths = append(paths, f.Path)
				}
				got := strings.Join(paths, " ")
				if !strings.Contains(got, "templates/notes.md") || !strings.Contains(got, "bin/release-server") || !strings.Contains(got, "skills/changelog/SKILL.md") || !strings.Contains(got, "plugin.json") || !strings.Contains(got, "mcp.json") {
					t.Errorf("release-notes closure = %s", got)
				}
			}
			// Only a manifest fault rejects a plugin; every other broken example is valid
			// with its faulty part skipped, and still carries an error (validate exits 1).
			if name != "release-helper" {
				if pkg.Valid() != (name != "broken-manifest") {
					t.Errorf("Valid() = %v: only broken-manifest is an invalid package", pkg.Valid())
				}
				if pkg.Count().Errors == 0 {
					t.Errorf("a broken example must carry an error diagnostic")
				}
			}
		})
	}
}
