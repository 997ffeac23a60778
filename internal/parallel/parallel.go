// Package parallel runs the iterations of a loop on several goroutines. Discovery
// detects folders this way (system calls: more goroutines than cores) and the console's
// filter scans its index this way (memory-bound: one per core at most).
package parallel

import (
	"sync"
	"sync/atomic"
)

// For calls fn(0) … fn(n-1) on up to workers goroutines, each taking the next index in
// turn, and returns when all are done. With one worker or one index, fn runs here.
func For(n, workers int, fn func(i int)) {
	workers = min(workers, n)
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				fn(i)
			}
		}()
	}
	wg.Wait()
}
