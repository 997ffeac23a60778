package trust

import (
	"path/filepath"
	"testing"

	"vouch/model"
)

// TestTeamRevokeAfterTrustCountsAtOnce: a revoke appended to a trusted team ledger can
// only take rights away, so it counts before `vouch ledger trust` is run again; an
// approval appended beside it still waits.
func TestTeamRevokeAfterTrustCountsAtOnce(t *testing.T) {
	_, teamFile, p, lead := teamSetupAt(t, "demo")
	tool := comp(p, model.KindTool, "run")
	approve(t, lead, p, tool, DecideOptions{Team: true})

	me := openT(t, t.TempDir())
	trustLedger(t, me, teamFile)
	wantAuth(t, status(t, me, p, model.KindTool, "run"), model.Approved)

	if _, err := lead.Revoke(p, tool, DigestOf(tool), DecideOptions{Team: true}); err != nil {
		t.Fatal(err)
	}
	approve(t, lead, p, comp(p, model.KindSkill, "a"), DecideOptions{Team: true})
	wantAuth(t, status(t, me, p, model.KindTool, "run"), model.Revoked)
	wantAuth(t, status(t, me, p, model.KindSkill, "a"), model.Unreviewed)
	// A fresh process reads the fold from the cache: the same answer.
	again := openT(t, me.Home())
	wantAuth(t, status(t, again, p, model.KindTool, "run"), model.Revoked)
	wantAuth(t, status(t, again, p, model.KindSkill, "a"), model.Unreviewed)
}

// TestExplicitLedgerIsPinned: a ledger named with --ledger is held to the same pin as a
// discovered one unless TrustLedger says to count all of it: approvals in a file this
// home never trusted do not count (and a notice says why), revokes do.
func TestExplicitLedgerIsPinned(t *testing.T) {
	dir := t.TempDir()
	p := toolHookPackage(filepath.Join(dir, "demo"), nil)
	teamFile := filepath.Join(dir, "elsewhere", "ledger.toml")
	author := openT(t, t.TempDir(), func(o *Options) { o.TeamLedger, o.TrustLedger = teamFile, true })
	tool := comp(p, model.KindTool, "run")
	approve(t, author, p, tool, DecideOptions{Team: true})

	home := t.TempDir()
	pinned := openT(t, home, func(o *Options) { o.TeamLedger = teamFile })
	wantAuth(t, status(t, pinned, p, model.KindTool, "run"), model.Unreviewed)
	found := false
	for _, d := range pinned.LedgerNotices(p) {
		found = found || d.Code == "team-ledger-untrusted"
	}
	if !found {
		t.Fatalf("no notice that --ledger is not trusted: %+v", pinned.LedgerNotices(p))
	}
	full := openT(t, home, func(o *Options) { o.TeamLedger, o.TrustLedger = teamFile, true })
	wantAuth(t, status(t, full, p, model.KindTool, "run"), model.Approved)

	trustLedger(t, pinned, teamFile)
	pinned = openT(t, home, func(o *Options) { o.TeamLedger = teamFile })
	wantAuth(t, status(t, pinned, p, model.KindTool, "run"), model.Approved)
	if n := pinned.LedgerNotices(p); len(n) != 0 {
		t.Fatalf("notices for a trusted --ledger: %+v", n)
	}
	// Approved beyond the pin: pending; revoked beyond it: in force.
	approve(t, author, p, comp(p, model.KindSkill, "a"), DecideOptions{Team: true})
	if _, err := author.Revoke(p, tool, DigestOf(tool), DecideOptions{Team: true}); err != nil {
		t.Fatal(err)
	}
	pinned = openT(t, home, func(o *Options) { o.TeamLedger = teamFile })
	wantAuth(t, status(t, pinned, p, model.KindSkill, "a"), model.Unreviewed)
	wantAuth(t, status(t, pinned, p, model.KindTool, "run"), model.Revoked)
}
