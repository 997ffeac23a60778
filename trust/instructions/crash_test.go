package instructions

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"vouch/internal/killtest"
	"vouch/trust"
)

// The crash test re-runs this test binary as a child (VOUCH_INSTR_CHILD) that applies and
// removes instructions in a loop, and SIGKILLs it at random points.
func TestMain(m *testing.M) {
	killtest.Main(m, "VOUCH_INSTR_CHILD", map[string]func() int{"applier": childApplier})
}

// childApplier applies (and now and then removes) instruction variants to one target
// until it is killed, printing "ack N" after each recorded change.
func childApplier() int {
	home, target := os.Getenv("VOUCH_INSTR_HOME"), os.Getenv("VOUCH_INSTR_TARGET")
	if os.Getenv("VOUCH_INSTR_SLOW") != "" {
		// Widen the window between the write and the ledger append, where kills matter.
		afterWrite = func() { time.Sleep(time.Millisecond) }
	}
	start, _ := strconv.Atoi(os.Getenv("VOUCH_INSTR_START"))
	tr, err := trust.Open(trust.Options{Home: home, Reviewer: "child"})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for i := start; ; i++ {
		pkg, comp := instructionPackage(fmt.Sprintf("Rule %d.\n", i%5))
		ref, id := pkg.Ref(comp), BlockID(pkg.Name, comp.ID)
		ds, err := tr.Decisions()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		last, _ := LastWritten(home, ds, ref, target)
		var p *Preview
		if i%4 == 3 {
			p, err = PreviewRemove(Target{Path: target}, id, last)
		} else {
			p, err = PreviewApply(Target{Path: target}, id, comp.Body, last)
		}
		if err == nil {
			_, err = Record(tr, pkg, comp, p, true, trust.ReviewerAutomation)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		killtest.Ack(strconv.Itoa(i))
	}
}

// checkNoInvisibleBlock fails unless every vouch block in target is either the recorded
// activation in force (its approved text) or reported by FindUnrecorded. It returns how
// many blocks were unrecorded.
func checkNoInvisibleBlock(t *testing.T, round int, home, target string) int {
	t.Helper()
	tr, err := trust.Open(trust.Options{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	ds, err := tr.Decisions()
	if err != nil {
		t.Fatalf("round %d: ledger: %v", round, err)
	}
	un, err := FindUnrecorded(home, ds)
	if err != nil {
		t.Fatal(err)
	}
	data, exists, blocks, problems, err := ReadTarget(Target{Path: target})
	if err != nil || len(problems) > 0 {
		t.Fatalf("round %d: target unreadable or damaged: %v %v", round, err, problems)
	}
	if !exists {
		return 0
	}
	pkg, comp := instructionPackage("")
	ref := pkg.Ref(comp)
	for _, b := range blocks {
		if b.ID != BlockID(pkg.Name, comp.ID) {
			t.Fatalf("round %d: unexpected block %s", round, b.ID)
		}
		body := string(b.Body(data))
		if d := LastDecision(ds, ref, target); d != nil && d.Action == trust.ActionApprove {
			if want, err := StoredBody(home, d.Digest); err == nil && SameBody(want, body) {
				continue
			}
		}
		reported := false
		for _, u := range un {
			reported = reported || (u.Ref == ref && u.Target == target && SameBody(u.Body, body))
		}
		if !reported {
			t.Fatalf("round %d: block %q is in %s but neither recorded nor reported", round, body, target)
		}
	}
	return len(un)
}

// TestKilledApplyNeverHidesABlock SIGKILLs an applying process at random points, 40 times,
// and checks after each kill that no block is in force without the ledger or an intent
// saying so; then remove clears whatever an interrupted apply left.
func TestKilledApplyNeverHidesABlock(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 40 processes")
	}
	home := t.TempDir()
	target := filepath.Join(t.TempDir(), "AGENTS.md")
	os.WriteFile(target, []byte("# mine\n"), 0o644)
	rng := rand.New(rand.NewSource(1))
	const rounds = 40
	acks, unrecordedRounds, next := 0, 0, 0
	for round := 0; round < rounds; round++ {
		cmd := killtest.Rerun("VOUCH_INSTR_CHILD=applier", "VOUCH_INSTR_HOME="+home, "VOUCH_INSTR_TARGET="+target,
			"VOUCH_INSTR_START="+strconv.Itoa(next))
		if round%2 == 0 {
			cmd.Env = append(cmd.Env, "VOUCH_INSTR_SLOW=1")
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		child := killtest.Start(t, cmd)
		// Wait for the loop to run, then kill within a few changes.
		child.AwaitFirst(5 * time.Second)
		time.Sleep(time.Duration(rng.Intn(4000)) * time.Microsecond)
		acked := child.Kill()
		if strings.TrimSpace(stderr.String()) != "" {
			t.Fatalf("round %d: the applier failed: %s", round, stderr.String())
		}
		acks += len(acked)
		if len(acked) > 0 {
			last, _ := strconv.Atoi(acked[len(acked)-1])
			next = last + 1
		}
		if checkNoInvisibleBlock(t, round, home, target) > 0 {
			unrecordedRounds++
		}
	}
	t.Logf("%d kills, %d recorded changes, %d kills left an unrecorded block (reported)", rounds, acks, unrecordedRounds)
	if acks == 0 {
		t.Fatal("no change was recorded in any round; the test proved nothing")
	}
	cleanUnrecorded(t, home, target)
}

// cleanUnrecorded removes every unrecorded block as "instructions remove" does, and
// checks nothing is left to report.
func cleanUnrecorded(t *testing.T, home, target string) {
	t.Helper()
	tr, _ := trust.Open(trust.Options{Home: home})
	ds, _ := tr.Decisions()
	un, _ := FindUnrecorded(home, ds)
	for _, u := range un {
		pkg, comp := instructionPackage(u.Body)
		p, err := PreviewRemove(Target{Path: target}, u.ID, u.Body)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Record(tr, pkg, comp, p, false, trust.ReviewerAutomation); err != nil {
			t.Fatal(err)
		}
	}
	ds, _ = tr.Decisions()
	if un, _ := FindUnrecorded(home, ds); len(un) != 0 {
		t.Fatalf("still unrecorded after remove: %+v", un)
	}
}

// TestInterruptedApplyIsReported stops an apply between the write and the ledger append
// (a panic in the hook stands for the crash): the block is reported as unrecorded, not
// taken for text the person wrote, and remove takes it out and clears the report.
func TestInterruptedApplyIsReported(t *testing.T) {
	home := t.TempDir()
	tr, err := trust.Open(trust.Options{Home: home, Reviewer: "tester"})
	if err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "AGENTS.md")
	before := []byte("# mine\n")
	os.WriteFile(target, before, 0o644)
	pkg, comp := instructionPackage("Use tabs.\n")
	p, err := PreviewApply(Target{Path: target}, BlockID(pkg.Name, comp.ID), comp.Body, "")
	if err != nil {
		t.Fatal(err)
	}
	afterWrite = func() { panic("crash") }
	func() {
		defer func() { recover() }()
		Record(tr, pkg, comp, p, false, trust.ReviewerAutomation)
	}()
	afterWrite = func() {}
	ds, _ := tr.Decisions()
	if len(ds) != 0 {
		t.Fatalf("the crash happened before the append, yet the ledger has %d decisions", len(ds))
	}
	un, err := FindUnrecorded(home, ds)
	if err != nil || len(un) != 1 || un[0].Ref != pkg.Ref(comp) || un[0].Target != target || un[0].StartLine != 3 {
		t.Fatalf("unrecorded = %+v, %v", un, err)
	}
	if !strings.Contains(un[0].Detail(), "instructions remove") {
		t.Fatalf("detail does not say what to do: %s", un[0].Detail())
	}
	// A stale intent (its block gone) reports nothing.
	cleanUnrecorded(t, home, target)
	if got, _ := os.ReadFile(target); string(got) != string(before) {
		t.Fatalf("remove did not restore the file: %q", got)
	}
	if ins, _ := Intents(home); len(ins) != 0 {
		t.Fatalf("remove left the intent: %+v", ins)
	}
}
