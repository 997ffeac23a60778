package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"vouch/internal/testtree"
)

const notesRef = "notes#mcp-server:notes"

// digestOf returns ref's current digest from vouch status --json.
func digestOf(t *testing.T, home, src, ref string) string {
	t.Helper()
	_, out, _ := trustRun(t, home, "status", "--json", src)
	return findComponent(t, out, ref).Digest
}

// teamApproved is teamRepo with notesRef approved in its team ledger from lead, a vouch
// home of its own, and me, another home, where the MCP server loads (requireMCP).
func teamApproved(t *testing.T, pkgAtRoot bool) (src, team, lead, me string) {
	t.Helper()
	src, team = teamRepo(t, pkgAtRoot)
	lead, me = t.TempDir(), t.TempDir()
	requireMCP(t, me, src)
	expectRun(t, lead, "team approve", 0, "approve", "--yes", "--ledger", team, src, notesRef)
	return src, team, lead, me
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
	testtree.WriteFiles(t, a, mcpPlugin)
	testtree.WriteFiles(t, b, mcpPlugin)
	requireMCP(t, home, a)
	testtree.Replace(t, filepath.Join(b, "bin/server"), "serving notes", "serving NOTES")
	expectRun(t, home, "approve a", 0, "approve", "--yes", a, notesRef)
	wantStatus(t, home, b, notesRef, "changed", "copy b before its approval: %s")
	expectRun(t, home, "approve b", 0, "approve", "--yes", b, notesRef)
	for _, src := range []string{a, b} {
		expectRun(t, home, "check "+src+" after approving both copies", 0, "check", src, notesRef)
	}
	db := digestOf(t, home, b, notesRef)
	out, _ := expectRun(t, home, "revoke --digest", 0, "revoke", "--yes", "--digest", db, b, notesRef)
	if !strings.Contains(out, "other approved digests stay approved") {
		t.Fatalf("revoke --digest output:\n%s", out)
	}
	expectRun(t, home, "check b after revoking its digest", 1, "check", b, notesRef)
	expectRun(t, home, "check a after revoking b's digest", 0, "check", a, notesRef)
	out, _ = expectRun(t, home, "revoke every digest", 0, "revoke", "--yes", a, notesRef)
	if !strings.Contains(out, "at every digest") {
		t.Fatalf("revoke output:\n%s", out)
	}
	expectRun(t, home, "check a after revoking every digest", 1, "check", a, notesRef)
	code, _, errs := trustRun(t, home, "revoke", "--yes", "--digest", "sha256:xyz", a, notesRef)
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
	testtree.WriteFiles(t, repo, map[string]string{".git/": ""})
	src = filepath.Join(repo, "plugins", "notes")
	if pkgAtRoot {
		src = repo
	}
	testtree.WriteFiles(t, src, mcpPlugin)
	return src, filepath.Join(repo, ".vouch", "ledger.toml")
}

// TestTeamLedgerGrownAfterTrustCLI: decisions added after `ledger trust` wait, status says
// how many, and count once shown and confirmed again; untrust stops the ledger.
func TestTeamLedgerGrownAfterTrustCLI(t *testing.T) {
	src, team, lead, me := teamApproved(t, false)
	expectRun(t, me, "ledger trust", 0, "ledger", "trust", "--yes", team)
	wantStatus(t, me, src, notesRef, "approved", "after trust: %s")
	const skill = "notes#skill:jot"
	expectRun(t, lead, "team approves more", 0, "approve", "--yes", "--ledger", team, src, skill)
	wantStatus(t, me, src, skill, "unreviewed", "a decision added after trust counted: %s")
	_, out, _ := trustRun(t, me, "status", "--json", src)
	if !strings.Contains(out, "team-ledger-pending") || !strings.Contains(out, "1 decisions were added") {
		t.Fatalf("status does not say a decision is waiting:\n%s", out)
	}
	out, _ = expectRun(t, me, "ledger trust again", 0, "ledger", "trust", "--yes", team)
	if !strings.Contains(out, "1 already trusted, 1 new") || !strings.Contains(out, skill) {
		t.Fatalf("re-trust does not show the new decision:\n%s", out)
	}
	wantStatus(t, me, src, skill, "approved", "after trusting again: %s")
	out, _ = expectRun(t, me, "ledger trust with nothing new", 0, "ledger", "trust", "--yes", team)
	if !strings.Contains(out, "Nothing new") {
		t.Fatalf("trust with nothing new:\n%s", out)
	}
	expectRun(t, me, "ledger untrust", 0, "ledger", "untrust", team)
	wantStatus(t, me, src, notesRef, "unreviewed", "after untrust: %s")
	out, _ = expectRun(t, me, "untrust twice", 0, "ledger", "untrust", team)
	if !strings.Contains(out, "was not trusted") {
		t.Fatalf("untrust twice: %s", out)
	}
}

// TestLedgerInsidePackageCLI: a team ledger shipped inside the package it approves is
// called out.
func TestLedgerInsidePackageCLI(t *testing.T) {
	src, team, _, me := teamApproved(t, true) // the package approves itself
	expectRun(t, me, "ledger trust", 0, "ledger", "trust", "--yes", team)
	_, out, _ := trustRun(t, me, "status", "--json", src)
	if !strings.Contains(out, "team-ledger-inside-package") {
		t.Fatalf("no warning for a ledger inside the package it approves:\n%s", out)
	}
}

// TestTeamDiffWithoutBytesCLI: a teammate's approval names the changed files even though
// this store never held the bytes, and says so.
func TestTeamDiffWithoutBytesCLI(t *testing.T) {
	src, team, lead, me := teamApproved(t, false)
	testtree.Replace(t, filepath.Join(src, "bin/server"), "serving notes", "serving other things")
	out, errs := expectRun(t, me, "diff against a teammate's approval", 1, "diff", "--ledger", team, src, notesRef)
	if !strings.Contains(out, "modified bin/server") || !strings.Contains(out, "not in this vouch store") {
		t.Fatalf("diff without the bytes:\n%s\n%s", out, errs)
	}
	// The lead's store has the bytes: a line diff.
	out, _ = expectRun(t, lead, "lead's diff", 1, "diff", "--ledger", team, src, notesRef)
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
	expectRun(t, lead, "team approve", 0, "approve", "--yes", "--ledger", team, src, notesRef)
	expectRun(t, lead, "team revoke", 0, "revoke", "--yes", "--ledger", team, src, notesRef)
	data := testtree.ReadFile(t, team)
	head, rest, _ := strings.Cut(data, "\n[[decision]]")
	parts := strings.Split(rest, "\n[[decision]]")
	if len(parts) != 2 {
		t.Fatalf("want 2 decisions, got %d:\n%s", len(parts), data)
	}
	merged := head + "\n[[decision]]" + strings.TrimRight(parts[1], "\n") + "\n\n[[decision]]" + parts[0]
	if strings.Index(merged, `action = "approve"`) < strings.Index(merged, `action = "revoke"`) {
		t.Fatalf("the reorder did not put the approve last:\n%s", merged)
	}
	os.WriteFile(team, []byte(merged), 0o644)
	_, errs := expectRun(t, t.TempDir(), "check after a reordered merge", 1, "check", "--ledger", team, src, notesRef)
	if !strings.Contains(errs, "revoked") {
		t.Fatalf("check reason: %s", errs)
	}
}

// TestExplicitLedgerPinnedCLI: --ledger FILE on check and status counts as a discovered
// team ledger does (approvals only as far as `ledger trust` confirmed them) unless
// --trust-ledger is given; a revoke appended after trust counts at once.
func TestExplicitLedgerPinnedCLI(t *testing.T) {
	src, team, lead, me := teamApproved(t, false)

	_, errs := expectRun(t, me, "check --ledger of a ledger never trusted", 1, "check", "--ledger", team, src, notesRef)
	if !strings.Contains(errs, "--trust-ledger") {
		t.Fatalf("check does not say why the ledger's approval did not count:\n%s", errs)
	}
	out, _ := expectRun(t, me, "status --ledger", 0, "status", "--ledger", team, src)
	if !regexp.MustCompile(`unreviewed\s+mcp-server:notes`).MatchString(out) {
		t.Fatalf("status --ledger of an untrusted ledger:\n%s", out)
	}
	out, _ = expectRun(t, me, "status --ledger --trust-ledger", 0, "status", "--ledger", team, "--trust-ledger", src)
	if !regexp.MustCompile(`approved\s+mcp-server:notes`).MatchString(out) {
		t.Fatalf("status --ledger --trust-ledger:\n%s", out)
	}
	expectRun(t, me, "check --ledger --trust-ledger", 0, "check", "--ledger", team, "--trust-ledger", src, notesRef)

	expectRun(t, me, "ledger trust", 0, "ledger", "trust", "--yes", team)
	expectRun(t, me, "check --ledger after trust", 0, "check", "--ledger", team, src, notesRef)
	expectRun(t, lead, "team revoke", 0, "revoke", "--yes", "--ledger", team, src, notesRef)
	_, errs = expectRun(t, me, "check after a revoke appended to the trusted ledger", 1, "check", "--ledger", team, src, notesRef)
	if !strings.Contains(errs, "revoked") {
		t.Fatalf("check reason: %s", errs)
	}
}
