package main

import (
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
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
	home, src := newSource(t, twinPlugin)
	const codexRef, claudeRef = "codex:twin#mcp-server:db", "claude-code:twin#mcp-server:db"

	code, _, errs := trustRun(t, home, "check", src, "twin#mcp-server:db")
	expect(t, "check of a plain ref both readings hold", code, 2, "", errs)
	if !strings.Contains(errs, codexRef) || !strings.Contains(errs, claudeRef) {
		t.Fatalf("the ambiguity does not name both formats: %s", errs)
	}

	out, _ := expectRun(t, home, "approve the Codex reading", 0, "approve", "--yes", src, codexRef)
	if !strings.Contains(out, "approved "+codexRef) {
		t.Errorf("approve does not answer with the ref as given: %s", out)
	}
	checkIs := func(ref string, want int, word string) {
		t.Helper()
		out, errs := expectRun(t, home, "check "+ref, want, "check", src, ref)
		if !strings.Contains(out+errs, word) {
			t.Errorf("check %s: want %q in %s%s", ref, word, out, errs)
		}
	}
	checkIs(codexRef, 0, "approved")
	checkIs(claudeRef, 1, "unreviewed") // not "changed": nothing of it was ever approved

	expectRun(t, home, "approve the Claude Code reading", 0, "approve", "--yes", src, claudeRef)
	expectRun(t, home, "revoke the Codex reading", 0, "revoke", "--yes", src, codexRef)
	checkIs(codexRef, 1, "revoked")
	checkIs(claudeRef, 0, "approved")

	dir := filepath.Join(t.TempDir(), "staged")
	expectRun(t, home, "stage the Claude Code reading", 0, "stage", src, claudeRef, dir)

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
	testtree.WriteFiles(t, src, files)
	expectRun(t, home, "approve a ref one package holds", 0, "approve", "--yes", src, "twin#mcp-server:only-codex")
	expectRun(t, home, "check it", 0, "check", src, "twin#mcp-server:only-codex")
	code, _, errs := trustRun(t, home, "check", src, "cursor:twin#mcp-server:db")
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
	expectRun(t, home, "approve of a qualified marketplace ref", 0, "approve", "--yes", src, ref)
	expectRun(t, home, "check of the approved marketplace entry", 0, "check", src, ref)
}
