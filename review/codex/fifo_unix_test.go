//go:build unix

package codex

import (
	"path/filepath"
	"testing"

	"vouch/internal/testtree"
)

// TestReadConfigFIFO: a FIFO named config.toml is refused at once, never waited on.
func TestReadConfigFIFO(t *testing.T) {
	home := t.TempDir()
	testtree.Fifo(t, filepath.Join(home, "config.toml"))
	err := testtree.Returns(t, "reading a FIFO config.toml", func() error { _, err := ReadConfig(home); return err })
	if err == nil {
		t.Fatal("a FIFO was read as config.toml")
	}
}
