package agentplugins

import (
	"os"
	"path/filepath"
	"testing"

	"vouch/model"
	"vouch/review/internal/loadertest"
)

// FuzzManifest feeds arbitrary bytes as plugin.json. Load must never panic, and never
// list a component of a rejected plugin. (That the parser agrees with encoding/json is
// jsontext's FuzzParse.)
func FuzzManifest(f *testing.F) {
	f.Add([]byte(manifestText("seed")))
	f.Add([]byte(`{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "a", "extensions": {"dev.pi.agent": {"x": [1, 2.5e3, null, true]}}, "other": "\ud83d\ude00\ud800"}`))
	dir := f.TempDir()
	os.MkdirAll(filepath.Join(dir, "skills", "greet"), 0o755)
	os.WriteFile(filepath.Join(dir, "skills", "greet", "SKILL.md"), []byte("---\nname: greet\ndescription: Greets.\n---\nHi.\n"), 0o644)
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, "plugin.json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		pkg := Load(dir, Options{})
		if pkg.Rejected && len(pkg.Components) != 0 {
			t.Fatalf("rejected plugin lists components")
		}
		if !pkg.Rejected && pkg.Component(model.KindSkill, "greet") == nil {
			t.Fatalf("accepted plugin lost its skill: %v", loadertest.Codes(pkg))
		}
	})
}

// FuzzMCP feeds arbitrary bytes as mcp.json: never a panic; a disabled MCP lists no valid
// server; every valid server has a contract with a digest.
func FuzzMCP(f *testing.F) {
	f.Add([]byte(mcpHead + `{"ok": {"type": "stdio", "command": "./bin/s", "args": ["${PLUGIN_ROOT}"], "env": {"A": "${PLUGIN_DATA}"}, "cwd": "./x/../y"}}}`))
	f.Add([]byte(mcpHead + `{"r": {"type": "streamable-http", "url": "http://[::1]:1/x", "headers": {"A": "b", "a": "c"}}, "s": {"type": "sse", "url": "https://u@h/#f"}}}`))
	f.Add([]byte(mcpHead + `{"a": {"type": "stdio", "command": "n", "url": "x"}, "a": 1}}`))
	dir := f.TempDir()
	os.WriteFile(filepath.Join(dir, "plugin.json"), []byte(manifestText("fuzz")), 0o644)
	os.MkdirAll(filepath.Join(dir, "bin"), 0o755)
	os.WriteFile(filepath.Join(dir, "bin", "s"), []byte("#!/bin/sh\n"), 0o755)
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, "mcp.json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		pkg := Load(dir, Options{DataDir: "/data"})
		if pkg.Rejected {
			t.Fatalf("mcp.json must never reject the plugin: %v", loadertest.Codes(pkg))
		}
		disabled := false
		for _, d := range pkg.Diagnostics {
			if d.File == "mcp.json" && d.Boundary == model.BoundaryComponentType && d.IsError() {
				disabled = true
			}
		}
		for _, c := range pkg.Components {
			if c.Kind != model.KindMCPServer {
				continue
			}
			if c.Validity == model.Valid {
				if disabled {
					t.Fatalf("server %q valid while MCP is disabled", c.ID)
				}
				if c.Contract == nil || c.Contract.MustDigest() == "" {
					t.Fatalf("valid server %q without a usable contract", c.ID)
				}
			} else if c.Contract != nil {
				t.Fatalf("invalid server %q has a contract", c.ID)
			}
		}
	})
}
