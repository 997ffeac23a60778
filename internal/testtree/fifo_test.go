//go:build unix

package testtree

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFifo(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pipe")
	Fifo(t, p)
	st, err := os.Lstat(p)
	if err != nil || st.Mode().Type() != os.ModeNamedPipe {
		t.Fatalf("%s: %v, %v; want a named pipe", p, st, err)
	}
}

// TestFifoSkips: a path where no FIFO can be made skips the test instead of failing it.
func TestFifoSkips(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-folder", "pipe")
	var skipped bool
	t.Run("inner", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		Fifo(t, missing)
		t.Error("Fifo returned without a FIFO")
	})
	if !skipped {
		t.Error("the test was not skipped")
	}
}
