package ui

import (
	"errors"
	"math/bits"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"vouch/internal/parallel"
	"vouch/model"
)

// The filter's text index, so a keystroke stays fast at 10,000 packages. The load command
// writes the filter text of every row of a batch into one string, entries separated by '\n'
// (a filter word never holds white space, so no match spans two), and each row's own text
// is a substring of it. A keystroke that must search every row then runs one strings.Index
// over each batch's text for the query's longest word, which reads memory in order and
// skips rows at vector speed, and checks the other words only on the rows that passed.
//
// A part of the filter text that several rows of one package hold (the package's name
// and format, the files of a server that runs from the package root, the root itself)
// is written once, in an entry after the package's rows, with the set of rows holding
// it: the index is a third smaller, so it takes less memory and less time to search.
// A word holds no space, so it matches a row exactly when it lies in the row's own text
// or in one of its shared parts.

// hayChunk is the filter text of one batch of packages.
type hayChunk struct {
	freq [256]int64 // how often each byte occurs in text (scanFor picks a rare one)
	text string
	// starts is the start of each entry in text, then len(text). Package i of the
	// chunk has entries pkgEnt[i] … pkgEnt[i+1]-1: one per row (its own text, the
	// package row first), then one holding its shared parts.
	starts []int32
	pkgEnt []int32
	// The shared parts of package i are parts[pkgPart[i]:pkgPart[i+1]]: each part's
	// start in text (it ends at the next part's start, less the space between, or at
	// its entry's end) and the rows of the package holding it (bit r: row r, 0 the
	// package row).
	pkgPart []int32
	parts   []sharedPart
	base    int // global row number of the chunk's first row (data.pkgBase)
	npkgs   int // the packages whose rows it holds
}

// sharedPart is a part of the filter text several rows of a package hold.
type sharedPart struct {
	start int32
	rows  uint64
}

// shareRows is the most rows a package may have for its parts to be shared (one bit
// each); a larger package keeps every part in its rows' own text.
const shareRows = 64

// minShared is the shortest part worth sharing: a shorter one costs less to repeat
// than to point at.
const minShared = 6

// buildHays is the filter text of pkgs, one chunk. The text is kept once, in a string
// of exactly its size.
func buildHays(pkgs []*model.Package) *hayChunk {
	ch := &hayChunk{npkgs: len(pkgs)}
	type pkgText struct {
		rows   []string // each row's own text
		shared []string // the shared parts, most rows first
		masks  []uint64
	}
	texts := make([]pkgText, len(pkgs))
	size := 0
	seen := map[string]uint64{} // reused: one package's parts at a time
	for i, p := range pkgs {
		rows := make([][]string, 0, len(p.Components)+1)
		rows = append(rows, filterParts(p, nil))
		for _, c := range p.Components {
			rows = append(rows, filterParts(p, c))
		}
		var masks map[string]uint64
		if len(rows) <= shareRows {
			clear(seen)
			masks = seen
			for r, parts := range rows {
				for _, part := range parts {
					if len(part) >= minShared {
						masks[part] |= 1 << r
					}
				}
			}
		}
		pt := &texts[i]
		for part, m := range masks {
			if m&(m-1) != 0 { // two rows or more
				pt.shared = append(pt.shared, part)
			}
		}
		sort.Slice(pt.shared, func(a, b int) bool {
			ma, mb := bits.OnesCount64(masks[pt.shared[a]]), bits.OnesCount64(masks[pt.shared[b]])
			if ma != mb {
				return ma > mb // a part every row holds settles a match first
			}
			return pt.shared[a] < pt.shared[b]
		})
		for _, part := range pt.shared {
			pt.masks = append(pt.masks, masks[part])
		}
		for _, parts := range rows {
			own := parts[:0]
			for _, part := range parts {
				if m, ok := masks[part]; !ok || m&(m-1) == 0 {
					own = append(own, part)
				}
			}
			h := strings.ToLower(strings.Join(own, " "))
			pt.rows = append(pt.rows, h)
			size += len(h) + 1
		}
		for k, part := range pt.shared {
			pt.shared[k] = strings.ToLower(part)
			size += len(pt.shared[k]) + 1
		}
		size++
	}
	var b strings.Builder
	b.Grow(size)
	// The index lists are kept as long as the chunk: sized exactly, not grown by appends.
	nrows, nparts := 0, 0
	for _, pt := range texts {
		nrows, nparts = nrows+len(pt.rows)+1, nparts+len(pt.shared)
	}
	ch.starts = make([]int32, 0, nrows+1)
	ch.parts = make([]sharedPart, 0, nparts)
	ch.pkgEnt = make([]int32, 0, len(texts)+1)
	ch.pkgPart = make([]int32, 0, len(texts)+1)
	for _, pt := range texts {
		ch.pkgEnt = append(ch.pkgEnt, int32(len(ch.starts)))
		ch.pkgPart = append(ch.pkgPart, int32(len(ch.parts)))
		for _, h := range pt.rows {
			ch.starts = append(ch.starts, int32(b.Len()))
			b.WriteString(h)
			b.WriteByte('\n')
		}
		ch.starts = append(ch.starts, int32(b.Len()))
		for k, part := range pt.shared {
			if k > 0 {
				b.WriteByte(' ')
			}
			ch.parts = append(ch.parts, sharedPart{start: int32(b.Len()), rows: pt.masks[k]})
			b.WriteString(part)
		}
		b.WriteByte('\n')
	}
	ch.pkgEnt = append(ch.pkgEnt, int32(len(ch.starts)))
	ch.pkgPart = append(ch.pkgPart, int32(len(ch.parts)))
	ch.starts = append(ch.starts, int32(b.Len()))
	ch.text = b.String()
	for i := 0; i < len(ch.text); i++ {
		ch.freq[ch.text[i]]++
	}
	return ch
}

// part is the text of shared part k of package i of the chunk.
func (ch *hayChunk) part(i, k int) string {
	end := int(ch.starts[ch.pkgEnt[i+1]]) - 1 // the '\n' ending the package's shared entry
	if k+1 < int(ch.pkgPart[i+1]) {
		end = int(ch.parts[k+1].start) - 1 // the space before the next part
	}
	return ch.text[ch.parts[k].start:end]
}

// sharedRows is the rows of package i of the chunk (bit r: row r) holding w in one of
// their shared parts, stopping once every row in want is found.
func (ch *hayChunk) sharedRows(i int, w string, want uint64) uint64 {
	var found uint64
	for k := int(ch.pkgPart[i]); k < int(ch.pkgPart[i+1]) && found&want != want; k++ {
		if p := &ch.parts[k]; p.rows&want&^found != 0 && strings.Contains(ch.part(i, k), w) {
			found |= p.rows
		}
	}
	return found & want
}

// addHays appends a batch's filter text, or drops the index when the batch came without
// one (rows then build their text on first use).
func (d *data) addHays(pkgs []*model.Package, ch *hayChunk) {
	if ch == nil || ch.npkgs != len(pkgs) || len(d.pkgChunk) != len(d.pkgs) {
		d.chunks, d.pkgBase, d.pkgChunk, d.pkgLocal, d.nrows = nil, nil, nil, nil, 0
		return
	}
	ch.base = d.nrows
	d.chunks = append(d.chunks, ch)
	for i, p := range pkgs {
		d.pkgBase = append(d.pkgBase, int32(d.nrows))
		d.pkgChunk = append(d.pkgChunk, int32(len(d.chunks)-1))
		d.pkgLocal = append(d.pkgLocal, int32(i))
		d.nrows += len(p.Components) + 1
	}
}

// rowText is the indexed own filter text of component comp of package pkg (comp -1:
// the package row), without its shared parts (sharedHas); false when the package has
// none.
func (d *data) rowText(pkg, comp int) (string, bool) {
	if pkg >= len(d.pkgChunk) {
		return "", false
	}
	ch := d.chunks[d.pkgChunk[pkg]]
	k := int(ch.pkgEnt[d.pkgLocal[pkg]]) + comp + 1
	return ch.text[ch.starts[k] : ch.starts[k+1]-1], true
}

// sharedHas reports whether one of the shared parts of a row (rowText) holds w.
func (d *data) sharedHas(pkg, comp int, w string) bool {
	if pkg >= len(d.pkgChunk) {
		return false
	}
	return d.chunks[d.pkgChunk[pkg]].sharedRows(int(d.pkgLocal[pkg]), w, 1<<(comp+1)) != 0
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
	prev := t.c.data.scanned
	skip := func(chunk any, i int) bool {
		return strings.Contains(w, prev.word) && i < len(prev.chunks) && prev.chunks[i] == chunk && !prev.hit[i]
	}
	chunks, bodies := t.c.data.chunks, t.c.data.bodyIdx
	if !t.content {
		bodies = nil
	}
	// One task per chunk of filter text, then one per piece of each body index: the
	// bodies, most of what is searched, are shared between the cores as the chunks are.
	type piece struct {
		bi     *bodyIndex
		k0, k1 int // bodies k0 … k1-1
	}
	var pieces []piece
	for _, bi := range bodies {
		for k := 0; k+1 < len(bi.pieces); k++ {
			pieces = append(pieces, piece{bi, int(bi.pieces[k]), int(bi.pieces[k+1])})
		}
	}
	// The chunks mark rows of their own, so no two write the same mark; a body can mark
	// a row the filter text marks too, so the bodies mark rows in a slice of their own,
	// merged after.
	var bodyCand []bool
	if len(pieces) > 0 {
		if cap(t.candBody) < len(t.all) {
			t.candBody = make([]bool, len(t.all))
		}
		bodyCand = t.candBody[:len(t.all)]
		clear(bodyCand)
	}
	n := len(chunks) + len(pieces)
	next := scanRecord{word: w, chunks: make([]any, n), hit: make([]bool, n)}
	eachParallel(n, func(i int) {
		if i >= len(chunks) {
			pc := pieces[i-len(chunks)]
			key := bodyPieceKey{pc.bi, pc.k0}
			next.chunks[i] = key
			if skip(key, i) {
				return
			}
			bi := pc.bi
			scanEntries(bi.text, bi.starts, pc.k0, pc.k1, &bi.freq, w, func(k int) {
				bi.eachRow(k, func(row int32) { bodyCand[rowOf[row]] = true })
				next.hit[i] = true
			})
			return
		}
		ch := chunks[i]
		next.chunks[i] = ch
		if skip(ch, i) {
			return
		}
		pi, first := 0, 0 // the package of entry k, and the chunk row of its package row
		scanFor(ch.text, ch.starts, &ch.freq, w, func(k int) {
			for k >= int(ch.pkgEnt[pi+1]) {
				first += int(ch.pkgEnt[pi+1]-ch.pkgEnt[pi]) - 1
				pi++
			}
			next.hit[i] = true
			if r := k - int(ch.pkgEnt[pi]); r < int(ch.pkgEnt[pi+1]-ch.pkgEnt[pi])-1 {
				cand[rowOf[ch.base+first+r]] = true // a row's own text
				return
			}
			n := int(ch.pkgEnt[pi+1]-ch.pkgEnt[pi]) - 1
			found := ch.sharedRows(pi, w, 1<<n-1)
			for r := 0; found != 0; r, found = r+1, found>>1 {
				if found&1 != 0 {
					cand[rowOf[ch.base+first+r]] = true
				}
			}
		})
	})
	for i := len(chunks); i < n; i++ {
		if next.hit[i] {
			for r, b := range bodyCand {
				cand[r] = cand[r] || b
			}
			break
		}
	}
	t.c.data.scanned = next
	return cand, w
}

// bodyPieceKey names a piece of a body index in a scanRecord.
type bodyPieceKey struct {
	bi *bodyIndex
	k0 int
}

// bodyPiece is about the most body text one task of a search reads: enough pieces for
// the cores to share the work evenly, few enough that a task costs more than handing it
// out. (A variable: tests cut small bodies into many pieces.)
var bodyPiece = 2 << 20

// setPieces cuts the bodies into runs of about bodyPiece bytes (bi.pieces).
func (bi *bodyIndex) setPieces() {
	nb := len(bi.starts) - 1
	bi.pieces = append(bi.pieces[:0], 0)
	for k := 0; k < nb; {
		limit := int(bi.starts[k]) + bodyPiece
		next := k + 1 + sort.Search(nb-k-1, func(j int) bool { return int(bi.starts[k+1+j]) >= limit })
		bi.pieces = append(bi.pieces, int32(next))
		k = next
	}
}

// scanRecord is what the last index search found: per part searched (filter text
// chunks, then pieces of body indexes), whether the word occurs in it.
type scanRecord struct {
	word   string
	chunks []any
	hit    []bool
}

// eachParallel calls f(0) … f(n-1) on up to GOMAXPROCS goroutines (at most 4) and
// waits for them: a scan of every chunk is memory-bound work each core can share.
func eachParallel(n int, f func(i int)) { parallel.For(n, min(runtime.GOMAXPROCS(0), 4), f) }

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
	// pieces cuts the bodies into runs searched in parallel: run i is bodies
	// pieces[i] … pieces[i+1]-1 (setPieces).
	pieces []int32
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
	// The bodies let go are read back first, several files at a time.
	read := make([][]string, len(pkgs))
	var changed, unreadable atomic.Int64
	eachParallel(len(pkgs), func(i int) {
		p := pkgs[i]
		for j, c := range p.Components {
			if !bodyDropped(c) {
				continue
			}
			if read[i] == nil {
				read[i] = make([]string, len(p.Components))
			}
			text, err := readBody(p, c)
			switch {
			case errors.Is(err, errBodyChanged):
				changed.Add(1)
			case err != nil:
				unreadable.Add(1)
			default:
				read[i][j] = text
			}
		}
	})
	out.changed, out.unreadable = int(changed.Load()), int(unreadable.Load())
	row := base
	for i, p := range pkgs {
		row++ // the package row
		out.bodies[i] = make([]string, len(p.Components))
		for j, c := range p.Components {
			text := c.Body
			if bodyDropped(c) {
				text = read[i][j]
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
	idx.setPieces()
	for _, w := range where {
		out.bodies[w.pkg][w.comp] = idx.text[idx.starts[w.entry] : idx.starts[w.entry+1]-1]
	}
	return out
}

// scanFor calls found(k) once for each row k of text (rows start at starts, which ends
// with len(text)) that holds w. A word of one byte is found by strings.IndexByte; a
// longer one is anchored at a part of it that is rare in text (by freq), searched for,
// and checked around it in place:
//
//   - when w holds a byte rarer than one in sparseByte, at that byte: strings.Index hops
//     from one occurrence of its needle's first byte to the next, at vector speed ("zip"
//     is found through its z, not through every i);
//   - otherwise at the pair of adjacent bytes least likely together (indexPair): every
//     byte of "st" is common, and hopping from s to s costs a call per s, where a pair
//     search reads eight bytes a step whatever they hold.
func scanFor(text string, starts []int32, freq *[256]int64, w string, found func(k int)) {
	scanEntries(text, starts, 0, len(starts)-1, freq, w, found)
}

// sparseByte: a byte of a word occurring less often than once in this many bytes of
// text anchors the search by itself.
const sparseByte = 64

// scanEntries is scanFor over rows k0 … k1-1 only.
func scanEntries(text string, starts []int32, k0, k1 int, freq *[256]int64, w string, found func(k int)) {
	if k0 >= k1 || w == "" {
		return
	}
	p := 0
	for i := 1; i < len(w); i++ {
		if freq[w[i]] < freq[w[p]] {
			p = i
		}
	}
	pair := len(w) >= 2 && freq[w[p]]*sparseByte >= int64(len(text))
	if pair {
		// The pair whose bytes are together the rarest, as if they were independent.
		best := uint64(1<<64 - 1)
		for i := 0; i+1 < len(w); i++ {
			if c := uint64(freq[w[i]]) * uint64(freq[w[i+1]]); c < best {
				best, p = c, i
			}
		}
	}
	anchor, before := w[p:], w[:p]
	k, end := k0, int(starts[k1])
	for from := int(starts[k0]) + p; from < end; {
		var j int
		if pair {
			if j = indexPair(text[from:end], anchor[0], anchor[1]); j >= 0 && !strings.HasPrefix(text[from+j:end], anchor) {
				from += j + 1
				continue
			}
		} else {
			j = strings.Index(text[from:end], anchor)
		}
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

const lo8, hi8 = 0x0101010101010101, 0x8080808080808080

// indexPair is the first i with s[i] == a and s[i+1] == b, or -1. It compares eight
// positions a step: x and y are zero in the bytes where s holds a, and b one further on,
// so their or is zero where the pair starts, and the lowest byte of the or that the
// zero-byte test flags is a true zero (a borrow only flags bytes above one).
func indexPair(s string, a, b byte) int {
	i := 0
	ma, mb := lo8*uint64(a), lo8*uint64(b)
	for ; i+17 <= len(s); i += 16 { // two words a step: one branch per sixteen bytes
		z0 := (load64(s[i:i+8]) ^ ma) | (load64(s[i+1:i+9]) ^ mb) // in Go ^ binds no tighter than |
		z1 := (load64(s[i+8:i+16]) ^ ma) | (load64(s[i+9:i+17]) ^ mb)
		t0, t1 := (z0-lo8)&^z0&hi8, (z1-lo8)&^z1&hi8
		if t0|t1 != 0 {
			if t0 != 0 {
				return i + bits.TrailingZeros64(t0)/8
			}
			return i + 8 + bits.TrailingZeros64(t1)/8
		}
	}
	for ; i+9 <= len(s); i += 8 {
		z := (load64(s[i:i+8]) ^ ma) | (load64(s[i+1:i+9]) ^ mb)
		if t := (z - lo8) &^ z & hi8; t != 0 {
			return i + bits.TrailingZeros64(t)/8
		}
	}
	for ; i+1 < len(s); i++ {
		if s[i] == a && s[i+1] == b {
			return i
		}
	}
	return -1
}

// load64 is the eight bytes of s (which holds at least eight) as a little-endian word.
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// passes reports whether row idx can match q given the prefilter: marked, or holding w in
// what the index does not hold (its authorization). auth is authHolds(w): false, no
// row's authorization holds w, and none need be looked up.
func (t *treePane) passes(cand []bool, w string, auth bool, idx int, it item) bool {
	if cand == nil || cand[idx] {
		return true
	}
	return auth && !it.isPackage() && strings.Contains(string(t.rowFlags(idx).auth), w)
}

// authHolds reports whether w can lie in some row's authorization: in one of rowAuths,
// or in another that a trust record gives. A word that cannot spares a keystroke the
// status of every row the index did not mark (computing 90,000 rows' flags the first
// time costs more than the search).
func (t *treePane) authHolds(w string) bool {
	for _, a := range rowAuths {
		if strings.Contains(string(a), w) {
			return true
		}
	}
	return t.otherAuths()
}

// otherAuths reports whether some record gives an authorization outside rowAuths (trust
// gives none today; a record keeps whatever trust said). It is looked up once per
// status change (statusChanged) and again when rows were added.
func (t *treePane) otherAuths() bool {
	s := &t.authScan
	if s.known && s.rows == len(t.all) {
		return s.other
	}
	s.known, s.rows, s.other = true, len(t.all), false
	for _, sts := range t.c.data.status {
		for _, cs := range sts {
			if cs.extra != nil && !slices.Contains(rowAuths[:], cs.auth()) {
				s.other = true
				return true
			}
		}
	}
	return false
}
