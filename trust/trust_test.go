package trust

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/memfiles"
	"vouch/internal/testtree"
	"vouch/model"
)

func TestResolveHome(t *testing.T) {
	abs := func(p string) string { a, _ := filepath.Abs(p); return a }
	tests := []struct {
		name, flag, vouch, xdg, home, want string
	}{
		{"flag wins", "/h/flag", "/h/env", "/x", "/u", "/h/flag"},
		{"relative flag made absolute", "rel", "", "", "/u", abs("rel")},
		{"VOUCH_HOME", "", "/h/env", "/x", "/u", "/h/env"},
		{"XDG_DATA_HOME", "", "", "/x", "/u", "/x/vouch"},
		{"relative XDG ignored", "", "", "x", "/u", "/u/.local/share/vouch"},
		{"default", "", "", "", "/u", "/u/.local/share/vouch"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("VOUCH_HOME", tc.vouch)
			t.Setenv("XDG_DATA_HOME", tc.xdg)
			t.Setenv("HOME", tc.home)
			got, err := ResolveHome(tc.flag)
			if err != nil || got != tc.want {
				t.Fatalf("ResolveHome(%q) = %q, %v; want %q", tc.flag, got, err, tc.want)
			}
		})
	}
}

func status(t *testing.T, tr *Trust, p *model.Package, kind model.Kind, id string) Status {
	t.Helper()
	m, err := tr.Statuses(p)
	if err != nil {
		t.Fatalf("Statuses: %v", err)
	}
	s, ok := m[model.Ref(p.Name, kind, id)]
	if !ok {
		t.Fatalf("no status for %s", id)
	}
	return s
}

func wantAuth(t *testing.T, s Status, want model.Authorization) {
	t.Helper()
	if s.Authorization != want {
		t.Fatalf("%s: authorization %s (reason %q), want %s", s.Ref, s.Authorization, s.Reason, want)
	}
}

// TestLifecycle walks every transition of a tool and its hook.
func TestLifecycle(t *testing.T) {
	home := t.TempDir()
	tr := openT(t, home)
	files := files0()
	p := toolHookPackage(t.TempDir(), files)
	tool, hook := comp(p, model.KindTool, "run"), comp(p, model.KindHook, "pre")

	wantAuth(t, status(t, tr, p, model.KindTool, "run"), model.Unreviewed)
	hs := status(t, tr, p, model.KindHook, "pre")
	wantAuth(t, hs, model.Unreviewed)
	if len(hs.Needs) != 1 || hs.Needs[0] != "demo#tool:run" {
		t.Fatalf("unreviewed hook Needs = %v", hs.Needs)
	}
	if g := tr.Explain(p, hook, ActionApprove); !strings.Contains(g.Blocked, "demo#tool:run is unreviewed") {
		t.Fatalf("Explain(hook).Blocked = %q", g.Blocked)
	}

	// Hook before tool is refused, naming the tool and its status.
	if _, err := tr.Approve(p, hook, DigestOf(hook), DecideOptions{}); err == nil || !strings.Contains(err.Error(), "demo#tool:run") || !strings.Contains(err.Error(), "unreviewed") {
		t.Fatalf("approving the hook first: %v", err)
	}
	d, err := tr.Approve(p, tool, DigestOf(tool), DecideOptions{Note: "looked at it", ReviewerKind: ReviewerAutomation})
	if err != nil {
		t.Fatal(err)
	}
	if d.Previous != "" || d.Reviewer != "tester" || d.ReviewerKind != "automation" || d.Ledger != "personal" || d.Digest != tool.Contract.MustDigest() {
		t.Fatalf("decision %+v", d)
	}
	wantAuth(t, status(t, tr, p, model.KindTool, "run"), model.Approved)
	if _, err := tr.Approve(p, hook, DigestOf(hook), DecideOptions{}); err != nil {
		t.Fatal(err)
	}
	wantAuth(t, status(t, tr, p, model.KindHook, "pre"), model.Approved)
	if diff, err := tr.Diff(p, tool); err != nil || diff != nil {
		t.Fatalf("Diff of an approved tool = %+v, %v", diff, err)
	}
	if st, err := tr.Check(p, "demo#tool:run"); err != nil || st.Authorization != model.Approved {
		t.Fatalf("Check = %+v, %v", st, err)
	}

	// Editing the README changes nothing.
	files["README.md"] = []byte("edited\n")
	p = toolHookPackage(p.Root, files)
	wantAuth(t, status(t, tr, p, model.KindTool, "run"), model.Approved)

	// One byte of the tool: the tool and its hook are changed.
	files["tools/run.sh"] = []byte(strings.Replace(runSh, "echo four", "echo FOUR", 1))
	p = toolHookPackage(p.Root, files)
	tool, hook = comp(p, model.KindTool, "run"), comp(p, model.KindHook, "pre")
	ts := status(t, tr, p, model.KindTool, "run")
	wantAuth(t, ts, model.Changed)
	if strings.Join(ts.Changes, ";") != "tools/run.sh modified" {
		t.Fatalf("tool changes %q", ts.Changes)
	}
	hs = status(t, tr, p, model.KindHook, "pre")
	wantAuth(t, hs, model.Changed)
	if strings.Join(hs.Changes, ";") != "tool_digest changed" {
		t.Fatalf("hook changes %q", hs.Changes)
	}
	diff, err := tr.Diff(p, tool)
	if err != nil || diff == nil {
		t.Fatalf("Diff = %v, %v", diff, err)
	}
	if len(diff.Files) != 1 || diff.Files[0].Change != "modified" || !strings.Contains(diff.Files[0].Unified, "-echo four\n+echo FOUR\n") {
		t.Fatalf("file diff %+v", diff.Files)
	}
	if st, _ := tr.Check(p, "demo#tool:run"); st.Authorization != model.Changed {
		t.Fatalf("Check after change = %s", st.Authorization)
	}
	// Re-approve: Previous names the old digest.
	oldDigest := d.Digest
	d2, err := tr.Approve(p, tool, DigestOf(tool), DecideOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d2.Previous != oldDigest || d2.ReviewerKind != "human" {
		t.Fatalf("re-approval %+v, want previous %s", d2, oldDigest)
	}
	wantAuth(t, status(t, tr, p, model.KindTool, "run"), model.Approved)
	wantAuth(t, status(t, tr, p, model.KindHook, "pre"), model.Changed)
	if _, err := tr.Approve(p, hook, DigestOf(hook), DecideOptions{}); err != nil {
		t.Fatal(err)
	}
	wantAuth(t, status(t, tr, p, model.KindHook, "pre"), model.Approved)

	// Revoking the tool lists the hook, and takes it down.
	g := tr.Explain(p, tool, ActionRevoke)
	if len(g.Affected) != 1 || g.Affected[0] != "demo#hook:pre" {
		t.Fatalf("Affected = %v", g.Affected)
	}
	if _, err := tr.Revoke(p, tool, DigestOf(tool), DecideOptions{Note: "no"}); err != nil {
		t.Fatal(err)
	}
	wantAuth(t, status(t, tr, p, model.KindTool, "run"), model.Revoked)
	hs = status(t, tr, p, model.KindHook, "pre")
	wantAuth(t, hs, model.Blocked)
	if len(hs.Needs) != 1 || hs.Decision == nil || hs.Decision.Action != ActionApprove {
		t.Fatalf("hook after tool revoke: %+v", hs)
	}
	if st, _ := tr.Check(p, "demo#hook:pre"); st.Authorization == model.Approved {
		t.Fatal("Check passes a hook whose tool is revoked")
	}
	// Approving the tool again restores the hook without a new hook decision.
	if _, err := tr.Approve(p, tool, DigestOf(tool), DecideOptions{}); err != nil {
		t.Fatal(err)
	}
	wantAuth(t, status(t, tr, p, model.KindHook, "pre"), model.Approved)
	if _, err := tr.Revoke(p, hook, DigestOf(hook), DecideOptions{}); err != nil {
		t.Fatal(err)
	}
	wantAuth(t, status(t, tr, p, model.KindHook, "pre"), model.Revoked)

	ds, err := tr.Decisions()
	if err != nil || len(ds) != 7 {
		t.Fatalf("Decisions = %d, %v", len(ds), err)
	}
	if ds[0].Component != "demo#hook:pre" || ds[0].Action != ActionRevoke {
		t.Fatalf("newest decision %+v", ds[0])
	}
}

// TestCheckReadsOnce: the gate answers for the bytes the load hashed and reads none of
// them again (the closure is hashed once per check); a load after a change fails it.
func TestCheckReadsOnce(t *testing.T) {
	tr := openT(t, t.TempDir())
	files := files0()
	p := toolHookPackage(t.TempDir(), files)
	if _, err := tr.Approve(p, comp(p, model.KindTool, "run"), DigestOf(comp(p, model.KindTool, "run")), DecideOptions{}); err != nil {
		t.Fatal(err)
	}
	counting := &countingReader{Files: files}
	p.Reader = counting
	if st, err := tr.Check(p, "demo#tool:run"); err != nil || st.Authorization != model.Approved {
		t.Fatalf("Check = %+v, %v", st, err)
	}
	if counting.reads != 0 {
		t.Fatalf("Check read %d closure files again; the load already hashed them", counting.reads)
	}
	p.Reader = files
	files["tools/lib.sh"] = []byte("evil\n")
	reloaded := toolHookPackage(p.Root, files)
	st, err := tr.Check(reloaded, "demo#tool:run")
	if err != nil || st.Authorization != model.Changed || !strings.Contains(strings.Join(st.Changes, ";"), "tools/lib.sh") {
		t.Fatalf("Check after a change = %+v, %v", st, err)
	}
	// The hook is rated with its tool, as Statuses rates it.
	if hs, _ := tr.Check(reloaded, "demo#hook:pre"); hs.Authorization == model.Approved {
		t.Fatalf("hook of a changed tool = %+v", hs)
	}
	if _, err := tr.Check(p, "demo#tool:nope"); err == nil {
		t.Fatal("Check of an unknown ref passed")
	}
	// Approve also refuses bytes that differ from the contract.
	if _, err := tr.Approve(p, comp(p, model.KindTool, "run"), DigestOf(comp(p, model.KindTool, "run")), DecideOptions{}); err == nil || !strings.Contains(err.Error(), "changed on disk") {
		t.Fatalf("Approve with drifted bytes: %v", err)
	}
}

func TestBlocked(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(p *model.Package, c *model.Component)
		reason string
	}{
		{"rejected package", func(p *model.Package, c *model.Component) {
			p.Rejected = true
			c.Support = []model.Support{{Provider: model.ClientClaudeCode, Status: model.NotSupported}}
		}, "nothing in it is usable"},
		// A rejected package still lists what another client reading its manifest loads:
		// blocked all the same, with that said.
		{"rejected package another client reads", func(p *model.Package, c *model.Component) {
			p.Rejected = true
			c.Support = []model.Support{{Provider: model.ClientClaudeCode, Status: model.NotSupported}, {Provider: model.ClientCodex, Status: model.Supported}}
		}, "although Codex loads this component"},
		{"invalid component", func(p *model.Package, c *model.Component) { c.Validity = model.Invalid }, "invalid"},
		{"skipped component", func(p *model.Package, c *model.Component) { c.Validity = model.Skipped }, "skipped"},
		{"no contract", func(p *model.Package, c *model.Component) { c.Contract = nil }, "Nothing to approve"},
		{"unsupported everywhere", func(p *model.Package, c *model.Component) {
			c.Support = []model.Support{{Provider: model.ClientClaudeCode, Status: model.NotSupported}, {Provider: model.ClientCodex, Status: model.NotApplicable}}
		}, "No provider supports it"},
		{"required member missing", func(p *model.Package, c *model.Component) {
			p.Members = []model.Reference{{Ref: "skill:x", Requirement: "required", Status: "missing"}}
		}, "required member skill:x is missing"},
		{"package error", func(p *model.Package, c *model.Component) {
			p.Diagnostics = []model.Diagnostic{{Severity: model.SeverityError, Boundary: model.BoundaryPackage, Message: "Bad manifest."}}
		}, "Bad manifest"},
		{"unserializable contract", func(p *model.Package, c *model.Component) {
			c.Contract.Fields = append(c.Contract.Fields, model.Field{Key: "x", Value: []int{1}})
		}, "cannot be serialized"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			tr := openT(t, home)
			p := toolHookPackage(t.TempDir(), nil)
			c := comp(p, model.KindTool, "run")
			tc.mutate(p, c)
			s := status(t, tr, p, model.KindTool, "run")
			wantAuth(t, s, model.Blocked)
			if !strings.Contains(s.Reason, tc.reason) {
				t.Fatalf("reason %q, want %q", s.Reason, tc.reason)
			}
			if _, err := tr.Approve(p, c, DigestOf(c), DecideOptions{}); err == nil {
				t.Fatal("a blocked component was approved")
			}
			if g := tr.Explain(p, c, ActionApprove); g.Blocked == "" {
				t.Fatal("Explain does not say it is blocked")
			}
			if _, err := os.Stat(filepath.Join(home, "ledger.toml")); !os.IsNotExist(err) {
				t.Fatalf("ledger written for a refused approval: %v", err)
			}
		})
	}
	// Inert extensions are blocked with "nothing to approve", within the five values.
	tr := openT(t, t.TempDir())
	p := toolHookPackage(t.TempDir(), nil)
	s := status(t, tr, p, model.KindExtension, "dev.example")
	if s.Authorization != model.Blocked || !strings.HasPrefix(s.Reason, "Nothing to approve") {
		t.Fatalf("extension status %+v", s)
	}
}

func TestTeamLedgerPrecedence(t *testing.T) {
	// The team writes its ledger (explicit file, as --ledger does).
	_, teamFile, p, team := teamSetup(t)
	tool := comp(p, model.KindTool, "run")
	if _, err := team.Approve(p, tool, DigestOf(tool), DecideOptions{Team: true}); err != nil {
		t.Fatal(err)
	}

	// Another person finds it by walking up from the package root, but a ledger that came
	// with the source counts only once this home trusts it: a package cannot vouch for itself.
	me := openT(t, t.TempDir())
	if got := me.TeamLedgerFor(p); got != "" {
		t.Fatalf("an untrusted discovered ledger was used: %q", got)
	}
	if got := me.UntrustedTeamLedger(p); got != teamFile {
		t.Fatalf("UntrustedTeamLedger = %q, want %q", got, teamFile)
	}
	wantAuth(t, status(t, me, p, model.KindTool, "run"), model.Unreviewed)
	trustLedger(t, me, teamFile)
	if got := me.UntrustedTeamLedger(p); got != "" {
		t.Fatalf("still untrusted after TrustTeamLedger: %q", got)
	}
	if got := me.TeamLedgerFor(p); got != teamFile {
		t.Fatalf("TeamLedgerFor = %q, want %q", got, teamFile)
	}
	s := status(t, me, p, model.KindTool, "run")
	wantAuth(t, s, model.Approved)
	if s.Decision.Ledger != "team:"+teamFile || s.Decision.Reviewer != "lead" {
		t.Fatalf("decision %+v", s.Decision)
	}
	// My personal revoke wins.
	if _, err := me.Revoke(p, tool, DigestOf(tool), DecideOptions{}); err != nil {
		t.Fatal(err)
	}
	s = status(t, me, p, model.KindTool, "run")
	wantAuth(t, s, model.Revoked)
	if s.Decision.Ledger != "personal" {
		t.Fatalf("decision ledger %q", s.Decision.Ledger)
	}
	// The team ledger is untouched by a personal decision.
	if b, _ := os.ReadFile(teamFile); strings.Count(string(b), "[[decision]]") != 1 {
		t.Fatalf("team ledger:\n%s", b)
	}
	// The walk stops at the repository root: a ledger above it is not used.
	outer := t.TempDir()
	testtree.WriteFiles(t, outer, map[string]string{".vouch/ledger.toml": "schema_version = 1\n", "repo/.git/": ""})
	inner := filepath.Join(outer, "repo")
	if got := FindTeamLedger(inner); got != "" {
		t.Fatalf("found %q above the repository root", got)
	}
	if got := FindTeamLedger(filepath.Join(outer, "x")); got != filepath.Join(outer, ".vouch", "ledger.toml") {
		t.Fatalf("FindTeamLedger without .git = %q", got)
	}
}

func TestDamagedLedger(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"syntax", "schema_version = 1\n\n[[decision]]\naction = \"approve\"\npackage = \"demo\n", ":5:"},
		{"no schema", "[[decision]]\naction = \"revoke\"\npackage = \"p\"\ncomponent = \"p#tool:x\"\n", "no schema_version"},
		{"future schema", "schema_version = 2\n", "schema_version = 2"},
		{"bad action", "schema_version = 1\n[[decision]]\naction = \"allow\"\npackage = \"p\"\ncomponent = \"p#tool:x\"\n", "decision 1 has action"},
		{"bad digest", "schema_version = 1\n[[decision]]\naction = \"approve\"\npackage = \"p\"\ncomponent = \"p#tool:x\"\ndigest = \"md5:1\"\n", "not a sha256"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			lp := filepath.Join(home, "ledger.toml")
			os.WriteFile(lp, []byte(tc.body), 0o644)
			_, err := Open(Options{Home: home})
			if !errors.Is(err, ErrDamagedLedger) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), lp) {
				t.Fatalf("Open: %v; want %q", err, tc.want)
			}
			// A Trust opened earlier must not overwrite it either.
			os.WriteFile(lp, []byte("schema_version = 1\n"), 0o644)
			tr := openT(t, home)
			os.WriteFile(lp, []byte(tc.body), 0o644)
			p := toolHookPackage(t.TempDir(), nil)
			if _, err := tr.Approve(p, comp(p, model.KindTool, "run"), DigestOf(comp(p, model.KindTool, "run")), DecideOptions{}); !errors.Is(err, ErrDamagedLedger) {
				t.Fatalf("Approve on a damaged ledger: %v", err)
			}
			if _, err := tr.Revoke(p, comp(p, model.KindTool, "run"), DigestOf(comp(p, model.KindTool, "run")), DecideOptions{}); !errors.Is(err, ErrDamagedLedger) {
				t.Fatalf("Revoke on a damaged ledger: %v", err)
			}
			if b, _ := os.ReadFile(lp); string(b) != tc.body {
				t.Fatalf("damaged ledger was rewritten:\n%s", b)
			}
			m, err := tr.Statuses(p)
			if !errors.Is(err, ErrDamagedLedger) || m["demo#tool:run"].Authorization != model.Blocked {
				t.Fatalf("Statuses on a damaged ledger: %v %+v", err, m["demo#tool:run"])
			}
		})
	}
}

// TestLedgerKeepsBytes: appending keeps comments and earlier bytes exactly.
func TestLedgerKeepsBytes(t *testing.T) {
	home := t.TempDir()
	lp := filepath.Join(home, "ledger.toml")
	orig := "# my notes\nschema_version = 1\n# end"
	os.WriteFile(lp, []byte(orig), 0o644)
	tr := openT(t, home)
	p := toolHookPackage(t.TempDir(), nil)
	if _, err := tr.Approve(p, comp(p, model.KindSkill, "a"), DigestOf(comp(p, model.KindSkill, "a")), DecideOptions{Note: "line1\nline2 \"q\""}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(lp)
	if !strings.HasPrefix(string(b), orig+"\n") {
		t.Fatalf("old bytes not kept:\n%s", b)
	}
	ds, err := tr.Decisions()
	if err != nil || len(ds) != 1 || ds[0].Note != "line1\nline2 \"q\"" {
		t.Fatalf("Decisions = %+v, %v", ds, err)
	}
}

func TestTamperedStore(t *testing.T) {
	home := t.TempDir()
	tr := openT(t, home)
	files := files0()
	p := toolHookPackage(t.TempDir(), files)
	tool := comp(p, model.KindTool, "run")
	if _, err := tr.Approve(p, tool, DigestOf(tool), DecideOptions{}); err != nil {
		t.Fatal(err)
	}
	// Every file and the canonical contract are stored read-only under their hash.
	canon, _ := tool.Contract.Canonical()
	for _, want := range [][]byte{canon, files["tools/run.sh"], files["tools/lib.sh"]} {
		f := model.File{}
		f = memfiles.Files{"x": want}.File("x", false)
		st, err := os.Stat(tr.store.path(f.SHA256))
		if err != nil || st.Mode().Perm() != 0o444 {
			t.Fatalf("store entry for %q: %v %v", want[:10], st, err)
		}
	}
	stored := tr.store.path(files.File("tools/run.sh", false).SHA256)
	os.Chmod(stored, 0o644)
	os.WriteFile(stored, []byte("#!/bin/sh\nrm -rf ~\n"), 0o444)

	files["tools/run.sh"] = []byte("#!/bin/sh\necho new\n")
	p = toolHookPackage(p.Root, files)
	tool = comp(p, model.KindTool, "run")
	if _, err := tr.Diff(p, tool); !errors.Is(err, ErrTamperedStore) {
		t.Fatalf("Diff with tampered store: %v", err)
	}
	// A tampered contract shows in the status summary.
	cp := tr.store.path(strings.TrimPrefix(comp(toolHookPackage("", files0()), model.KindTool, "run").Contract.MustDigest(), "sha256:"))
	os.Chmod(cp, 0o644)
	os.WriteFile(cp, []byte("{}"), 0o444)
	s := status(t, tr, p, model.KindTool, "run")
	wantAuth(t, s, model.Changed)
	if !strings.Contains(strings.Join(s.Changes, ""), "tampered") {
		t.Fatalf("changes %q", s.Changes)
	}
	// Re-approving replaces the tampered entries with verified bytes.
	if _, err := tr.Approve(p, tool, DigestOf(tool), DecideOptions{}); err != nil {
		t.Fatal(err)
	}
}

func TestDiffDetails(t *testing.T) {
	home := t.TempDir()
	tr := openT(t, home)
	files := files0()
	files["tools/blob.bin"] = []byte{0, 1, 2, 3, 4, 5}
	p := toolHookPackage(t.TempDir(), files)
	tool := comp(p, model.KindTool, "run")
	addFile := func(c *model.Component, f model.File) { c.Contract.Files = append(c.Contract.Files, f) }
	addFile(tool, files.File("tools/blob.bin", false))
	if _, err := tr.Approve(p, tool, DigestOf(tool), DecideOptions{}); err != nil {
		t.Fatal(err)
	}
	files["tools/blob.bin"] = []byte{0, 1, 2, 9, 4, 5, 6}
	files["tools/new.sh"] = []byte("new\n")
	p = toolHookPackage(p.Root, files)
	tool = comp(p, model.KindTool, "run")
	tool.Contract.Files = []model.File{files.File("tools/run.sh", false), files.File("tools/blob.bin", false), files.File("tools/new.sh", false)}
	tool.Contract.Fields[1].Value = "bash"
	tool.Contract.Fields = append(tool.Contract.Fields, model.Field{Key: "env", Value: []string{"TOKEN"}})
	d, err := tr.Diff(p, tool)
	if err != nil || d == nil {
		t.Fatal(d, err)
	}
	got := map[string]FieldDiff{}
	for _, f := range d.Fields {
		got[f.Key] = f
	}
	if got["runtime"].Old != `"sh"` || got["runtime"].New != `"bash"` || got["env"].Old != "" || got["env"].New != `["TOKEN"]` || len(got) != 2 {
		t.Fatalf("field diffs %+v", d.Fields)
	}
	byPath := map[string]FileDiff{}
	for _, f := range d.Files {
		byPath[f.Path] = f
	}
	if f := byPath["tools/blob.bin"]; f.Change != "modified" || !f.Binary || f.FirstDifferentOffset != 3 || f.OldSize != 6 || f.NewSize != 7 || f.Unified != "" {
		t.Fatalf("binary diff %+v", f)
	}
	if f := byPath["tools/run.sh"]; f.Change != "modified" || f.OldExec != true || f.NewExec != false || f.Unified != "" {
		t.Fatalf("exec-bit diff %+v", f)
	}
	if byPath["tools/new.sh"].Change != "added" || byPath["tools/lib.sh"].Change != "removed" || len(byPath) != 4 {
		t.Fatalf("file diffs %+v", d.Files)
	}
	s := status(t, tr, p, model.KindTool, "run")
	if j := strings.Join(s.Changes, ";"); j != "runtime changed;env added;tools/blob.bin modified;tools/new.sh added;tools/run.sh exec bit changed;tools/lib.sh removed" {
		t.Fatalf("changes %q", j)
	}
}

func TestUnifiedDiff(t *testing.T) {
	var a, b strings.Builder
	for i := 1; i <= 30; i++ {
		line := "line " + string(rune('a'+i%26)) + "\n"
		a.WriteString(line)
		switch i {
		case 5:
			b.WriteString("changed five\n")
		case 20:
		default:
			b.WriteString(line)
		}
	}
	got := UnifiedDiff("a", "b", a.String(), b.String())
	want := "--- a\n+++ b\n@@ -2,7 +2,7 @@\n line c\n line d\n line e\n-line f\n+changed five\n line g\n line h\n line i\n@@ -17,7 +17,6 @@\n line r\n line s\n line t\n-line u\n line v\n line w\n line x\n"
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	if UnifiedDiff("a", "b", "x", "x") != "" {
		t.Fatal("equal texts diff")
	}
	if got := UnifiedDiff("a", "b", "x", "y"); got != "--- a\n+++ b\n@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+y\n\\ No newline at end of file\n" {
		t.Fatalf("no-newline diff:\n%s", got)
	}
	if got := UnifiedDiff("a", "b", "", "new\n"); got != "--- a\n+++ b\n@@ -0,0 +1 @@\n+new\n" {
		t.Fatalf("from empty:\n%s", got)
	}
}

func TestInstructionActiveAtSeveralTargets(t *testing.T) {
	files := files0()
	files["instructions/ctx.md"] = []byte("Prefer small diffs.\n")
	p := toolHookPackage(t.TempDir(), files)
	instrFiles := []model.File{files.File("instructions/ctx.md", false)}
	instr := &model.Component{Kind: model.KindInstruction, ID: "ctx", Validity: model.Valid,
		Contract: &model.Contract{Kind: model.KindInstruction, Files: instrFiles}, Files: instrFiles}
	p.Components = append(p.Components, instr)
	tr := openT(t, t.TempDir())
	for _, target := range []string{"/t/AGENTS.md", "/t/CLAUDE.md"} {
		if _, err := tr.Approve(p, instr, DigestOf(instr), DecideOptions{Target: target}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tr.Revoke(p, instr, DigestOf(instr), DecideOptions{Target: "/t/CLAUDE.md"}); err != nil {
		t.Fatal(err)
	}
	s := status(t, tr, p, model.KindInstruction, "ctx")
	wantAuth(t, s, model.Approved)
	if s.Decision.Target != "/t/AGENTS.md" {
		t.Fatalf("decision in force targets %q, want the still-active /t/AGENTS.md", s.Decision.Target)
	}
	if _, err := tr.Revoke(p, instr, DigestOf(instr), DecideOptions{Target: "/t/AGENTS.md"}); err != nil {
		t.Fatal(err)
	}
	wantAuth(t, status(t, tr, p, model.KindInstruction, "ctx"), model.Revoked)
}

// EvaluateAll reads each ledger once for many packages and answers exactly as Evaluate
// does for each of them.
func TestEvaluateAllMatchesEvaluate(t *testing.T) {
	tr := openT(t, t.TempDir())
	var pkgs []*model.Package
	for i := 0; i < 3; i++ {
		p := toolHookPackage(t.TempDir(), nil)
		p.Name = fmt.Sprintf("demo%d", i)
		pkgs = append(pkgs, p)
	}
	if _, err := tr.Approve(pkgs[1], comp(pkgs[1], model.KindTool, "run"), DigestOf(comp(pkgs[1], model.KindTool, "run")), DecideOptions{}); err != nil {
		t.Fatal(err)
	}
	all := tr.EvaluateAll(pkgs)
	for _, p := range pkgs {
		one := tr.Evaluate(p)
		if len(one) != len(all[p]) {
			t.Fatalf("%s: %d statuses one by one, %d together", p.Name, len(one), len(all[p]))
		}
		for ref, st := range one {
			if got := all[p][ref]; got.Authorization != st.Authorization || got.Digest != st.Digest || got.Reason != st.Reason {
				t.Errorf("%s: EvaluateAll %+v, Evaluate %+v", ref, got, st)
			}
		}
	}
	if got := all[pkgs[1]][model.Ref("demo1", model.KindTool, "run")].Authorization; got != model.Approved {
		t.Fatalf("the approved tool is %s", got)
	}
}

// countingReader counts the files read through it.
type countingReader struct {
	memfiles.Files
	reads int
}

func (c *countingReader) ReadFile(path string) ([]byte, error) {
	c.reads++
	return c.Files.ReadFile(path)
}

// TestCheckAgreesWithStatuses: rating only a component and its dependencies gives the
// answer Statuses gives, in every state a hook and its tool can be in.
func TestCheckAgreesWithStatuses(t *testing.T) {
	tr := openT(t, t.TempDir())
	files := files0()
	p := toolHookPackage(t.TempDir(), files)
	tool, hook := comp(p, model.KindTool, "run"), comp(p, model.KindHook, "pre")
	steps := []func(){
		func() {},
		func() { mustDecide(t, tr, ActionApprove, p, tool) },
		func() { mustDecide(t, tr, ActionApprove, p, hook) },
		func() { mustDecide(t, tr, ActionRevoke, p, tool) },
		func() {
			files["tools/run.sh"] = []byte("changed\n")
			p = toolHookPackage(p.Root, files)
		},
	}
	for i, step := range steps {
		step()
		all, err := tr.Statuses(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range p.Components {
			ref := p.Ref(c)
			got, err := tr.Check(p, ref)
			want := all[ref]
			if err != nil || got.Authorization != want.Authorization || got.Reason != want.Reason || got.Digest != want.Digest ||
				strings.Join(got.Needs, ",") != strings.Join(want.Needs, ",") {
				t.Fatalf("step %d, %s: Check = %+v, %v; Statuses = %+v", i, ref, got, err, want)
			}
		}
	}
}

func mustDecide(t *testing.T, tr *Trust, a Action, p *model.Package, c *model.Component) {
	t.Helper()
	var err error
	if a == ActionApprove {
		_, err = tr.Approve(p, c, DigestOf(c), DecideOptions{})
	} else {
		_, err = tr.Revoke(p, c, DigestOf(c), DecideOptions{})
	}
	if err != nil {
		t.Fatal(err)
	}
}
