package testtree

import (
	"crypto/sha256"
	"io"
	"os"
	"os/exec"
	"testing"
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
