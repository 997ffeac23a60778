package ui

import (
	"strings"
	"sync"

	"charm.land/glamour/v2"

	"vouch/review/skills"
	"vouch/ui/display"
)

// markdownRenderer keeps one glamour renderer per (width, background): building one is
// costly and a TermRenderer must not render concurrently, hence the lock.
type markdownRenderer struct {
	mu sync.Mutex
	by map[mdKey]*glamour.TermRenderer
}

type mdKey struct {
	width int
	dark  bool
}

func newMarkdownRenderer() *markdownRenderer {
	return &markdownRenderer{by: map[mdKey]*glamour.TermRenderer{}}
}

// render renders already-escaped markdown at width.
//
// Escaping the raw text is not enough: glamour decodes HTML character references after
// it (html.UnescapeString on text, code spans and table cells), so "&#13;" would reach the
// screen as a carriage return that redraws a row, "&#x202E;" as a bidi override. Two
// layers close that:
//
//  1. Before rendering, every reference that decodes to a hidden or control code point
//     (skills.HiddenCharRefs, which decodes each candidate with glamour's and goldmark's
//     own functions) is replaced by the visible token of what it decodes to, "⟨U+202E
//     RLO⟩". This is the layer that shows the reviewer where the character is, and it
//     happens before word wrapping, so widths stay right. Harmless references (&amp;,
//     &lt;) are left to the renderer: they change how markdown parses.
//  2. After rendering, the output goes through onlySGR (glamour writes links as OSC 8
//     hyperlinks; vouch shows URLs as text only) and then escapeRendered, which escapes
//     every hidden rune outside glamour's SGR sequences. Layer 1 leaves nothing for it to
//     find; it is there so a decoding path nobody anticipated still cannot put a control,
//     bidi, zero-width or tag character on the screen.
//
// Escaping glamour's output alone would not do: a decoded "&#x1b;[8m" is an SGR sequence
// (conceal) that no later pass can tell apart from glamour's own styling, so references
// must be neutralized before the renderer sees them.
func (r *markdownRenderer) render(escaped string, width int, dark bool) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := mdKey{width, dark}
	tr := r.by[k]
	if tr == nil {
		style := "dark"
		if !dark {
			style = "light"
		}
		var err error
		tr, err = glamour.NewTermRenderer(glamour.WithStandardStyle(style), glamour.WithWordWrap(width))
		if err != nil {
			return "", err
		}
		r.by[k] = tr
	}
	out, err := tr.Render(neutralizeCharRefs(escaped))
	if err != nil {
		return "", err
	}
	return strings.Trim(escapeRendered(onlySGR(out)), "\n"), nil
}

// neutralizeCharRefs replaces each character reference that decodes to a hidden code
// point by the visible tokens of what it decodes to (layer 1 of render).
func neutralizeCharRefs(s string) string {
	refs := skills.HiddenCharRefs(s)
	if len(refs) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8*len(refs))
	last := 0
	for _, r := range refs {
		b.WriteString(s[last:r.Start])
		b.WriteString(display.String(r.Decoded))
		last = r.End
	}
	b.WriteString(s[last:])
	return b.String()
}

// escapeRendered escapes every hidden rune of rendered output except the SGR sequences
// (ESC [ parameters m) that onlySGR kept (layer 2 of render). Any other ESC is escaped.
func escapeRendered(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	text := 0
	for i := 0; i < len(s); i++ {
		if s[i] != 0x1b || i+1 >= len(s) || s[i+1] != '[' {
			continue
		}
		j := i + 2
		for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';' || s[j] == ':') {
			j++
		}
		if j >= len(s) || s[j] != 'm' {
			continue
		}
		b.WriteString(display.String(s[text:i]))
		b.WriteString(s[i : j+1])
		text = j + 1
		i = j
	}
	b.WriteString(display.String(s[text:]))
	return b.String()
}

// onlySGR removes every escape sequence except SGR (colours and attributes) from the
// output of a renderer vouch trusts. Package text was escaped before rendering, so any
// other sequence here (OSC 8 links) came from the renderer itself.
func onlySGR(s string) string {
	if !strings.ContainsRune(s, 0x1b) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c != 0x1b {
			b.WriteByte(c)
			i++
			continue
		}
		if i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && s[j] >= 0x20 && s[j] <= 0x3f {
				j++
			}
			if j < len(s) && s[j] >= 0x40 && s[j] <= 0x7e {
				if s[j] == 'm' {
					b.WriteString(s[i : j+1])
				}
				i = j + 1
				continue
			}
			i = j
			continue
		}
		if i+1 < len(s) && strings.IndexByte("]P_^X", s[i+1]) >= 0 {
			j := i + 2
			for j < len(s) {
				if s[j] == 0x07 {
					j++
					break
				}
				if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
					j += 2
					break
				}
				j++
			}
			i = j
			continue
		}
		i += 2
	}
	return b.String()
}
