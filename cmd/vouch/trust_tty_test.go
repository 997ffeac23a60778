package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// atTerminal runs the CLI in-process with stdin a terminal on which answer and Enter are
// typed, and returns the exit code and both streams. The test skips where there is no
// pseudo-terminal.
func atTerminal(t *testing.T, home, answer string, args ...string) (int, string, string) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	ptmx.WriteString(answer + "\n")
	var out, errb bytes.Buffer
	a := &app{stdout: &out, stderr: &errb, stdin: tty}
	code := a.run(append([]string{"--home", home}, args...))
	return code, out.String(), errb.String()
}

func TestTrustTerminalConfirmation(t *testing.T) {
	home, src := newSource(t, mcpPlugin)
	const ref = "notes#mcp-server:notes"
	wantStatus(t, home, src, ref, "unreviewed", "%s before any decision")
	run := func(answer string) (int, string, string) {
		return atTerminal(t, home, answer, "approve", "--note", "at a terminal", src, ref)
	}
	code, out, errs := run("n")
	expect(t, "declined", code, 1, out, errs)
	if !strings.Contains(out, "Type y to confirm") {
		t.Fatalf("no question asked:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(home, "ledger.toml")); !os.IsNotExist(err) {
		t.Fatal("a declined approval was recorded")
	}
	code, out, errs = run("y")
	expect(t, "confirmed", code, 0, out, errs)
	if !strings.Contains(out, "personal ledger, human") {
		t.Fatalf("a terminal confirmation is not recorded as human:\n%s", out)
	}
	wantStatus(t, home, src, ref, "approved", "after confirming: %s")
}

// TestLedgerTrustAsksAtATerminal: `ledger trust` shows the summary and records nothing
// unless the person types y.
func TestLedgerTrustAsksAtATerminal(t *testing.T) {
	src, team, _, home := teamApproved(t, false)
	run := func(answer string) (int, string, string) {
		return atTerminal(t, home, answer, "ledger", "trust", team)
	}
	code, out, errs := run("")
	expect(t, "Enter declines", code, 1, out, errs)
	if !strings.Contains(out, "Type y to confirm") || !strings.Contains(out, "per package:") {
		t.Fatalf("no summary or question:\n%s", out)
	}
	wantStatus(t, home, src, notesRef, "unreviewed", "a declined trust counts: %s")
	code, out, errs = run("y")
	expect(t, "confirmed", code, 0, out, errs)
	wantStatus(t, home, src, notesRef, "approved", "after confirming: %s")
}
