package agentplugins

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"vouch/model"
)

// FuzzManifest feeds arbitrary bytes as plugin.json. The parser must agree with
// encoding/json on what is JSON, and Load must never panic, and never list a component
// of a rejected plugin.
func FuzzManifest(f *testing.F) {
	f.Add([]byte(manifestText("seed")))
	f.Add([]byte(`{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "a", "extensions": {"dev.pi.agent": {"x": [1, 2.5e3, null, true]}}, "other": "\ud83d\ude00\ud800"}`))
	dir := f.TempDir()
	os.MkdirAll(filepath.Join(dir, "skills", "greet"), 0o755)
	os.WriteFile(filepath.Join(dir, "skills", "greet", "SKILL.md"), []byte("---\nname: greet\ndescription: Greets.\n---\nHi.\n"), 0o644)
	f.Fuzz(func(t *testing.T, data []byte) {
		checkParserAgainstStdlib(t, data)
		if err := os.WriteFile(filepath.Join(dir, "plugin.json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		pkg := Load(dir, Options{})
		if pkg.Rejected && len(pkg.Components) != 0 {
			t.Fatalf("rejected plugin lists components")
		}
		if !pkg.Rejected && pkg.Component(model.KindSkill, "greet") == nil {
			t.Fatalf("accepted plugin lost its skill: %v", codes(pkg))
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
		checkParserAgainstStdlib(t, data)
		if err := os.WriteFile(filepath.Join(dir, "mcp.json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		pkg := Load(dir, Options{DataDir: "/data"})
		if pkg.Rejected {
			t.Fatalf("mcp.json must never reject the plugin: %v", codes(pkg))
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

// checkParserAgainstStdlib: for UTF-8 input without a BOM, parseJSON accepts exactly what
// encoding/json accepts (up to the depth limit) and decodes the same value.
func checkParserAgainstStdlib(t *testing.T, data []byte) {
	v, _, err := parseJSON(data, jsonLimits{MaxDepth: 10000, MaxString: 1 << 30, MaxEntries: 1 << 30})
	if !utf8.Valid(data) || bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		if err == nil {
			t.Fatalf("accepted invalid UTF-8 or a BOM")
		}
		return
	}
	var std any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	stdErr := dec.Decode(&std)
	if stdErr == nil && dec.More() {
		stdErr = errTrailing
	}
	if stdErr == nil {
		// Decoder stops after one value; make sure only whitespace follows.
		if rest := bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n"); len(rest) > 0 {
			stdErr = errTrailing
		}
	}
	if (err == nil) != (stdErr == nil) {
		if err != nil && err.Code == "json-too-deep" {
			return
		}
		t.Fatalf("parseJSON err=%v, encoding/json err=%v for %q", err, stdErr, data)
	}
	if err == nil {
		got, _ := json.Marshal(toAny(v))
		want, _ := json.Marshal(std)
		if !bytes.Equal(got, want) {
			t.Fatalf("decoded %s, encoding/json %s", got, want)
		}
	}
}

var errTrailing = &jsonError{Code: "json-syntax", Msg: "trailing data"}
