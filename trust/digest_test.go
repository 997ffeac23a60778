package trust

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/model"
)

// twoCopies is one package name installed twice with different tool bytes.
func twoCopies(t *testing.T) (a, b *model.Package) {
	fa, fb := files0(), files0()
	fb["tools/run.sh"] = []byte(strings.Replace(runSh, "echo one", "echo ONE", 1))
	a = toolHookPackage(filepath.Join(t.TempDir(), "a"), fa)
	b = toolHookPackage(filepath.Join(t.TempDir(), "b"), fb)
	if DigestOf(comp(a, model.KindTool, "run")) == DigestOf(comp(b, model.KindTool, "run")) {
		t.Fatal("the two copies have one digest")
	}
	return a, b
}

func approve(t *testing.T, tr *Trust, p *model.Package, c *model.Component, o DecideOptions) Decision {
	t.Helper()
	d, err := tr.Approve(p, c, DigestOf(c), o)
	decisionRecorded(t, "approve", p, c, err)
	return d
}

func revoke(t *testing.T, tr *Trust, p *model.Package, c *model.Component, o DecideOptions) Decision {
	t.Helper()
	d, err := tr.Revoke(p, c, DigestOf(c), o)
	decisionRecorded(t, "revoke", p, c, err)
	return d
}

// decisionRecorded fails the test when the decision action on c returned err.
func decisionRecorded(t *testing.T, action string, p *model.Package, c *model.Component, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s %s: %v", action, p.Ref(c), err)
	}
}

// TestSeveralDigestsApproved: approving copy b keeps copy a's approval; revoke covers every
// digest unless one is named; the last personal decision for a digest wins.
func TestSeveralDigestsApproved(t *testing.T) {
	tr := openT(t, t.TempDir())
	a, b := twoCopies(t)
	ta, tb := comp(a, model.KindTool, "run"), comp(b, model.KindTool, "run")

	approve(t, tr, a, ta, DecideOptions{})
	wantAuth(t, status(t, tr, a, model.KindTool, "run"), model.Approved)
	sb := status(t, tr, b, model.KindTool, "run")
	wantAuth(t, sb, model.Changed)
	if sb.Decision == nil || sb.Decision.Digest != DigestOf(ta) {
		t.Fatalf("changed copy b diffs against %+v, want copy a's approval", sb.Decision)
	}
	d := approve(t, tr, b, tb, DecideOptions{})
	if d.Previous != DigestOf(ta) {
		t.Fatalf("Previous = %q, want copy a's digest", d.Previous)
	}
	wantAuth(t, status(t, tr, a, model.KindTool, "run"), model.Approved) // not replaced
	wantAuth(t, status(t, tr, b, model.KindTool, "run"), model.Approved)
	// EvaluateAll rates both copies from one read.
	all := tr.EvaluateAll([]*model.Package{a, b})
	for _, p := range []*model.Package{a, b} {
		if got := all[p]["demo#tool:run"].Authorization; got != model.Approved {
			t.Fatalf("EvaluateAll %s: %s", p.Root, got)
		}
	}

	// Revoking one digest leaves the other approved.
	if _, err := tr.Revoke(a, ta, DigestOf(ta), DecideOptions{OnlyDigest: DigestOf(tb)}); err != nil {
		t.Fatal(err)
	}
	wantAuth(t, status(t, tr, a, model.KindTool, "run"), model.Approved)
	wantAuth(t, status(t, tr, b, model.KindTool, "run"), model.Revoked)
	// The last decision for a digest wins in the personal ledger.
	approve(t, tr, b, tb, DecideOptions{})
	wantAuth(t, status(t, tr, b, model.KindTool, "run"), model.Approved)

	// Revoke without a digest withdraws every digest.
	revoke(t, tr, a, ta, DecideOptions{})
	wantAuth(t, status(t, tr, a, model.KindTool, "run"), model.Revoked)
	wantAuth(t, status(t, tr, b, model.KindTool, "run"), model.Revoked)
	// A third version never decided is revoked too, until something is approved again.
	fc := files0()
	fc["tools/lib.sh"] = []byte("v3\n")
	c3 := toolHookPackage(t.TempDir(), fc)
	wantAuth(t, status(t, tr, c3, model.KindTool, "run"), model.Revoked)
	approve(t, tr, a, ta, DecideOptions{})
	wantAuth(t, status(t, tr, a, model.KindTool, "run"), model.Approved)
	wantAuth(t, status(t, tr, b, model.KindTool, "run"), model.Revoked)
	wantAuth(t, status(t, tr, c3, model.KindTool, "run"), model.Changed)

	if _, err := tr.Revoke(a, ta, DigestOf(ta), DecideOptions{OnlyDigest: "sha256:nope"}); err == nil {
		t.Fatal("a malformed --digest was accepted")
	}
}

// TestDecisionBindsShownDigest: a caller that showed digest D cannot record a decision for
// a component that is now D' (the console's reload race), and nothing is written.
func TestDecisionBindsShownDigest(t *testing.T) {
	home := t.TempDir()
	tr := openT(t, home)
	a, b := twoCopies(t)
	shown := DigestOf(comp(a, model.KindTool, "run"))
	for _, act := range []Action{ActionApprove, ActionRevoke} {
		var err error
		if act == ActionApprove {
			_, err = tr.Approve(b, comp(b, model.KindTool, "run"), shown, DecideOptions{})
		} else {
			_, err = tr.Revoke(b, comp(b, model.KindTool, "run"), shown, DecideOptions{})
		}
		if !errors.Is(err, ErrDigestMismatch) || !strings.Contains(err.Error(), shown) {
			t.Fatalf("%s with a stale digest: %v", act, err)
		}
	}
	if _, err := os.Stat(filepath.Join(home, "ledger.toml")); !os.IsNotExist(err) {
		t.Fatal("a refused decision wrote the ledger")
	}
	// A batch is all or nothing: one stale request refuses the others too.
	ta := comp(a, model.KindTool, "run")
	_, err := tr.Decide(ActionApprove, []Request{{a, comp(a, model.KindSkill, "a"), DigestOf(comp(a, model.KindSkill, "a"))}, {a, ta, "sha256:" + strings.Repeat("0", 64)}}, DecideOptions{})
	if !errors.Is(err, ErrDigestMismatch) {
		t.Fatalf("batch with one stale digest: %v", err)
	}
	if _, err := os.Stat(filepath.Join(home, "ledger.toml")); !os.IsNotExist(err) {
		t.Fatal("a refused batch wrote part of itself")
	}
}

// teamSetup is a repository with a package and a team ledger written with --ledger.
func teamSetup(t *testing.T) (repo, teamFile string, p *model.Package, lead *Trust) {
	return teamSetupAt(t, filepath.Join("pkgs", "demo"))
}

// teamSetupAt is teamSetup with the package in the folder pkgDir of the repository (""
// for the repository itself, which then holds the team ledger inside the package).
func teamSetupAt(t *testing.T, pkgDir string) (repo, teamFile string, p *model.Package, lead *Trust) {
	repo = t.TempDir()
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	root := filepath.Join(repo, pkgDir)
	os.MkdirAll(root, 0o755)
	p = toolHookPackage(root, nil)
	teamFile = filepath.Join(repo, ".vouch", "ledger.toml")
	lead = openT(t, t.TempDir(), func(o *Options) { o.TeamLedger, o.TrustLedger = teamFile, true; o.Reviewer = "lead" })
	return
}

// TestTeamRevokeWinsWhateverTheOrder: a merge that puts an older approve after a newer
// revoke does not re-approve the digest.
func TestTeamRevokeWinsWhateverTheOrder(t *testing.T) {
	_, teamFile, p, lead := teamSetup(t)
	tool := comp(p, model.KindTool, "run")
	approve(t, lead, p, tool, DecideOptions{Team: true})
	revoke(t, lead, p, tool, DecideOptions{Team: true})
	wantAuth(t, status(t, lead, p, model.KindTool, "run"), model.Revoked)
	data, _ := os.ReadFile(teamFile)
	if !strings.Contains(string(data), `scope = "digest"`) {
		t.Fatalf("a team revoke was not written digest-scoped:\n%s", data)
	}
	// Reorder as a merge might: every [[decision]] block reversed.
	head, rest, _ := strings.Cut(string(data), "\n[[decision]]")
	blocks := strings.Split("[[decision]]"+rest, "\n[[decision]]")
	var merged strings.Builder
	merged.WriteString(head)
	for i := len(blocks) - 1; i >= 0; i-- {
		b := strings.TrimPrefix(blocks[i], "[[decision]]")
		merged.WriteString("\n[[decision]]" + strings.TrimRight(b, "\n") + "\n")
	}
	if strings.Index(merged.String(), `action = "approve"`) < strings.Index(merged.String(), `action = "revoke"`) {
		t.Fatalf("the reorder did not put the approve after the revoke:\n%s", merged.String())
	}
	os.WriteFile(teamFile, []byte(merged.String()), 0o644)
	reader := openT(t, t.TempDir(), func(o *Options) { o.TeamLedger, o.TrustLedger = teamFile, true })
	wantAuth(t, status(t, reader, p, model.KindTool, "run"), model.Revoked)
	if st, _ := reader.Check(p, "demo#tool:run"); st.Authorization == model.Approved {
		t.Fatal("check passes a digest the team ledger revokes")
	}
	// The digest cannot be approved in the team ledger again (the revoke would win)...
	if _, err := lead.Approve(p, tool, DigestOf(tool), DecideOptions{Team: true}); err == nil || !strings.Contains(err.Error(), "revoke of a digest wins") {
		t.Fatalf("re-approving a team-revoked digest: %v", err)
	}
	// ...but a person may still approve it for themself, and another digest can be approved.
	approve(t, reader, p, tool, DecideOptions{})
	wantAuth(t, status(t, reader, p, model.KindTool, "run"), model.Approved)
	skill := comp(p, model.KindSkill, "a")
	approve(t, lead, p, skill, DecideOptions{Team: true})
	wantAuth(t, status(t, lead, p, model.KindSkill, "a"), model.Approved)
}

// TestTeamLegacyUnscopedRevoke: a ledger written before digest scopes (an unscoped revoke)
// still reads: it revokes what it named and what was approved above it.
func TestTeamLegacyUnscopedRevoke(t *testing.T) {
	_, teamFile, p, _ := teamSetup(t)
	dg := DigestOf(comp(p, model.KindTool, "run"))
	other := "sha256:" + strings.Repeat("1", 64)
	body := "schema_version = 1\n" +
		"[[decision]]\naction = \"approve\"\npackage = \"demo\"\ncomponent = \"demo#tool:run\"\ndigest = \"" + other + "\"\nreviewer = \"x\"\nreviewer_kind = \"human\"\nat = 2026-01-01T00:00:00Z\n" +
		"[[decision]]\naction = \"revoke\"\npackage = \"demo\"\ncomponent = \"demo#tool:run\"\ndigest = \"" + other + "\"\nreviewer = \"x\"\nreviewer_kind = \"human\"\nat = 2026-01-02T00:00:00Z\n" +
		"[[decision]]\naction = \"approve\"\npackage = \"demo\"\ncomponent = \"demo#tool:run\"\ndigest = \"" + dg + "\"\nreviewer = \"x\"\nreviewer_kind = \"human\"\nat = 2026-01-03T00:00:00Z\n"
	os.MkdirAll(filepath.Dir(teamFile), 0o755)
	os.WriteFile(teamFile, []byte(body), 0o644)
	tr := openT(t, t.TempDir(), func(o *Options) { o.TeamLedger, o.TrustLedger = teamFile, true })
	wantAuth(t, status(t, tr, p, model.KindTool, "run"), model.Approved)
}

// TestPersonalOldApprovalDoesNotMaskTeam: the team approved the current bytes; my old
// approval of an earlier version does not turn that into "changed".
func TestPersonalOldApprovalDoesNotMaskTeam(t *testing.T) {
	_, teamFile, p, lead := teamSetup(t)
	me := openT(t, t.TempDir(), func(o *Options) { o.TeamLedger, o.TrustLedger = teamFile, true })
	fOld := files0()
	fOld["tools/lib.sh"] = []byte("old\n")
	old := toolHookPackage(p.Root, fOld)
	approve(t, me, old, comp(old, model.KindTool, "run"), DecideOptions{})
	approve(t, lead, p, comp(p, model.KindTool, "run"), DecideOptions{Team: true})
	s := status(t, me, p, model.KindTool, "run")
	wantAuth(t, s, model.Approved)
	if s.Decision == nil || s.Decision.Reviewer != "lead" {
		t.Fatalf("decision in force %+v, want the team's", s.Decision)
	}
	if st, err := me.Check(p, "demo#tool:run"); err != nil || st.Authorization != model.Approved {
		t.Fatalf("Check = %+v, %v", st, err)
	}
	// A personal revoke of the component still wins over the team.
	revoke(t, me, p, comp(p, model.KindTool, "run"), DecideOptions{})
	wantAuth(t, status(t, me, p, model.KindTool, "run"), model.Revoked)
}

// TestDiffAgainstTeammateApproval: the store of this home never held the approved bytes,
// but the approval lists its files, so the changed file is named; the old decision format
// without files still reads.
func TestDiffAgainstTeammateApproval(t *testing.T) {
	_, teamFile, p, lead := teamSetup(t)
	d := approve(t, lead, p, comp(p, model.KindTool, "run"), DecideOptions{Team: true})
	if len(d.Files) != 2 || d.Files[0].Path != "tools/lib.sh" || !validHex(d.Files[0].SHA256) {
		t.Fatalf("decision files %+v", d.Files)
	}
	data, _ := os.ReadFile(teamFile)
	if !strings.Contains(string(data), "[[decision.files]]") {
		t.Fatalf("files not recorded:\n%s", data)
	}
	files := files0()
	files["tools/run.sh"] = []byte("#!/bin/sh\necho changed\n")
	changed := toolHookPackage(p.Root, files)
	me := openT(t, t.TempDir(), func(o *Options) { o.TeamLedger, o.TrustLedger = teamFile, true })
	s := status(t, me, changed, model.KindTool, "run")
	wantAuth(t, s, model.Changed)
	if strings.Join(s.Changes, ";") != "tools/run.sh modified" {
		t.Fatalf("changes %q", s.Changes)
	}
	diff, err := me.Diff(changed, comp(changed, model.KindTool, "run"))
	if err != nil || diff == nil || !diff.NotStored {
		t.Fatalf("Diff = %+v, %v", diff, err)
	}
	if len(diff.Files) != 1 || diff.Files[0].Path != "tools/run.sh" || !diff.Files[0].NotStored || !strings.Contains(diff.Files[0].Error, "not in this vouch store") {
		t.Fatalf("diff files %+v", diff.Files)
	}
	// The lead's own store has the bytes: a full line diff.
	diff, err = lead.Diff(changed, comp(changed, model.KindTool, "run"))
	if err != nil || diff.NotStored || !strings.Contains(diff.Files[0].Unified, "+echo changed") {
		t.Fatalf("lead Diff = %+v, %v", diff, err)
	}
	// A decision written before files were recorded: still approves, diff says not stored.
	legacy := strings.Join(strings.Split(string(data), "[[decision.files]]")[:1], "")
	os.WriteFile(teamFile, []byte(legacy), 0o644)
	me2 := openT(t, t.TempDir(), func(o *Options) { o.TeamLedger, o.TrustLedger = teamFile, true })
	wantAuth(t, status(t, me2, p, model.KindTool, "run"), model.Approved)
	if _, err := me2.Diff(changed, comp(changed, model.KindTool, "run")); !errors.Is(err, ErrNotStored) {
		t.Fatalf("Diff against a legacy approval without bytes: %v", err)
	}
}

// TestTeamLedgerTrustIsPinned: decisions added after trust wait; a rewritten ledger counts
// for nothing; untrust stops it; a ledger inside the package it approves is called out.
func TestTeamLedgerTrustIsPinned(t *testing.T) {
	_, teamFile, p, lead := teamSetupAt(t, "") // the ledger at <repo>/.vouch lies inside the package
	approve(t, lead, p, comp(p, model.KindTool, "run"), DecideOptions{Team: true})

	me := openT(t, t.TempDir())
	codes := func() map[string]string {
		out := map[string]string{}
		for _, d := range me.LedgerNotices(p) {
			out[d.Code] = d.Message
		}
		return out
	}
	if _, ok := codes()["team-ledger-untrusted"]; !ok {
		t.Fatalf("no untrusted notice: %v", codes())
	}
	s := trustLedger(t, me, teamFile)
	if s.Total != 1 || s.Trusted != 0 || len(s.New) != 1 || len(s.Packages) != 1 || s.Packages[0].Components != 1 || s.Reviewers[0].Reviewer != "lead" {
		t.Fatalf("summary %+v", s)
	}
	wantAuth(t, status(t, me, p, model.KindTool, "run"), model.Approved)
	if m, ok := codes()["team-ledger-inside-package"]; !ok || !strings.Contains(m, "inside package demo") {
		t.Fatalf("no inside-package notice: %v", codes())
	}

	// The ledger grows after trust: the new approval waits.
	approve(t, lead, p, comp(p, model.KindSkill, "a"), DecideOptions{Team: true})
	wantAuth(t, status(t, me, p, model.KindSkill, "a"), model.Unreviewed)
	wantAuth(t, status(t, me, p, model.KindTool, "run"), model.Approved)
	if m := codes()["team-ledger-pending"]; !strings.HasPrefix(m, "1 decisions were added") {
		t.Fatalf("pending notice %q", m)
	}
	s2, err := me.ReviewTeamLedger(teamFile)
	if err != nil || s2.Trusted != 1 || len(s2.New) != 1 || s2.New[0].Component != "demo#skill:a" {
		t.Fatalf("re-review %+v, %v", s2, err)
	}
	// More is appended between showing and confirming: only what was shown is trusted.
	approve(t, lead, p, comp(p, model.KindHook, "pre"), DecideOptions{Team: true})
	if _, err := me.TrustTeamLedger(s2); err != nil {
		t.Fatal(err)
	}
	wantAuth(t, status(t, me, p, model.KindSkill, "a"), model.Approved)
	wantAuth(t, status(t, me, p, model.KindHook, "pre"), model.Unreviewed)
	if m := codes()["team-ledger-pending"]; !strings.HasPrefix(m, "1 decisions") {
		t.Fatalf("pending after confirming a shown prefix: %q", m)
	}

	// A rewrite (not an append) of the trusted part: nothing counts.
	data, _ := os.ReadFile(teamFile)
	os.WriteFile(teamFile, []byte(strings.Replace(string(data), `reviewer = "lead"`, `reviewer = "mallory"`, 1)), 0o644)
	wantAuth(t, status(t, me, p, model.KindTool, "run"), model.Unreviewed)
	if _, ok := codes()["team-ledger-rewritten"]; !ok {
		t.Fatalf("no rewritten notice: %v", codes())
	}
	s3, err := me.ReviewTeamLedger(teamFile)
	if err != nil || !s3.Rewritten || len(s3.New) != 3 {
		t.Fatalf("review of a rewritten ledger %+v, %v", s3, err)
	}
	// Bytes appended after the trusted prefix cannot reach back into a trusted decision
	// (a TOML table stays open until the next header).
	os.WriteFile(teamFile, data, 0o644)
	trustLedger(t, me, teamFile)
	os.WriteFile(teamFile, append(append([]byte(nil), data...), []byte("scope = \"digest\"\n")...), 0o644)
	if _, err := me.Statuses(p); err == nil {
		// The appended key lands in the last decision, an approve: the file is damaged.
		t.Fatal("an appended key inside the last trusted decision was accepted")
	}
	os.WriteFile(teamFile, append(append([]byte(nil), data...), []byte("note = \"x\"\n")...), 0o644)
	wantAuth(t, status(t, me, p, model.KindTool, "run"), model.Unreviewed)

	// Untrust.
	os.WriteFile(teamFile, data, 0o644)
	if _, was, err := me.UntrustTeamLedger(teamFile); err != nil || !was {
		t.Fatalf("untrust: %v %v", was, err)
	}
	wantAuth(t, status(t, me, p, model.KindTool, "run"), model.Unreviewed)
	if _, was, _ := me.UntrustTeamLedger(teamFile); was {
		t.Fatal("untrusted twice")
	}
	// A home trusted by an older vouch (no pin): nothing counts until trusted again.
	os.WriteFile(filepath.Join(me.Home(), "trusted-ledgers.toml"), []byte("schema_version = 1\nledgers = [\""+canonicalPath(teamFile)+"\"]\n"), 0o600)
	wantAuth(t, status(t, me, p, model.KindTool, "run"), model.Unreviewed)
	if m := codes()["team-ledger-pending"]; !strings.HasPrefix(m, "3 decisions") {
		t.Fatalf("legacy trust pending notice %q (%v)", m, codes())
	}
}

// TestDecisionsListOnlyTrusted: the decision list (and the instruction activations built
// from it) holds only what was trusted of a discovered team ledger.
func TestDecisionsListOnlyTrusted(t *testing.T) {
	repo, teamFile, p, lead := teamSetupAt(t, "pkg")
	approve(t, lead, p, comp(p, model.KindTool, "run"), DecideOptions{Team: true})
	me := openT(t, t.TempDir())
	trustLedger(t, me, teamFile)
	approve(t, lead, p, comp(p, model.KindSkill, "a"), DecideOptions{Team: true, Target: "/x/CLAUDE.md"})
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	os.Chdir(repo)
	ds, err := me.Decisions()
	if err != nil || len(ds) != 1 || ds[0].Component != "demo#tool:run" {
		t.Fatalf("Decisions = %+v, %v", ds, err)
	}
	// Named with --ledger, the whole file is used.
	all, _ := lead.Decisions()
	if len(all) != 2 {
		t.Fatalf("explicit ledger: %d decisions", len(all))
	}
}
