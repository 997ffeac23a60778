package agentplugins

import (
	"os"
	"testing"

	"vouch/model"
	"vouch/review/internal/loadertest"
)

// TestOnlyDirectoriesAreExtensions: a namespace directory is a directory.
// A regular file, a dangling symlink, a symlink out of the plugin, or the fixed location
// mcp.json (whose name reads like a two-label reverse domain) is never an extension
// component; the links are named at the package boundary instead. A namespace the manifest
// declares stays listed, whatever sits on disk under its name.
func TestOnlyDirectoriesAreExtensions(t *testing.T) {
	pkg := Load("testdata/not-extensions", Options{})
	var got []string
	for _, c := range pkg.Components {
		got = append(got, string(c.Kind)+":"+c.ID)
	}
	if len(got) != 2 || got[0] != "extension:com.example.declared" || got[1] != "extension:com.example.dir" {
		t.Errorf("components %v, want exactly the declared namespace and the directory", got)
	}
	want := []model.Diagnostic{
		{Code: "extension-entry-not-directory", Severity: model.SeverityInfo, Boundary: model.BoundaryPackage, File: "com.example.dangling",
			Message: "com.example.dangling is not an extension directory (symlink points to a path that does not exist).", Spec: "agent-plugins §8.2"},
		{Code: "extension-directory-escape", Severity: model.SeverityWarning, Boundary: model.BoundaryPackage, File: "com.example.escape",
			Message: "com.example.escape resolves outside the plugin root, so it is not an extension directory; a client must deny access to it.", Spec: "agent-plugins §4.1"},
	}
	if len(pkg.Diagnostics) != len(want) {
		t.Fatalf("package diagnostics %+v, want %d", pkg.Diagnostics, len(want))
	}
	for i, w := range want {
		if pkg.Diagnostics[i] != w {
			t.Errorf("diagnostic %d\n%+v\nwant\n%+v", i, pkg.Diagnostics[i], w)
		}
	}
	if !pkg.Valid() || pkg.Count().Errors != 0 {
		t.Errorf("valid=%v errors=%d", pkg.Valid(), pkg.Count().Errors)
	}
}

// TestFixedLocationsNeverExtensions: whatever kind of entry plugin.json's neighbours
// mcp.json and skills are, they are not listed as extensions.
func TestFixedLocationsNeverExtensions(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, dir string)
	}{
		{"mcp.json directory", func(t *testing.T, d string) { mustMkdir(t, d+"/mcp.json") }},
		{"mcp.json dangling symlink", func(t *testing.T, d string) { mustSymlink(t, "nowhere", d+"/mcp.json") }},
		{"mcp.json symlink out", func(t *testing.T, d string) { mustSymlink(t, "/", d+"/mcp.json") }},
		{"mcp.json regular file", func(t *testing.T, d string) { loadertest.WriteFile(t, d+"/mcp.json", mcpHead+`{}}`) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			loadertest.WriteFile(t, dir+"/plugin.json", manifestText("fixed"))
			tc.setup(t, dir)
			pkg := Load(dir, Options{})
			for _, c := range pkg.Components {
				if c.Kind == model.KindExtension {
					t.Errorf("listed %s as an extension", c.ID)
				}
			}
			for _, d := range pkg.Diagnostics {
				if d.Code == "extension-entry-not-directory" || d.Code == "extension-directory-escape" {
					t.Errorf("mcp.json treated as a namespace candidate: %+v", d)
				}
			}
		})
	}
}

func mustMkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func mustSymlink(t *testing.T, target, p string) {
	t.Helper()
	if err := os.Symlink(target, p); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
}

// TestConformanceEntryFaultsLeaveThePluginValid: the official conformance expectation "a
// plugin whose only faults are entries is valid with those entries skipped". Until issue
// 10 vouch called such a plugin invalid.
func TestConformanceEntryFaultsLeaveThePluginValid(t *testing.T) {
	for _, tc := range []struct {
		name    string
		files   map[string]string
		skipped []string
	}{
		{"one bad skill", map[string]string{
			"skills/good/SKILL.md": "---\nname: good\ndescription: Good.\n---\n",
			"skills/bad/SKILL.md":  "---\nname: other\ndescription: Bad.\n---\n",
		}, []string{"skill:bad"}},
		{"one bad server", map[string]string{
			"mcp.json": mcpHead + `{"ok": {"type": "stdio", "command": "node"}, "bad": {"type": "stdio", "command": "/bin/node"}}}`,
		}, []string{"mcp-server:bad"}},
		{"whole MCP type", map[string]string{
			"mcp.json":             `{"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json"}`,
			"skills/good/SKILL.md": "---\nname: good\ndescription: Good.\n---\n",
		}, nil},
		{"space in command", map[string]string{
			"mcp.json":           mcpHead + `{"probe": {"type": "stdio", "command": "./bin/probe token.sh"}}}`,
			"bin/probe token.sh": "#!/bin/sh\n",
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			loadertest.WriteFile(t, dir+"/plugin.json", manifestText("conformance"))
			for p, data := range tc.files {
				loadertest.WriteFile(t, dir+"/"+p, data)
			}
			pkg := Load(dir, Options{})
			if pkg.Rejected || !pkg.Valid() {
				t.Fatalf("rejected=%v valid=%v: %v", pkg.Rejected, pkg.Valid(), loadertest.Codes(pkg))
			}
			left := 0
			for _, c := range pkg.Components {
				if c.Validity != model.Valid {
					left++
				}
			}
			for _, ref := range tc.skipped {
				if c := find(pkg, ref); c == nil || c.Validity == model.Valid {
					t.Errorf("%s must be listed and left out", ref)
				}
			}
			if left != len(tc.skipped) && tc.name != "whole MCP type" {
				t.Errorf("%d components left out, want %d: %v", left, len(tc.skipped), keys(pkg))
			}
		})
	}
}
