package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// openPTY opens a pseudo-terminal pair so the confirmation prompt can be answered the
// way a person at a terminal answers it.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		m.Close()
		t.Skipf("unlockpt: %v", e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		m.Close()
		t.Skipf("ptsname: %v", e)
	}
	s, err := os.OpenFile("/dev/pts/"+itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Skipf("open pts: %v", err)
	}
	t.Cleanup(func() { s.Close(); m.Close() })
	return m, s
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

func TestTrustTerminalConfirmation(t *testing.T) {
	home, src := newSource(t, mcpPlugin)
	const ref = "notes#mcp-server:notes"
	wantStatus(t, home, src, ref, "unreviewed", "%s before any decision")
	run := func(answer string) (int, string, string) {
		master, slave := openPTY(t)
		master.WriteString(answer + "\n")
		var out, errb bytes.Buffer
		a := &app{stdout: &out, stderr: &errb, stdin: slave}
		code := a.run([]string{"--home", home, "approve", "--note", "at a terminal", src, ref})
		return code, out.String(), errb.String()
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
		master, slave := openPTY(t)
		master.WriteString(answer + "\n")
		var out, errb bytes.Buffer
		a := &app{stdout: &out, stderr: &errb, stdin: slave}
		code := a.run([]string{"--home", home, "ledger", "trust", team})
		return code, out.String(), errb.String()
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
