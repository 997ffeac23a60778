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
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("tool:review-context"))
	}, teatest.WithDuration(patience(t)))
	return tm
}

func typeKeys(tm *teatest.TestModel, keys ...string) {
	for _, k := range keys {
		tm.Send(keyMsg(k))
	}
}

// A person approves the tool with the keyboard and quits; the ledger has it.
func TestProgramApproveAndQuit(t *testing.T) {
	m := New(Options{Sources: []string{"examples"}, Home: t.TempDir(), Packages: fixturePackages()})
	tm := startProgram(t, m)
	typeKeys(tm, "j", "j", "a")
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("Approve design-review#tool:review-context?"))
	}, teatest.WithDuration(patience(t)))
	typeKeys(tm, "enter", "y")
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("Approved design-review#tool:review-context."))
	}, teatest.WithDuration(patience(t)))
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
	m := New(Options{Sources: []string{"examples"}, Home: t.TempDir(), Packages: fixturePackages()})
	tm := startProgram(t, m)
	typeKeys(tm, "j", "j", "a")
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("y approve"))
	}, teatest.WithDuration(patience(t)))
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
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("Could not load"))
	}, teatest.WithDuration(patience(t)))
	typeKeys(tm, "q")
	final := tm.FinalModel(t, teatest.WithFinalTimeout(patience(t))).(*Model)
	if final.loadErr == nil {
		t.Fatal("a missing source did not report an error")
	}
}
