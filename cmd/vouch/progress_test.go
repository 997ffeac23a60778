package main

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// ptyPair opens a pseudo-terminal and collects what is written to its terminal end; done
// closes that end and returns everything written. The reader runs all along, so a writer
// never blocks on a full terminal buffer.
func ptyPair(t *testing.T) (tty *os.File, done func() string) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	var buf bytes.Buffer
	read := make(chan struct{})
	go func() {
		io.Copy(&buf, ptmx) // ends with EIO once the terminal end is closed
		close(read)
	}()
	closed := false
	t.Cleanup(func() {
		if !closed {
			tty.Close()
			<-read
		}
		ptmx.Close()
	})
	return tty, func() string {
		closed = true
		tty.Close()
		<-read
		return buf.String()
	}
}

// A long run on a terminal shows a progress line on stderr, redrawn in place and erased
// at the end; a pipe, --quiet and the machine formats get none, and stdout never does.
func TestProgressLine(t *testing.T) {
	t.Setenv("TERM", "xterm")
	cases := []struct {
		name    string
		args    []string
		onTTY   bool
		wantBar bool
	}{
		{"terminal", []string{"validate", "../../examples"}, true, true},
		{"status on a terminal", []string{"status", "../../examples"}, true, true},
		{"--quiet", []string{"--quiet", "validate", "../../examples"}, true, false},
		{"-q", []string{"-q", "status", "../../examples"}, true, false},
		{"--json", []string{"validate", "--json", "../../examples"}, true, false},
		{"--format sarif", []string{"status", "--format", "sarif", "../../examples"}, true, false},
		{"--format github", []string{"status", "--format", "github", "../../examples"}, true, false},
		{"a pipe", []string{"validate", "../../examples"}, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			a := &app{stdout: &out, progressDelay: time.Nanosecond, progressEvery: time.Millisecond}
			var errOut func() string
			if c.onTTY {
				tty, done := ptyPair(t)
				a.stderr, errOut = tty, done
			} else {
				r, w, err := os.Pipe()
				if err != nil {
					t.Fatal(err)
				}
				a.stderr = w
				var buf bytes.Buffer
				copied := make(chan struct{})
				go func() { io.Copy(&buf, r); close(copied) }()
				errOut = func() string { w.Close(); <-copied; r.Close(); return buf.String() }
			}
			code := a.run(append([]string{"--home", t.TempDir()}, c.args...))
			stderr := errOut()
			if want := wantCode(c.args); code != want {
				t.Fatalf("exit %d, want %d\n%s", code, want, stderr)
			}
			drawn := strings.Contains(stderr, "\r\x1b[Kvouch: reading sources… ")
			if drawn != c.wantBar {
				t.Fatalf("progress line drawn: %v, want %v\n%q", drawn, c.wantBar, stderr)
			}
			if strings.Contains(out.String(), "reading sources") {
				t.Errorf("the progress line reached stdout")
			}
			if !c.wantBar {
				return
			}
			// Erased at the end: the last thing the line wrote is the erase, and what
			// follows it, if anything, is not part of the line.
			last := strings.LastIndex(stderr, "\r\x1b[Kvouch: reading sources… ")
			rest := stderr[last+1:]
			if !strings.Contains(rest, "\r\x1b[K") || !strings.Contains(rest, "packages so far") {
				t.Errorf("the line was not erased after its last draw: %q", rest)
			}
			// Redrawn in place: nothing on stderr but the line, never a line break.
			if strings.Contains(stderr, "\n") {
				t.Errorf("the progress line broke lines: %q", stderr)
			}
		})
	}
}

// wantCode is the exit status of args on the examples: validate fails on their broken
// packages, status reports them and exits 0.
func wantCode(args []string) int {
	for _, a := range args {
		if a == "validate" {
			return 1
		}
	}
	return 0
}

// A run shorter than the delay draws nothing at all, and a redraw happens only when the
// count changed: the line costs nothing when there is nothing new to say.
func TestProgressQuietWhenNothingChanges(t *testing.T) {
	tty, done := ptyPair(t)
	p := &progress{w: tty, stop: make(chan struct{}), done: make(chan struct{})}
	go p.run(time.Hour, time.Millisecond)
	p.add(5)
	p.end()
	if got := done(); got != "" {
		t.Fatalf("a run shorter than the delay drew %q", got)
	}
	tty, done = ptyPair(t)
	p = &progress{w: tty, stop: make(chan struct{}), done: make(chan struct{})}
	p.add(1)
	go p.run(time.Nanosecond, time.Millisecond)
	time.Sleep(50 * time.Millisecond) // about 50 ticks with one count
	p.end()
	got := done()
	if n := strings.Count(got, "vouch: reading sources… 1 package so far"); n != 1 || !strings.HasSuffix(got, "\r\x1b[K") {
		t.Fatalf("drawn %d times for one count (want 1), ending %q", n, got)
	}
}
