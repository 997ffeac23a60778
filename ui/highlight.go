package ui

import (
	"bytes"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"vouch/ui/display"

	"charm.land/lipgloss/v2"
)

// Filter matches in tree rows, highlighted so the reviewer sees why a row matched. Package
// text is escaped first and styled after: the matches are found in the escaped text, the
// text the reviewer sees, and a match that touches an escape token (␛[31m, ⟨U+202E RLO⟩)
// covers the whole token, so highlighting never splits one. Between building a row and
// styling it, a match is held between two C0 marks that display.Escape never lets through
// from package text, so they can only come from here; ansi.Truncate and ansi.Strip keep
// them (zero width), which lets a row be cut to the pane first and styled after.
const (
	markOn  = "\x02"
	markOff = "\x03"
	// tokOn and tokOff bracket tokens while the escaped text is split into text and
	// tokens (never left in any output).
	tokOn  = '\x00'
	tokOff = '\x01'
)

// markMatches escapes raw for one line and marks each case-insensitive occurrence of a
// plain filter word (view words, ":hooks", are not text) in it.
func markMatches(raw string, words []string) string {
	if len(words) == 0 {
		return display.Line(raw)
	}
	marked, _ := display.EscapeLineStyled(raw, func(tok string) string {
		return string(tokOn) + tok + string(tokOff)
	})
	// Split into the shown text and the spans of its tokens.
	var shown strings.Builder
	var toks [][2]int
	for i := 0; i < len(marked); {
		if marked[i] == tokOn {
			j := strings.IndexByte(marked[i+1:], tokOff)
			if j < 0 {
				j = len(marked) - i - 1
			}
			start := shown.Len()
			shown.WriteString(marked[i+1 : i+1+j])
			toks = append(toks, [2]int{start, shown.Len()})
			i += j + 2
			continue
		}
		shown.WriteByte(marked[i])
		i++
	}
	text := shown.String()
	spans := matchSpans(text, words)
	if len(spans) == 0 {
		return text
	}
	// Widen each span over the tokens it touches.
	for k := range spans {
		for _, t := range toks {
			if t[0] < spans[k][1] && t[1] > spans[k][0] {
				spans[k][0] = min(spans[k][0], t[0])
				spans[k][1] = max(spans[k][1], t[1])
			}
		}
	}
	spans = mergeSpans(spans)
	var b strings.Builder
	prev := 0
	for _, sp := range spans {
		b.WriteString(text[prev:sp[0]])
		b.WriteString(markOn)
		b.WriteString(text[sp[0]:sp[1]])
		b.WriteString(markOff)
		prev = sp[1]
	}
	b.WriteString(text[prev:])
	return b.String()
}

// matchSpans finds every occurrence of each plain word in text, case-insensitively (the
// filter lowercases both sides), as byte spans of text on rune boundaries.
func matchSpans(text string, words []string) [][2]int {
	low := make([]byte, 0, len(text))
	at := make([]int, 0, len(text)+1) // at[k]: the byte of text where lowered byte k's rune starts
	for i, r := range text {
		n := len(low)
		low = utf8.AppendRune(low, unicode.ToLower(r))
		for range len(low) - n {
			at = append(at, i)
		}
	}
	at = append(at, len(text))
	var spans [][2]int
	for _, w := range words {
		if w == "" || strings.HasPrefix(w, ":") {
			continue
		}
		wb := []byte(w)
		for from := 0; from <= len(low)-len(wb); {
			k := bytes.Index(low[from:], wb)
			if k < 0 {
				break
			}
			s := from + k
			spans = append(spans, [2]int{at[s], at[s+len(wb)]})
			from = s + len(wb)
		}
	}
	return spans
}

// mergeSpans sorts spans and joins those that overlap or touch.
func mergeSpans(spans [][2]int) [][2]int {
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	out := spans[:0]
	for _, sp := range spans {
		if n := len(out); n > 0 && sp[0] <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], sp[1])
			continue
		}
		out = append(out, sp)
	}
	return out
}

// renderMarked styles a marked line: base for the text outside matches, match for the
// text inside. A match the row was cut in the middle of ends with the line.
func renderMarked(s string, base, match func(string) string) string {
	if !strings.Contains(s, markOn) {
		return base(strings.ReplaceAll(s, markOff, ""))
	}
	var b strings.Builder
	in := false
	for s != "" {
		sep := markOn
		if in {
			sep = markOff
		}
		i := strings.Index(s, sep)
		part := s
		if i >= 0 {
			part, s = s[:i], s[i+len(sep):]
		} else {
			s = ""
		}
		part = strings.NewReplacer(markOn, "", markOff, "").Replace(part)
		if part != "" {
			if in {
				b.WriteString(match(part))
			} else {
				b.WriteString(base(part))
			}
		}
		in = !in
	}
	return b.String()
}

// with is st.Render for one string.
func with(st lipgloss.Style) func(string) string {
	return func(x string) string { return st.Render(x) }
}

// unmark removes the marks (text shown without highlighting).
func unmark(s string) string {
	return strings.NewReplacer(markOn, "", markOff, "").Replace(s)
}
