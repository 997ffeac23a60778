package testtree

import "runtime"

// AllocatedBy runs f on one P and returns the heap allocations and bytes it allocated:
// work counted exactly, where a wall-clock bound would depend on the machine.
func AllocatedBy(f func()) (mallocs, bytes uint64) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.Mallocs - a.Mallocs, b.TotalAlloc - a.TotalAlloc
}
