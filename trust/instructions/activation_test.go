package instructions

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"vouch/internal/memfiles"
	"vouch/model"
	"vouch/trust"
)

func instructionPackage(body string) (*model.Package, *model.Component) {
	files := memfiles.Files{"instructions/style.md": []byte(body)}
	f := files.File("instructions/style.md", false)
	c := &model.Component{Kind: model.KindInstruction, ID: "style", Validity: model.Valid, Requirement: "recommended", Inactive: true,
		Contract: &model.Contract{Kind: model.KindInstruction, Fields: model.Fields{{Key: "selector", Value: "style"}}, Files: []model.File{f}},
		Files:    []model.File{f}, Body: body, BodyFile: f.Path}
	p := &model.Package{Format: model.FormatDalo, Name: "demo", Root: "/nowhere", Components: []*model.Component{c},
		Reader: files}
	return p, c
}

// TestActivationLedger runs the activation cycle against the real trust package: the
// body is read back from trust's store by its documented layout, and the ledger's latest
// targeted decision decides what is active.
func TestActivationLedger(t *testing.T) {
	home := t.TempDir()
	tr, err := trust.Open(trust.Options{Home: home, Reviewer: "tester", Now: func() time.Time { return time.Unix(1e9, 0) }})
	if err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "AGENTS.md")
	other := filepath.Join(t.TempDir(), "CLAUDE.md")
	pkg, comp := instructionPackage("Use tabs.\r\n")
	ref := pkg.Ref(comp)

	// A plain approval (no target) activates nothing.
	if _, err := tr.Approve(pkg, comp, trust.DigestOf(comp), trust.DecideOptions{}); err != nil {
		t.Fatal(err)
	}
	ds, _ := tr.Decisions()
	if len(Activations(ds)) != 0 {
		t.Fatal("an approval without a target counted as an activation")
	}

	p, err := PreviewApply(Target{Path: target}, BlockID(pkg.Name, comp.ID), comp.Body, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := Commit(p, false); err != nil {
		t.Fatal(err)
	}
	for _, tg := range []string{target, other} {
		if _, err := tr.Approve(pkg, comp, trust.DigestOf(comp), trust.DecideOptions{Target: tg}); err != nil {
			t.Fatal(err)
		}
	}
	ds, _ = tr.Decisions()
	acts := Activations(ds)
	if len(acts) != 2 {
		t.Fatalf("activations: %+v", acts)
	}
	last, err := LastWritten(home, ds, ref, target)
	if err != nil || last != "Use tabs.\r\n" {
		t.Fatalf("LastWritten = %q, %v", last, err)
	}
	states := map[string]string{}
	for _, a := range acts {
		states[a.Target], _ = CheckActivation(home, a)
	}
	if states[target] != StatePresent || states[other] != StateFileMissing {
		t.Fatalf("states: %v", states)
	}

	// Revoking at one target leaves the other active.
	if _, err := tr.Revoke(pkg, comp, trust.DigestOf(comp), trust.DecideOptions{Target: other}); err != nil {
		t.Fatal(err)
	}
	ds, _ = tr.Decisions()
	if acts = Activations(ds); len(acts) != 1 || acts[0].Target != target {
		t.Fatalf("after revoke: %+v", acts)
	}
	if last, err := LastWritten(home, ds, ref, other); last != "" || err != nil {
		t.Fatalf("revoked target still has a baseline: %q %v", last, err)
	}

	// A hand edit shows as edited; a tampered store entry is an error, never a baseline.
	data, _ := os.ReadFile(target)
	os.WriteFile(target, []byte(replaceOnce(string(data), "Use tabs.", "Use spaces.")), 0o644)
	if st, _ := CheckActivation(home, acts[0]); st != StateEdited {
		t.Fatalf("state after hand edit: %s", st)
	}
	d := LastDecision(ds, ref, target)
	sum := d.Digest[len("sha256:"):]
	entry := filepath.Join(home, "store", "sha256", sum[:2], sum[2:])
	os.Chmod(entry, 0o644)
	os.WriteFile(entry, []byte(`{"files":[]}`), 0o444)
	if _, err := StoredBody(home, d.Digest); err == nil {
		t.Fatal("tampered store entry accepted")
	}
}

func replaceOnce(s, old, new string) string {
	for i := 0; i+len(old) <= len(s); i++ {
		if s[i:i+len(old)] == old {
			return s[:i] + new + s[i+len(old):]
		}
	}
	return s
}
