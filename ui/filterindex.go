package ui

import (
	"errors"
	"strings"

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
	mark := func(row int32) { cand[t.rowOf[row]] = true }
	for _, ch := range t.c.data.chunks {
		scanFor(ch.text, ch.starts, &ch.freq, w, func(k int) { mark(int32(ch.base + k)) })
	}
	if t.content {
		for _, bi := range t.c.data.bodyIdx {
			scanFor(bi.text, bi.starts, &bi.freq, w, func(k int) { mark(bi.rows[k]) })
		}
	}
	return cand, w
}

// bodyIndex is the lowercased text bodies of a run of packages in one string ('\n'
// between bodies: a word holds none, so no match spans two), for content search.
type bodyIndex struct {
	freq   [256]int64
	text   string
	starts []int32 // start of each body, then len(text)
	rows   []int32 // the global row number of each body
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
	var b strings.Builder
	out := bodiesBuilt{index: &bodyIndex{}, bodies: make([][]string, len(pkgs))}
	idx := out.index
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
				idx.starts = append(idx.starts, int32(b.Len()))
				idx.rows = append(idx.rows, int32(row))
				b.WriteString(strings.ToLower(text))
				b.WriteByte('\n')
				out.bodies[i][j] = "\n" // indexed: the substring is taken once the text is final
			}
			row++
		}
	}
	idx.starts = append(idx.starts, int32(b.Len()))
	idx.text, out.rows = b.String(), row-base
	for i := 0; i < len(idx.text); i++ {
		idx.freq[idx.text[i]]++
	}
	k := 0
	for _, comps := range out.bodies {
		for j, n := range comps {
			if n != "" {
				comps[j] = idx.text[idx.starts[k] : idx.starts[k+1]-1]
				k++
			}
		}
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
