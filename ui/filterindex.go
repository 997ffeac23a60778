package ui

import (
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
	text   string
	starts []int32 // start of each row's text in text, then len(text)
	base   int     // global row number of the chunk's first row (data.pkgBase)
}

// buildHays is the filter text of pkgs: the chunk, and per package the text of its row
// and of each component's row (substrings of the chunk).
func buildHays(pkgs []*model.Package) (*hayChunk, [][]string) {
	var b strings.Builder
	ch := &hayChunk{}
	for _, p := range pkgs {
		for _, h := range filterTexts(p) {
			ch.starts = append(ch.starts, int32(b.Len()))
			b.WriteString(h)
			b.WriteByte('\n')
		}
	}
	ch.starts = append(ch.starts, int32(b.Len()))
	ch.text = b.String()
	out := make([][]string, len(pkgs))
	k := 0
	for i, p := range pkgs {
		out[i] = make([]string, len(p.Components)+1)
		for j := range out[i] {
			out[i][j] = ch.text[ch.starts[k] : ch.starts[k+1]-1]
			k++
		}
	}
	return ch, out
}

// addHays appends a batch's filter text, or drops the index when the batch came without
// one (rows then build their text on first use).
func (d *data) addHays(pkgs []*model.Package, ch *hayChunk, hays [][]string) {
	if ch == nil || len(hays) != len(pkgs) || len(d.hays) != len(d.pkgs) {
		d.hays, d.chunks, d.pkgBase, d.nrows = nil, nil, nil, 0
		return
	}
	ch.base = d.nrows
	d.chunks = append(d.chunks, ch)
	d.hays = append(d.hays, hays...)
	for _, p := range pkgs {
		d.pkgBase = append(d.pkgBase, int32(d.nrows))
		d.nrows += len(p.Components) + 1
	}
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
	bi := t.c.data.bodyIdx
	if t.content && (bi == nil || bi.nrows != len(t.all)) {
		return nil, "" // some text is not indexed: search row by row
	}
	if cap(t.cand) < len(t.all) {
		t.cand = make([]bool, len(t.all))
	}
	cand := t.cand[:len(t.all)]
	clear(cand)
	for _, ch := range t.c.data.chunks {
		k := 0
		for from := 0; from < len(ch.text); {
			j := strings.Index(ch.text[from:], w)
			if j < 0 {
				break
			}
			off := int32(from + j)
			for ch.starts[k+1] <= off {
				k++
			}
			cand[t.rowOf[ch.base+k]] = true
			from = int(ch.starts[k+1]) // the rest of this row cannot add anything
		}
	}
	if t.content {
		k := 0
		for from := 0; from < len(bi.text); {
			j := strings.Index(bi.text[from:], w)
			if j < 0 {
				break
			}
			off := int32(from + j)
			for bi.starts[k+1] <= off {
				k++
			}
			cand[t.rowOf[bi.rows[k]]] = true
			from = int(bi.starts[k+1])
		}
	}
	return cand, w
}

// bodyIndex is every lowercased text body in one string ('\n' between bodies: a word
// holds none, so no match spans two), for content search.
type bodyIndex struct {
	text   string
	starts []int32 // start of each body, then len(text)
	rows   []int32 // the global row number of each body
	nrows  int     // global rows covered (the packages the command saw)
}

// buildBodies lowercases every text body of pkgs: the index, and per package and
// component the body (substrings of the index; "" for none).
func buildBodies(pkgs []*model.Package) (*bodyIndex, [][]string) {
	var b strings.Builder
	idx := &bodyIndex{}
	row := 0
	for _, p := range pkgs {
		row++ // the package row
		for _, c := range p.Components {
			if c.Body != "" {
				idx.starts = append(idx.starts, int32(b.Len()))
				idx.rows = append(idx.rows, int32(row))
				b.WriteString(strings.ToLower(c.Body))
				b.WriteByte('\n')
			}
			row++
		}
	}
	idx.starts = append(idx.starts, int32(b.Len()))
	idx.text, idx.nrows = b.String(), row
	out := make([][]string, len(pkgs))
	k := 0
	for i, p := range pkgs {
		out[i] = make([]string, len(p.Components))
		for j, c := range p.Components {
			if c.Body != "" {
				out[i][j] = idx.text[idx.starts[k] : idx.starts[k+1]-1]
				k++
			}
		}
	}
	return idx, out
}

// passes reports whether row idx can match q given the prefilter: marked, or holding w in
// what the index does not hold (its authorization).
func (t *treePane) passes(cand []bool, w string, idx int, it item) bool {
	if cand == nil || cand[idx] {
		return true
	}
	return !it.isPackage() && strings.Contains(string(t.rowFlags(idx).auth), w)
}
