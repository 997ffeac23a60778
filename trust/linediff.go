package trust

// The line diff behind UnifiedDiff. Lines are interned to integers, then compared by a
// patience/Myers hybrid whose work is bounded by the input's size, never by a clock:
//
//   - the common head and tail of each region are matched first;
//   - a small region (exactRegion lines or fewer on both sides together) gets Myers's
//     O((N+M)·D) shortest edit script, exact and minimal, as diff(1) gives;
//   - a larger region is split at the lines that occur exactly once on each side, taking
//     the longest run of them in the same order on both sides (patience diff, O(n log n)),
//     and each gap between two of them is compared the same way;
//   - a large region without such lines gets Myers with a work budget proportional to the
//     region; past it, the region is shown as deleted and inserted whole: a correct diff,
//     if not the shortest, and the only case that is not minimal or patience's.
//
// go-diff (the design card's first choice) was measured and dropped: with its timeout off
// its middle diff is quadratic in distinct lines (20,000 shuffled lines of 1 MB: minutes),
// its line table holds 65,535 distinct lines (a 10 MB file has 200,000), and with the
// timeout on, the answer depends on the machine's load.

// exactRegion is the size (lines of both sides together) up to which a region is given
// Myers's exact diff: its trace is at most exactRegion² integers (4 MiB here).
const exactRegion = 1024

// edit is one line of an edit script: op ' ' or '-' names line i of a, '+' line i of b.
type edit struct {
	op byte
	i  int32
}

type lineDiffer struct {
	a, b []int32
	out  []edit
	// counts for the unique-line split, indexed by line id; reset after each use.
	ca, cb []int32
	pa, pb []int32
}

// diffLineIDs returns the edit script turning a into b; ids are below n.
func diffLineIDs(a, b []int32, n int) []edit {
	d := &lineDiffer{a: a, b: b, ca: make([]int32, n), cb: make([]int32, n), pa: make([]int32, n), pb: make([]int32, n)}
	d.out = make([]edit, 0, max(len(a), len(b))+16)
	d.region(0, len(a), 0, len(b))
	return d.out
}

func (d *lineDiffer) same(a0, b0 int) { d.out = append(d.out, edit{' ', int32(a0)}) }
func (d *lineDiffer) del(a0 int)      { d.out = append(d.out, edit{'-', int32(a0)}) }
func (d *lineDiffer) ins(b0 int)      { d.out = append(d.out, edit{'+', int32(b0)}) }

func (d *lineDiffer) region(a0, a1, b0, b1 int) {
	for a0 < a1 && b0 < b1 && d.a[a0] == d.b[b0] {
		d.same(a0, b0)
		a0, b0 = a0+1, b0+1
	}
	q := 0
	for a1-q > a0 && b1-q > b0 && d.a[a1-1-q] == d.b[b1-1-q] {
		q++
	}
	a1, b1 = a1-q, b1-q
	switch {
	case a0 == a1:
		for j := b0; j < b1; j++ {
			d.ins(j)
		}
	case b0 == b1:
		for i := a0; i < a1; i++ {
			d.del(i)
		}
	case (a1-a0)+(b1-b0) <= exactRegion:
		d.myers(a0, a1, b0, b1, -1)
	default:
		if !d.patience(a0, a1, b0, b1) {
			// Budget: 16 steps a line, and room for an exact answer near exactRegion.
			// The trace holds about one integer a step, so memory is bounded alike.
			if !d.myers(a0, a1, b0, b1, 16*((a1-a0)+(b1-b0))+exactRegion*exactRegion) {
				for i := a0; i < a1; i++ {
					d.del(i)
				}
				for j := b0; j < b1; j++ {
					d.ins(j)
				}
			}
		}
	}
	for k := 0; k < q; k++ {
		d.same(a1+k, b1+k)
	}
}

// patience splits the region at its longest common run of unique lines and compares the
// gaps; false when it has none (nothing was emitted).
func (d *lineDiffer) patience(a0, a1, b0, b1 int) bool {
	for i := a0; i < a1; i++ {
		d.ca[d.a[i]]++
		d.pa[d.a[i]] = int32(i)
	}
	for j := b0; j < b1; j++ {
		d.cb[d.b[j]]++
		d.pb[d.b[j]] = int32(j)
	}
	// Pairs (i, j) of lines unique on both sides, in a's order.
	var pairs [][2]int32
	for i := a0; i < a1; i++ {
		id := d.a[i]
		if d.ca[id] == 1 && d.cb[id] == 1 {
			pairs = append(pairs, [2]int32{int32(i), d.pb[id]})
		}
	}
	for i := a0; i < a1; i++ {
		d.ca[d.a[i]] = 0
	}
	for j := b0; j < b1; j++ {
		d.cb[d.b[j]] = 0
	}
	if len(pairs) == 0 {
		return false
	}
	anchors := longestIncreasing(pairs)
	pa, pb := a0, b0
	for _, p := range anchors {
		d.region(pa, int(p[0]), pb, int(p[1]))
		d.same(int(p[0]), int(p[1]))
		pa, pb = int(p[0])+1, int(p[1])+1
	}
	d.region(pa, a1, pb, b1)
	return true
}

// longestIncreasing returns the longest subsequence of pairs (increasing in [0]) that
// increases in [1], by patience sorting: O(n log n).
func longestIncreasing(pairs [][2]int32) [][2]int32 {
	tails := []int32{}                // index into pairs of the smallest tail of each length
	prev := make([]int32, len(pairs)) // predecessor of each pair in its run
	for k, p := range pairs {
		lo, hi := 0, len(tails)
		for lo < hi {
			m := (lo + hi) / 2
			if pairs[tails[m]][1] < p[1] {
				lo = m + 1
			} else {
				hi = m
			}
		}
		if lo > 0 {
			prev[k] = tails[lo-1]
		} else {
			prev[k] = -1
		}
		if lo == len(tails) {
			tails = append(tails, int32(k))
		} else {
			tails[lo] = int32(k)
		}
	}
	out := make([][2]int32, len(tails))
	for k, i := len(tails)-1, tails[len(tails)-1]; k >= 0; k, i = k-1, prev[i] {
		out[k] = pairs[i]
	}
	return out
}

// myers emits the shortest edit script of the region (Myers 1986, forward, with the
// furthest-reaching x of every diagonal kept per step for the trace). budget < 0 is
// unlimited; otherwise false, with nothing emitted, once more than budget steps were taken.
func (d *lineDiffer) myers(a0, a1, b0, b1 int, budget int) bool {
	n, m := a1-a0, b1-b0
	A, B := d.a[a0:a1], d.b[b0:b1]
	maxD := n + m
	off := maxD + 1
	v := make([]int32, 2*maxD+3)
	var trace [][]int32 // trace[dd] = v[off-dd .. off+dd] after step dd
	steps := 0
	found := -1
	for dd := 0; dd <= maxD && found < 0; dd++ {
		for k := -dd; k <= dd; k += 2 {
			var x int
			if k == -dd || (k != dd && v[off+k-1] < v[off+k+1]) {
				x = int(v[off+k+1]) // down: an insertion
			} else {
				x = int(v[off+k-1]) + 1 // right: a deletion
			}
			y := x - k
			for x < n && y < m && A[x] == B[y] {
				x, y = x+1, y+1
				steps++
			}
			steps++
			v[off+k] = int32(x)
			if x >= n && y >= m {
				found = dd
			}
		}
		trace = append(trace, append([]int32(nil), v[off-dd:off+dd+1]...))
		if budget >= 0 && steps > budget {
			return false
		}
	}
	// Walk the trace back from (n, m), collecting the script in reverse: each step dd
	// came from diagonal pk by one insertion (down) or deletion (right), then a snake.
	rev := make([]edit, 0, n+m)
	x, y := n, m
	for dd := found; dd > 0; dd-- {
		k := x - y
		pv := trace[dd-1] // v after step dd-1; diagonal k is at index k+dd-1
		at := func(k int) int { return int(pv[k+dd-1]) }
		down := k == -dd || (k != dd && at(k-1) < at(k+1))
		pk := k - 1
		if down {
			pk = k + 1
		}
		px := at(pk)
		py := px - pk
		sx := px + 1 // where the snake began
		if down {
			sx = px
		}
		for x > sx {
			x, y = x-1, y-1
			rev = append(rev, edit{' ', int32(a0 + x)})
		}
		if down {
			rev = append(rev, edit{'+', int32(b0 + py)})
		} else {
			rev = append(rev, edit{'-', int32(a0 + px)})
		}
		x, y = px, py
	}
	for x > 0 && y > 0 {
		x, y = x-1, y-1
		rev = append(rev, edit{' ', int32(a0 + x)})
	}
	for i := len(rev) - 1; i >= 0; i-- {
		d.out = append(d.out, rev[i])
	}
	return true
}
