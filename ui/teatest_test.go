package ui

import (
	"bytes"
	"testing"

	"vouch/model"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

func startProgram(t *testing.T, m *Model) *teatest.TestModel {
	t.Helper()
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	waitForText(t, tm, "tool:review-context")
	return tm
}

// programOnTool starts the console on the fixture packages and moves to the tool.
func programOnTool(t *testing.T) *teatest.TestModel {
	t.Helper()
	m := New(Options{Sources: []string{"examples"}, Home: t.TempDir(), Packages: fixturePackages()})
	tm := startProgram(t, m)
	typeKeys(tm, "j", "j")
	return tm
}

// waitForText waits, as patiently as the machine needs, until the program has printed text.
func waitForText(t *testing.T, tm *teatest.TestModel, text string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte(text))
	}, teatest.WithDuration(patience(t)))
}

func typeKeys(tm *teatest.TestModel, keys ...string) {
	for _, k := range keys {
		tm.Send(keyMsg(k))
	}
}

// A person approves the tool with the keyboard and quits; the ledger has it.
func TestProgramApproveAndQuit(t *testing.T) {
	tm := programOnTool(t)
	typeKeys(tm, "a")
	waitForText(t, tm, "Approve design-review#tool:review-context?")
	typeKeys(tm, "enter", "y")
	waitForText(t, tm, "Approved design-review#tool:review-context.")
	typeKeys(tm, "q")
	final := tm.FinalModel(t, teatest.WithFinalTimeout(patience(t))).(*Model)
	if got := authIn(t, final, toolRef); got != model.Approved {
		t.Fatalf("final status %s, want approved", got)
	}
	if got := ledgerAuth(t, final, toolRef); got != model.Approved {
		t.Fatalf("ledger status %s, want approved", got)
	}
}

// Cancelling leaves nothing behind, and the program still quits cleanly.
func TestProgramCancelAndQuit(t *testing.T) {
	tm := programOnTool(t)
	typeKeys(tm, "a")
	waitForText(t, tm, "y approve")
	typeKeys(tm, "esc", "q")
	final := tm.FinalModel(t, teatest.WithFinalTimeout(patience(t))).(*Model)
	if final.dialog() != nil {
		t.Fatal("dialog still open at quit")
	}
	if got := ledgerAuth(t, final, toolRef); got != model.Unreviewed {
		t.Fatalf("ledger status %s after cancel", got)
	}
}

// Loading a real source from disk goes through review.Open inside a command.
func TestProgramLoadsSourceFromDisk(t *testing.T) {
	m := New(Options{Sources: []string{"/nonexistent/vouch-source"}, Home: t.TempDir()})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30))
	waitForText(t, tm, "Could not load")
	typeKeys(tm, "q")
	final := tm.FinalModel(t, teatest.WithFinalTimeout(patience(t))).(*Model)
	if final.loadErr == nil {
		t.Fatal("a missing source did not report an error")
	}
}
