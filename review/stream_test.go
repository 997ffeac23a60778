package review

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"

	"vouch/internal/gen"
	"vouch/model"
)

// Stream delivers exactly what Open returns, in the same order, in more than one batch
// for a large source, and never an empty batch.
func TestStreamMatchesOpen(t *testing.T) {
	dir := generated(t, 200)
	res := mustOpen(t, Options{}, dir)
	if len(res.Packages) != 200 {
		t.Fatalf("Open found %d packages, want 200", len(res.Packages))
	}
	var got []*model.Package
	batches := 0
	diags, err := Stream(Options{}, []string{dir}, func(b []*model.Package) bool {
		if len(b) == 0 {
			t.Error("empty batch")
		}
		batches++
		got = append(got, b...)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(diags) != len(res.Diagnostics) {
		t.Errorf("Stream diagnostics %v, Open %v", diags, res.Diagnostics)
	}
	if len(got) != len(res.Packages) {
		t.Fatalf("Stream delivered %d packages, Open %d", len(got), len(res.Packages))
	}
	for i := range got {
		if got[i].Root != res.Packages[i].Root {
			t.Fatalf("package %d: Stream %s, Open %s (order must match)", i, got[i].Root, res.Packages[i].Root)
		}
		if fmt.Sprint(refs(got[i])) != fmt.Sprint(refs(res.Packages[i])) {
			t.Fatalf("package %d: components %v, Open %v", i, refs(got[i]), refs(res.Packages[i]))
		}
	}
	if batches < 2 {
		t.Logf("only %d batch for 200 packages (a fast machine can finish before the first emit)", batches)
	}
}

// A consumer that blocks gets the rest in fewer, larger batches, still in order.
func TestStreamSlowConsumerCoalesces(t *testing.T) {
	dir := generated(t, 60)
	var sizes []int
	var roots []string
	first := true
	base := loadsDone.Load()
	_, err := Stream(Options{}, []string{dir}, func(b []*model.Package) bool {
		if first {
			first = false
			// Hold the first batch until every load has finished.
			for loadsDone.Load() < base+60 {
				runtime.Gosched()
			}
		}
		sizes = append(sizes, len(b))
		for _, p := range b {
			roots = append(roots, filepath.Base(p.Root))
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(roots) != 60 {
		t.Fatalf("delivered %d packages, want 60", len(roots))
	}
	if len(sizes) > 2 {
		t.Errorf("batch sizes %v: after a blocked emit the rest must come in one batch", sizes)
	}
	for i := 1; i < len(roots); i++ {
		if roots[i-1] >= roots[i] {
			t.Fatalf("out of discovery order at %d: %v", i, roots[i-1:i+1])
		}
	}
}

// Returning false stops the stream: no further batch, and Stream returns.
func TestStreamStops(t *testing.T) {
	dir := generated(t, 100)
	calls, n := 0, 0
	_, err := Stream(Options{}, []string{dir}, func(b []*model.Package) bool {
		calls++
		n += len(b)
		return false
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 1 {
		t.Fatalf("emit called %d times after returning false", calls)
	}
	if n == 0 || n > 100 {
		t.Fatalf("first batch had %d packages", n)
	}
}

func TestStreamMissingPath(t *testing.T) {
	called := false
	_, err := Stream(Options{}, []string{filepath.Join(t.TempDir(), "nope")}, func([]*model.Package) bool {
		called = true
		return true
	})
	if !errors.Is(err, ErrNotFound) || called {
		t.Fatalf("err %v, emitted %v", err, called)
	}
}

func refs(p *model.Package) []string {
	var out []string
	for _, c := range p.Components {
		out = append(out, p.Ref(c))
	}
	return out
}

// BenchmarkOpen1000 loads 1,000 generated Agent Plugins packages.
func BenchmarkOpen1000(b *testing.B) {
	dir := generated(b, 1000)
	for b.Loop() {
		res, err := Open(Options{}, dir)
		if err != nil || len(res.Packages) != 1000 {
			b.Fatalf("%v, %d packages", err, len(res.Packages))
		}
	}
}

// A consumer that blocks holds back the loaders: at most maxAhead packages are loaded
// beyond those emitted, so memory does not grow with the source.
func TestStreamBoundsLoadsAhead(t *testing.T) {
	dir := t.TempDir()
	n := maxAhead + 40
	if err := gen.Generate(dir, n); err != nil {
		t.Fatal(err)
	}
	base := loadsDone.Load()
	emitted := 0
	_, err := Stream(Options{}, []string{dir}, func(b []*model.Package) bool {
		// The batch's jobs gave their tokens back as it was built, before this call.
		if ahead := int(loadsDone.Load()-base) - (emitted + len(b)); ahead > maxAhead {
			t.Fatalf("%d packages loaded beyond the %d emitted, bound %d", ahead, emitted+len(b), maxAhead)
		}
		if emitted == 0 {
			// Hold the first batch until the loaders reach the bound (they must).
			for int(loadsDone.Load()-base) < min(n, len(b)+maxAhead) {
				runtime.Gosched()
			}
			if got := int(loadsDone.Load() - base); got > len(b)+maxAhead {
				t.Fatalf("%d loaded while %d were emitted, bound %d", got, len(b), maxAhead)
			}
		}
		emitted += len(b)
		return true
	})
	if err != nil || emitted != n {
		t.Fatalf("emitted %d of %d, %v", emitted, n, err)
	}
}
