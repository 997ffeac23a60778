package ui

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
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
