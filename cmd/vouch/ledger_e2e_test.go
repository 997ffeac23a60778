package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const notesRef = "notes#mcp-server:notes"

// digestOf returns ref's current digest from vouch status --json.
func digestOf(t *testing.T, home, src, ref string) string {
	t.Helper()
	_, out, _ := trustRun(t, home, "status", "--json", src)
	var rep struct {
		Packages []struct {
			Components []struct {
				Ref    string `json:"ref"`
				Digest string `json:"digest"`
			} `json:"components"`
		} `json:"packages"`
	}
	json.Unmarshal([]byte(out), &rep)
	for _, p := range rep.Packages {
		for _, c := range p.Components {
			if c.Ref == ref {
				return c.Digest
			}
		}
	}
	t.Fatalf("%s not in the status report:\n%s", ref, out)
	return ""
}

func requireMCP(t *testing.T, home, src string) {
	t.Helper()
	if code, out, _ := trustRun(t, home, "status", "--json", src); code != 0 || !strings.Contains(out, notesRef) {
		t.Skipf("the Agent Plugins loader does not produce %s yet", notesRef)
	}
}

// TestTwoCopiesCLI: two installed copies of one package with different bytes are approved
// side by side; revoke --digest withdraws one; revoke withdraws every digest.
func TestTwoCopiesCLI(t *testing.T) {
	home := t.TempDir()
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	writeTree(t, a, mcpPlugin)
	writeTree(t, b, mcpPlugin)
	requireMCP(t, home, a)
	editByte(t, filepath.Join(b, "bin/server"), "serving notes", "serving NOTES")
	code, out, errs := trustRun(t, home, "approve", "--yes", a, notesRef)
	expect(t, "approve a", code, 0, out, errs)
	if s := statusOf(t, home, b, notesRef); s != "changed" {
		t.Fatalf("copy b before its approval: %s", s)
	}
	code, out, errs = trustRun(t, home, "approve", "--yes", b, notesRef)
	expect(t, "approve b", code, 0, out, errs)
	for _, src := range []string{a, b} {
		code, out, errs = trustRun(t, home, "check", src, notesRef)
		expect(t, "check "+src+" after approving both copies", code, 0, out, errs)
	}
	db := digestOf(t, home, b, notesRef)
	code, out, errs = trustRun(t, home, "revoke", "--yes", "--digest", db, b, notesRef)
	expect(t, "revoke --digest", code, 0, out, errs)
	if !strings.Contains(out, "other approved digests stay approved") {
		t.Fatalf("revoke --digest output:\n%s", out)
	}
	code, out, errs = trustRun(t, home, "check", b, notesRef)
	expect(t, "check b after revoking its digest", code, 1, out, errs)
	code, out, errs = trustRun(t, home, "check", a, notesRef)
	expect(t, "check a after revoking b's digest", code, 0, out, errs)
	code, out, errs = trustRun(t, home, "revoke", "--yes", a, notesRef)
	expect(t, "revoke every digest", code, 0, out, errs)
	if !strings.Contains(out, "at every digest") {
		t.Fatalf("revoke output:\n%s", out)
	}
	code, out, errs = trustRun(t, home, "check", a, notesRef)
	expect(t, "check a after revoking every digest", code, 1, out, errs)
	code, _, errs = trustRun(t, home, "revoke", "--yes", "--digest", "sha256:xyz", a, notesRef)
	if code != 2 || !strings.Contains(errs, "not a digest") {
		t.Fatalf("bad --digest: exit %d %s", code, errs)
	}
	_, out, _ = trustRun(t, home, "ledger")
	if !strings.Contains(out, "this digest only") || !strings.Contains(out, "every digest") {
		t.Fatalf("ledger listing does not say what each revoke covers:\n%s", out)
	}
}

// teamRepo is a repository holding the notes plugin, with a team ledger path.
func teamRepo(t *testing.T, pkgAtRoot bool) (src, team string) {
	repo := t.TempDir()
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	src = filepath.Join(repo, "plugins", "notes")
	if pkgAtRoot {
		src = repo
	}
	writeTree(t, src, mcpPlugin)
	return src, filepath.Join(repo, ".vouch", "ledger.toml")
}

// TestTeamLedgerGrownAfterTrustCLI: decisions added after `ledger trust` wait, status says
// how many, and count once shown and confirmed again; untrust stops the ledger.
func TestTeamLedgerGrownAfterTrustCLI(t *testing.T) {
	src, team := teamRepo(t, false)
	lead, me := t.TempDir(), t.TempDir()
	requireMCP(t, me, src)
	code, out, errs := trustRun(t, lead, "approve", "--yes", "--ledger", team, src, notesRef)
	expect(t, "team approve", code, 0, out, errs)
	code, out, errs = trustRun(t, me, "ledger", "trust", "--yes", team)
	expect(t, "ledger trust", code, 0, out, errs)
	if s := statusOf(t, me, src, notesRef); s != "approved" {
		t.Fatalf("after trust: %s", s)
	}
	const skill = "notes#skill:jot"
	code, out, errs = trustRun(t, lead, "approve", "--yes", "--ledger", team, src, skill)
	expect(t, "team approves more", code, 0, out, errs)
	if s := statusOf(t, me, src, skill); s != "unreviewed" {
		t.Fatalf("a decision added after trust counted: %s", s)
	}
	_, out, _ = trustRun(t, me, "status", "--json", src)
	if !strings.Contains(out, "team-ledger-pending") || !strings.Contains(out, "1 decisions were added") {
		t.Fatalf("status does not say a decision is waiting:\n%s", out)
	}
	code, out, errs = trustRun(t, me, "ledger", "trust", "--yes", team)
	expect(t, "ledger trust again", code, 0, out, errs)
	if !strings.Contains(out, "1 already trusted, 1 new") || !strings.Contains(out, skill) {
		t.Fatalf("re-trust does not show the new decision:\n%s", out)
	}
	if s := statusOf(t, me, src, skill); s != "approved" {
		t.Fatalf("after trusting again: %s", s)
	}
	code, out, errs = trustRun(t, me, "ledger", "trust", "--yes", team)
	expect(t, "ledger trust with nothing new", code, 0, out, errs)
	if !strings.Contains(out, "Nothing new") {
		t.Fatalf("trust with nothing new:\n%s", out)
	}
	code, out, errs = trustRun(t, me, "ledger", "untrust", team)
	expect(t, "ledger untrust", code, 0, out, errs)
	if s := statusOf(t, me, src, notesRef); s != "unreviewed" {
		t.Fatalf("after untrust: %s", s)
	}
	code, out, errs = trustRun(t, me, "ledger", "untrust", team)
	expect(t, "untrust twice", code, 0, out, errs)
	if !strings.Contains(out, "was not trusted") {
		t.Fatalf("untrust twice: %s", out)
	}
}

// TestLedgerInsidePackageCLI: a team ledger shipped inside the package it approves is
// called out.
func TestLedgerInsidePackageCLI(t *testing.T) {
	src, team := teamRepo(t, true)
	me := t.TempDir()
	requireMCP(t, me, src)
	code, out, errs := trustRun(t, t.TempDir(), "approve", "--yes", "--ledger", team, src, notesRef)
	expect(t, "the package approves itself", code, 0, out, errs)
	code, out, errs = trustRun(t, me, "ledger", "trust", "--yes", team)
	expect(t, "ledger trust", code, 0, out, errs)
	_, out, _ = trustRun(t, me, "status", "--json", src)
	if !strings.Contains(out, "team-ledger-inside-package") {
		t.Fatalf("no warning for a ledger inside the package it approves:\n%s", out)
	}
}

// TestTeamDiffWithoutBytesCLI: a teammate's approval names the changed files even though
// this store never held the bytes, and says so.
func TestTeamDiffWithoutBytesCLI(t *testing.T) {
	src, team := teamRepo(t, false)
	lead, me := t.TempDir(), t.TempDir()
	requireMCP(t, me, src)
	code, out, errs := trustRun(t, lead, "approve", "--yes", "--ledger", team, src, notesRef)
	expect(t, "team approve", code, 0, out, errs)
	editByte(t, filepath.Join(src, "bin/server"), "serving notes", "serving other things")
	code, out, errs = trustRun(t, me, "diff", "--ledger", team, src, notesRef)
	expect(t, "diff against a teammate's approval", code, 1, out, errs)
	if !strings.Contains(out, "modified bin/server") || !strings.Contains(out, "not in this vouch store") {
		t.Fatalf("diff without the bytes:\n%s\n%s", out, errs)
	}
	// The lead's store has the bytes: a line diff.
	code, out, errs = trustRun(t, lead, "diff", "--ledger", team, src, notesRef)
	expect(t, "lead's diff", code, 1, out, errs)
	if !strings.Contains(out, "+echo serving other things") {
		t.Fatalf("lead's diff:\n%s", out)
	}
}

// TestReorderedMergeCLI: a merge that puts the team's approve after its revoke does not
// re-approve; check exits 1.
func TestReorderedMergeCLI(t *testing.T) {
	src, team := teamRepo(t, false)
	lead := t.TempDir()
	requireMCP(t, lead, src)
	code, out, errs := trustRun(t, lead, "approve", "--yes", "--ledger", team, src, notesRef)
	expect(t, "team approve", code, 0, out, errs)
	code, out, errs = trustRun(t, lead, "revoke", "--yes", "--ledger", team, src, notesRef)
	expect(t, "team revoke", code, 0, out, errs)
	data, _ := os.ReadFile(team)
	head, rest, _ := strings.Cut(string(data), "\n[[decision]]")
	parts := strings.Split(rest, "\n[[decision]]")
	if len(parts) != 2 {
		t.Fatalf("want 2 decisions, got %d:\n%s", len(parts), data)
	}
	merged := head + "\n[[decision]]" + strings.TrimRight(parts[1], "\n") + "\n\n[[decision]]" + parts[0]
	if strings.Index(merged, `action = "approve"`) < strings.Index(merged, `action = "revoke"`) {
		t.Fatalf("the reorder did not put the approve last:\n%s", merged)
	}
	os.WriteFile(team, []byte(merged), 0o644)
	code, out, errs = trustRun(t, t.TempDir(), "check", "--ledger", team, src, notesRef)
	expect(t, "check after a reordered merge", code, 1, out, errs)
	if !strings.Contains(errs, "revoked") {
		t.Fatalf("check reason: %s", errs)
	}
}

// TestExplicitLedgerPinnedCLI: --ledger FILE on check and status counts as a discovered
// team ledger does (approvals only as far as `ledger trust` confirmed them) unless
// --trust-ledger is given; a revoke appended after trust counts at once.
func TestExplicitLedgerPinnedCLI(t *testing.T) {
	src, team := teamRepo(t, false)
	lead, me := t.TempDir(), t.TempDir()
	requireMCP(t, me, src)
	code, out, errs := trustRun(t, lead, "approve", "--yes", "--ledger", team, src, notesRef)
	expect(t, "team approve", code, 0, out, errs)

	code, out, errs = trustRun(t, me, "check", "--ledger", team, src, notesRef)
	expect(t, "check --ledger of a ledger never trusted", code, 1, out, errs)
	if !strings.Contains(errs, "--trust-ledger") {
		t.Fatalf("check does not say why the ledger's approval did not count:\n%s", errs)
	}
	code, out, errs = trustRun(t, me, "status", "--ledger", team, src)
	expect(t, "status --ledger", code, 0, out, errs)
	if !regexp.MustCompile(`unreviewed\s+mcp-server:notes`).MatchString(out) {
		t.Fatalf("status --ledger of an untrusted ledger:\n%s", out)
	}
	code, out, errs = trustRun(t, me, "status", "--ledger", team, "--trust-ledger", src)
	expect(t, "status --ledger --trust-ledger", code, 0, out, errs)
	if !regexp.MustCompile(`approved\s+mcp-server:notes`).MatchString(out) {
		t.Fatalf("status --ledger --trust-ledger:\n%s", out)
	}
	code, out, errs = trustRun(t, me, "check", "--ledger", team, "--trust-ledger", src, notesRef)
	expect(t, "check --ledger --trust-ledger", code, 0, out, errs)

	code, out, errs = trustRun(t, me, "ledger", "trust", "--yes", team)
	expect(t, "ledger trust", code, 0, out, errs)
	code, out, errs = trustRun(t, me, "check", "--ledger", team, src, notesRef)
	expect(t, "check --ledger after trust", code, 0, out, errs)
	code, out, errs = trustRun(t, lead, "revoke", "--yes", "--ledger", team, src, notesRef)
	expect(t, "team revoke", code, 0, out, errs)
	code, out, errs = trustRun(t, me, "check", "--ledger", team, src, notesRef)
	expect(t, "check after a revoke appended to the trusted ledger", code, 1, out, errs)
	if !strings.Contains(errs, "revoked") {
		t.Fatalf("check reason: %s", errs)
	}
}
