// Package display is the one way text that comes from a package reaches the terminal.
//
// Package files are hostile by assumption. A terminal interprets more than it shows:
// escape sequences move the cursor, clear the screen, set the clipboard (OSC 52) or
// plant hyperlinks (OSC 8); a carriage return lets later text overwrite earlier text;
// bidi controls reorder what a reviewer reads (CVE-2021-42574); zero-width, tag and
// other default-ignorable characters carry text nobody sees. Neither glamour, lipgloss
// nor Bubble Tea removes all of these, so every string from a package passes through
// Escape (or EscapeLine) before it is styled or rendered. Each such character or
// sequence becomes a visible token (␛[2J, ⟨U+202E RLO⟩) and is counted so the view can
// say how many it found. Stored data is never changed: hash and diff the raw bytes.
package display

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"vouch/model"
)

// Result is the escaped text and the number of hidden characters or sequences found.
type Result struct {
	Text   string
	Hidden int
}

// Escape returns s with every control, escape sequence, invalid byte and invisible
// character replaced by a visible token, and how many it replaced. Newlines and tabs
// are kept, for multi-line contexts.
func Escape(s string) (string, int) {
	r := escape(s, false, nil)
	return r.Text, r.Hidden
}

// EscapeStyled is Escape with each token passed through style (for example a lipgloss
// Render), so a reviewer's eye catches it. style receives only token text, never
// package text, and must not return control characters other than SGR.
func EscapeStyled(s string, style func(string) string) (string, int) {
	r := escape(s, false, style)
	return r.Text, r.Hidden
}

// EscapeLineStyled is EscapeLine with styled tokens; see EscapeStyled.
func EscapeLineStyled(s string, style func(string) string) (string, int) {
	r := escape(s, true, style)
	return r.Text, r.Hidden
}

// EscapeLine is Escape for single-line contexts (tree rows, titles, table cells):
// newlines and tabs become tokens too, and are not counted as hidden.
func EscapeLine(s string) (string, int) {
	r := escape(s, true, nil)
	return r.Text, r.Hidden
}

// String is Escape without the count, for call sites that only display.
func String(s string) string { t, _ := Escape(s); return t }

// Line is EscapeLine without the count.
func Line(s string) string { t, _ := EscapeLine(s); return t }

// Count reports how many hidden characters or sequences Escape would replace in s.
func Count(s string) int { _, n := Escape(s); return n }

// IsHidden reports whether r is a rune Escape never lets through (outside sequences):
// model.IsHiddenRune, the definition the loaders use for their hidden-content lists.
func IsHidden(r rune) bool { return model.IsHiddenRune(r) }

func needsWork(s string, line bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 {
			if line || (c != '\n' && c != '\t') {
				return true
			}
			continue
		}
		if c >= 0x7f {
			return needsWorkSlow(s[i:], line)
		}
	}
	return false
}

func needsWorkSlow(s string, line bool) bool {
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		if r == utf8.RuneError && size <= 1 {
			return true
		}
		if IsHidden(r) || (line && (r == '\n' || r == '\t')) {
			return true
		}
		s = s[size:]
	}
	return false
}

// names are short labels for the invisible characters people meet most.
var names = map[rune]string{
	0x00ad: "SHY", 0x034f: "CGJ", 0x061c: "ALM", 0x180e: "MVS",
	0x200b: "ZWSP", 0x200c: "ZWNJ", 0x200d: "ZWJ", 0x200e: "LRM", 0x200f: "RLM",
	0x2028: "LSEP", 0x2029: "PSEP",
	0x202a: "LRE", 0x202b: "RLE", 0x202c: "PDF", 0x202d: "LRO", 0x202e: "RLO",
	0x2060: "WJ", 0x2061: "FA", 0x2062: "IT", 0x2063: "IS", 0x2064: "IP",
	0x2066: "LRI", 0x2067: "RLI", 0x2068: "FSI", 0x2069: "PDI",
	0xfeff: "BOM", 0x3164: "HF", 0x115f: "HCF", 0x1160: "HJF", 0xffa0: "HWHF",
	0x0085: "NEL", 0x009b: "CSI", 0x009c: "ST", 0x009d: "OSC", 0x0090: "DCS",
	0x0098: "SOS", 0x009e: "PM", 0x009f: "APC",
}

// runeToken is the visible form of one hidden rune.
func runeToken(r rune) string {
	switch {
	case r < 0x20:
		return string(rune(0x2400 + r)) // Control Pictures: ␀ … ␟
	case r == 0x7f:
		return "␡"
	}
	if n, ok := names[r]; ok {
		return fmt.Sprintf("⟨U+%04X %s⟩", r, n)
	}
	if r >= 0xe0000 && r <= 0xe007f { // tag characters spell hidden ASCII
		if c := r - 0xe0000; c >= 0x20 && c < 0x7f {
			return fmt.Sprintf("⟨TAG %c⟩", c)
		}
	}
	return fmt.Sprintf("⟨U+%04X⟩", r)
}

type escaper struct {
	b      bytes.Buffer
	hidden int
	line   bool
	style  func(string) string
}

// styleFrom restyles what was written since start as one token.
func (e *escaper) styleFrom(start int) {
	if e.style == nil {
		return
	}
	tok := string(e.b.Bytes()[start:])
	e.b.Truncate(start)
	e.b.WriteString(e.style(tok))
}

func escape(s string, line bool, style func(string) string) Result {
	if !needsWork(s, line) {
		return Result{Text: s}
	}
	e := &escaper{line: line, style: style}
	e.b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		start := e.b.Len()
		switch {
		case r == utf8.RuneError && size <= 1:
			e.hidden++
			fmt.Fprintf(&e.b, "⟨0x%02X⟩", s[i])
			i++
		case r == 0x1b:
			i = e.escSeq(s, i)
		case r == 0x9b: // 8-bit CSI
			e.hidden++
			e.b.WriteString("⟨CSI⟩")
			i = e.csiBody(s, i+size)
		case r == 0x90 || r == 0x9d || r == 0x98 || r == 0x9e || r == 0x9f: // 8-bit DCS, OSC, SOS, PM, APC
			e.hidden++
			e.b.WriteString("⟨" + names[r] + "⟩")
			i = e.stringBody(s, i+size)
		case (r == '\n' || r == '\t') && line:
			if r == '\n' {
				e.b.WriteString("␤")
			} else {
				e.b.WriteString("␉")
			}
			i += size
		case IsHidden(r):
			e.hidden++
			e.b.WriteString(runeToken(r))
			i += size
		default:
			e.b.WriteString(s[i : i+size])
			i += size
			continue
		}
		e.styleFrom(start)
	}
	return Result{Text: e.b.String(), Hidden: e.hidden}
}

// escSeq shows an ESC sequence starting at s[i] and returns the index after it. The
// sequence is consumed whole, so no part of it can combine with what follows.
func (e *escaper) escSeq(s string, i int) int {
	e.hidden++
	e.b.WriteString("␛")
	i++
	if i >= len(s) {
		return i
	}
	c := s[i]
	switch c {
	case '[':
		e.b.WriteByte('[')
		return e.csiBody(s, i+1)
	case ']', 'P', 'X', '^', '_': // OSC, DCS, SOS, PM, APC: string until ST or BEL
		e.b.WriteByte(c)
		return e.stringBody(s, i+1)
	}
	// nF (intermediates 0x20–0x2F then a final byte 0x30–0x7E) and the two-byte
	// Fp/Fe/Fs escapes.
	return e.sequenceTail(s, i, 0x2f, 0x30)
}

// csiBody consumes parameter (0x30–0x3F) and intermediate (0x20–0x2F) bytes and the
// final byte (0x40–0x7E).
func (e *escaper) csiBody(s string, i int) int {
	return e.sequenceTail(s, i, 0x3f, 0x40)
}

// sequenceTail consumes the bytes from 0x20 to lastInner inside an escape sequence and
// then one final byte from firstFinal to 0x7E, where the sequence ends. All are
// printable ASCII, so they are shown as they are.
func (e *escaper) sequenceTail(s string, i int, lastInner, firstFinal byte) int {
	for i < len(s) && s[i] >= 0x20 && s[i] <= lastInner {
		e.b.WriteByte(s[i])
		i++
	}
	if i < len(s) && s[i] >= firstFinal && s[i] <= 0x7e {
		e.b.WriteByte(s[i])
		i++
	}
	return i
}

// stringBody consumes a control string up to its terminator (BEL, ESC \, 8-bit ST) or
// CAN/SUB, which abort it. Its content is shown, each rune escaped on its own.
func (e *escaper) stringBody(s string, i int) int {
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0x07:
			e.b.WriteString("␇")
			return i + size
		case r == 0x1b && i+1 < len(s) && s[i+1] == '\\':
			e.b.WriteString(`␛\`)
			return i + 2
		case r == 0x1b:
			// A terminal abandons the string here and starts a new sequence.
			return i
		case r == 0x9c:
			e.b.WriteString("⟨ST⟩")
			return i + size
		case r == 0x18 || r == 0x1a:
			e.b.WriteString(runeToken(r))
			return i + size
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&e.b, "⟨0x%02X⟩", s[i])
		case r == '\n' || r == '\t':
			if e.line || r == '\n' {
				e.b.WriteString(runeToken(r))
			} else {
				e.b.WriteByte('\t')
			}
		case IsHidden(r):
			e.b.WriteString(runeToken(r))
		default:
			e.b.WriteString(s[i : i+size])
		}
		i += size
	}
	return i
}
