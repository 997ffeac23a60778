package ui

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"vouch/internal/gen"
	"vouch/model"
	"vouch/trust"
)

// scanFor finds exactly the rows a strings.Contains on each row finds, wherever the
// rarest byte of the word lies, for words that occur at row starts and ends, twice in a
// row, or only across two rows (which must not count).
func TestScanForAgreesWithContains(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := "aaaaeeeesssrrv-x/"
	for round := range 300 {
		var rows []string
		for range 1 + rng.IntN(12) {
			var b strings.Builder
			for range rng.IntN(14) {
				b.WriteByte(alphabet[rng.IntN(len(alphabet))])
			}
			rows = append(rows, b.String())
		}
		text, starts, freq := joinRows(rows)
		for range 20 {
			var w string
			if r := rows[rng.IntN(len(rows))]; r != "" && rng.IntN(3) > 0 {
				i := rng.IntN(len(r))
				w = r[i : i+1+rng.IntN(len(r)-i)]
			} else {
				for range 1 + rng.IntN(4) {
					w += string(alphabet[rng.IntN(len(alphabet))])
				}
			}
			var got, want []int
			scanFor(text, starts, &freq, w, func(k int) { got = append(got, k) })
			for k, r := range rows {
				if strings.Contains(r, w) {
					want = append(want, k)
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("round %d: rows %q, word %q: scanFor %v, Contains %v", round, rows, w, got, want)
			}
		}
	}
}

// The index with shared parts finds exactly the rows whose whole filter text (filterText,
// every part joined) holds a word: through the index scan (prefilter) and row by row
// (rowText and sharedHas), for words taken from the rows' own text and from their shared
// parts, on fixture copies, the hostile corpus and packages read from disk.
func TestSharedPartsIndexAgreesWithFilterText(t *testing.T) {
	dir := t.TempDir() + "/gen"
	if err := gen.Generate(dir, 12); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for name, m := range map[string]*Model{
		"fixtures": newTestModel(t, largeSource(30), 120, 40),
		"hostile":  newTestModel(t, append(hostilePackages(), largeSource(3)...), 120, 40),
		"disk":     diskModel(t, 120, 40, dir),
	} {
		tr, d := m.tree, m.data
		if tr.rowOf == nil || len(d.chunks) == 0 {
			t.Fatalf("%s: no index", name)
		}
		shared := 0
		for _, ch := range d.chunks {
			shared += len(ch.parts)
		}
		if shared == 0 {
			t.Fatalf("%s: no part is shared: the test checks nothing new", name)
		}
		full := make([]string, len(tr.all))
		var words []string
		for i, it := range tr.all {
			p := d.pkgs[it.pkg]
			var c *model.Component
			if !it.isPackage() {
				c = p.Components[it.comp]
			}
			full[i] = filterText(p, c)
			fields := strings.Fields(full[i])
			for range 3 {
				if len(fields) == 0 {
					break
				}
				f := fields[rng.IntN(len(fields))]
				a := rng.IntN(len(f))
				if w := f[a : a+1+rng.IntN(len(f)-a)]; !strings.HasPrefix(w, ":") {
					words = append(words, w) // a word starting with ':' names a view
				}
			}
		}
		words = append(words, "zzqx", "plugin", "-0", "valid")
		for _, w := range words {
			cand, w0 := tr.prefilter([]string{w})
			if cand == nil || w0 != w {
				t.Fatalf("%s: no index search for %q", name, w)
			}
			for i, it := range tr.all {
				want := strings.Contains(full[i], w)
				own, _ := d.rowText(it.pkg, it.comp)
				byRow := strings.Contains(own, w) || d.sharedHas(it.pkg, it.comp, w)
				if cand[i] != want || byRow != want {
					t.Fatalf("%s: row %d %v, word %q: filter text %v, index %v, row by row %v\n%q\nown %q", name, i, it, w, want, cand[i], byRow, full[i], own)
				}
			}
		}
	}
}

// indexPair finds the first place a pair of bytes starts, as a byte-by-byte loop does,
// at every length around the eight- and sixteen-byte steps, for pairs of one byte
// twice, and for bytes whose high bit is set or that are zero (the zero-byte test must
// not flag a byte a borrow passed through).
func TestIndexPairAgreesWithLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	alphabet := []byte{'a', 'b', 0, 0x01, 0x7f, 0x80, 0x81, 0xfe, 0xff, '\n'}
	for round := range 20000 {
		s := make([]byte, rng.IntN(70))
		for i := range s {
			s[i] = alphabet[rng.IntN(len(alphabet))]
		}
		a, b := alphabet[rng.IntN(len(alphabet))], alphabet[rng.IntN(len(alphabet))]
		want := -1
		for i := 0; i+1 < len(s); i++ {
			if s[i] == a && s[i+1] == b {
				want = i
				break
			}
		}
		if got := indexPair(string(s), a, b); got != want {
			t.Fatalf("round %d: indexPair(%q, %q, %q) = %d, want %d", round, s, a, b, got, want)
		}
	}
}

// scanFor and scanEntries find exactly the rows strings.Contains finds, by either anchor:
// a rare byte (rows of one common text with a few rare bytes) and a pair of common bytes,
// for words of multi-byte UTF-8 (lowercased, as the index holds them) and hostile bytes,
// over every row and over runs of rows starting and ending anywhere.
func TestScanForAnchorsAgreeWithContains(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	common := []string{"e", "s", "t", "st", "é", "ß", "ü", "\x80", "\xff", "\x00"}
	rare := []string{"z", "q", "ǆ", "\x1b["}
	paths := map[bool]int{}
	for round := range 400 {
		var rows []string
		for range 1 + rng.IntN(20) {
			var b strings.Builder
			for range rng.IntN(80) {
				if rng.IntN(60) == 0 {
					b.WriteString(rare[rng.IntN(len(rare))])
				} else {
					b.WriteString(common[rng.IntN(len(common))])
				}
			}
			rows = append(rows, strings.ToLower(b.String()))
		}
		text, starts, freq := joinRows(rows)
		for range 20 {
			var w string
			if r := rows[rng.IntN(len(rows))]; r != "" && rng.IntN(3) > 0 {
				i := rng.IntN(len(r))
				w = r[i : i+1+rng.IntN(min(len(r)-i, 12))]
			} else {
				for range 1 + rng.IntN(4) {
					w += common[rng.IntN(len(common))]
				}
			}
			if len(w) >= 2 {
				rarest := w[0]
				for i := range len(w) {
					if freq[w[i]] < freq[rarest] {
						rarest = w[i]
					}
				}
				paths[freq[rarest]*sparseByte >= int64(len(text))]++
			}
			k0 := rng.IntN(len(rows) + 1)
			k1 := k0 + rng.IntN(len(rows)-k0+1)
			for _, run := range [][2]int{{0, len(rows)}, {k0, k1}} {
				var got, want []int
				scanEntries(text, starts, run[0], run[1], &freq, w, func(k int) { got = append(got, k) })
				for k := run[0]; k < run[1]; k++ {
					if strings.Contains(rows[k], w) {
						want = append(want, k)
					}
				}
				if !slices.Equal(got, want) {
					t.Fatalf("round %d: rows %q, word %q, rows %d…%d: scan %v, Contains %v", round, rows, w, run[0], run[1]-1, got, want)
				}
			}
		}
	}
	if paths[true] == 0 || paths[false] == 0 {
		t.Fatalf("words anchored at a pair %d, at a rare byte %d: one search went untested", paths[true], paths[false])
	}
}

// The text bodies cut into many small pieces (searched as separate tasks, in parallel)
// give, keystroke by keystroke, what the row-by-row search gives: over bodies held in
// memory (the hostile corpus) and bodies read back from disk.
func TestBodyPiecesAgreeWithFullPass(t *testing.T) {
	defer func(n int) { bodyPiece = n }(bodyPiece)
	bodyPiece = 64
	dir := t.TempDir() + "/gen"
	if err := gen.Generate(dir, 30); err != nil {
		t.Fatal(err)
	}
	for name, m := range map[string]*Model{
		"hostile": newTestModel(t, append(hostilePackages(), largeSource(5)...), 120, 40),
		"disk":    diskModel(t, 120, 40, dir),
	} {
		t.Run(name, func(t *testing.T) {
			incrementalAgrees(t, m, nil)
			pieces := 0
			for _, bi := range m.data.bodyIdx {
				pieces += len(bi.pieces) - 1
				// The pieces cover every body once, in order, each at most one body
				// past bodyPiece bytes.
				nb := len(bi.starts) - 1
				if len(bi.pieces) == 0 || bi.pieces[0] != 0 || int(bi.pieces[len(bi.pieces)-1]) != nb {
					t.Fatalf("pieces %v of %d bodies", bi.pieces, nb)
				}
				for k := 1; k < len(bi.pieces); k++ {
					a, b := bi.pieces[k-1], bi.pieces[k]
					if b <= a || (b-a > 1 && int(bi.starts[b-1]-bi.starts[a]) >= bodyPiece) {
						t.Fatalf("piece %d: bodies %d…%d of %d, starts %v", k, a, b-1, nb, bi.starts)
					}
				}
			}
			if pieces < 2 {
				t.Fatalf("the bodies make %d pieces: the test checks nothing new", pieces)
			}
		})
	}
}

// A backspace finds its query in the results cache however full the cache was when
// the word was typed: here it fills up at the word's fifth letter (twelve queries came
// before), and every shorter query of the word is shown again as it was found, not
// searched again (a cache emptied when full lost the first four).
func TestBackspaceFindsEveryQueryOfTheWord(t *testing.T) {
	m := newTestModel(t, largeSource(40), 120, 40)
	press(t, m, "/")
	for _, k := range strings.Split("abcdefghijkl", "") { // 12 queries of one letter
		press(t, m, k, "backspace")
	}
	word := "deployment"
	found := map[string]*filterResult{}
	for _, k := range strings.Split(word, "") {
		press(t, m, k)
		found[m.tree.filter.Value()] = m.tree.last
	}
	if len(m.tree.results) > maxResults {
		t.Fatalf("the cache holds %d results, at most %d", len(m.tree.results), maxResults)
	}
	for range len(word) - 1 {
		press(t, m, "backspace")
		q := m.tree.filter.Value()
		if m.tree.last != found[q] {
			t.Fatalf("backspace to %q searched again: the cache lost it", q)
		}
	}
}

// A row is found by its authorization, which the text index does not hold, also when a
// record gives one outside the usual few: a word no usual authorization holds is
// checked against no row's status, unless some record gives another (otherAuths).
func TestFilterFindsAnUnusualAuthorization(t *testing.T) {
	m := newTestModel(t, largeSource(20), 120, 40)
	var target item
	found := false
	for pi, p := range m.data.pkgs {
		for j, c := range p.Components {
			if sts := m.data.status[p]; c.Contract != nil && !found && j < len(sts) {
				sts[j] = compStatus{code: 1, extra: &trust.Status{Ref: p.Ref(c), Authorization: "quarantined"}}
				target, found = item{pkg: pi, comp: j}, true
			}
		}
	}
	if !found {
		t.Fatal("no component with a contract and a status: the test checks nothing")
	}
	m.tree.statusChanged()
	press(t, m, "/", "q", "u", "a", "r", "a")
	if m.tree.rowOf == nil || !m.tree.authScan.other {
		t.Fatalf("index %v, other authorizations found %v: the index path went untested", m.tree.rowOf != nil, m.tree.authScan.other)
	}
	got := visibleItems(m)
	if !slices.Contains(got, target) {
		t.Fatalf("quara: %v, want the row of %v among them", got, target)
	}
	m.tree.statusChanged()
	rowOf := m.tree.rowOf
	m.tree.rowOf = nil
	m.tree.applyFilter()
	m.tree.rowOf = rowOf
	if want := visibleItems(m); !slices.Equal(got, want) {
		t.Fatalf("index %v, row by row %v", got, want)
	}
	// Without it, a word no authorization holds looks up no status (a word no row
	// holds either: a row shown would have its status drawn).
	m.data.status[m.data.pkgs[target.pkg]][target.comp] = compStatus{code: 2}
	m.tree.statusChanged()
	press(t, m, "backspace", "backspace", "backspace", "backspace", "backspace", "z", "z", "q", "x")
	if len(m.tree.visible) != 0 || m.tree.authScan.other {
		t.Fatalf("zzqx shows %d rows, other authorizations %v", len(m.tree.visible), m.tree.authScan.other)
	}
	if m.tree.flags != nil && slices.ContainsFunc(m.tree.flags, func(b flagByte) bool { return b != 0 }) {
		t.Fatal("a word no authorization holds computed row flags")
	}
}

// joinRows lays rows out as the index does: each row then '\n', the start of each and the
// text's length, and the text's byte counts.
func joinRows(rows []string) (string, []int32, [256]int64) {
	var b strings.Builder
	var starts []int32
	var freq [256]int64
	for _, r := range rows {
		starts = append(starts, int32(b.Len()))
		b.WriteString(r)
		b.WriteByte('\n')
	}
	starts = append(starts, int32(b.Len()))
	text := b.String()
	for i := 0; i < len(text); i++ {
		freq[text[i]]++
	}
	return text, starts, freq
}
