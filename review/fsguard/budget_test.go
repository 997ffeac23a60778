package fsguard

import (
	"fmt"
	"testing"

	"vouch/internal/testtree"
)

// Every Root draws its directory handles from one process-wide budget: a root that finds
// it spent answers as a root with handles does, and every root gives its handles back
// when it is closed.
func TestHandleBudgetSharedByRoots(t *testing.T) {
	files := map[string]string{}
	for i := 0; i < 20; i++ {
		files[fmt.Sprintf("d%02d/e/f", i)] = fmt.Sprint(i)
	}
	dir := testtree.Make(t, files)
	answers := func(r *Root) string {
		var out string
		for i := 0; i < 20; i++ {
			p := fmt.Sprintf("d%02d/e/f", i)
			data, err := r.ReadFile(p, 0)
			names, lerr := r.ReadDirNames(fmt.Sprintf("d%02d", i))
			out += fmt.Sprintf("%s %q %s %v %s\n", p, data, CodeOf(err), names, CodeOf(lerr))
		}
		return out
	}
	base := heldHandles.Load()
	fresh := open(t, dir, DefaultLimits())
	want := answers(fresh)
	if heldHandles.Load() == base {
		t.Fatal("a root with the budget free held no directory handle")
	}
	fresh.Close()
	if got := heldHandles.Load(); got != base {
		t.Fatalf("closing the root left %d handles counted, want %d", got, base)
	}

	const left = 3
	spent := handleBudget() - base - left
	heldHandles.Add(spent)
	defer heldHandles.Add(-spent)
	for _, cap := range []int{maxDirHandles, 1} { // the budget spent, then the root's own too
		r := open(t, dir, DefaultLimits())
		r.maxDirs = cap
		if got := answers(r); got != want {
			t.Errorf("root cap %d, budget nearly spent:\n%s\nwant\n%s", cap, got, want)
		}
		if n := heldHandles.Load(); n > handleBudget() {
			t.Errorf("root cap %d: %d handles held, budget %d", cap, n, handleBudget())
		}
		r.Close()
		if got := heldHandles.Load(); got != base+spent {
			t.Errorf("root cap %d: closing left %d handles counted, want %d", cap, got, base+spent)
		}
	}
}
