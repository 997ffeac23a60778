//go:build unix

package codex

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestReadConfigFIFO: a FIFO named config.toml is refused at once, never waited on.
func TestReadConfigFIFO(t *testing.T) {
	home := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(home, "config.toml"), 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	done := make(chan error, 1)
	go func() { _, err := ReadConfig(home); done <- err }()
	wait := time.Hour
	if deadline, ok := t.Deadline(); ok {
		wait = time.Until(deadline) * 9 / 10
	}
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a FIFO was read as config.toml")
		}
	case <-time.After(wait):
		t.Fatal("reading a FIFO config.toml blocked until 90% of the test timeout")
	}
}
