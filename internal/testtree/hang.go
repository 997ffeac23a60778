package testtree

import (
	"testing"
	"time"
)

// Returns runs f and hands back what it returned. A call still running at 90% of the test
// binary's deadline (-timeout) fails the test with a message naming what (a read that
// waits on a FIFO for a writer never returns at all); without a deadline it waits as long
// as f takes. A hang is told apart from slowness by the run's own bound, never by a guess
// at how fast this machine is.
func Returns[T any](t interface {
	testing.TB
	Deadline() (time.Time, bool)
}, what string, f func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- f() }()
	var hang <-chan time.Time // nil without a deadline: never ready
	if deadline, ok := t.Deadline(); ok {
		hang = time.After(time.Until(deadline) * 9 / 10)
	}
	select {
	case v := <-done:
		return v
	case <-hang:
		t.Fatalf("%s blocked until 90%% of the test timeout", what)
		var zero T
		return zero
	}
}
