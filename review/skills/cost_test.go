package skills

import (
	"runtime"
	"testing"
	"time"
)

// allocatedBy runs f on one P and returns the heap allocations and bytes it allocated:
// work counted exactly, where a wall-clock bound would depend on the machine.
func allocatedBy(f func()) (mallocs, bytes uint64) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.Mallocs - a.Mallocs, b.TotalAlloc - a.TotalAlloc
}

// hangAfter is how long a hang detector waits: until shortly before the test binary's
// own deadline (-timeout), so a call that blocks fails with a message while a slow
// machine never does.
func hangAfter(t *testing.T) <-chan time.Time {
	deadline, ok := t.Deadline()
	if !ok {
		return nil // no deadline: wait as long as the call takes
	}
	return time.After(time.Until(deadline) * 9 / 10)
}
