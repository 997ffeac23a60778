package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// runVouchTo runs the CLI in-process with stdout going to out.
func runVouchTo(t *testing.T, out *os.File, home string, args ...string) (int, string) {
	t.Helper()
	var errb bytes.Buffer
	a := &app{stdout: out, stderr: &errb, stdin: strings.NewReader("")}
	code := a.run(append([]string{"--home", home}, args...))
	return code, errb.String()
}

// A report written to a full device is an error exit naming where it went, whatever the
// command and format: printers that ignore their write errors cannot end in exit 0.
func TestWriteToFullDeviceFails(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full: %v", err)
	}
	defer full.Close()
	home := t.TempDir()
	ex := filepath.Join("..", "..", "examples", "skills", "roll-dice")
	for _, args := range [][]string{
		{"validate", ex},
		{"validate", "--format", "sarif", ex},
		{"validate", "--json", ex},
		{"status", ex},
		{"status", "--format", "github", ex},
		{"ledger"},
		{"version", "--json"},
	} {
		code, errOut := runVouchTo(t, full, home, args...)
		if code == 0 || !strings.Contains(errOut, "/dev/full") || strings.Count(errOut, "cannot write") != 1 {
			t.Errorf("%v to /dev/full: exit %d, want non-zero with the path once:\n%s", args, code, errOut)
		}
	}
}

// Writes to a full filesystem (a tmpfs filled to the last byte) fail with the path: the
// personal ledger and store, and the step summary GitHub Actions names.
func TestWriteToFullFilesystemFails(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=64k"); err != nil {
		t.Skipf("cannot mount a small tmpfs (needs root): %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, 0) })
	home := filepath.Join(dir, "home")
	os.MkdirAll(home, 0o755)
	fill, _ := os.Create(filepath.Join(dir, "fill"))
	for {
		if _, err := fill.Write(make([]byte, 4096)); err != nil {
			break
		}
	}
	fill.Close()
	ex := filepath.Join("..", "..", "examples", "skills", "roll-dice")
	code, _, errOut := runVouch(t, home, "approve", "--yes", ex, "roll-dice#skill:roll-dice")
	if code == 0 || !strings.Contains(errOut, home) || !strings.Contains(errOut, "no space left") {
		t.Errorf("approve on a full filesystem: exit %d\n%s", code, errOut)
	}
	summary := filepath.Join(dir, "summary.md")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	code, _, errOut = runVouch(t, t.TempDir(), "status", "--format", "github", ex)
	if code == 0 || !strings.Contains(errOut, summary) {
		t.Errorf("step summary on a full filesystem: exit %d\n%s", code, errOut)
	}
}
