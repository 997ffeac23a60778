package ui

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"vouch/internal/gen"
	"vouch/model"
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
