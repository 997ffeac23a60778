//go:build unix

package atomicfile

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestLedgerFIFONeverBlocks: a named pipe where a ledger or store entry should be is
// refused as not a regular file; the read never waits for a writer.
func TestLedgerFIFONeverBlocks(t *testing.T) {
	p := filepath.Join(t.TempDir(), "ledger.toml")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := ReadRegular(p, 1<<20)
		done <- err
	}()
	deadline, ok := t.Deadline()
	wait := time.Hour
	if ok {
		wait = time.Until(deadline) * 9 / 10
	}
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a FIFO was read as a ledger")
		}
	case <-time.After(wait):
		t.Fatal("reading a FIFO ledger blocked until 90% of the test timeout")
	}
}
