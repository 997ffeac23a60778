package trust

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// apply checks that script turns a into b: ' ' and '-' walk a in order, ' ' and '+' walk
// b in order, and ' ' pairs equal lines.
func apply(t testing.TB, a, b []int32, script []edit) (changes int) {
	t.Helper()
	i, j := 0, 0
	for _, e := range script {
		switch e.op {
		case ' ':
			if int(e.i) != i || j >= len(b) || a[i] != b[j] {
				t.Fatalf("bad ' ' at a%d/b%d (edit %v)", i, j, e)
			}
			i, j = i+1, j+1
		case '-':
			if int(e.i) != i {
				t.Fatalf("bad '-' at a%d (edit %v)", i, e)
			}
			i++
			changes++
		case '+':
			if int(e.i) != j {
				t.Fatalf("bad '+' at b%d (edit %v)", j, e)
			}
			j++
			changes++
		}
	}
	if i != len(a) || j != len(b) {
		t.Fatalf("script ends at a%d/b%d of %d/%d", i, j, len(a), len(b))
	}
	return changes
}

// lcs is the textbook O(nm) longest common subsequence, the oracle for minimality.
func lcs(a, b []int32) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(cur[j], prev[j+1])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func randomIDs(r *rand.Rand, n, alphabet int) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(r.IntN(alphabet))
	}
	return out
}

// TestLineDiffMinimal: below exactRegion the script is a shortest one (as diff(1)'s),
// whatever the inputs; every script turns a into b.
func TestLineDiffMinimal(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for k := 0; k < 400; k++ {
		n, m, alpha := r.IntN(60), r.IntN(60), 1+r.IntN(8)
		a, b := randomIDs(r, n, alpha), randomIDs(r, m, alpha)
		got := apply(t, a, b, diffLineIDs(a, b, alpha))
		if want := n + m - 2*lcs(a, b); got != want {
			t.Fatalf("case %d (%v → %v): %d changes, shortest is %d", k, a, b, got, want)
		}
	}
}

// TestLineDiffLarge: the regions past exactRegion (patience, then Myers within a budget,
// then delete-and-insert) still give correct scripts, and the minimal one where the
// change is a few lines in a file of distinct lines.
func TestLineDiffLarge(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	seq := func(n int) []int32 {
		out := make([]int32, n)
		for i := range out {
			out[i] = int32(i)
		}
		return out
	}
	cases := []struct {
		name    string
		a, b    []int32
		n       int
		minimal bool
	}{
		{"1% changed", seq(8000), func() []int32 {
			b := seq(8000)
			for i := 50; i < len(b); i += 100 {
				b[i] = int32(8000 + i)
			}
			return b
		}(), 16000, true},
		{"shuffled", seq(20000), func() []int32 {
			b := seq(20000)
			r.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
			return b
		}(), 20000, false},
		{"few distinct, many lines", randomIDs(r, 30000, 3), randomIDs(r, 30000, 3), 3, false},
		{"one side empty", seq(5000), nil, 5000, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := apply(t, c.a, c.b, diffLineIDs(c.a, c.b, c.n))
			if c.minimal {
				if want := len(c.a) + len(c.b) - 2*lcs(c.a, c.b); got != want {
					t.Fatalf("%d changes, shortest is %d", got, want)
				}
			}
		})
	}
}

// TestUnifiedDiffLargeFile: a 10 MB file with 1% of its lines changed gets every changed
// line in its hunks (the old diff stopped at 1 MiB and its engine at one second).
func TestUnifiedDiffLargeFile(t *testing.T) {
	var a, b strings.Builder
	for i := 0; i < 200000; i++ {
		l := fmt.Sprintf("line %07d: the quick brown fox jumps over the lazy dog %d\n", i, i*7)
		a.WriteString(l)
		if i%100 == 50 {
			l = fmt.Sprintf("line %07d: CHANGED\n", i)
		}
		b.WriteString(l)
	}
	u := UnifiedDiff("a", "b", a.String(), b.String())
	if got := strings.Count(u, "\n+line "); got != 2000 {
		t.Fatalf("%d inserted lines, want 2000", got)
	}
	if got := strings.Count(u, "\n-line "); got != 2000 {
		t.Fatalf("%d deleted lines, want 2000", got)
	}
}

// FuzzLineDiff: any two texts give a script that turns one into the other, without a
// panic; small ones a shortest script.
func FuzzLineDiff(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nc\nd\n")
	f.Add("", "x")
	f.Add("x\r\ny", "x\ny\r\n")
	f.Fuzz(func(t *testing.T, a, b string) {
		la, lb := splitLines(a), splitLines(b)
		ids := map[string]int32{}
		intern := func(ls []string) []int32 {
			out := make([]int32, len(ls))
			for i, l := range ls {
				if _, ok := ids[l]; !ok {
					ids[l] = int32(len(ids))
				}
				out[i] = ids[l]
			}
			return out
		}
		ia, ib := intern(la), intern(lb)
		got := apply(t, ia, ib, diffLineIDs(ia, ib, len(ids)))
		if len(ia)+len(ib) <= exactRegion {
			if want := len(ia) + len(ib) - 2*lcs(ia, ib); got != want {
				t.Fatalf("%d changes, shortest is %d", got, want)
			}
		}
		UnifiedDiff("a", "b", a, b)
	})
}
