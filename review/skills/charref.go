package skills

import (
	"fmt"
	"html"
	"strings"

	"github.com/yuin/goldmark/util"

	"vouch/model"
)

// HiddenCharacterReference is the hidden-content kind of an HTML character reference that
// decodes to a hidden or control code point (&#13;, &#x202E;, &ZeroWidthSpace;).
const HiddenCharacterReference = "character-reference"

// CharRef is one HTML character reference in markdown text whose decoded form holds a
// hidden code point (model.IsHiddenRune).
type CharRef struct {
	Start, End int    // byte span of the reference in the text
	Decoded    string // what a renderer shows for the span
	Hidden     []rune // the hidden code points in Decoded, in order
}

// Text is the reference as written.
func (c CharRef) Text(s string) string { return s[c.Start:c.End] }

// Describe is "&#x202E; → U+202E RIGHT-TO-LEFT OVERRIDE" for a reviewer.
func (c CharRef) Describe(s string) string {
	var names []string
	for i, r := range c.Hidden {
		if i == 8 {
			names = append(names, "…")
			break
		}
		names = append(names, DescribeRune(r))
	}
	return fmt.Sprintf("%s → %s", c.Text(s), strings.Join(names, ", "))
}

// maxNameSpan bounds the run of name characters taken as one named reference. The longest
// HTML5 entity name has 32 characters; for a longer run html.UnescapeString matches only
// a legacy prefix of at most 6, so the cut changes nothing. Digits are never cut: the
// standard decoder reads all of them and lets the value wrap ("&#4294967309;" is a
// carriage return), so the whole run must be decoded as it does. Spans never overlap,
// so the scan stays linear either way.
const maxNameSpan = 64

// HiddenCharRefs finds the character references in s that decode to hidden or control
// code points. Markdown renderers decode them after any escaping of the raw text:
// glamour passes text, code spans and table cells through html.UnescapeString (numeric
// references with or without ';', named references including the legacy ones without
// ';' such as "&shy", C1 numbers mapped as HTML5 maps them, overlong numbers wrapping),
// goldmark resolves references in its own way (util.ResolveNumericReferences and
// ResolveEntityNames). Each candidate span is decoded with both, by the very functions
// they use, so what is found here is what either of them would put on a screen. A span
// is "&#" [xX] digits [";"] or "&" letters-and-digits [";"], taken at its longest, as
// both decoders read it.
func HiddenCharRefs(s string) []CharRef {
	var out []CharRef
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '&')
		if j < 0 {
			break
		}
		start := i + j
		end := refSpan(s, start)
		if end <= start+1 {
			i = start + 1
			continue
		}
		span := s[start:end]
		if ref, ok := decodeRef(span); ok {
			ref.Start, ref.End = start, end
			out = append(out, ref)
		}
		i = end
	}
	return out
}

// refSpan returns the end of the reference candidate at s[start] == '&' (start+1 when
// there is none).
func refSpan(s string, start int) int {
	k := start + 1
	if k < len(s) && s[k] == '#' {
		k++
		hex := k < len(s) && (s[k] == 'x' || s[k] == 'X')
		if hex {
			k++
		}
		d := k
		for k < len(s) && (isDigit(s[k]) || hex && isHexLetter(s[k])) {
			k++
		}
		if k == d {
			return start + 1
		}
	} else {
		d := k
		for k < len(s) && k-d < maxNameSpan && isAlnum(s[k]) {
			k++
		}
		if k == d {
			return start + 1
		}
	}
	if k < len(s) && s[k] == ';' {
		k++
	}
	return k
}

func decodeRef(span string) (CharRef, bool) {
	std := html.UnescapeString(span)
	gm := string(util.ResolveEntityNames(util.ResolveNumericReferences([]byte(span))))
	for _, dec := range []string{std, gm} {
		if dec == span {
			continue
		}
		var hidden []rune
		for _, r := range dec {
			if IsInvisible(r) {
				hidden = append(hidden, r)
			}
		}
		if len(hidden) > 0 {
			return CharRef{Decoded: dec, Hidden: hidden}, true
		}
	}
	return CharRef{}, false
}

func isDigit(c byte) bool     { return c >= '0' && c <= '9' }
func isHexLetter(c byte) bool { return c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
func isAlnum(c byte) bool     { return isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// scanCharRefs reports each hidden character reference with its line.
func scanCharRefs(s string, lines *lineIndex) []model.HiddenContent {
	if strings.IndexByte(s, '&') < 0 {
		return nil
	}
	var out []model.HiddenContent
	for _, r := range HiddenCharRefs(s) {
		out = append(out, model.HiddenContent{Kind: HiddenCharacterReference, Line: lines.line(r.Start), Text: r.Describe(s)})
	}
	return out
}
