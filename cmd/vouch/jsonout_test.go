package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"vouch/internal/schematest"
	"vouch/internal/testtree"
	"vouch/schemas"
)

// commandsSchema compiles commands-v1.schema.json (with report-v1, which it refers to)
// at the given location: "" for the whole schema, or "#/$defs/<name>" for one command.
func commandsSchema(t *testing.T, loc string) *jsonschema.Schema {
	return schematest.Compile(t, "https://vouch.invalid/schemas/commands-v1.schema.json"+loc, map[string][]byte{
		"https://vouch.invalid/schemas/report-v1.schema.json":   schemas.ReportV1,
		"https://vouch.invalid/schemas/commands-v1.schema.json": schemas.CommandsV1,
	})
}

// jsonDoc runs a --json command, checks its exit code, validates stdout against the whole
// schema and against its own $defs entry, and that stderr holds only JSON objects.
func jsonDoc(t *testing.T, home, def string, want int, args ...string) map[string]any {
	t.Helper()
	code, out, errs := trustRun(t, home, args...)
	if code != want {
		t.Fatalf("%s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, want, out, errs)
	}
	for _, s := range []*jsonschema.Schema{commandsSchema(t, ""), commandsSchema(t, "#/$defs/"+def)} {
		schematest.Validate(t, s, strings.Join(args, " ")+" stdout", out)
	}
	dec := json.NewDecoder(strings.NewReader(errs))
	for dec.More() {
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			t.Fatalf("%s: stderr is not JSON under --json: %v\n%s", strings.Join(args, " "), err, errs)
		}
	}
	var m map[string]any
	json.Unmarshal([]byte(out), &m)
	return m
}

// TestCommandsJSON drives every command that prints data through --json and holds each
// document to the schema and to what the command did.
func TestCommandsJSON(t *testing.T) {
	home, src := t.TempDir(), t.TempDir()
	testtree.Copy(t, daloExample, src)
	const tool, hook, instr = "design-review#tool:context", "design-review#hook:review-context", "design-review#instruction:design-context"
	wantStatus(t, home, src, tool, "unreviewed", "%s before any decision")

	// check and diff before any decision: a document and exit 1.
	m := jsonDoc(t, home, "check", 1, "check", "--json", src, tool)
	if m["approved"] != false || m["authorization"] != "unreviewed" || m["reason"] == "" {
		t.Fatalf("check before approval: %v", m)
	}
	if nc, _ := m["not_covered"].([]any); len(nc) == 0 {
		t.Fatalf("check --json lost what is not covered (node from PATH): %v", m)
	}
	m = jsonDoc(t, home, "diff", 1, "diff", "--json", src, tool)
	if m["changed"] != false || m["authorization"] != "unreviewed" {
		t.Fatalf("diff before approval: %v", m)
	}

	// --json asks nothing, so it needs --yes; a refusal still prints the document.
	if code, out, errs := trustRun(t, home, "approve", "--json", src, tool); code != 2 || out != "" || !strings.Contains(errs, `"needs-yes"`) {
		t.Fatalf("approve --json without --yes: exit %d\n%s\n%s", code, out, errs)
	}
	m = jsonDoc(t, home, "decide", 1, "approve", "--json", "--yes", src, hook)
	if m["recorded"] != false || len(m["decisions"].([]any)) != 0 || m["components"].([]any)[0].(map[string]any)["refused"] == "" {
		t.Fatalf("refused approve: %v", m)
	}
	m = jsonDoc(t, home, "decide", 0, "approve", "--json", "--yes", "--note", "looked", src, hook, tool)
	ds := m["decisions"].([]any)
	if m["recorded"] != true || len(ds) != 2 || ds[0].(map[string]any)["component"] != tool || ds[0].(map[string]any)["note"] != "looked" {
		t.Fatalf("approve: %v", m)
	}
	g := m["components"].([]any)[0].(map[string]any)
	if g["ref"] != tool || len(g["files"].([]any)) == 0 || len(g["contract"].([]any)) == 0 {
		t.Fatalf("approve lost the grant: %v", g)
	}
	m = jsonDoc(t, home, "check", 0, "check", "--json", src, hook)
	if m["approved"] != true || m["digest"] == "" {
		t.Fatalf("check after approval: %v", m)
	}
	m = jsonDoc(t, home, "diff", 0, "diff", "--json", src, tool)
	if m["changed"] != false || m["authorization"] != "approved" {
		t.Fatalf("diff of an approved tool: %v", m)
	}

	// stage writes the approved closure and says what it wrote.
	dir := filepath.Join(t.TempDir(), "staged")
	m = jsonDoc(t, home, "stage", 0, "stage", "--json", src, tool, dir)
	if m["dir"] == "" || len(m["files"].([]any)) == 0 {
		t.Fatalf("stage: %v", m)
	}
	if _, err := os.Stat(filepath.Join(dir, "plugins", "design-review", "context.mjs")); err != nil {
		t.Fatalf("stage --json did not stage: %v", err)
	}

	// A changed tool: diff names the file, with its line diff.
	testtree.Replace(t, filepath.Join(src, "plugins/design-review/context.mjs"), "keyboard access", "keyboard focus")
	m = jsonDoc(t, home, "diff", 1, "diff", "--json", src, tool)
	files := m["files"].([]any)
	if m["changed"] != true || len(files) != 1 || !strings.Contains(files[0].(map[string]any)["unified"].(string), "+") {
		t.Fatalf("diff of a changed tool: %v", m)
	}
	m = jsonDoc(t, home, "diff", 1, "diff", "--json", src, hook)
	if tools := m["tools_not_approved"].([]any); m["changed"] != true || len(tools) != 1 {
		t.Fatalf("diff of a hook whose tool changed: %v", m)
	}
	m = jsonDoc(t, home, "decide", 0, "revoke", "--json", "--yes", src, tool)
	if m["recorded"] != true || len(m["components"].([]any)[0].(map[string]any)["affected"].([]any)) != 1 {
		t.Fatalf("revoke: %v", m)
	}

	// Instructions: preview, apply, list, remove.
	targetDir := t.TempDir()
	testtree.WriteFiles(t, targetDir, map[string]string{"AGENTS.md": "# mine\r\n"})
	target := filepath.Join(targetDir, "AGENTS.md")
	m = jsonDoc(t, home, "instructions_change", 0, "instructions", "preview", "--json", "--target", target, src, instr)
	if m["written"] != false || !strings.Contains(m["diff"].(string), "+<!-- vouch:start") || m["file"].(map[string]any)["eol"] != "CRLF" {
		t.Fatalf("preview: %v", m)
	}
	if testtree.ReadFile(t, target) != "# mine\r\n" {
		t.Fatal("preview --json wrote the file")
	}
	if code, _, errs := trustRun(t, home, "instructions", "apply", "--json", "--target", target, src, instr); code != 2 || !strings.Contains(errs, `"needs-yes"`) {
		t.Fatalf("apply --json without --yes: exit %d: %s", code, errs)
	}
	m = jsonDoc(t, home, "instructions_change", 0, "instructions", "apply", "--json", "--yes", "--target", target, src, instr)
	if m["written"] != true || m["recorded"] != true || m["decision"].(map[string]any)["target"] != target {
		t.Fatalf("apply: %v", m)
	}
	m = jsonDoc(t, home, "instructions_list", 0, "instructions", "list", "--json")
	if l := m["instructions"].([]any); len(l) != 1 || l[0].(map[string]any)["state"] != "present" {
		t.Fatalf("list: %v", m)
	}
	m = jsonDoc(t, home, "instructions_change", 0, "instructions", "apply", "--json", "--yes", "--target", target, src, instr)
	if m["no_change"] != true || m["written"] != false {
		t.Fatalf("apply again: %v", m)
	}
	m = jsonDoc(t, home, "instructions_change", 0, "instructions", "remove", "--json", "--yes", "--target", target, src, instr)
	if m["written"] != true || m["decision"].(map[string]any)["action"] != "revoke" {
		t.Fatalf("remove: %v", m)
	}
	if b := testtree.ReadFile(t, target); b != "# mine\r\n" {
		t.Fatalf("remove left %q", b)
	}
	m = jsonDoc(t, home, "instructions_list", 0, "instructions", "list", "--json")
	if l := m["instructions"].([]any); len(l) != 0 {
		t.Fatalf("list after remove: %v", m)
	}
}

// TestLedgerTrustJSON: ledger trust and untrust --json, with what the ledger approves.
func TestLedgerTrustJSON(t *testing.T) {
	src, team := teamRepo(t, false)
	const ref = "notes#mcp-server:notes"
	if code, out, errs := trustRun(t, t.TempDir(), "approve", "--yes", "--ledger", team, src, ref); code != 0 {
		t.Fatalf("team approve: %s %s", out, errs)
	}
	home := t.TempDir()
	if code, out, errs := trustRun(t, home, "ledger", "trust", "--json", team); code != 2 || out != "" || !strings.Contains(errs, `"needs-yes"`) {
		t.Fatalf("ledger trust --json without --yes: exit %d\n%s\n%s", code, out, errs)
	}
	m := jsonDoc(t, home, "ledger_trust", 0, "ledger", "trust", "--json", "--yes", team)
	if m["trusted"] != true || m["total"] != 1.0 || m["approved"] != 1.0 || len(m["new"].([]any)) != 1 || len(m["packages"].([]any)) != 1 {
		t.Fatalf("ledger trust: %v", m)
	}
	m = jsonDoc(t, home, "ledger_trust", 0, "ledger", "trust", "--json", "--yes", team)
	if m["nothing_new"] != true {
		t.Fatalf("ledger trust again: %v", m)
	}
	m = jsonDoc(t, home, "ledger_untrust", 0, "ledger", "untrust", "--json", team)
	if m["was_trusted"] != true {
		t.Fatalf("untrust: %v", m)
	}
	m = jsonDoc(t, home, "ledger_untrust", 0, "ledger", "untrust", "--json", team)
	if m["was_trusted"] != false {
		t.Fatalf("untrust again: %v", m)
	}
}
