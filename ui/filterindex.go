package ui

import (
	"errors"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"vouch/model"
)

// The filter's text index (issue 15.9). The load command writes the filter text of every
// row of a batch into one string, rows separated by '\n' (a filter word never holds
// white space, so no match spans two rows), and each row's text is a substring of it. A
// keystroke that must search every row then runs one strings.Index over each batch's
// text for the query's longest word, which reads memory in order and skips rows at
// vector speed, and checks the other words only on the rows that passed.

// hayChunk is the filter text of one batch of packages.
type hayChunk struct {
	freq   [256]int64 // how often each byte occurs in text (scanFor picks a rare one)
	text   string
	starts []int32 // start of each row's text in text, then len(text)
	base   int     // global row number of the chunk's first row (data.pkgBase)
	npkgs  int     // the packages whose rows it holds
}

// buildHays is the filter text of pkgs, one chunk: each row's text is a substring of it
// (rowText). The text is kept once, in a string of exactly its size.
func buildHays(pkgs []*model.Package) *hayChunk {
	ch := &hayChunk{npkgs: len(pkgs)}
	var texts []string
	size := 0
	for _, p := range pkgs {
		for _, h := range filterTexts(p) {
			texts = append(texts, h)
			size += len(h) + 1
		}
	}
	var b strings.Builder
	b.Grow(size)
	ch.starts = make([]int32, 0, len(texts)+1)
	for _, h := range texts {
		ch.starts = append(ch.starts, int32(b.Len()))
		b.WriteString(h)
		b.WriteByte('\n')
	}
	ch.starts = append(ch.starts, int32(b.Len()))
	ch.text = b.String()
	for i := 0; i < len(ch.text); i++ {
		ch.freq[ch.text[i]]++
	}
	return ch
}

// addHays appends a batch's filter text, or drops the index when the batch came without
// one (rows then build their text on first use).
func (d *data) addHays(pkgs []*model.Package, ch *hayChunk) {
	if ch == nil || ch.npkgs != len(pkgs) || len(d.pkgChunk) != len(d.pkgs) {
		d.chunks, d.pkgBase, d.pkgChunk, d.nrows = nil, nil, nil, 0
		return
	}
	ch.base = d.nrows
	d.chunks = append(d.chunks, ch)
	for _, p := range pkgs {
		d.pkgBase = append(d.pkgBase, int32(d.nrows))
		d.pkgChunk = append(d.pkgChunk, int32(len(d.chunks)-1))
		d.nrows += len(p.Components) + 1
	}
}

// rowText is the indexed filter text of component comp of package pkg (comp -1: the
// package row); false when the package has none.
func (d *data) rowText(pkg, comp int) (string, bool) {
	if pkg >= len(d.pkgChunk) {
		return "", false
	}
	ch := d.chunks[d.pkgChunk[pkg]]
	k := int(d.pkgBase[pkg]) - ch.base + comp + 1
	return ch.text[ch.starts[k] : ch.starts[k+1]-1], true
}

// buildRowOf maps global row numbers to rows of all (the order differs when S sorts by
// risk); nil without an index.
func (t *treePane) buildRowOf() {
	d := t.c.data
	t.rowOf = nil
	if len(d.chunks) == 0 || len(d.pkgBase) != len(d.pkgs) || d.nrows != len(t.all) {
		return
	}
	t.rowOf = make([]int32, len(t.all))
	for i, it := range t.all {
		t.rowOf[int(d.pkgBase[it.pkg])+it.comp+1] = int32(i)
	}
}

// prefilter marks the rows of all whose filter text holds the longest plain word of q,
// and returns that word; nil when there is no index or no plain word (every row is then
// a candidate). A row not marked can still match through its authorization or its body:
// passes checks those itself.
func (t *treePane) prefilter(q []string) ([]bool, string) {
	if t.rowOf == nil {
		return nil, ""
	}
	w := ""
	for _, x := range q {
		if !strings.HasPrefix(x, ":") && len(x) > len(w) {
			w = x
		}
	}
	if w == "" {
		return nil, ""
	}
	if t.content && t.c.data.bodyRows != len(t.all) {
		return nil, "" // some text is not indexed: search row by row
	}
	if cap(t.cand) < len(t.all) {
		t.cand = make([]bool, len(t.all))
	}
	cand := t.cand[:len(t.all)]
	clear(cand)
	rowOf := t.rowOf
	// A chunk in which the last word searched occurs nowhere cannot hold a word that
	// contains it: typing on after a word left the filter text ("ste" in "step") searches
	// only the text bodies.
	prev := t.scanned
	skip := func(chunk any, i int) bool {
		return strings.Contains(w, prev.word) && i < len(prev.chunks) && prev.chunks[i] == chunk && !prev.hit[i]
	}
	chunks, bodies := t.c.data.chunks, t.c.data.bodyIdx
	if !t.content {
		bodies = nil
	}
	next := scanRecord{word: w, chunks: make([]any, len(chunks)+len(bodies)), hit: make([]bool, len(chunks)+len(bodies))}
	// The chunks are searched in parallel: each marks rows of its own, so no two write
	// the same mark (the bodies, which can mark a row the filter text marked too, are
	// searched after).
	eachParallel(len(chunks), func(i int) {
		ch := chunks[i]
		next.chunks[i] = ch
		if skip(ch, i) {
			return
		}
		scanFor(ch.text, ch.starts, &ch.freq, w, func(k int) {
			cand[rowOf[ch.base+k]] = true
			next.hit[i] = true
		})
	})
	eachParallel(len(bodies), func(i int) {
		bi, at := bodies[i], len(chunks)+i
		next.chunks[at] = bi
		if skip(bi, at) {
			return
		}
		scanFor(bi.text, bi.starts, &bi.freq, w, func(k int) {
			bi.eachRow(k, func(row int32) { cand[rowOf[row]] = true })
			next.hit[at] = true
		})
	})
	t.scanned = next
	return cand, w
}

// scanRecord is what the last index search found: per chunk searched (filter text
// chunks, then body chunks), whether the word occurs in it.
type scanRecord struct {
	word   string
	chunks []any
	hit    []bool
}

// eachParallel calls f(0) … f(n-1) on up to GOMAXPROCS goroutines (at most 4) and
// waits for them: a scan of every chunk is memory-bound work each core can share.
func eachParallel(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), 4, n)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				f(i)
			}
		}()
	}
	wg.Wait()
}

// bodyIndex is the lowercased text bodies of a run of packages in one string ('\n'
// between bodies: a word holds none, so no match spans two), for content search. A body
// held by several components (the same skill vendored in many packages) is written once,
// and lists every row that holds it.
type bodyIndex struct {
	freq   [256]int64
	text   string
	starts []int32 // start of each distinct body, then len(text)
	// rows[rowStart[k]:rowStart[k+1]] are the global rows holding body k.
	rowStart []int32
	rows     []int32
}

// eachRow calls f with every global row holding body k.
func (bi *bodyIndex) eachRow(k int, f func(row int32)) {
	for _, r := range bi.rows[bi.rowStart[k]:bi.rowStart[k+1]] {
		f(r)
	}
}

// bodiesBuilt is what buildBodies made of a run of packages.
type bodiesBuilt struct {
	index *bodyIndex
	// bodies holds, per package and component, the lowercased body (substrings of the
	// index; "" for none).
	bodies [][]string
	// rows is the number of global rows the packages take.
	rows int
	// changed counts the bodies left out because their file no longer holds the bytes
	// loaded, unreadable those that could not be read back.
	changed, unreadable int
}

// buildBodies lowercases every text body of pkgs, whose first row is global row base.
// A body the load let go is read back from its file and checked (readBody); one whose
// file changed since is left out and counted, never searched as the reviewed text.
func buildBodies(pkgs []*model.Package, base int) bodiesBuilt {
	out := bodiesBuilt{index: &bodyIndex{}, bodies: make([][]string, len(pkgs))}
	idx := out.index
	var b strings.Builder
	seen := map[string]int32{} // body text → its entry
	var holders [][]int32      // per entry, the rows holding it
	type at struct{ pkg, comp, entry int32 }
	var where []at
	row := base
	for i, p := range pkgs {
		row++ // the package row
		out.bodies[i] = make([]string, len(p.Components))
		for j, c := range p.Components {
			text := c.Body
			if bodyDropped(c) {
				var err error
				if text, err = readBody(p, c); err != nil {
					if errors.Is(err, errBodyChanged) {
						out.changed++
					} else {
						out.unreadable++
					}
					text = ""
				}
			}
			if text != "" {
				e, ok := seen[text]
				if !ok {
					e = int32(len(holders))
					seen[text] = e
					holders = append(holders, nil)
					idx.starts = append(idx.starts, int32(b.Len()))
					b.WriteString(strings.ToLower(text))
					b.WriteByte('\n')
				}
				holders[e] = append(holders[e], int32(row))
				where = append(where, at{int32(i), int32(j), e})
			}
			row++
		}
	}
	idx.starts = append(idx.starts, int32(b.Len()))
	idx.text, out.rows = b.String(), row-base
	for i := 0; i < len(idx.text); i++ {
		idx.freq[idx.text[i]]++
	}
	idx.rowStart = make([]int32, 0, len(holders)+1)
	for _, h := range holders {
		idx.rowStart = append(idx.rowStart, int32(len(idx.rows)))
		idx.rows = append(idx.rows, h...)
	}
	idx.rowStart = append(idx.rowStart, int32(len(idx.rows)))
	for _, w := range where {
		out.bodies[w.pkg][w.comp] = idx.text[idx.starts[w.entry] : idx.starts[w.entry+1]-1]
	}
	return out
}

// scanFor calls found(k) once for each row k of text (rows start at starts, which ends
// with len(text)) that holds w. strings.Index hops from one occurrence of its needle's
// first byte to the next, so the search is anchored at w's rarest byte (by freq): the
// part of w from there is searched and the part before it checked in place. "server" is
// found through its v, not through every s.
func scanFor(text string, starts []int32, freq *[256]int64, w string, found func(k int)) {
	p := 0
	for i := 1; i < len(w); i++ {
		if freq[w[i]] < freq[w[p]] {
			p = i
		}
	}
	anchor, before := w[p:], w[:p]
	k := 0
	for from := p; from < len(text); {
		j := strings.Index(text[from:], anchor)
		if j < 0 {
			return
		}
		off := from + j
		for int(starts[k+1]) <= off {
			k++
		}
		if start := off - p; start >= int(starts[k]) && text[start:off] == before {
			found(k)
			from = int(starts[k+1]) + p // the rest of this row cannot add anything
			continue
		}
		from = off + 1
	}
}

// passes reports whether row idx can match q given the prefilter: marked, or holding w in
// what the index does not hold (its authorization).
func (t *treePane) passes(cand []bool, w string, idx int, it item) bool {
	if cand == nil || cand[idx] {
		return true
	}
	return !it.isPackage() && strings.Contains(string(t.rowFlags(idx).auth), w)
}
