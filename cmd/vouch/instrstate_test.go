package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"vouch/trust/instructions"
)

var daloRunnable = []string{"design-review#tool:context", "design-review#hook:review-context", "design-review#skill:design-review"}

// TestRequireApprovedIgnoresInactiveInstructions: a recommended instruction that is in no
// target needs no approval; once applied it is in force and does; every failure is
// printed with its reason.
func TestRequireApprovedIgnoresInactiveInstructions(t *testing.T) {
	requireDaloLoader(t)
	home := t.TempDir()
	code, _, errs := runVouch(t, home, "status", "--require-approved", instrSource)
	if code != 1 {
		t.Fatalf("nothing approved, yet the gate passed: exit %d", code)
	}
	for _, ref := range daloRunnable {
		if !strings.Contains(errs, "not approved: "+ref+" is unreviewed") {
			t.Errorf("the gate does not name %s with its reason:\n%s", ref, errs)
		}
	}
	if strings.Contains(errs, instrRef) {
		t.Errorf("the gate demands the inactive recommended instruction:\n%s", errs)
	}
	// Under --json each failure is a JSON object on stderr.
	code, _, errs = runVouch(t, home, "status", "--json", "--require-approved", instrSource)
	n := 0
	dec := json.NewDecoder(strings.NewReader(errs))
	for {
		var m map[string]map[string]string
		if dec.Decode(&m) != nil {
			break
		}
		if m["gate"]["ref"] != "" && m["gate"]["reason"] != "" {
			n++
		}
	}
	if code != 1 || n != len(daloRunnable) {
		t.Fatalf("--json gate: exit %d, %d failure lines, want %d:\n%s", code, n, len(daloRunnable), errs)
	}

	if code, _, errs := runVouch(t, home, append([]string{"approve", "--yes", instrSource}, daloRunnable...)...); code != 0 {
		t.Fatalf("approve: %s", errs)
	}
	if code, _, errs := runVouch(t, home, "status", "--require-approved", instrSource); code != 0 {
		t.Fatalf("everything runnable approved, instruction inactive: exit %d\n%s", code, errs)
	}
	// Applied, the instruction is in force: approved by the apply, so the gate passes...
	target := filepath.Join(t.TempDir(), "AGENTS.md")
	if code, _, errs := runVouch(t, home, "instructions", "apply", "--yes", "--target", target, instrSource, instrRef); code != 0 {
		t.Fatalf("apply: %s", errs)
	}
	if code, _, errs := runVouch(t, home, "status", "--require-approved", instrSource); code != 0 {
		t.Fatalf("applied instruction: exit %d\n%s", code, errs)
	}
	// ...until its approval is withdrawn while the block stays: then it fails, naming it.
	if code, _, errs := runVouch(t, home, "revoke", "--yes", instrSource, instrRef); code != 1 || !strings.Contains(errs, "instructions remove --target "+target) {
		t.Fatalf("revoke of an active instruction: exit %d: %s", code, errs)
	}
}

// TestRevokeOfActiveInstructionRefused: revoke would leave the block in force while the
// ledger says revoked, so it records nothing and points to instructions remove; after the
// removal it works.
func TestRevokeOfActiveInstructionRefused(t *testing.T) {
	requireDaloLoader(t)
	home := t.TempDir()
	target := filepath.Join(t.TempDir(), "AGENTS.md")
	if code, _, errs := runVouch(t, home, "instructions", "apply", "--yes", "--target", target, instrSource, instrRef); code != 0 {
		t.Fatalf("apply: %s", errs)
	}
	ledger := filepath.Join(home, "ledger.toml")
	before, _ := os.ReadFile(ledger)
	code, _, errs := runVouch(t, home, "revoke", "--yes", instrSource, instrRef, "design-review#skill:design-review")
	if code != 1 || !strings.Contains(errs, "Nothing was recorded") || !strings.Contains(errs, "vouch instructions remove --target "+target) {
		t.Fatalf("revoke: exit %d: %s", code, errs)
	}
	if after, _ := os.ReadFile(ledger); string(after) != string(before) {
		t.Fatal("a refused revoke changed the ledger")
	}
	if got, _ := os.ReadFile(target); !strings.Contains(string(got), "vouch:start") {
		t.Fatal("the block was removed by a refused revoke")
	}
	if code, _, errs = runVouch(t, home, "instructions", "remove", "--yes", "--target", target, instrSource, instrRef); code != 0 {
		t.Fatalf("remove: %s", errs)
	}
	if code, _, errs = runVouch(t, home, "revoke", "--yes", instrSource, instrRef); code != 0 {
		t.Fatalf("revoke after remove: exit %d: %s", code, errs)
	}
}

// TestUnrecordedBlockReported: a block whose apply was interrupted after the write (the
// intent is there, the ledger decision is not) is reported by list and status, counts
// for the gate, and remove takes it out.
func TestUnrecordedBlockReported(t *testing.T) {
	requireDaloLoader(t)
	home := t.TempDir()
	target := filepath.Join(t.TempDir(), "AGENTS.md")
	orig := []byte("# mine\n")
	os.WriteFile(target, orig, 0o644)
	if code, _, errs := runVouch(t, home, "instructions", "apply", "--yes", "--target", target, instrSource, instrRef); code != 0 {
		t.Fatalf("apply: %s", errs)
	}
	// Recreate the crash: the ledger loses the decision, the intent survives.
	os.Remove(filepath.Join(home, "ledger.toml"))
	data, _ := os.ReadFile(target)
	_, _, blocks, _, _ := instructions.ReadTarget(instructions.Target{Path: target})
	in := instructions.Intent{Ref: instrRef, Target: target, ID: blocks[0].ID, Digest: "sha256:" + strings.Repeat("0", 64),
		Body: string(blocks[0].Body(data)), At: time.Unix(1e9, 0)}
	raw, _ := json.Marshal(in)
	os.MkdirAll(instructions.IntentDir(home), 0o700)
	os.WriteFile(filepath.Join(instructions.IntentDir(home), "x.json"), raw, 0o600)

	l := listInstructions(t, home)
	if len(l.Instructions) != 1 || l.Instructions[0].State != instructions.StateUnrecorded || l.Instructions[0].Target != target {
		t.Fatalf("list: %+v", l)
	}
	code, out, _ := runVouch(t, home, "status", instrSource)
	if code != 0 || !strings.Contains(out, "instruction-block-unrecorded") {
		t.Fatalf("status does not report the unrecorded block: exit %d\n%s", code, out)
	}
	if _, _, errs := runVouch(t, home, "status", "--require-approved", instrSource); !strings.Contains(errs, instrRef+" is unreviewed") || !strings.Contains(errs, "active in "+target) {
		t.Fatalf("the gate ignores the unrecorded block:\n%s", errs)
	}
	code, out, errs := runVouch(t, home, "instructions", "remove", "--yes", "--target", target, instrSource, instrRef)
	if code != 0 || !strings.Contains(out, "Unrecorded:") {
		t.Fatalf("remove: exit %d: %s\n%s", code, errs, out)
	}
	if got, _ := os.ReadFile(target); string(got) != string(orig) {
		t.Fatalf("remove left %q", got)
	}
	if l := listInstructions(t, home); len(l.Instructions) != 0 {
		t.Fatalf("after remove: %+v", l)
	}
}
