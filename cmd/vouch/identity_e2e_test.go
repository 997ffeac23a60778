package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// twinPlugin is one folder read by two clients: a Codex and a Claude Code plugin of the
// same name, each with its own server "db".
var twinPlugin = map[string]string{
	".codex-plugin/plugin.json":  `{"name":"twin","version":"1.0.0","description":"read by Codex","mcpServers":"./codex.mcp.json"}`,
	".claude-plugin/plugin.json": `{"name":"twin","version":"1.0.0","description":"read by Claude Code"}`,
	".mcp.json":                  `{"mcpServers":{"db":{"command":"node","args":["./server-claude.js"]}}}`,
	"codex.mcp.json":             `{"mcpServers":{"db":{"command":"node","args":["./server-codex.js"]}}}`,
	"server-claude.js":           "console.log('claude')\n",
	"server-codex.js":            "console.log('codex')\n",
}

// TestOneIdentityPerPackage: approving or revoking the Codex reading of a folder never
// changes the Claude Code reading, a plain ref both hold is refused with both qualified
// refs named, and check, stage and revoke take the format in front.
func TestOneIdentityPerPackage(t *testing.T) {
	home, src := t.TempDir(), t.TempDir()
	writeTree(t, src, twinPlugin)
	const codexRef, claudeRef = "codex:twin#mcp-server:db", "claude-code:twin#mcp-server:db"

	code, _, errs := trustRun(t, home, "check", src, "twin#mcp-server:db")
	expect(t, "check of a plain ref both readings hold", code, 2, "", errs)
	if !strings.Contains(errs, codexRef) || !strings.Contains(errs, claudeRef) {
		t.Fatalf("the ambiguity does not name both formats: %s", errs)
	}

	code, out, errs := trustRun(t, home, "approve", "--yes", src, codexRef)
	expect(t, "approve the Codex reading", code, 0, out, errs)
	if !strings.Contains(out, "approved "+codexRef) {
		t.Errorf("approve does not answer with the ref as given: %s", out)
	}
	checkIs := func(ref string, want int, word string) {
		t.Helper()
		code, out, errs := trustRun(t, home, "check", src, ref)
		expect(t, "check "+ref, code, want, out, errs)
		if !strings.Contains(out+errs, word) {
			t.Errorf("check %s: want %q in %s%s", ref, word, out, errs)
		}
	}
	checkIs(codexRef, 0, "approved")
	checkIs(claudeRef, 1, "unreviewed") // not "changed": nothing of it was ever approved

	code, out, errs = trustRun(t, home, "approve", "--yes", src, claudeRef)
	expect(t, "approve the Claude Code reading", code, 0, out, errs)
	code, out, errs = trustRun(t, home, "revoke", "--yes", src, codexRef)
	expect(t, "revoke the Codex reading", code, 0, out, errs)
	checkIs(codexRef, 1, "revoked")
	checkIs(claudeRef, 0, "approved")

	dir := filepath.Join(t.TempDir(), "staged")
	code, out, errs = trustRun(t, home, "stage", src, claudeRef, dir)
	expect(t, "stage the Claude Code reading", code, 0, out, errs)

	code, out, _ = trustRun(t, home, "ledger")
	if code != 0 || !strings.Contains(out, codexRef) || !strings.Contains(out, claudeRef) {
		t.Errorf("the ledger listing does not name each decision's format (%d): %s", code, out)
	}
}

// TestPlainRefStillWorks: a ref only one package holds needs no format in front, and a
// package whose format prefix does not name a format vouch knows is not misread.
func TestPlainRefStillWorks(t *testing.T) {
	home, src := t.TempDir(), t.TempDir()
	files := map[string]string{}
	for k, v := range twinPlugin {
		files[k] = v
	}
	files["codex.mcp.json"] = `{"mcpServers":{"only-codex":{"command":"node","args":["./server-codex.js"]}}}`
	writeTree(t, src, files)
	code, out, errs := trustRun(t, home, "approve", "--yes", src, "twin#mcp-server:only-codex")
	expect(t, "approve a ref one package holds", code, 0, out, errs)
	code, out, errs = trustRun(t, home, "check", src, "twin#mcp-server:only-codex")
	expect(t, "check it", code, 0, out, errs)
	code, _, errs = trustRun(t, home, "check", src, "cursor:twin#mcp-server:db")
	expect(t, "a prefix that is no format", code, 2, "", errs)
	if !strings.Contains(errs, "not a component") {
		t.Errorf("want unknown-ref: %s", errs)
	}
}

// Every format a report names can be put in front of a ref, the formats a loader emits
// beside its own too: a Claude Code marketplace entry is "claude-code-marketplace:...".
func TestQualifiedRefOfEmittedFormat(t *testing.T) {
	home := t.TempDir()
	src := filepath.Join("..", "..", "examples", "claude-code", "marketplace")
	const ref = "claude-code-marketplace:example-tools#plugin:format-on-save"
	code, out, errs := trustRun(t, home, "approve", "--yes", src, ref)
	expect(t, "approve of a qualified marketplace ref", code, 0, out, errs)
	code, out, errs = trustRun(t, home, "check", src, ref)
	expect(t, "check of the approved marketplace entry", code, 0, out, errs)
}
