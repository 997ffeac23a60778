//go:build linux || darwin

package clibench

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"vouch/internal/gen"

	"github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"
)

// ptyTimes is what one process run under a pseudo-terminal showed, and when, from the
// moment it was started: its first byte of output, the first frame with text (the
// console's header or its "Loading packages…"), the first frame naming a package, and
// its exit (0 for a milestone never reached).
type ptyTimes struct {
	firstByte, frame, packages, exit time.Duration
}

// ptyRun starts name under a 160×48 pseudo-terminal and reads what it draws until want
// (a package name, "" for none) is on screen or the process exits, then kills it. frame
// is the first text of any of frameMarks. The screen is searched with escape sequences
// stripped, so a cursor move between two words cannot hide them.
func ptyRun(b *testing.B, env []string, frameMarks []string, want string, name string, args ...string) ptyTimes {
	b.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	start := time.Now()
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 48, Cols: 160})
	if err != nil {
		b.Fatal(err)
	}
	var t ptyTimes
	done := make(chan struct{})
	go func() {
		defer close(done)
		var out bytes.Buffer
		buf := make([]byte, 64<<10)
		for {
			n, err := f.Read(buf)
			if n > 0 {
				now := time.Since(start)
				if t.firstByte == 0 {
					t.firstByte = now
				}
				out.Write(buf[:n])
				text := ansi.Strip(out.String())
				if t.frame == 0 {
					for _, m := range frameMarks {
						if strings.Contains(text, m) {
							t.frame = now
						}
					}
				}
				if want != "" && t.packages == 0 && strings.Contains(text, want) {
					t.packages = now
					return
				}
			}
			if err != nil {
				return // the process ended (EIO on Linux once the pty's other side closes)
			}
		}
	}()
	exited := make(chan struct{})
	go func() { cmd.Wait(); t.exit = time.Since(start); close(exited) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		b.Errorf("%s %v drew no %q in 30 s", name, args, want)
	}
	cmd.Process.Kill()
	<-exited
	f.Close()
	<-done
	return t
}

// BenchmarkConsoleFirstFrame times `vouch review` as a person starts it: the built binary
// in a pseudo-terminal, from exec to its first frame and to the first frame that names a
// package, for one package and for 10,000. Beside it, in the same interleaved runs, the
// same harness runs `vouch --version` (start-up and one line of output: the floor of any
// vouch command) and `true` (the harness's own cost: fork, exec, pty). The in-process
// figures are ui's BenchmarkFirstFrame and BenchmarkFirstFrameFromDisk.
func BenchmarkConsoleFirstFrame(b *testing.B) {
	for _, n := range []int{1, size(testing.Short(), 100, 10000)} {
		b.Run(fmt.Sprintf("pkgs=%d", n), func(b *testing.B) {
			dir := genSource(b, n)
			env := []string{"VOUCH_HOME=" + b.TempDir(), "TERM=xterm-256color", "NO_COLOR="}
			marks := []string{"Loading", "vouch review"}
			var frame, pkgs, first, version, tru, beforeFrame, beforePkgs []time.Duration
			for i := 0; b.Loop(); i++ {
				// The older binary goes first every other run, so neither side always
				// starts on what the other left (page cache, a busy core).
				before := func() {
					if beforeBin != "" {
						o := ptyRun(b, env, marks, "plugin-0000", beforeBin, "review", dir)
						beforeFrame, beforePkgs = append(beforeFrame, o.frame), append(beforePkgs, o.packages)
					}
				}
				if i%2 == 1 {
					before()
				}
				r := ptyRun(b, env, marks, "plugin-0000", vouchBin, "review", dir)
				if r.frame == 0 || r.packages == 0 {
					b.Fatalf("no frame (%v) or no package (%v) on screen", r.frame, r.packages)
				}
				frame, pkgs, first = append(frame, r.frame), append(pkgs, r.packages), append(first, r.firstByte)
				v := ptyRun(b, env, []string{"vouch"}, "", vouchBin, "--version")
				version = append(version, v.frame)
				tr := ptyRun(b, env, nil, "", "true")
				tru = append(tru, tr.exit)
				if i%2 == 0 {
					before()
				}
			}
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
			b.ReportMetric(ms(median(first)), "first-byte-ms")
			b.ReportMetric(ms(median(frame)), "first-frame-ms")
			b.ReportMetric(ms(median(pkgs)), "packages-frame-ms")
			b.ReportMetric(ms(median(version)), "version-ms")
			b.ReportMetric(ms(median(tru)), "true-ms")
			b.ReportMetric(float64(median(frame))/float64(median(version)), "frame-x-version")
			b.ReportMetric(float64(median(pkgs))/float64(median(version)), "packages-x-version")
			if beforeBin != "" {
				b.ReportMetric(ms(median(beforeFrame)), "before-first-frame-ms")
				b.ReportMetric(ms(median(beforePkgs)), "before-packages-frame-ms")
				b.ReportMetric(float64(median(beforeFrame))/float64(median(version)), "before-frame-x-version")
			}
		})
	}
}

// genSource is n generated packages: from VOUCH_UI_BENCH_DIR when the console's
// benchmarks left them there (the same generator, so the same files), else written now.
func genSource(b *testing.B, n int) string {
	b.Helper()
	if keep := os.Getenv("VOUCH_UI_BENCH_DIR"); keep != "" {
		dir := fmt.Sprintf("%s/pkgs-%d", keep, n)
		if _, err := os.Stat(dir + ".complete"); err == nil {
			return dir
		}
	}
	dir := filepath.Join(b.TempDir(), "src")
	if err := gen.Generate(dir, n); err != nil {
		b.Fatal(err)
	}
	return dir
}
