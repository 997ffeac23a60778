package ui

import (
	"strings"
	"sync"

	"charm.land/glamour/v2"
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

// render renders already-escaped markdown at width. Its output passes through onlySGR:
// glamour writes links as OSC 8 hyperlinks, and vouch shows URLs as text only.
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
	out, err := tr.Render(escaped)
	if err != nil {
		return "", err
	}
	return strings.Trim(onlySGR(out), "\n"), nil
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
