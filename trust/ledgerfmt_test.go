package trust

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"vouch/model"
)

func decisionText(action, digest, at string, extra string) string {
	return "[[decision]]\n" + extra + "action = \"" + action + "\"\npackage = \"p\"\nformat = \"codex\"\ncomponent = \"p#hook:h\"\ndigest = \"" + digest + "\"\nreviewer = \"r\"\nreviewer_kind = \"human\"\nat = " + at + "\n"
}

var (
	dg1 = "sha256:" + strings.Repeat("1", 64)
	dg2 = "sha256:" + strings.Repeat("2", 64)
)

// TestFormatLedger: what vouch writes is already formatted; a hand-laid-out ledger
// (comments, key order, spacing) formats to the same decisions, and formatting is
// idempotent; two merges of the same branches in either order format to the same bytes.
func TestFormatLedger(t *testing.T) {
	home := t.TempDir()
	tr := openT(t, home, func(o *Options) {
		n := 0
		o.Now = func() time.Time { n++; return time.Date(2026, 1, 1, 0, 0, n, 0, time.UTC) }
	})
	p := toolHookPackage(t.TempDir(), nil)
	mustDecide(t, tr, ActionApprove, p, comp(p, model.KindTool, "run"))
	mustDecide(t, tr, ActionApprove, p, comp(p, model.KindHook, "pre"))
	mustDecide(t, tr, ActionRevoke, p, comp(p, model.KindTool, "run"))
	r, err := FormatLedger(tr.PersonalLedger())
	if err != nil {
		t.Fatal(err)
	}
	if r.Changed || r.Decisions != 3 {
		t.Fatalf("a ledger vouch wrote is not formatted (%d decisions):\n%s", r.Decisions, r.Formatted)
	}

	hand := "# our team's approvals\nschema_version=1\n\n\n" +
		decisionText("approve", dg1, "2026-01-01T00:00:01Z", "# first\n") +
		"[[decision]]\nreviewer_kind = 'human'\nat = 2026-01-01T00:00:02Z\naction = 'approve'\npackage = 'p'\nformat = 'codex'\ncomponent = 'p#hook:h'\ndigest = '" + dg2 + "'\nreviewer = 'r'\n"
	r, err = formatLedgerBytes("l", []byte(hand))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Changed || !strings.HasPrefix(string(r.Formatted), ledgerHeader) {
		t.Fatalf("hand layout not formatted:\n%s", r.Formatted)
	}
	a, _ := parseLedger("l", []byte(hand))
	b, _ := parseLedger("l", r.Formatted)
	if len(a) != 2 || !reflect.DeepEqual(a, b) {
		t.Fatalf("decisions changed: %v vs %v", a, b)
	}
	again, err := formatLedgerBytes("l", r.Formatted)
	if err != nil || again.Changed {
		t.Fatalf("formatting is not idempotent: %v\n%s", err, again.Formatted)
	}

	base := "schema_version = 1\n" + decisionText("approve", dg1, "2026-01-01T00:00:01Z", "")
	ours := decisionText("approve", dg2, "2026-01-02T00:00:00Z", "")
	theirs := strings.Replace(decisionText("approve", dg1, "2026-01-03T00:00:00Z", ""), "p#hook:h", "p#hook:g", 1)
	m1, err := formatLedgerBytes("l", []byte(base+ours+theirs))
	if err != nil {
		t.Fatal(err)
	}
	m2, err := formatLedgerBytes("l", []byte(base+theirs+ours))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(m1.Formatted, m2.Formatted) || !m2.Reordered {
		t.Fatalf("the two merges format differently (reordered %v):\n%s\n---\n%s", m2.Reordered, m1.Formatted, m2.Formatted)
	}
}

// TestFormatKeepsOrderThatDecides: a revoke recorded with an earlier time than the
// approval it follows (a skewed clock) decides "revoked" in file order and "approved"
// in time order, so file order is kept.
func TestFormatKeepsOrderThatDecides(t *testing.T) {
	skewed := "schema_version = 1\n" + decisionText("approve", dg1, "2026-01-02T00:00:00Z", "") + decisionText("revoke", dg1, "2026-01-01T00:00:00Z", "")
	r, err := formatLedgerBytes("l", []byte(skewed))
	if err != nil {
		t.Fatal(err)
	}
	if r.Reordered || !r.KeptOrder {
		t.Fatalf("reordered a ledger whose order decides (reordered %v, kept %v)", r.Reordered, r.KeptOrder)
	}
	ds, _ := parseLedger("l", r.Formatted)
	if ds[1].Action != ActionRevoke {
		t.Fatalf("the revoke is no longer last:\n%s", r.Formatted)
	}
}

// TestFormatRepinsOnlyWholeTrust: formatting a team ledger this home trusts whole moves
// the pin, so its approvals still count; with a decision pending, the pin is not moved
// (formatting never confirms what nobody was shown) and nothing of the rewritten file
// counts until it is trusted again.
func TestFormatRepinsOnlyWholeTrust(t *testing.T) {
	for _, pending := range []bool{false, true} {
		_, teamFile, p, lead := teamSetup(t)
		tool := comp(p, model.KindTool, "run")
		if _, err := lead.Approve(p, tool, DigestOf(tool), DecideOptions{Team: true}); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(teamFile)
		os.WriteFile(teamFile, append([]byte("# hand comment\n"), data...), 0o644)
		me := openT(t, t.TempDir())
		trustLedger(t, me, teamFile)
		if pending {
			skill := comp(p, model.KindSkill, "a")
			if _, err := lead.Approve(p, skill, DigestOf(skill), DecideOptions{Team: true}); err != nil {
				t.Fatal(err)
			}
		}
		r, err := FormatLedger(teamFile)
		if err != nil || !r.Changed {
			t.Fatalf("pending %v: %v changed %v", pending, err, r != nil && r.Changed)
		}
		repinned, err := me.WriteFormattedLedger(r)
		if err != nil {
			t.Fatal(err)
		}
		me = openT(t, me.opts.Home)
		got := status(t, me, p, model.KindTool, "run").Authorization
		switch {
		case !pending && (!repinned || got != model.Approved):
			t.Errorf("whole trust: repinned %v, tool %s; want the approval to still count", repinned, got)
		case pending && (repinned || got == model.Approved):
			t.Errorf("pending decision: repinned %v, tool %s; want no repin and nothing counting", repinned, got)
		}
	}
}
