package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakePager writes a pager script that copies its input to a file (all of it, or its
// first bytes to act as a person who quits early) and says on stderr that it ran.
func fakePager(t *testing.T, keep string) (script, got string) {
	t.Helper()
	dir := t.TempDir()
	got = filepath.Join(dir, "paged.txt")
	copyIn := "cat"
	if keep != "" {
		copyIn = "head -c " + keep
	}
	script = filepath.Join(dir, "pager")
	body := "#!/bin/sh\necho \"fake pager LESS=$LESS\" >&2\n" + copyIn + " > '" + got + "'\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return script, got
}

// With neither variable set, the pager is less -FRX where less is on PATH, else none.
func TestPagerDefault(t *testing.T) {
	os.Unsetenv("VOUCH_PAGER")
	t.Setenv("PAGER", "")
	os.Unsetenv("PAGER")
	bin := t.TempDir()
	t.Setenv("PATH", bin)
	if got := pagerCommand(); got != "" {
		t.Errorf("no less on PATH: pager %q", got)
	}
	if err := os.WriteFile(filepath.Join(bin, "less"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := pagerCommand(); got != "less -FRX" {
		t.Errorf("less on PATH: pager %q", got)
	}
	t.Setenv("VOUCH_PAGER", " most ")
	t.Setenv("PAGER", "more")
	if got := pagerCommand(); got != "most" {
		t.Errorf("VOUCH_PAGER set: pager %q", got)
	}
}

// Text output on a terminal goes through the pager, with the exit status the command has
// without one; --no-pager, output that is not a terminal, a machine format, the gate and
// PAGER=cat print directly, and a pager that cannot start falls back to direct output.
func TestPager(t *testing.T) {
	const validate = "validate ../../examples"
	cases := []struct {
		name     string
		args     string
		env      map[string]string // VOUCH_PAGER "FAKE" is the fake pager
		keep     string            // the pager reads this many bytes, then quits
		notTTY   bool
		paged    bool
		stderrIs string // in stderr
	}{
		{"VOUCH_PAGER", validate, map[string]string{"VOUCH_PAGER": "FAKE", "PAGER": "false"}, "", false, true, "fake pager LESS=FRX"},
		{"PAGER", validate, map[string]string{"PAGER": "FAKE"}, "", false, true, "fake pager"},
		{"status text", "status ../../examples", map[string]string{"PAGER": "FAKE"}, "", false, true, ""},
		{"ledger", "ledger", map[string]string{"PAGER": "FAKE"}, "", false, true, ""},
		{"ledger --json", "ledger --json", map[string]string{"PAGER": "FAKE"}, "", false, false, ""},
		{"LESS kept", validate, map[string]string{"PAGER": "FAKE", "LESS": "-S"}, "", false, true, "fake pager LESS=-S"},
		// Over 200 KB, more than a pipe holds: writes after the pager quit fail.
		{"quit early", "status ../../examples ../../examples ../../examples", map[string]string{"PAGER": "FAKE"}, "100", false, true, ""},
		{"--no-pager", "--no-pager " + validate, map[string]string{"PAGER": "FAKE"}, "", false, false, ""},
		{"not a terminal", validate, map[string]string{"PAGER": "FAKE"}, "", true, false, ""},
		{"--json", "validate --json ../../examples", map[string]string{"PAGER": "FAKE"}, "", false, false, ""},
		{"the gate", "status --require-approved ../../examples", map[string]string{"PAGER": "FAKE"}, "", false, false, ""},
		{"PAGER=cat", validate, map[string]string{"PAGER": "cat"}, "", false, false, ""},
		{"PAGER empty", validate, map[string]string{"PAGER": ""}, "", false, false, ""},
		{"cannot start", validate, map[string]string{"PAGER": "/nonexistent/pager -R"}, "", false, false, `vouch: the pager "/nonexistent/pager -R" could not start`},
		{"not a command line", validate, map[string]string{"PAGER": "less 'unclosed"}, "", false, false, "could not start"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			script, got := fakePager(t, c.keep)
			os.Unsetenv("LESS")
			for k, v := range c.env {
				if v == "FAKE" {
					v = script
				}
				t.Setenv(k, v)
			}
			if _, ok := c.env["VOUCH_PAGER"]; !ok {
				t.Setenv("VOUCH_PAGER", "")
				os.Unsetenv("VOUCH_PAGER")
			}
			args := append([]string{"--home", t.TempDir(), "--quiet"}, strings.Fields(c.args)...)
			// The same command printed to a buffer: its output and exit status.
			var want bytes.Buffer
			wantCode := (&app{stdout: &want, stderr: &bytes.Buffer{}}).run(append([]string{"--no-pager"}, args...))

			var errb bytes.Buffer
			a := &app{stderr: &errb}
			var screen func() string
			var file string
			if c.notTTY {
				file = filepath.Join(t.TempDir(), "out")
				f, err := os.Create(file)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				a.stdout = f
			} else {
				tty, done := ptyPair(t)
				a.stdout, screen = tty, done
			}
			code := a.run(args)
			if code != wantCode {
				t.Fatalf("exit %d, without a pager %d\n%s", code, wantCode, errb.String())
			}
			if !strings.Contains(errb.String(), c.stderrIs) {
				t.Errorf("stderr %q, want %q in it", errb.String(), c.stderrIs)
			}
			if strings.Contains(errb.String(), "cannot write") {
				t.Errorf("a pager that quit made a write error: %s", errb.String())
			}
			paged, err := os.ReadFile(got)
			if ran := err == nil; ran != c.paged {
				t.Fatalf("pager ran: %v, want %v (stderr %s)", ran, c.paged, errb.String())
			}
			var direct string
			if screen != nil {
				direct = strings.ReplaceAll(screen(), "\r\n", "\n")
			} else {
				b, _ := os.ReadFile(file)
				direct = string(b)
			}
			switch {
			case c.paged && c.keep != "":
				if string(paged) != want.String()[:len(paged)] || len(paged) == 0 {
					t.Errorf("the pager read %q, not the start of the report", paged)
				}
			case c.paged:
				if string(paged) != want.String() || direct != "" {
					t.Errorf("the pager read %d bytes of %d; %d bytes went around it", len(paged), want.Len(), len(direct))
				}
			default:
				if direct != want.String() {
					t.Errorf("direct output differs from the report: %d bytes, want %d", len(direct), want.Len())
				}
			}
		})
	}
}
