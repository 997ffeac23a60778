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
	// Discovery runs beside the loaders: jobs are loaded (and emitted, in discovery
	// order) while the rest of a large source is still being searched, so the first
	// packages reach a console, or validate's output, without waiting for the whole walk.
	q := newJobQueue()
	var diags []model.Diagnostic
	go func() {
		defer q.close()
		for _, p := range paths {
			n := 0
			ds := discoverTo(p, opts, func(js []job) bool {
				n += len(js)
				return q.add(js)
			})
			diags = append(diags, ds...)
			// An install record that lists nothing says so itself (claude-nothing-installed):
			// nothing installed is an answer, not a source that holds no package.
			if n == 0 && !hasError(ds) && !hasCode(ds, "claude-nothing-installed") {
				diags = append(diags, model.Diagnostic{
					Code: "no-packages", Severity: model.SeverityError, Boundary: model.BoundarySource,
					File: p, Message: fmt.Sprintf("No %s package was found in %s (searched %d directory levels).", formatTitles(), p, opts.SearchDepth),
				})
			}
			if q.halted() {
				return
			}
		}
		if opts.ClaudeSkillsDir != "" {
			jobs, ds := skillsDirJobs(opts.ClaudeSkillsDir)
			diags = append(diags, ds...)
			q.add(jobs)
		}
	}()
	loadAll(opts, q, emit)
	q.halt()
	<-q.finished // diags is complete once discovery has ended
	return diags, nil
}

// jobQueue is the growing list of discovered jobs, read by index by the loaders.
type jobQueue struct {
	mu       sync.Mutex
	cond     *sync.Cond
	jobs     []job
	closed   bool // discovery has ended: len(jobs) is final
	stopped  bool // the consumer stopped: discovery should end early
	finished chan struct{}
}

func newJobQueue() *jobQueue {
	q := &jobQueue{finished: make(chan struct{})}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// add appends jobs; false once the consumer has stopped, which ends the search.
func (q *jobQueue) add(js []job) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.jobs = append(q.jobs, js...)
	q.cond.Broadcast()
	return !q.stopped
}

func (q *jobQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.cond.Broadcast()
	q.mu.Unlock()
	close(q.finished)
}

// halt tells discovery to end and any loader waiting for a job that it will not come.
func (q *jobQueue) halt() {
	q.mu.Lock()
	q.stopped = true
	q.cond.Broadcast()
	q.mu.Unlock()
}

// queueOf is a queue of jobs already discovered.
func queueOf(jobs []job) *jobQueue {
	q := newJobQueue()
	q.jobs = jobs
	q.close()
	return q
}

func (q *jobQueue) halted() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.stopped
}

// get waits for job i; false when discovery ended with fewer jobs.
func (q *jobQueue) get(i int) (job, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for i >= len(q.jobs) && !q.closed && !q.stopped {
		q.cond.Wait()
	}
	if i < len(q.jobs) {
		return q.jobs[i], true
	}
	return job{}, false
}

// count is how many jobs there are so far, and whether that is all of them.
func (q *jobQueue) count() (int, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.jobs), q.closed
}

// maxAhead bounds the jobs loaded but not yet emitted.
const maxAhead = 64

// loadsDone counts the jobs loaded since the program started. Only tests read it: it
// lets one tell "every load has ended" without guessing how long that takes.
var loadsDone atomic.Int64

// loadAll loads the queue's jobs concurrently and emits the ready prefix, in job order,
// as it grows. Loading is CPU work (parsing, hashing) between short syscalls, so two
// loads per core keep every core busy while one waits on the file system; more only add
// memory. Workers take jobs in order, so the prefix advances steadily instead of all at
// the end.
func loadAll(opts Options, q *jobQueue, emit func([]*model.Package) bool) {
	var mu sync.Mutex // guards out
	out := map[int][]*model.Package{}
	// done never blocks a worker: at most maxAhead jobs are loaded and not yet emitted
	// (the tokens below), so at most that many results wait to be received.
	workers := 2 * runtime.GOMAXPROCS(0)
	done := make(chan int, maxAhead+workers)
	// ahead holds one token per job that may be loaded before it is emitted: a consumer
	// slower than the loaders (validate --json writing to a pipe) holds at most maxAhead
	// loaded packages, not the source. Jobs are taken in order and emitted in order, so
	// the lowest jobs not yet emitted always hold tokens and the prefix always advances.
	ahead := make(chan struct{}, maxAhead)
	for range maxAhead {
		ahead <- struct{}{}
	}
	quit := make(chan struct{})
	var next atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range workers {
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
				j, ok := q.get(i)
				if !ok {
					return
				}
				pkgs := j.load(opts)
				for _, p := range pkgs {
					p.SortComponents()
					postPass(p)
				}
				mu.Lock()
				out[i] = pkgs
				mu.Unlock()
				loadsDone.Add(1)
				done <- i
				// With every P busy loading, the emitter woken by done (and whoever
				// waits on what it emits) would sit in a run queue until preemption,
				// ~10ms a hop: yield between packages so batches leave promptly.
				runtime.Gosched()
			}
		}()
	}
	ready := map[int]bool{}
	emitted := 0
	// discovered wakes the emitter once when discovery ends, for the case where every job
	// was emitted already (nil afterwards: a closed channel would make the loop spin).
	discovered := q.finished
	for {
		if n, final := q.count(); final && emitted >= n {
			break
		}
		select {
		case i := <-done:
			ready[i] = true
		case <-discovered:
			discovered = nil
		}
		// Take whatever else finished meanwhile: one emit for all of it.
	drain:
		for {
			select {
			case i := <-done:
				ready[i] = true
			default:
				break drain
			}
		}
		start := emitted
		for ready[emitted] {
			delete(ready, emitted)
			emitted++
		}
		if emitted == start {
			continue
		}
		var batch []*model.Package
		mu.Lock()
		for k := start; k < emitted; k++ {
			batch = append(batch, out[k]...)
			delete(out, k)      // emitted: whatever the consumer keeps, the loader holds nothing
			ahead <- struct{}{} // job k+maxAhead may start
		}
		mu.Unlock()
		if len(batch) > 0 && !emit(batch) {
			stop.Store(true)
			q.halt()
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

func hasCode(ds []model.Diagnostic, code string) bool {
	for _, d := range ds {
		if d.Code == code {
			return true
		}
	}
	return false
}
