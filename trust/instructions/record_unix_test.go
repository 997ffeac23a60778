//go:build unix

package instructions

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"

	"vouch/trust"
)

// TestRecordHoldsTheLockThroughTheAppend: between the target write and the ledger append
// the destination's directory lock is still held, so no other vouch writer can change the
// target while its file and ledger disagree.
func TestRecordHoldsTheLockThroughTheAppend(t *testing.T) {
	home := t.TempDir()
	tr, err := trust.Open(trust.Options{Home: home, Reviewer: "tester"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "AGENTS.md")
	pkg, comp := instructionPackage("Use tabs.\n")
	p, err := PreviewApply(Target{Path: target}, BlockID(pkg.Name, comp.ID), comp.Body, "")
	if err != nil {
		t.Fatal(err)
	}
	var lockErr error
	checked := false
	afterWrite = func() {
		checked = true
		f, err := os.Open(dir)
		if err != nil {
			lockErr = err
			return
		}
		defer f.Close()
		lockErr = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	}
	defer func() { afterWrite = func() {} }()
	if _, err := Record(tr, pkg, comp, p, false, trust.ReviewerAutomation); err != nil {
		t.Fatal(err)
	}
	if !checked || !errors.Is(lockErr, unix.EWOULDBLOCK) {
		t.Fatalf("the lock was free between the write and the append (checked %v): %v", checked, lockErr)
	}
}

// TestConcurrentRecordsSerialized: two applies of different instructions planned from the
// same file race; one writes and records, the other finds the file changed and records
// nothing, so the ledger names exactly the block the file holds.
func TestConcurrentRecordsSerialized(t *testing.T) {
	for i := 0; i < 10; i++ {
		home := t.TempDir()
		tr, err := trust.Open(trust.Options{Home: home, Reviewer: "tester"})
		if err != nil {
			t.Fatal(err)
		}
		target := filepath.Join(t.TempDir(), "AGENTS.md")
		os.WriteFile(target, []byte("# base\n"), 0o644)
		pa, ca := instructionPackage("A\n")
		pb, cb := instructionPackage("B\n")
		pb.Name = "other"
		prevA, _ := PreviewApply(Target{Path: target}, BlockID(pa.Name, ca.ID), ca.Body, "")
		prevB, _ := PreviewApply(Target{Path: target}, BlockID(pb.Name, cb.ID), cb.Body, "")
		errs := make(chan error, 2)
		go func() { _, err := Record(tr, pa, ca, prevA, false, trust.ReviewerAutomation); errs <- err }()
		go func() { _, err := Record(tr, pb, cb, prevB, false, trust.ReviewerAutomation); errs <- err }()
		e1, e2 := <-errs, <-errs
		if (e1 == nil) == (e2 == nil) || !errors.Is(errors.Join(e1, e2), ErrChanged) {
			t.Fatalf("round %d: want one success and one ErrChanged: %v, %v", i, e1, e2)
		}
		ds, _ := tr.Decisions()
		_, _, blocks, _, _ := ReadTarget(Target{Path: target})
		if len(ds) != 1 || len(blocks) != 1 || EncodeID(ds[0].Component) != blocks[0].ID {
			t.Fatalf("round %d: ledger %+v and file blocks %+v disagree", i, ds, blocks)
		}
	}
}
