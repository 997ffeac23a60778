//go:build unix

package atomicfile

import (
	"path/filepath"
	"testing"

	"vouch/internal/testtree"
)

// TestLedgerFIFONeverBlocks: a named pipe where a ledger or store entry should be is
// refused as not a regular file; the read never waits for a writer.
func TestLedgerFIFONeverBlocks(t *testing.T) {
	p := filepath.Join(t.TempDir(), "ledger.toml")
	testtree.Fifo(t, p)
	err := testtree.Returns(t, "reading a FIFO ledger", func() error {
		_, err := ReadRegular(p, 1<<20)
		return err
	})
	if err == nil {
		t.Fatal("a FIFO was read as a ledger")
	}
}
