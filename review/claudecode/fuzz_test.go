package claudecode

import (
	"os"
	"path/filepath"
	"testing"

	"vouch/model"
)

// checkInvariants are what every load must satisfy, whatever the input: a rejected plugin
// lists nothing; a component that is not valid (or unsupported) has no contract; every
// contract has a digest; component ids are unique per kind.
func checkInvariants(t *testing.T, p *model.Package) {
	t.Helper()
	if p.Rejected {
		claudeRunsNone(t, p)
	}
	seen := map[string]bool{}
	for _, c := range p.Components {
		key := string(c.Kind) + ":" + c.ID
		if seen[key] {
			t.Fatalf("duplicate component %s", key)
		}
		seen[key] = true
		if c.Validity != model.Valid && c.Validity != model.Unsupported && c.Contract != nil {
			t.Fatalf("%s is %s with a contract", key, c.Validity)
		}
		if c.Contract != nil && c.Contract.MustDigest() == "" {
			t.Fatalf("%s has a contract without a digest", key)
		}
		if len(c.Support) == 0 && c.Kind != model.KindSkill {
			t.Fatalf("%s has no support answer", key)
		}
	}
}

func fuzzDir(f *testing.F) string {
	dir := f.TempDir()
	os.MkdirAll(filepath.Join(dir, ".claude-plugin"), 0o755)
	os.MkdirAll(filepath.Join(dir, "scripts"), 0o755)
	os.WriteFile(filepath.Join(dir, "scripts", "run.sh"), []byte("#!/bin/sh\n"), 0o755)
	return dir
}

// fuzzPluginFile writes each input as the file rel of the plugin at dir, loads the plugin
// and holds it to the invariants, then to also when it is not nil.
func fuzzPluginFile(f *testing.F, dir, rel string, also func(*testing.T, *model.Package)) {
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, rel), data, 0o644); err != nil {
			t.Fatal(err)
		}
		p := LoadPlugin(dir, Options{})
		checkInvariants(t, p)
		if also != nil {
			also(t, p)
		}
	})
}

// FuzzHooksFile feeds arbitrary bytes as hooks/hooks.json.
func FuzzHooksFile(f *testing.F) {
	for _, s := range []string{
		`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}\"/scripts/run.sh", "timeout": 5, "if": "Bash(git *)"}]}]}}`,
		`{"$schema": "x", "hooks": {"Stop": [{"matcher": "Bash", "hooks": [{"type": "prompt", "prompt": "ok?"}, {"type": "http", "url": "https://h.invalid/x", "allowedEnvVars": ["T"]}]}]}}`,
		`{"PreToolUse": []}`, `{"hooks": {"pretooluse": [{"hooks": [{"type": "shell"}]}], "SessionStart": 3}}`,
		`{"hooks": {"PermissionRequest": [{"hooks": [{"type": "command", "command": "x", "timeout": -1}, {"type": "mcp_tool", "server": "plugin:p:s", "tool": "t", "input": {}}]}]}}`,
		`[1, 2`, "\xff\xfe", `{"hooks": {"PreToolUse": [{"matcher": "Edit.*(", "hooks": [{"type": "command", "command": "npx x@latest; curl h | sh", "args": ["${user_config.k}"], "shell": "zsh", "async": "yes"}]}]}}`,
	} {
		f.Add([]byte(s))
	}
	dir := fuzzDir(f)
	os.WriteFile(filepath.Join(dir, manifestFile), []byte(`{"name": "fuzz"}`), 0o644)
	os.MkdirAll(filepath.Join(dir, "hooks"), 0o755)
	fuzzPluginFile(f, dir, hooksFile, nil)
}

// FuzzManifest feeds arbitrary bytes as .claude-plugin/plugin.json (inline hooks,
// servers, paths and userConfig included).
func FuzzManifest(f *testing.F) {
	for _, s := range []string{
		`{"name": "p", "version": "1", "author": {"name": "a"}, "keywords": ["k"], "hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "x"}]}]}}`,
		`{"name": "claude-x", "displayname": "X", "commands": "cmds", "agents": ["./../a.md"], "skills": ".", "mcpServers": [{"a": {"command": "n"}}, "./m.json", "./b.mcpb"]}`,
		`{"name": 3}`, `{}`, `[]`, `{"name": "a b", "userConfig": {"bad key": {}, "K": {"type": "string", "sensitive": true}}}`,
		`{"name": "p", "hooks": {"hooks": {}}, "lspServers": {"x": {"command": "c", "extensionToLanguage": {".x": "x"}}}, "monitors": [{"name": "m", "command": "c", "description": "d"}]}`,
		`{"name": "p", "metadata": 1, "experimental": "x", "name": "q"}`,
		`{"name": "p", "hooks": ["./hooks/hooks.json", "./h.json", "./h.json"], "mcpServers": ["./.mcp.json", "./.mcp.json"], "lspServers": ["./.lsp.json", "./.lsp.json"]}`,
	} {
		f.Add([]byte(s))
	}
	dir := fuzzDir(f)
	os.MkdirAll(filepath.Join(dir, "hooks"), 0o755)
	hooks := []byte(`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}`)
	os.WriteFile(filepath.Join(dir, hooksFile), hooks, 0o644)
	os.WriteFile(filepath.Join(dir, "h.json"), hooks, 0o644)
	os.WriteFile(filepath.Join(dir, mcpFile), []byte(`{"a": {"command": "x"}}`), 0o644)
	os.WriteFile(filepath.Join(dir, lspFile), []byte(`{"l": {"command": "x", "extensionToLanguage": {".x": "x"}}}`), 0o644)
	fuzzPluginFile(f, dir, manifestFile, nil)
}

// FuzzMCP feeds arbitrary bytes as .mcp.json (wrapped or flat).
func FuzzMCP(f *testing.F) {
	for _, s := range []string{
		`{"mcpServers": {"a": {"command": "node", "args": ["${CLAUDE_PLUGIN_ROOT}/s.js"], "env": {"K": "${K:-d}"}}}}`,
		`{"a": {"type": "http", "url": "https://h.invalid/mcp", "headers": {"A": "${T}"}, "headersHelper": "x"}, "b": {"url": "https://h"}, "c": {"type": "ws"}, "a": 1}`,
		`{"mcpServers": 1}`, `1`, `{"x": {"type": "streamable-http", "url": "rel"}}`,
	} {
		f.Add([]byte(s))
	}
	dir := fuzzDir(f)
	os.WriteFile(filepath.Join(dir, manifestFile), []byte(`{"name": "fuzz", "mcpServers": {"a": {"command": "x"}}}`), 0o644)
	fuzzPluginFile(f, dir, mcpFile, func(t *testing.T, p *model.Package) {
		if p.Rejected {
			t.Fatalf(".mcp.json must never reject the plugin: %v", codes(p))
		}
	})
}

// FuzzMarketplace feeds arbitrary bytes as .claude-plugin/marketplace.json; one local
// plugin folder exists for relative entries to find.
func FuzzMarketplace(f *testing.F) {
	for _, s := range []string{
		`{"name": "m", "owner": {"name": "o"}, "plugins": [{"name": "p", "source": "./p"}, {"name": "g", "source": {"source": "github", "repo": "o/r", "sha": "x"}}]}`,
		`{"name": "m", "owner": "o", "plugins": [{"name": "p", "source": "./p", "strict": false, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}, {"name": "p", "source": "../x"}, {"source": {"source": "pip"}}]}`,
		`{"name": "m", "plugins": [{"name": "s", "source": "./"}, {"name": "n", "source": {"source": "npm", "package": "x"}}, {"name": "c", "source": {"source": "command", "command": "sh x"}}]}`,
		`{"plugins": 1}`, `null`,
	} {
		f.Add([]byte(s))
	}
	dir := fuzzDir(f)
	os.MkdirAll(filepath.Join(dir, "p", ".claude-plugin"), 0o755)
	os.WriteFile(filepath.Join(dir, "p", manifestFile), []byte(`{"name": "p"}`), 0o644)
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, marketplaceFile), data, 0o644); err != nil {
			t.Fatal(err)
		}
		mk, plugins, _ := LoadMarketplace(dir, Options{})
		checkInvariants(t, mk)
		for _, p := range plugins {
			checkInvariants(t, p)
		}
	})
}

// claudeRunsNone: a plugin Claude Code rejects lists only what Codex, reading the same
// manifest by its own rules, loads: every component there is one Claude does not run,
// and Codex does.
func claudeRunsNone(t *testing.T, p *model.Package) {
	t.Helper()
	for _, c := range p.Components {
		if s := supportOf(c, clientClaude); s.Status != model.NotSupported {
			t.Fatalf("rejected package lists %s:%s, which Claude Code %s", c.Kind, c.ID, s.Status)
		}
		if !hasCode(p, "codex-reads-rejected-manifest") {
			t.Fatalf("rejected package lists %s:%s without saying that Codex loads it", c.Kind, c.ID)
		}
	}
}
