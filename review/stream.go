package review

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"sync/atomic"

	"vouch/model"
)

// Stream reviews each path like Open, but hands packages over as they finish loading
// instead of after the last one: a console can draw the first packages of a large source
// while the rest still load. emit is called on the calling goroutine, one call at a
// time, with consecutive batches in discovery order (the order Open returns); each
// batch holds every package that became ready since the previous call, so a slow
// consumer gets fewer, larger batches; the loaders run at most maxAhead jobs ahead of
// what was emitted, so memory does not grow with the source. When emit returns
// false, no further package is started and Stream returns once the loads in flight end.
//
// The diagnostics about the sources themselves are returned at the end, as Open's
// Result.Diagnostics. A missing path is an error before anything is loaded or emitted.
func Stream(opts Options, paths []string, emit func(batch []*model.Package) bool) ([]model.Diagnostic, error) {
	opts = opts.withDefaults()
	for _, p := range paths {
		if _, err := os.Lstat(p); err != nil {
			return nil, fmt.Errorf("%w: %s", ErrNotFound, p)
		}
	}
	var diags []model.Diagnostic
	var jobs []job
	for _, p := range paths {
		found, ds := discover(p, opts)
		diags = append(diags, ds...)
		if len(found) == 0 && !hasError(ds) {
			diags = append(diags, model.Diagnostic{
				Code: "no-packages", Severity: model.SeverityError, Boundary: model.BoundarySource,
				File: p, Message: fmt.Sprintf("No %s package was found in %s (searched %d directory levels).", formatTitles(), p, opts.SearchDepth),
			})
		}
		jobs = append(jobs, found...)
	}
	loadAll(opts, jobs, emit)
	return diags, nil
}

// maxAhead bounds the jobs loaded but not yet emitted.
const maxAhead = 64

// loadsDone counts the jobs loaded since the program started. Only tests read it: it
// lets one tell "every load has ended" without guessing how long that takes.
var loadsDone atomic.Int64

// loadAll loads the jobs concurrently and emits the ready prefix, in job order, as it
// grows. Loading is CPU work (parsing, hashing) between short syscalls, so two loads per
// core keep every core busy while one waits on the file system; more only add memory.
// Workers take jobs in order, so the prefix advances steadily instead of all at the end.
func loadAll(opts Options, jobs []job, emit func([]*model.Package) bool) {
	n := len(jobs)
	out := make([][]*model.Package, n)
	done := make(chan int, n) // never blocks a worker, whatever emit does
	// ahead holds one token per job that may be loaded before it is emitted: a consumer
	// slower than the loaders (validate --json writing to a pipe) holds at most maxAhead
	// loaded packages, not the source. Jobs are taken in order and emitted in order, so
	// the lowest jobs not yet emitted always hold tokens and the prefix always advances.
	ahead := make(chan struct{}, maxAhead)
	for range min(n, maxAhead) {
		ahead <- struct{}{}
	}
	quit := make(chan struct{})
	var next atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range min(n, 2*runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				select {
				case <-ahead:
				case <-quit:
					return
				}
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				pkgs := jobs[i].load(opts)
				for _, p := range pkgs {
					p.SortComponents()
				}
				out[i] = pkgs
				loadsDone.Add(1)
				done <- i
				// With every P busy loading, the emitter woken by done (and whoever
				// waits on what it emits) would sit in a run queue until preemption,
				// ~10ms a hop: yield between packages so batches leave promptly.
				runtime.Gosched()
			}
		}()
	}
	ready := make([]bool, n)
	emitted := 0
	for received := 0; received < n && emitted < n; {
		ready[<-done] = true
		received++
		// Take whatever else finished meanwhile: one emit for all of it.
	drain:
		for received < n {
			select {
			case i := <-done:
				ready[i] = true
				received++
			default:
				break drain
			}
		}
		start := emitted
		for emitted < n && ready[emitted] {
			emitted++
		}
		if emitted == start {
			continue
		}
		var batch []*model.Package
		for k := start; k < emitted; k++ {
			batch = append(batch, out[k]...)
			out[k] = nil // emitted: whatever the consumer keeps, the loader holds nothing
			if k+maxAhead < n {
				ahead <- struct{}{} // job k+maxAhead may start
			}
		}
		if len(batch) > 0 && !emit(batch) {
			stop.Store(true)
			break
		}
	}
	close(quit) // stopped, or every job taken: a worker waiting for a token returns
	wg.Wait()
}

func hasError(ds []model.Diagnostic) bool {
	for _, d := range ds {
		if d.IsError() {
			return true
		}
	}
	return false
}
