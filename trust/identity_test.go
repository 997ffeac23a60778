package trust

import (
	"os"
	"path/filepath"
	"testing"

	"vouch/internal/memfiles"
	"vouch/model"
)

// twoReadings is one folder as two clients read it: a Codex and a Claude Code package of
// the same name, each with a server "s". sameBytes makes both servers' contracts equal
// (one .mcp.json both clients read), so their digests are equal too.
func twoReadings(root string, sameBytes bool) (codex, claude *model.Package) {
	mk := func(f model.Format, cmd string) *model.Package {
		c := &model.Component{Kind: model.KindMCPServer, ID: "s", Validity: model.Valid,
			Contract: &model.Contract{Kind: model.KindMCPServer, Fields: model.Fields{{Key: "command", Value: cmd}}}}
		return &model.Package{Format: f, Name: "p", Root: root, Components: []*model.Component{c}, Reader: memfiles.Files{}}
	}
	other := "node b.js"
	if sameBytes {
		other = "node a.js"
	}
	return mk(model.FormatCodex, "node a.js"), mk(model.FormatClaudeCode, other)
}

// TestFormatIsPartOfIdentity: approving or revoking one reading of a folder never
// changes the other, whether their digests differ or are equal.
func TestFormatIsPartOfIdentity(t *testing.T) {
	for _, same := range []bool{false, true} {
		tr := openT(t, t.TempDir())
		codex, claude := twoReadings(t.TempDir(), same)
		cs, ks := codex.Components[0], claude.Components[0]
		mustDecide(t, tr, ActionApprove, codex, cs)
		wantAuth(t, status(t, tr, codex, model.KindMCPServer, "s"), model.Approved)
		wantAuth(t, status(t, tr, claude, model.KindMCPServer, "s"), model.Unreviewed)

		mustDecide(t, tr, ActionApprove, claude, ks)
		mustDecide(t, tr, ActionRevoke, codex, cs)
		wantAuth(t, status(t, tr, codex, model.KindMCPServer, "s"), model.Revoked)
		wantAuth(t, status(t, tr, claude, model.KindMCPServer, "s"), model.Approved)
		all := tr.EvaluateAll([]*model.Package{codex, claude})
		if a, b := all[codex]["p#mcp-server:s"].Authorization, all[claude]["p#mcp-server:s"].Authorization; a != model.Revoked || b != model.Approved {
			t.Fatalf("same bytes %v: EvaluateAll says Codex %s, Claude Code %s; want revoked, approved", same, a, b)
		}
		if st, err := tr.Check(claude, claude.Ref(ks)); err != nil || st.Authorization != model.Approved {
			t.Fatalf("same bytes %v: check of the Claude reading after revoking the Codex one: %v %v", same, st.Authorization, err)
		}
		ds, err := tr.Decisions()
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ds {
			if d.Format == "" {
				t.Errorf("decision %+v recorded no format", d)
			}
		}
	}
}

// TestFormatlessDecisionsStillCount reads a ledger written before decisions named a
// format: an approval still approves exactly its digest in every format that has it,
// and a revoke still takes rights away in every format, also after newer decisions that
// name one.
func TestFormatlessDecisionsStillCount(t *testing.T) {
	home := t.TempDir()
	codex, claude := twoReadings(t.TempDir(), false)
	dA, dB := DigestOf(codex.Components[0]), DigestOf(claude.Components[0])
	ledger := "schema_version = 1\n\n" +
		"[[decision]]\naction = \"approve\"\npackage = \"p\"\ncomponent = \"p#mcp-server:s\"\ndigest = \"" + dA + "\"\nreviewer = \"old\"\nreviewer_kind = \"human\"\nat = 2026-01-01T00:00:00Z\n"
	if err := os.WriteFile(filepath.Join(home, "ledger.toml"), []byte(ledger), 0o600); err != nil {
		t.Fatal(err)
	}
	tr := openT(t, home)
	wantAuth(t, status(t, tr, codex, model.KindMCPServer, "s"), model.Approved)
	// The Claude reading's bytes differ: the old approval was not of them.
	if a := status(t, tr, claude, model.KindMCPServer, "s").Authorization; a == model.Approved {
		t.Fatalf("an old approval of %s approved %s", dA, dB)
	}
	// A newer, format-named approval of the Claude reading counts beside the old one.
	mustDecide(t, tr, ActionApprove, claude, claude.Components[0])
	wantAuth(t, status(t, tr, claude, model.KindMCPServer, "s"), model.Approved)
	wantAuth(t, status(t, tr, codex, model.KindMCPServer, "s"), model.Approved)

	// An old-style revoke appended later (an older vouch sharing the home) withdraws both.
	f, err := os.OpenFile(filepath.Join(home, "ledger.toml"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\n[[decision]]\naction = \"revoke\"\npackage = \"p\"\ncomponent = \"p#mcp-server:s\"\ndigest = \"" + dB + "\"\nreviewer = \"old\"\nreviewer_kind = \"human\"\nat = 2026-01-02T00:00:00Z\n")
	f.Close()
	tr = openT(t, home)
	wantAuth(t, status(t, tr, codex, model.KindMCPServer, "s"), model.Revoked)
	wantAuth(t, status(t, tr, claude, model.KindMCPServer, "s"), model.Revoked)
}

// TestTeamLedgerFormats: in a team ledger too, one reading's revoke leaves the other's
// approval of the same digest standing, and an old format-less revoke wins over a newer
// format-named approval of its digest wherever it sits.
func TestTeamLedgerFormats(t *testing.T) {
	repo := t.TempDir()
	teamFile := filepath.Join(repo, ".vouch", "ledger.toml")
	codex, claude := twoReadings(filepath.Join(repo, "p"), true)
	tr := openT(t, t.TempDir(), func(o *Options) { o.TeamLedger, o.TrustLedger = teamFile, true })
	for _, p := range []*model.Package{codex, claude} {
		if _, err := tr.Approve(p, p.Components[0], DigestOf(p.Components[0]), DecideOptions{Team: true}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tr.Revoke(codex, codex.Components[0], DigestOf(codex.Components[0]), DecideOptions{Team: true}); err != nil {
		t.Fatal(err)
	}
	wantAuth(t, status(t, tr, codex, model.KindMCPServer, "s"), model.Revoked)
	wantAuth(t, status(t, tr, claude, model.KindMCPServer, "s"), model.Approved)

	f, err := os.OpenFile(teamFile, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\n[[decision]]\naction = \"revoke\"\npackage = \"p\"\ncomponent = \"p#mcp-server:s\"\ndigest = \"" + DigestOf(claude.Components[0]) + "\"\nscope = \"digest\"\nreviewer = \"old\"\nreviewer_kind = \"human\"\nat = 2020-01-01T00:00:00Z\n")
	f.Close()
	tr = openT(t, t.TempDir(), func(o *Options) { o.TeamLedger, o.TrustLedger = teamFile, true })
	wantAuth(t, status(t, tr, claude, model.KindMCPServer, "s"), model.Revoked)
}

// TestFormatKeyIsValidated: a format with a byte outside the names vouch writes is a
// damaged ledger, never folded (a NUL in it could make one format's decision another's).
func TestFormatKeyIsValidated(t *testing.T) {
	for _, f := range []string{"codex\\u0000x", "Codex", "a b"} {
		_, err := parseLedger("l", []byte("schema_version = 1\n[[decision]]\naction = \"approve\"\npackage = \"p\"\nformat = \""+f+"\"\ncomponent = \"p#hook:x\"\ndigest = \"sha256:"+sixtyFour+"\"\nreviewer = \"r\"\nreviewer_kind = \"human\"\nat = 2026-01-01T00:00:00Z\n"))
		if err == nil {
			t.Errorf("format %q accepted", f)
		}
	}
}

const sixtyFour = "0000000000000000000000000000000000000000000000000000000000000000"
