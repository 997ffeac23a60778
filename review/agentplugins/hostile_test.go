package agentplugins

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
	"vouch/model"
	"vouch/review/fsguard"
	"vouch/review/internal/loadertest"
)

// TestHostile builds each hostile input at test time (FIFOs, sparse files and symlinks
// out of the tree do not belong in git) and asserts the narrowest diagnostic, without a
// panic or a hang.
func TestHostile(t *testing.T) {
	goodMCP := mcpHead + `{"ok": {"type": "stdio", "command": "node"}}}`
	skill := "---\nname: greet\ndescription: Greets.\n---\nHi.\n"
	base := func(t *testing.T) string {
		dir := t.TempDir()
		loadertest.WriteFile(t, dir+"/plugin.json", manifestText("hostile"))
		loadertest.WriteFile(t, dir+"/skills/greet/SKILL.md", skill)
		loadertest.WriteFile(t, dir+"/mcp.json", goodMCP)
		return dir
	}
	must := func(t *testing.T, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	sparse := func(t *testing.T, path string) { testtree.Sparse(t, path, 2<<30) }
	fifo := func(t *testing.T, path string) {
		os.RemoveAll(path)
		testtree.Fifo(t, path)
	}
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	cases := []struct {
		name   string
		setup  func(t *testing.T, dir string)
		limits func(*fsguard.Limits)
		want   caseWant
	}{
		{"sparse-2gib-plugin-json", func(t *testing.T, d string) { sparse(t, d+"/plugin.json") }, nil,
			caseWant{rejected: true, pkgCode: "manifest-too-large", pkgBound: model.BoundaryPackage}},
		{"sparse-2gib-mcp-json", func(t *testing.T, d string) { sparse(t, d+"/mcp.json") }, nil,
			caseWant{pkgCode: "mcp-too-large", pkgBound: model.BoundaryComponentType, validity: map[string]string{"skill:greet": "valid"}}},
		{"fifo-plugin-json", func(t *testing.T, d string) { fifo(t, d+"/plugin.json") }, nil,
			caseWant{rejected: true, pkgCode: "manifest-not-regular-file", pkgBound: model.BoundaryPackage}},
		{"fifo-mcp-json", func(t *testing.T, d string) { fifo(t, d+"/mcp.json") }, nil,
			caseWant{pkgCode: "mcp-not-regular-file", pkgBound: model.BoundaryComponentType, validity: map[string]string{"skill:greet": "valid"}}},
		{"fifo-skill-md", func(t *testing.T, d string) { fifo(t, d+"/skills/greet/SKILL.md") }, nil,
			caseWant{pkgCode: "skill-md-not-regular-file", absent: []string{"skill:greet"}, validity: map[string]string{"mcp-server:ok": "valid"}}},
		{"plugin-json-symlink-escape", func(t *testing.T, d string) {
			os.Remove(d + "/plugin.json")
			must(t, os.Symlink("/etc/hostname", d+"/plugin.json"))
		}, nil, caseWant{rejected: true, pkgCode: "manifest-escape", pkgBound: model.BoundaryPackage}},
		{"plugin-json-symlink-loop", func(t *testing.T, d string) {
			os.Remove(d + "/plugin.json")
			must(t, os.Symlink("plugin.json", d+"/plugin.json"))
		}, nil, caseWant{rejected: true, pkgCode: "manifest-symlink-loop", pkgBound: model.BoundaryPackage}},
		{"skills-symlink-loop", func(t *testing.T, d string) {
			os.RemoveAll(d + "/skills")
			must(t, os.Symlink("skills", d+"/skills"))
		}, nil, caseWant{pkgCode: "skills-location-symlink-loop", pkgBound: model.BoundaryComponentType, validity: map[string]string{"mcp-server:ok": "valid"}}},
		{"skills-symlink-to-root", func(t *testing.T, d string) {
			os.RemoveAll(d + "/skills")
			must(t, os.Symlink("/", d+"/skills"))
		}, nil, caseWant{pkgCode: "skills-location-escape", pkgBound: model.BoundaryComponentType, validity: map[string]string{"mcp-server:ok": "valid"}}},
		{"mcp-json-symlink-escape", func(t *testing.T, d string) {
			os.Remove(d + "/mcp.json")
			must(t, os.Symlink("../../../../../../../etc/passwd", d+"/mcp.json"))
		}, nil, caseWant{pkgCode: "mcp-location-escape", pkgBound: model.BoundaryComponentType, validity: map[string]string{"skill:greet": "valid"}}},
		{"skill-dir-symlink-escape", func(t *testing.T, d string) {
			must(t, os.Symlink("/tmp", d+"/skills/outside"))
		}, nil, caseWant{validity: map[string]string{"skill:greet": "valid", "skill:outside": "skipped"}, compCode: map[string]string{"skill:outside": "skill-escape"}}},
		{"skill-md-symlink-escape", func(t *testing.T, d string) {
			os.Remove(d + "/skills/greet/SKILL.md")
			other := t.TempDir()
			loadertest.WriteFile(t, other+"/SKILL.md", skill)
			must(t, os.Symlink(other+"/SKILL.md", d+"/skills/greet/SKILL.md"))
		}, nil, caseWant{validity: map[string]string{"skill:greet": "skipped", "mcp-server:ok": "valid"}, compCode: map[string]string{"skill:greet": "skill-escape"}}},
		{"skill-md-symlink-inside", func(t *testing.T, d string) {
			os.Remove(d + "/skills/greet/SKILL.md")
			loadertest.WriteFile(t, d+"/docs/greet.md", skill)
			must(t, os.Symlink("../../docs/greet.md", d+"/skills/greet/SKILL.md"))
		}, nil, caseWant{validity: map[string]string{"skill:greet": "valid"}}},
		{"command-symlink-escape", func(t *testing.T, d string) {
			must(t, os.MkdirAll(d+"/bin", 0o755))
			must(t, os.Symlink("/bin/sh", d+"/bin/server"))
			loadertest.WriteFile(t, d+"/mcp.json", mcpHead+`{"ok": {"type": "stdio", "command": "node"}, "esc": {"type": "stdio", "command": "./bin/server"}}}`)
		}, nil, caseWant{validity: map[string]string{"mcp-server:ok": "valid", "mcp-server:esc": "invalid"}, compCode: map[string]string{"mcp-server:esc": "mcp-command-escape"}}},
		{"command-dotdot-after-symlink", func(t *testing.T, d string) {
			// lib -> /usr/lib: ./lib/../bin/sh is lexically inside but physically /usr/bin/sh.
			must(t, os.Symlink("/usr/lib", d+"/lib"))
			loadertest.WriteFile(t, d+"/mcp.json", mcpHead+`{"esc": {"type": "stdio", "command": "./lib/../bin/sh"}}}`)
		}, nil, caseWant{validity: map[string]string{"mcp-server:esc": "invalid"}, compCode: map[string]string{"mcp-server:esc": "mcp-command-escape"}}},
		{"cwd-symlink-escape", func(t *testing.T, d string) {
			must(t, os.Symlink("/", d+"/data"))
			loadertest.WriteFile(t, d+"/mcp.json", mcpHead+`{"ok": {"type": "stdio", "command": "node"}, "esc": {"type": "stdio", "command": "node", "cwd": "${PLUGIN_ROOT}/data"}}}`)
		}, nil, caseWant{validity: map[string]string{"mcp-server:ok": "valid", "mcp-server:esc": "invalid"}, compCode: map[string]string{"mcp-server:esc": "mcp-cwd-escape"}}},
		{"skills-too-many-entries", func(t *testing.T, d string) {
			for i := 0; i < 300; i++ {
				must(t, os.Mkdir(fmt.Sprintf("%s/skills/s%03d", d, i), 0o755))
			}
		}, func(l *fsguard.Limits) { l.MaxEntries = 200 },
			caseWant{pkgCode: "skills-location-too-many-entries", pkgBound: model.BoundaryComponentType, validity: map[string]string{"mcp-server:ok": "valid"}}},
		{"fifo-in-server-closure", func(t *testing.T, d string) { fifo(t, d+"/pipe") }, nil,
			caseWant{validity: map[string]string{"mcp-server:ok": "valid"}, compCode: map[string]string{"mcp-server:ok": "plugin-file-special"}}},
		{"sparse-file-in-server-closure", func(t *testing.T, d string) { sparse(t, d+"/blob.bin") }, nil,
			caseWant{validity: map[string]string{"mcp-server:ok": "valid", "skill:greet": "valid"}, compCode: map[string]string{"mcp-server:ok": "plugin-files-limit"}}},
		{"server-closure-too-many-entries", func(t *testing.T, d string) {
			for i := 0; i < 300; i++ {
				loadertest.WriteFile(t, fmt.Sprintf("%s/lib/f%03d.js", d, i), "x")
			}
		}, func(l *fsguard.Limits) { l.MaxEntries = 200 },
			caseWant{validity: map[string]string{"mcp-server:ok": "valid", "skill:greet": "valid"}, compCode: map[string]string{"mcp-server:ok": "plugin-files-limit"}}},
		{"deep-plugin-json", func(t *testing.T, d string) {
			loadertest.WriteFile(t, d+"/plugin.json", deep(100000))
		}, nil, caseWant{rejected: true, pkgCode: "manifest-too-deep"}},
		{"deep-mcp-json", func(t *testing.T, d string) {
			loadertest.WriteFile(t, d+"/mcp.json", deep(100000))
		}, nil, caseWant{pkgCode: "mcp-too-deep", pkgBound: model.BoundaryComponentType, validity: map[string]string{"skill:greet": "valid"}}},
		{"nul-in-mcp-values", func(t *testing.T, d string) {
			loadertest.WriteFile(t, d+"/mcp.json", mcpHead+`{"ok": {"type": "stdio", "command": "node"}, "nul": {"type": "stdio", "command": "no\u0000de"}, "hdr": {"type": "sse", "url": "https://x.example.com", "headers": {"X": "a\u0000b"}}}}`)
		}, nil, caseWant{validity: map[string]string{"mcp-server:ok": "valid", "mcp-server:nul": "invalid", "mcp-server:hdr": "invalid"},
			compCode: map[string]string{"mcp-server:nul": "mcp-command-not-single-token", "mcp-server:hdr": "mcp-header-value-invalid"}}},
		{"too-many-servers", func(t *testing.T, d string) {
			var b strings.Builder
			b.WriteString(mcpHead + "{")
			for i := 0; i < 1100; i++ {
				if i > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, `"s%d": {"type": "stdio", "command": "node"}`, i)
			}
			b.WriteString("}}")
			loadertest.WriteFile(t, d+"/mcp.json", b.String())
		}, nil, caseWant{pkgCode: "mcp-too-many-entries", pkgBound: model.BoundaryComponentType, validity: map[string]string{"skill:greet": "valid"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := base(t)
			tc.setup(t, dir)
			lim := fsguard.DefaultLimits()
			if tc.limits != nil {
				tc.limits(&lim)
			}
			pkg := testtree.Returns(t, "Load", func() *model.Package { return Load(dir, Options{Limits: lim}) })
			checkWant(t, pkg, tc.want)
		})
	}
}

// TestRejectedDiscoversNothing: a fatal manifest error leaves no component at all, even
// when skills and servers are valid.
func TestRejectedDiscoversNothing(t *testing.T) {
	dir := t.TempDir()
	loadertest.WriteFile(t, dir+"/plugin.json", `{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "Bad Name", "extensions": {"dev.pi.agent": {}}}`)
	loadertest.WriteFile(t, dir+"/skills/greet/SKILL.md", "---\nname: greet\ndescription: Greets.\n---\nHi.\n")
	loadertest.WriteFile(t, dir+"/mcp.json", mcpHead+`{"ok": {"type": "stdio", "command": "node"}}}`)
	pkg := Load(dir, Options{})
	if !pkg.Rejected || len(pkg.Components) != 0 || pkg.Valid() {
		t.Fatalf("rejected=%v components=%v", pkg.Rejected, keys(pkg))
	}
	if pkg.Name != filepath.Base(dir) {
		t.Errorf("name falls back to the directory: %q", pkg.Name)
	}
}

func TestReader(t *testing.T) {
	pkg := Load("testdata/cases/servers", Options{})
	b, err := pkg.Reader.ReadFile("bin/server")
	if err != nil || !strings.HasPrefix(string(b), "#!/bin/sh") {
		t.Fatalf("ReadFile = %q, %v", b, err)
	}
	if _, err := pkg.Reader.ReadFile("../cases/servers/plugin.json"); err == nil {
		t.Errorf("reader must refuse paths outside the root")
	}
}
