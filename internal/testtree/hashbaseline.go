package testtree

import (
	"crypto/sha256"
	"io"
	"os"
	"os/exec"
	"testing"
	"time"
)

// HashFiles is the in-process baseline a loader's benchmark is measured against: it reads
// and hashes each file with SHA-256, one after another, as sha256sum does. A failure ends
// the benchmark.
func HashFiles(tb testing.TB, files []string) {
	tb.Helper()
	h := sha256.New()
	buf := make([]byte, 32<<10)
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			tb.Fatal(err)
		}
		h.Reset()
		// Hide *os.File's WriteTo: through it io.CopyBuffer ignores buf and allocates
		// 32 KiB per file, which would slow the baseline down with garbage collection.
		_, err = io.CopyBuffer(h, struct{ io.Reader }{fh}, buf)
		fh.Close()
		if err != nil {
			tb.Fatal(err)
		}
		_ = h.Sum(nil)
	}
}

// Sha256sum runs the sha256sum program over files, batched as xargs does (128 KiB of
// arguments per run), and reports false when it is not installed. A run that fails ends
// the benchmark.
func Sha256sum(tb testing.TB, files []string) bool {
	tb.Helper()
	tool, err := exec.LookPath("sha256sum")
	if err != nil {
		return false
	}
	for len(files) > 0 {
		n, size := 0, 0
		for n < len(files) && size+len(files[n])+1 <= 128<<10 {
			size += len(files[n]) + 1
			n++
		}
		n = max(n, 1)
		cmd := exec.Command(tool, files[:n]...)
		cmd.Stdout = io.Discard
		if err := cmd.Run(); err != nil {
			tb.Fatal(err)
		}
		files = files[n:]
	}
	return true
}

// AgainstHashing measures run against both baselines over files in the same iterations,
// so the machine's load falls on all three alike, and reports name/sha256 and, where the
// program is installed, name/sha256sum, with each one's milliseconds per iteration. Each
// runs once first, to warm the page cache for the others.
func AgainstHashing(b *testing.B, name string, files []string, run func()) {
	b.Helper()
	run()
	HashFiles(b, files)
	tool := Sha256sum(b, files)
	var tr, th, ts time.Duration
	for b.Loop() {
		t0 := time.Now()
		HashFiles(b, files)
		t1 := time.Now()
		run()
		t2 := time.Now()
		if tool {
			Sha256sum(b, files)
		}
		t3 := time.Now()
		th += t1.Sub(t0)
		tr += t2.Sub(t1)
		ts += t3.Sub(t2)
	}
	perOp := func(d time.Duration) float64 { return float64(d.Milliseconds()) / float64(b.N) }
	b.ReportMetric(float64(tr)/float64(th), name+"/sha256")
	b.ReportMetric(perOp(th), "sha256-ms/op")
	b.ReportMetric(perOp(tr), name+"-ms/op")
	if tool {
		b.ReportMetric(float64(tr)/float64(ts), name+"/sha256sum")
		b.ReportMetric(perOp(ts), "sha256sum-ms/op")
	}
}
