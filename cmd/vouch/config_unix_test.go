//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A FIFO where the config file would be is refused at once, never waited on: a read of
// it would block until some other process wrote to it.
func TestConfigFIFO(t *testing.T) {
	dir := configProject(t, "")
	fifo := filepath.Join(dir, ".vouch", "config.toml")
	if err := os.MkdirAll(filepath.Dir(fifo), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if code, _, errs := runIn(t, dir, "validate", "alpha"); code != 2 || !strings.Contains(errs, "not a regular file") {
		t.Errorf("FIFO config: exit %d %q", code, errs)
	}
}
