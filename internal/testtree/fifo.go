//go:build unix

package testtree

import (
	"syscall"
	"testing"
)

// Fifo makes a named pipe at path, whose folder must exist. A system that cannot make
// one (a file system without them, a sandbox that forbids mknod) skips the test: what
// the test asserts about a FIFO cannot be shown there, and nothing else is wrong.
func Fifo(t testing.TB, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("cannot make a FIFO at %s: %v", path, err)
	}
}
