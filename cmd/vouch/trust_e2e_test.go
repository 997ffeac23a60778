package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
)

// trustRun runs the CLI in-process with a private home, stdin not a terminal.
func trustRun(t *testing.T, home string, args ...string) (int, string, string) {
	t.Helper()
	return runWithStdin(t, home, "y\n", args...)
}

// newSource is a fresh vouch home and a fresh source folder holding files.
func newSource(t *testing.T, files map[string]string) (home, src string) {
	t.Helper()
	home, src = t.TempDir(), t.TempDir()
	testtree.WriteFiles(t, src, files)
	return home, src
}

// runWithStdin runs the CLI in-process with a private home and stdin (not a terminal)
// reading the text given, and returns the exit code and both streams.
func runWithStdin(t testing.TB, home, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	a := &app{stdout: &out, stderr: &errb, stdin: strings.NewReader(stdin)}
	code := a.run(append([]string{"--home", home}, args...))
	return code, out.String(), errb.String()
}

// daloExample is the Dalo example the repository ships (Portable Agent Packages 0.1
// examples/packages/source): a skill, standing instructions, and a portable context hook
// whose tool is context.mjs.
const daloExample = "../../examples/dalo/design-review"

var mcpPlugin = map[string]string{
	"plugin.json": `{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "notes", "description": "notes plugin"}`,
	"mcp.json": `{
  "$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json",
  "mcpServers": {
    "notes": {"type": "stdio", "command": "./bin/server", "args": ["--root", "${PLUGIN_ROOT}"], "env": {"LOG": "info"}}
  }
}`,
	"bin/server":          "#!/bin/sh\necho serving notes\nexec cat\n",
	"README.md":           "notes plugin\n",
	"skills/jot/SKILL.md": "---\nname: jot\ndescription: Jot a note down.\n---\nWrite the note to the notes server.\n",
}

// statusOf returns the authorization of ref from vouch status --json.
func statusOf(t *testing.T, home, src, ref string) string {
	t.Helper()
	code, out, errs := trustRun(t, home, "status", "--json", src)
	if code != 0 {
		t.Fatalf("status exit %d: %s", code, errs)
	}
	return findComponent(t, out, ref).Authorization
}

// reportedComponent is a component as vouch status --json reports it.
type reportedComponent struct {
	Ref           string            `json:"ref"`
	Authorization string            `json:"authorization"`
	Digest        string            `json:"digest"`
	NotCovered    []notCoveredEntry `json:"not_covered"`
}

// findComponent is ref's entry in out, a status --json report; the test fails without one.
func findComponent(t *testing.T, out, ref string) reportedComponent {
	t.Helper()
	var rep struct {
		Packages []struct {
			Components []reportedComponent `json:"components"`
		} `json:"packages"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("status JSON: %v\n%s", err, out)
	}
	for _, p := range rep.Packages {
		for _, c := range p.Components {
			if c.Ref == ref {
				return c
			}
		}
	}
	t.Fatalf("%s not in the status report:\n%s", ref, out)
	return reportedComponent{}
}

func expect(t *testing.T, what string, code, want int, out, errs string) {
	t.Helper()
	if code != want {
		t.Fatalf("%s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", what, code, want, out, errs)
	}
}

// expectRun runs the CLI as trustRun does and fails the test unless it exits want; what
// names the step in the failure. It returns stdout and stderr.
func expectRun(t *testing.T, home, what string, want int, args ...string) (string, string) {
	t.Helper()
	code, out, errs := trustRun(t, home, args...)
	expect(t, what, code, want, out, errs)
	return out, errs
}

// wantStatus fails the test unless vouch status reports ref in src as want; failure is
// the message, with the status found in place of its %s.
func wantStatus(t *testing.T, home, src, ref, want, failure string) {
	t.Helper()
	if s := statusOf(t, home, src, ref); s != want {
		t.Fatalf(failure, s)
	}
}

// editChanges replaces old with new in the file rel of src and fails the test unless
// vouch sees ref changed: status says changed, diff exits 1 showing each of diffShows,
// and check exits 1. It returns what check printed on stderr.
func editChanges(t *testing.T, home, src, ref, rel, old, new string, diffShows ...string) string {
	t.Helper()
	testtree.Replace(t, filepath.Join(src, filepath.FromSlash(rel)), old, new)
	wantStatus(t, home, src, ref, "changed", "%s after "+rel+" changed")
	out, _ := expectRun(t, home, "diff after "+rel+" changed", 1, "diff", src, ref)
	for _, line := range diffShows {
		if !strings.Contains(out, line) {
			t.Fatalf("the diff after %s changed does not show %q:\n%s", rel, line, out)
		}
	}
	_, errs := expectRun(t, home, "check after "+rel+" changed", 1, "check", src, ref)
	return errs
}

func TestTrustRoundTripDalo(t *testing.T) {
	home, src := t.TempDir(), t.TempDir()
	testtree.Copy(t, daloExample, src)
	const tool, hook = "design-review#tool:context", "design-review#hook:review-context"
	wantStatus(t, home, src, tool, "unreviewed", "%s before any decision")

	// Without a terminal, --yes is required and nothing is recorded.
	out, errs := expectRun(t, home, "approve without --yes", 2, "approve", src, tool)
	if !strings.Contains(errs, "--yes") || !strings.Contains(out, "context.mjs") || !strings.Contains(out, "sha256:") {
		t.Fatalf("approve without --yes: stdout %s\nstderr %s", out, errs)
	}
	if statusOf(t, home, src, tool) != "unreviewed" {
		t.Fatal("an unconfirmed approval was recorded")
	}
	// Wildcards and unknown refs are usage errors.
	expectRun(t, home, "wildcard", 2, "approve", "--yes", src, "design-review#*")
	_, errs = expectRun(t, home, "unknown ref", 2, "approve", "--yes", src, "design-review#tool:contxt")
	if !strings.Contains(errs, tool) {
		t.Fatalf("unknown ref does not suggest %s: %s", tool, errs)
	}
	// The hook alone is refused: its tool is not approved.
	_, errs = expectRun(t, home, "hook before tool", 1, "approve", "--yes", src, hook)
	if !strings.Contains(errs, tool) {
		t.Fatalf("refusal does not name the tool: %s", errs)
	}

	// approve → approved (tool and hook in one command, hook listed first).
	expectRun(t, home, "approve", 0, "approve", "--yes", "--note", "first look", src, hook, tool)
	for _, r := range []string{tool, hook} {
		if s := statusOf(t, home, src, r); s != "approved" {
			t.Fatalf("%s is %s after approval", r, s)
		}
	}
	expectRun(t, home, "check approved hook", 0, "check", src, hook)
	expectRun(t, home, "diff unchanged", 0, "diff", src, tool)

	// A README-like edit outside the closure changes nothing.
	testtree.WriteFiles(t, src, map[string]string{"plugins/design-review/NOTES.md": "hello\n"})
	wantStatus(t, home, src, tool, "approved", "unrelated file changed the tool to %s")

	// Change one byte of the tool file → tool and hook changed.
	errs = editChanges(t, home, src, tool, "plugins/design-review/context.mjs", "process.exit(1)", "process.exit(2)", "-  process.exit(1);", "+  process.exit(2);")
	if !strings.Contains(errs, "changed") {
		t.Fatalf("check reason: %s", errs)
	}
	wantStatus(t, home, src, hook, "changed", "the hook is %s after its tool changed")
	expectRun(t, home, "check changed hook", 1, "check", src, hook)

	// Re-approve → approved, with previous recorded.
	expectRun(t, home, "re-approve", 0, "approve", "--yes", src, tool, hook)
	if statusOf(t, home, src, tool) != "approved" || statusOf(t, home, src, hook) != "approved" {
		t.Fatal("re-approval did not take")
	}
	expectRun(t, home, "check re-approved", 0, "check", src, tool)

	// Revoke the tool → revoked, check exits 1, and the hook is taken down.
	out, _ = expectRun(t, home, "revoke", 0, "revoke", "--yes", src, tool)
	if !strings.Contains(out, "takes down "+hook) {
		t.Fatalf("revoke does not list the hook it takes down:\n%s", out)
	}
	wantStatus(t, home, src, tool, "revoked", "tool is %s after revoke")
	_, errs = expectRun(t, home, "check revoked", 1, "check", src, tool)
	if !strings.Contains(errs, "revoked") {
		t.Fatalf("check reason: %s", errs)
	}
	expectRun(t, home, "check hook of revoked tool", 1, "check", src, hook)

	// The ledger lists every decision, newest first, with its origin.
	out, _ = expectRun(t, home, "ledger", 0, "ledger", "--json")
	var ds []map[string]any
	if err := json.Unmarshal([]byte(out), &ds); err != nil {
		t.Fatal(err)
	}
	if len(ds) != 5 || ds[0]["action"] != "revoke" || ds[0]["component"] != tool || ds[0]["ledger"] != "personal" || ds[0]["reviewer_kind"] != "automation" {
		t.Fatalf("ledger: %s", out)
	}
	var sawPrevious bool
	for _, d := range ds {
		if d["component"] == tool && d["previous"] != nil {
			sawPrevious = true
		}
	}
	if !sawPrevious {
		t.Fatalf("the re-approval has no previous digest: %s", out)
	}
	out, _ = expectRun(t, home, "ledger text", 0, "ledger")
	if strings.Count(out, "\n") != 5 || !strings.Contains(out, "note: first look") {
		t.Fatalf("ledger text:\n%s", out)
	}
}

func TestTrustRoundTripMCP(t *testing.T) {
	home, src := newSource(t, mcpPlugin)
	const ref = "notes#mcp-server:notes"
	wantStatus(t, home, src, ref, "unreviewed", "%s before any decision")
	out, _ := expectRun(t, home, "approve", 0, "approve", "--yes", src, ref)
	if !strings.Contains(out, "bin/server") {
		t.Fatalf("the grant does not list the command file:\n%s", out)
	}
	wantStatus(t, home, src, ref, "approved", "after approve: %s")
	expectRun(t, home, "check", 0, "check", src, ref)

	// A stdio server runs with the plugin's files (it may read or load any of them, a
	// skill's script and the manifests included), so a skill, README or manifest edit
	// needs a new approval.
	for _, edit := range [][3]string{{"plugin.json", "notes plugin", "Notes plugin"}, {"skills/jot/SKILL.md", "Jot a note", "Jot one note"}, {"README.md", "notes", "Notes"}} {
		testtree.Replace(t, filepath.Join(src, edit[0]), edit[1], edit[2])
		if s := statusOf(t, home, src, ref); s != "changed" {
			t.Fatalf("an edit of %s left the server %s", edit[0], s)
		}
		expectRun(t, home, "approve after editing "+edit[0], 0, "approve", "--yes", src, ref)
	}
	editChanges(t, home, src, ref, "bin/server", "serving notes", "serving notez", "-echo serving notes", "+echo serving notez")

	expectRun(t, home, "re-approve", 0, "approve", "--yes", src, ref)
	wantStatus(t, home, src, ref, "approved", "after re-approve: %s")
	expectRun(t, home, "revoke", 0, "revoke", "--yes", "--note", "gone", src, ref)
	wantStatus(t, home, src, ref, "revoked", "after revoke: %s")
	expectRun(t, home, "check revoked", 1, "check", src, ref)

	// An argument change shows as a contract field change.
	expectRun(t, home, "approve again", 0, "approve", "--yes", src, ref)
	testtree.Replace(t, filepath.Join(src, "mcp.json"), `"--root"`, `"--rootdir"`)
	out, _ = expectRun(t, home, "diff args", 1, "diff", src, ref)
	if !strings.Contains(out, "--rootdir") || !strings.Contains(out, "contract fields:") {
		t.Fatalf("diff of an args change:\n%s", out)
	}
}

// TestTrustCLIErrors covers the usage and ledger errors of the trust commands.
func TestTrustCLIErrors(t *testing.T) {
	home, src := newSource(t, mcpPlugin)
	expectRun(t, home, "missing source", 2, "check", filepath.Join(src, "nope"), "notes#mcp-server:notes")
	expectRun(t, home, "not a ref", 2, "check", src, "notes")
	expectRun(t, home, "check unreviewed", 1, "check", src, "notes#mcp-server:notes")
	expectRun(t, home, "diff unreviewed", 1, "diff", src, "notes#mcp-server:notes")
	out, _ := expectRun(t, home, "empty ledger", 0, "ledger")
	if !strings.Contains(out, "No decisions") {
		t.Fatalf("empty ledger: %s", out)
	}
	// A damaged ledger is reported with its line and left alone.
	bad := "schema_version = 1\n[[decision]]\naction = \n"
	testtree.WriteFiles(t, home, map[string]string{"ledger.toml": bad})
	_, errs := expectRun(t, home, "damaged ledger", 1, "approve", "--yes", src, "notes#mcp-server:notes")
	if !strings.Contains(errs, "ledger.toml:3") {
		t.Fatalf("damaged ledger error: %s", errs)
	}
	if testtree.ReadFile(t, filepath.Join(home, "ledger.toml")) != bad {
		t.Fatal("damaged ledger was rewritten")
	}
	_, errs = expectRun(t, home, "damaged ledger --json", 1, "ledger", "--json")
	if !strings.Contains(errs, `"code": "ledger"`) {
		t.Fatalf("JSON error: %s", errs)
	}
}

// TestTrustTeamLedgerCLI: --ledger writes to a team ledger that others then read.
func TestTrustTeamLedgerCLI(t *testing.T) {
	repo := t.TempDir()
	testtree.WriteFiles(t, repo, map[string]string{".git/": ""})
	src := filepath.Join(repo, "plugins", "notes")
	testtree.WriteFiles(t, src, mcpPlugin)
	team := filepath.Join(repo, ".vouch", "ledger.toml")
	const ref = "notes#mcp-server:notes"
	out, _ := expectRun(t, t.TempDir(), "team approve", 0, "approve", "--yes", "--ledger", team, src, ref)
	if !strings.Contains(out, "team ") {
		t.Fatalf("approve output does not name the team ledger: %s", out)
	}
	other := t.TempDir()
	// The ledger came with the repository: until the colleague trusts it, it counts for nothing.
	wantStatus(t, other, src, ref, "unreviewed", "an untrusted team ledger made a colleague see %s")
	expectRun(t, other, "check before trusting the team ledger", 1, "check", src, ref)
	out, _ = expectRun(t, other, "ledger trust without a terminal or --yes", 2, "ledger", "trust", team)
	if !strings.Contains(out, "notes  1 component(s) approved") || !strings.Contains(out, "notes#mcp-server:notes") {
		t.Fatalf("ledger trust did not show what the ledger approves:\n%s", out)
	}
	expectRun(t, other, "ledger trust", 0, "ledger", "trust", "--yes", team)
	wantStatus(t, other, src, ref, "approved", "a colleague sees %s")
	expectRun(t, other, "team check", 0, "check", src, ref)
}

var spliceDir = map[string]string{
	"manifest.json":  `{"specVersion":1,"namespace":"splice","name":"example","version":"0.1.0","description":"Example","permissions":{},"tools":[{"name":"hello","description":"Say hello","entry":"tools/hello.ts","input":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]},"output":{"type":"object","properties":{"message":{"type":"string"}}}}]}`,
	"tools/hello.ts": "export default () => ({})\n",
	"SKILL.md":       "# Example\n",
}

func TestTrustRoundTripSplice(t *testing.T) {
	home, src := newSource(t, spliceDir)
	const ref = "@splice/example#tool:hello"
	wantStatus(t, home, src, ref, "unreviewed", "%s before any decision")
	expectRun(t, home, "approve", 0, "approve", "--yes", src, ref)
	wantStatus(t, home, src, ref, "approved", "after approve: %s")
	expectRun(t, home, "check", 0, "check", src, ref)
	editChanges(t, home, src, ref, "tools/hello.ts", "({})", "({x})", "+export default () => ({x})")
	expectRun(t, home, "re-approve", 0, "approve", "--yes", src, ref)
	expectRun(t, home, "check re-approved", 0, "check", src, ref)
	expectRun(t, home, "revoke", 0, "revoke", "--yes", src, ref)
	wantStatus(t, home, src, ref, "revoked", "after revoke: %s")
	expectRun(t, home, "check revoked", 1, "check", src, ref)
}

// "?" and "[" are legal in component names; only "*" reads as a wildcard and is refused.
func TestRefWithBracketsCanBeApproved(t *testing.T) {
	home, src := t.TempDir(), t.TempDir()
	files := map[string]string{}
	for k, v := range mcpPlugin {
		files[k] = v
	}
	files["mcp.json"] = strings.Replace(files["mcp.json"], `"notes": {"type"`, `"notes[1]?": {"type"`, 1)
	testtree.WriteFiles(t, src, files)
	const ref = "notes#mcp-server:notes[1]?"
	expectRun(t, home, "approve a bracketed name", 0, "approve", "--yes", src, ref)
	wantStatus(t, home, src, ref, "approved", "after approve: %s")
	expectRun(t, home, "star stays refused", 2, "approve", "--yes", src, "notes#mcp-server:*")
}
