package ui

import (
	"strings"
	"unicode"

	"vouch/ui/display"

	"charm.land/lipgloss/v2"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// A changed line of a line diff is shown with the words that changed marked, so a
// reviewer sees the one flag that moved instead of re-reading two near-identical lines.
// The line diff itself is vouch's; the word diff inside a removed/added pair is
// diffmatchpatch's, run on escaped text cut into whole atoms (words, runs of spaces,
// single symbols and whole escape tokens), so no highlight starts inside a rune or
// inside the token that stands for a hidden character.

// wordAtom is one unit of an escaped line: plain text, or one escape token.
type wordAtom struct {
	text  string
	token bool
}

// wordSpan is a run of atoms of one side of a pair, changed or not.
type wordSpan struct {
	atoms   []wordAtom
	changed bool
}

// Bounds on the word diff: past them a pair is shown as two whole changed lines. A
// minified script can have one line of megabytes; diffing it word by word on every
// dialog build would stall the console for nothing a person can read.
const (
	maxWordAtoms = 2000
	// minWordShared is the share (in percent) of a pair's visible text that must be
	// unchanged for word marks to help: below it the lines are simply different.
	minWordShared = 40
)

// tokenMark stands for one escape token in the escaped text while it is cut into
// atoms. The escaped text never holds a raw NUL (it becomes ␀), so the mark is
// unambiguous.
const tokenMark = "\x00"

// atomize escapes a line for one-line display and cuts it into atoms. hidden is how
// many hidden characters the escape found.
func atomize(line string) (atoms []wordAtom, hidden int) {
	var toks []string
	esc, hidden := display.EscapeLineStyled(line, func(t string) string {
		toks = append(toks, t)
		return tokenMark
	})
	rs := []rune(esc)
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case string(r) == tokenMark:
			atoms = append(atoms, wordAtom{text: toks[0], token: true})
			toks = toks[1:]
			i++
			continue
		case isWordRune(r), unicode.IsSpace(r):
			j := i + 1
			for j < len(rs) && string(rs[j]) != tokenMark && sameClass(rs[j], r) {
				j++
			}
			atoms = append(atoms, wordAtom{text: string(rs[i:j])})
			i = j
			continue
		}
		atoms = append(atoms, wordAtom{text: string(r)})
		i++
	}
	return atoms, hidden
}

func isWordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

func sameClass(a, b rune) bool {
	return (isWordRune(a) && isWordRune(b)) || (unicode.IsSpace(a) && unicode.IsSpace(b))
}

// wordDiff compares a removed line with the added line that replaced it. ok is false
// when word marks would not help (too long, or too little in common); the spans are
// then nil and the caller shows each line whole.
func wordDiff(old, new []wordAtom) (oldSpans, newSpans []wordSpan, ok bool) {
	if len(old) > maxWordAtoms || len(new) > maxWordAtoms {
		return nil, nil, false
	}
	// Each distinct atom becomes one rune from a private-use plane, so diffmatchpatch
	// compares atoms whole; the table turns its answer back into atoms.
	ids := map[wordAtom]rune{}
	table := []wordAtom{}
	enc := func(as []wordAtom) []rune {
		rs := make([]rune, len(as))
		for i, a := range as {
			id, seen := ids[a]
			if !seen {
				id = rune(0xF0000 + len(table))
				ids[a] = id
				table = append(table, a)
			}
			rs[i] = id
		}
		return rs
	}
	ro, rn := enc(old), enc(new)
	dmp := diffmatchpatch.New()
	// No deadline: the answer must not depend on how busy the machine is, and the atom
	// bound keeps the work small.
	dmp.DiffTimeout = 0
	diffs := dmp.DiffCleanupSemantic(dmp.DiffMainRunes(ro, rn, false))
	shared, total := 0, 0
	for _, d := range diffs {
		var as []wordAtom
		for _, r := range d.Text {
			as = append(as, table[r-0xF0000])
		}
		n := visibleLen(as)
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			oldSpans = append(oldSpans, wordSpan{atoms: as})
			newSpans = append(newSpans, wordSpan{atoms: as})
			shared += 2 * n
			total += 2 * n
		case diffmatchpatch.DiffDelete:
			oldSpans = append(oldSpans, wordSpan{atoms: as, changed: true})
			total += n
		case diffmatchpatch.DiffInsert:
			newSpans = append(newSpans, wordSpan{atoms: as, changed: true})
			total += n
		}
	}
	if total == 0 || shared*100 < total*minWordShared {
		return nil, nil, false
	}
	return oldSpans, newSpans, true
}

// visibleLen counts the non-space runes of atoms, the part of a line a person reads.
func visibleLen(as []wordAtom) int {
	n := 0
	for _, a := range as {
		if a.token {
			n++
			continue
		}
		for _, r := range a.text {
			if !unicode.IsSpace(r) {
				n++
			}
		}
	}
	return n
}

// renderWords styles a line's spans: unchanged text in base, changed text in mark,
// escape tokens in the token style (reversed as well when they changed).
func renderWords(spans []wordSpan, base, mark, token lipgloss.Style) string {
	var b strings.Builder
	for _, sp := range spans {
		st, tk := base, token
		if sp.changed {
			st, tk = mark, token.Reverse(true)
		}
		var run strings.Builder
		flush := func() {
			if run.Len() > 0 {
				b.WriteString(st.Render(run.String()))
				run.Reset()
			}
		}
		for _, a := range sp.atoms {
			if a.token {
				flush()
				b.WriteString(tk.Render(a.text))
				continue
			}
			run.WriteString(a.text)
		}
		flush()
	}
	return b.String()
}

// renderAtoms styles a whole line in one style, its escape tokens in the token style.
func renderAtoms(as []wordAtom, base, token lipgloss.Style) string {
	return renderWords([]wordSpan{{atoms: as}}, base, base, token)
}
