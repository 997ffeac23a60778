package ui

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/metrics"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"vouch/internal/gen"
	"vouch/model"
	"vouch/report"
	"vouch/review"
	"vouch/trust"

	tea "charm.land/bubbletea/v2"
)

// Benchmarks run at two sizes, 1,000 and 10,000 packages, so each figure has its
// 1,000-package neighbour beside it, which shows how each cost grows. They run only with
// -bench: no test asserts a time. Percentiles are computed here and reported with
// b.ReportMetric.
var benchSizes = []int{1000, 10000}

// largeSource builds n packages of five components each, the shape loaders produce.
func largeSource(n int) []*model.Package {
	base := fixturePackages()
	out := make([]*model.Package, 0, n)
	for i := 0; i < n; i++ {
		src := base[i%len(base)]
		p := *src
		p.Name = fmt.Sprintf("%s-%04d", src.Name, i)
		p.Root = fmt.Sprintf("%s-%04d", src.Root, i)
		p.Components = nil
		for _, c := range src.Components {
			cc := *c
			p.Components = append(p.Components, &cc)
		}
		out = append(out, &p)
	}
	return out
}

// generated caches packages loaded from gen.Generate (Agent Plugins, nine components
// each), per size: writing and loading 10,000 packages takes seconds, and every
// benchmark may reuse them (the console never mutates a package).
var generated = struct {
	sync.Mutex
	pkgs map[int][]*model.Package
	dirs map[int]string
}{pkgs: map[int][]*model.Package{}, dirs: map[int]string{}}

// forSizes runs bench as a sub-benchmark for each of benchSizes, named by its size.
func forSizes(b *testing.B, bench func(b *testing.B, n int)) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("pkgs=%d", n), func(b *testing.B) { bench(b, n) })
	}
}

// forDiskSources runs bench for each of benchSizes on the generated source of that many
// packages on disk, dir, with one trust home for all its iterations.
func forDiskSources(b *testing.B, bench func(b *testing.B, n int, dir, home string)) {
	forSizes(b, func(b *testing.B, n int) {
		_, dir := generatedSource(b, n)
		bench(b, n, dir, b.TempDir())
	})
}

// diskConsole is a console on the generated source dir and trust home, sized as the
// benchmarks' window and not yet loaded.
func diskConsole(dir, home string) *Model {
	m := New(Options{Sources: []string{dir}, Home: home})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	return m
}

// loadDrawing follows the load to its last batch, drawing after each as the runtime
// does, and returns how many batches it took.
func loadDrawing(m *Model) int {
	batches := 0
	for cmd := m.loadCmd(); cmd != nil; {
		msg := cmd().(loadedMsg)
		m.Update(msg)
		_ = m.View()
		batches++
		cmd = msg.next
	}
	return batches
}

func generatedSource(b *testing.B, n int) ([]*model.Package, string) {
	b.Helper()
	generated.Lock()
	defer generated.Unlock()
	if p, ok := generated.pkgs[n]; ok {
		return p, generated.dirs[n]
	}
	dir, err := mkBenchDir(n)
	if err != nil {
		b.Fatal(err)
	}
	m := New(Options{Sources: []string{dir}, Home: b.TempDir()})
	for cmd := m.loadCmd(); cmd != nil; {
		msg := cmd().(loadedMsg)
		m.Update(msg)
		cmd = msg.next
	}
	if m.loadErr != nil || len(m.data.pkgs) != n {
		b.Fatalf("loaded %d of %d packages: %v", len(m.data.pkgs), n, m.loadErr)
	}
	generated.pkgs[n], generated.dirs[n] = m.data.pkgs, dir
	return m.data.pkgs, dir
}

// mkBenchDir generates n packages once per process, under a directory TestMain removes;
// VOUCH_UI_BENCH_DIR names a directory that keeps them between runs instead (generating
// 10,000 packages writes 90,000 files).
func mkBenchDir(n int) (string, error) {
	if keep := os.Getenv("VOUCH_UI_BENCH_DIR"); keep != "" {
		dir := fmt.Sprintf("%s/pkgs-%d", keep, n)
		if _, err := os.Stat(dir + ".complete"); err == nil {
			return dir, nil
		}
		if err := gen.Generate(dir, n); err != nil {
			return "", err
		}
		return dir, os.WriteFile(dir+".complete", nil, 0o644)
	}
	dir := fmt.Sprintf("%s/vouch-ui-bench-%d", tmpRoot(), n)
	return dir, gen.Generate(dir, n)
}

var tmpOnce struct {
	sync.Once
	dir string
}

func tmpRoot() string {
	tmpOnce.Do(func() {
		d, err := os.MkdirTemp("", "vouch-ui-bench-")
		if err != nil {
			panic(err)
		}
		tmpOnce.dir = d
	})
	return tmpOnce.dir
}

// percentiles sorts d and reports its p50, p99 and max in microseconds.
func percentiles(b *testing.B, d []time.Duration) {
	if len(d) == 0 {
		return
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	b.ReportMetric(float64(d[len(d)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(d[len(d)*99/100].Microseconds()), "p99-µs")
	b.ReportMetric(float64(d[len(d)-1].Microseconds()), "max-µs")
}

// BenchmarkFirstFrame measures New, the load command (trust evaluation of every
// package against an empty ledger), the window size and the first View.
func BenchmarkFirstFrame(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		pkgs, _ := generatedSource(b, n)
		home := b.TempDir()
		for b.Loop() {
			m := New(Options{Sources: []string{"large"}, Home: home, Packages: pkgs})
			m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
			m.Update(m.loadCmd()())
			_ = m.View()
		}
	})
}

// benchKey presses keys in turn on a loaded console of n generated packages, timing
// each Update and View.
func benchKey(b *testing.B, setup func(m *Model), keys ...string) {
	forSizes(b, func(b *testing.B, n int) {
		pkgs, _ := generatedSource(b, n)
		m := newTestModel(b, pkgs, 160, 48)
		if setup != nil {
			setup(m)
		}
		// What loading left behind is collected now, not in the middle of the keys:
		// the console is measured as it runs once loaded.
		runtime.GC()
		timeKeys(b, m, keys)
	})
}

// BenchmarkKeyMoveDown is one j press through Update and View.
func BenchmarkKeyMoveDown(b *testing.B) { benchKey(b, nil, "j") }

// BenchmarkKeySwitchTab is one tab press (Overview → Capabilities → …) through Update and View.
func BenchmarkKeySwitchTab(b *testing.B) { benchKey(b, nil, "tab") }

// BenchmarkJumpEnds alternates G and g: each press jumps across every row.
func BenchmarkJumpEnds(b *testing.B) { benchKey(b, nil, "G", "g") }

// BenchmarkNextPackage is } then {: a jump to the next package and back.
func BenchmarkNextPackage(b *testing.B) { benchKey(b, nil, "}", "{") }

// BenchmarkNextMatch is n with a filter set: the next matching row.
func BenchmarkNextMatch(b *testing.B) {
	benchKey(b, func(m *Model) {
		for _, k := range []string{"/", "i", "n", "d", "e", "x", "enter"} {
			m.Update(keyMsg(k))
		}
	}, "n")
}

// filterWords are typed into the filter one character at a time and erased again, one
// after the other: the first letter of each is a pass over every row (the results cache
// keeps the 16 queries used last, so a letter typed again some words later may be found
// there or searched again), each further letter narrows the last result, and each
// backspace finds its query in the cache.
var filterWords = []string{"server", "index", "skill", "deploy", "watch", "plugin-01", "review", "events", "node"}

func typeAndErase(words []string) []string {
	var keys []string
	for _, w := range words {
		keys = append(keys, strings.Split(w, "")...)
		for range w {
			keys = append(keys, "backspace")
		}
	}
	return keys
}

// BenchmarkFilterKeystroke types and erases filterWords, drawing the frame after each
// key.
func BenchmarkFilterKeystroke(b *testing.B) {
	benchKey(b, func(m *Model) { m.Update(keyMsg("/")) }, typeAndErase(filterWords)...)
}

// BenchmarkFilterKeystrokeContent is the same with tab pressed first: skill text too
// (30,000 skill bodies at 10,000 packages).
func BenchmarkFilterKeystrokeContent(b *testing.B) {
	benchKey(b, func(m *Model) {
		m.Update(keyMsg("/"))
		_, cmd := m.Update(keyMsg("tab"))
		m.Update(cmd()) // the lowercased text, built off the loop
	}, typeAndErase([]string{"step", "rollback", "check", "report", "procedure"})...)
}

// BenchmarkFilterKeystrokeContentDistinct is BenchmarkFilterKeystrokeContent over
// bodies that all differ: the generated skills repeat three texts, which the content
// index holds once each, so this is the search over 30,000 bodies of their own (held in
// memory, each the generated text with a line naming its package).
func BenchmarkFilterKeystrokeContentDistinct(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		pkgs, _ := generatedSource(b, n)
		distinct := make([]*model.Package, len(pkgs))
		for i, p := range pkgs {
			cp := *p
			cp.Components = make([]*model.Component, len(p.Components))
			for j, c := range p.Components {
				cc := *c
				if bodyDropped(c) {
					text, err := readBody(p, c)
					if err != nil {
						b.Fatal(err)
					}
					cc.Body = fmt.Sprintf("%s\nVariant %d of %s.\n", text, i, p.Name)
					cc.BodyStart, cc.BodyEnd = 0, 0 // held, never read back
				}
				cp.Components[j] = &cc
			}
			distinct[i] = &cp
		}
		m := newTestModel(b, distinct, 160, 48)
		m.Update(keyMsg("/"))
		_, cmd := m.Update(keyMsg("tab"))
		run(b, m, cmd)
		if m.data.indexing || len(m.data.lowBodies) != len(distinct) {
			b.Fatal("the text bodies were not indexed")
		}
		runtime.GC()
		keys := typeAndErase([]string{"step", "rollback", "check", "report", "procedure"})
		timeKeys(b, m, keys)
	})
}

// BenchmarkFirstFrameFromDisk streams generated Agent Plugins packages through
// review.Stream and trust: the time until the first frame that shows packages. (The very
// first frame, "Loading…", is drawn before the load command even starts.) The rest of
// the load is stopped and waited for outside the timer, so it does not slow the next
// iteration.
func BenchmarkFirstFrameFromDisk(b *testing.B) {
	forDiskSources(b, func(b *testing.B, n int, dir, home string) {
		shown := 0
		for b.Loop() {
			m := diskConsole(dir, home)
			msg := m.loadCmd()().(loadedMsg)
			m.Update(msg)
			if m.loadErr != nil || len(m.data.pkgs) == 0 {
				b.Fatalf("first frame has %d packages, err %v", len(m.data.pkgs), m.loadErr)
			}
			_ = m.View()
			b.StopTimer()
			shown += len(m.data.pkgs)
			msg.stream.stop()
			<-msg.stream.ended
			b.StartTimer()
		}
		b.ReportMetric(float64(shown)/float64(b.N), "pkgs-in-first-frame")
	})
}

// BenchmarkAllLoadedFromDisk is the same load followed to its last batch: the time until
// the console shows every package.
func BenchmarkAllLoadedFromDisk(b *testing.B) {
	forDiskSources(b, func(b *testing.B, n int, dir, home string) {
		batches := 0
		for b.Loop() {
			m := diskConsole(dir, home)
			batches += loadDrawing(m)
			if m.loadErr != nil || len(m.data.pkgs) != n || m.loading {
				b.Fatalf("loaded %d packages, err %v, still loading %v", len(m.data.pkgs), m.loadErr, m.loading)
			}
		}
		b.ReportMetric(float64(batches)/float64(b.N), "batches")
	})
}

// BenchmarkMemory loads n generated packages from disk into the console, draws, filters
// and jumps, and reports the peak live heap during that (sampled every millisecond) and
// the live heap after it, each divided by the size of the report JSON of the same
// packages (`vouch validate --json` output): the target is at most 3×.
func BenchmarkMemory(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		_, dir := generatedSource(b, n)
		var peak, live, jsonSize float64
		for b.Loop() {
			b.StopTimer()
			settle()
			base := heapLive()
			var maxSeen atomic.Uint64
			stop := make(chan struct{})
			done := make(chan struct{})
			go func() {
				defer close(done)
				t := time.NewTicker(time.Millisecond)
				defer t.Stop()
				for {
					if h := heapLive(); h > maxSeen.Load() {
						maxSeen.Store(h)
					}
					select {
					case <-stop:
						return
					case <-t.C:
					}
				}
			}()
			b.StartTimer()
			m := diskConsole(dir, b.TempDir())
			loadDrawing(m)
			for _, k := range []string{"G", "g", "/", "s", "e", "r", "v", "enter", "n", "tab"} {
				m.Update(keyMsg(k))
				_ = m.View()
			}
			b.StopTimer()
			close(stop)
			<-done
			settle()
			after := heapLive()
			runtime.KeepAlive(m)
			sz := reportSize(b, m)
			peak = float64(maxSeen.Load()-min(base, maxSeen.Load())) / 1e6
			live = float64(after-min(base, after)) / 1e6
			jsonSize = float64(sz) / 1e6
			b.StartTimer()
		}
		loaderOnly, modelOnly := modelHeap(b, dir)
		b.ReportMetric(loaderOnly, "loader-MB")
		b.ReportMetric(modelOnly, "model-MB")
		b.ReportMetric(modelOnly/jsonSize, "model/report")
		b.ReportMetric((live-modelOnly)/jsonSize, "console/report")
		b.ReportMetric(jsonSize, "report-MB")
		b.ReportMetric(peak, "peak-heap-MB")
		b.ReportMetric(live, "live-heap-MB")
		b.ReportMetric(peak/jsonSize, "peak/report")
		b.ReportMetric(live/jsonSize, "live/report")
	})
}

// modelHeap is the live heap of the packages alone, in MB, as review.Stream leaves them
// (loader) and as the console keeps them, the text bodies it reads back let go (model):
// what of the console's live heap is the loaders' model rather than its own. It runs in
// a function of its own, so nothing of the console measured before is still reachable
// from the caller's frame when its baseline is taken.
//
//go:noinline
func modelHeap(b *testing.B, dir string) (loader, model_ float64) {
	settle()
	base := heapLive()
	var kept []*model.Package
	if _, err := review.Stream(review.Options{DataDir: trust.DataDir(b.TempDir())}, []string{dir}, func(batch []*model.Package) bool {
		kept = append(kept, batch...)
		return true
	}); err != nil {
		b.Fatal(err)
	}
	settle()
	loader = float64(heapLive()-min(base, heapLive())) / 1e6
	dropBodies(kept)
	settle()
	model_ = float64(heapLive()-min(base, heapLive())) / 1e6
	runtime.KeepAlive(kept)
	return loader, model_
}

// settle collects garbage twice: memory reachable only from an object with a finalizer
// (an os.File the loaders let go) is freed one cycle after that object, and counting it
// as live would credit the loaders' garbage to whoever is measured next.
func settle() {
	runtime.GC()
	runtime.GC()
}

// heapLive is the bytes of live and not yet swept heap objects, read without stopping
// the world (runtime.ReadMemStats would, every millisecond).
func heapLive() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// reportSize is the size of the report JSON `vouch validate --json` writes for the
// packages m shows (without statuses: the smaller document, so the stricter ratio).
func reportSize(b *testing.B, m *Model) int64 {
	var w countWriter
	if err := report.WriteJSON(&w, report.Build(m.data.pkgs, m.data.sourceDiags, nil)); err != nil {
		b.Fatal(err)
	}
	return int64(w)
}

type countWriter int64

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }

var _ io.Writer = (*countWriter)(nil)

// BenchmarkFileViewHighlight escapes and highlights a 64 KiB script (the most
// the view highlights), the work the file view's load command does off the update loop.
func BenchmarkFileViewHighlight(b *testing.B) {
	text := longScript(1500)
	for len(text) < maxHighlightBytes-200 {
		text += "// more\n"
	}
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		highlight("context.mjs", text, true)
	}
}

// TestMain removes the generated benchmark sources (made only when a benchmark ran).
func TestMain(m *testing.M) {
	code := m.Run()
	if tmpOnce.dir != "" {
		os.RemoveAll(tmpOnce.dir)
	}
	os.Exit(code)
}

// timeKeys presses keys in turn, one a benchmark iteration, drawing the frame after each,
// and reports the percentiles of key to frame.
func timeKeys(b *testing.B, m *Model, keys []string) {
	msgs := make([]tea.KeyPressMsg, len(keys))
	for i, k := range keys {
		msgs[i] = keyMsg(k)
	}
	durations := make([]time.Duration, 0, 1024)
	i := 0
	for b.Loop() {
		start := time.Now()
		m.Update(msgs[i%len(msgs)])
		_ = m.View()
		durations = append(durations, time.Since(start))
		i++
	}
	percentiles(b, durations)
}
