package skills

import (
	"sort"
	"strings"

	"vouch/model"
)

// Kinds of text the renderer drops that are not HTML.
const (
	// HiddenLinkTitle is the title of an inline link, [text](url "title"): shown only
	// as a tooltip, never in a terminal.
	HiddenLinkTitle = "link-title"
	// HiddenImageTitle is the title of an image, ![alt](src "title").
	HiddenImageTitle = "image-title"
	// HiddenFenceInfo is what follows a code fence's language (```sh run this too):
	// the renderer uses the first word to pick a highlighter and shows none of it.
	HiddenFenceInfo = "fence-info"
)

// scanDropped lists the link and image titles and fence info words of md. It reads more
// than a renderer would (a title-like string after a link inside a code span is listed
// too), never less. One pass over the text plus the titles and destinations it finds;
// when a text packs so many overlapping links that the scan would cost more than a few
// passes, each remaining line that could hold a title is listed whole instead.
func scanDropped(md string, lines *lineIndex) []model.HiddenContent {
	var out []model.HiddenContent
	fenced := fenceInfo(md, lines, &out)
	budget := 32*len(md) + 4096
	from := 0
	for i := 0; ; {
		j := strings.Index(md[i:], "](")
		if j < 0 {
			break
		}
		at := i + j
		i = at + 2
		if inRanges(fenced, at) {
			continue
		}
		if budget <= 0 {
			out = append(out, wholeLines(md, at, lines, fenced)...)
			break
		}
		start, end, cost := linkTitle(md, at+2)
		budget -= cost
		if end <= start {
			continue
		}
		// The link text's [ is looked for back to the previous title only, so the looks
		// together read the text once.
		kind := HiddenLinkTitle
		if at >= from {
			if b := strings.LastIndexByte(md[from:at], '['); b >= 0 && from+b > 0 && md[from+b-1] == '!' {
				kind = HiddenImageTitle
			}
			budget -= at - from
		}
		out = append(out, model.HiddenContent{Kind: kind, Line: lines.line(start), Text: md[start:end]})
		from = max(from, end)
	}
	return out
}

// linkTitle reads what follows "](" at p: a destination, white space with at most one
// line break, and a title in "…", '…' or (…) that crosses no blank line. It returns the
// title's span (empty when there is none) and the bytes it examined.
func linkTitle(md string, p int) (start, end, cost int) {
	q := p
	for q < len(md) && (md[q] == ' ' || md[q] == '\t') {
		q++
	}
	if q < len(md) && md[q] == '<' {
		k := strings.IndexAny(md[q:], ">\n")
		if k < 0 || md[q+k] != '>' {
			return 0, 0, q - p + max(k, 0)
		}
		q += k + 1
	} else {
		for q < len(md) && md[q] != ' ' && md[q] != '\t' && md[q] != '\n' {
			q++
		}
	}
	nl := false
	for q < len(md) && (md[q] == ' ' || md[q] == '\t' || md[q] == '\r' || md[q] == '\n' && !nl) {
		nl = nl || md[q] == '\n'
		q++
	}
	if q >= len(md) {
		return 0, 0, q - p
	}
	closer := md[q]
	switch closer {
	case '"', '\'':
	case '(':
		closer = ')'
	default:
		return 0, 0, q - p
	}
	k := strings.IndexByte(md[q+1:], closer)
	if k < 0 {
		return 0, 0, len(md) - p
	}
	title := md[q+1 : q+1+k]
	if strings.Contains(title, "\n\n") || strings.Contains(title, "\n\r\n") || strings.TrimSpace(title) == "" {
		return 0, 0, q + 1 + k - p
	}
	return q + 1, q + 1 + k, q + 1 + k - p
}

// wholeLines lists, from at on, every line outside fenced code that holds "](" and a
// quote or parenthesis after it: the conservative reading once the budget is spent.
func wholeLines(md string, at int, lines *lineIndex, fenced [][2]int) []model.HiddenContent {
	var out []model.HiddenContent
	ls := strings.LastIndexByte(md[:at], '\n') + 1
	for ls < len(md) {
		le := strings.IndexByte(md[ls:], '\n')
		if le < 0 {
			le = len(md)
		} else {
			le += ls
		}
		line := md[ls:le]
		if k := strings.Index(line, "]("); k >= 0 && strings.ContainsAny(line[k:], "\"'(") && !inRanges(fenced, ls+k) {
			out = append(out, model.HiddenContent{Kind: HiddenLinkTitle, Line: lines.line(ls), Text: strings.TrimRight(line, "\r")})
		}
		ls = le + 1
	}
	return out
}

// fenceInfo lists the words after the language of every fence opener (``` or ~~~, after
// any indentation, > or list marker) and returns the fenced blocks' byte ranges, whose
// contents a renderer shows as they are.
func fenceInfo(md string, lines *lineIndex, out *[]model.HiddenContent) [][2]int {
	var ranges [][2]int
	var ch byte
	n, openAt := 0, 0
	for ls := 0; ls < len(md); {
		le := strings.IndexByte(md[ls:], '\n')
		if le < 0 {
			le = len(md)
		} else {
			le += ls
		}
		body := strings.TrimLeft(md[ls:le], " \t>-*+0123456789.)")
		c, run, info := fence(body)
		switch {
		case run == 0:
		case n == 0:
			ch, n, openAt = c, run, ls
			if _, rest, ok := strings.Cut(strings.TrimSpace(info), " "); ok && strings.TrimSpace(rest) != "" {
				*out = append(*out, model.HiddenContent{Kind: HiddenFenceInfo, Line: lines.line(ls), Text: strings.TrimSpace(rest)})
			}
		case c == ch && run >= n && strings.TrimSpace(info) == "":
			ranges = append(ranges, [2]int{openAt, le})
			n = 0
		default:
			// An opener-like line inside a block is shown; its words are listed anyway.
			if _, rest, ok := strings.Cut(strings.TrimSpace(info), " "); ok && strings.TrimSpace(rest) != "" {
				*out = append(*out, model.HiddenContent{Kind: HiddenFenceInfo, Line: lines.line(ls), Text: strings.TrimSpace(rest)})
			}
		}
		ls = le + 1
	}
	if n > 0 {
		ranges = append(ranges, [2]int{openAt, len(md)})
	}
	return ranges
}

// fence reads a fence marker at the start of s: its character, length (0 for none) and
// the info string after it. A backtick fence's info holds no backtick.
func fence(s string) (byte, int, string) {
	if len(s) < 3 || s[0] != '`' && s[0] != '~' {
		return 0, 0, ""
	}
	c := s[0]
	run := 0
	for run < len(s) && s[run] == c {
		run++
	}
	if run < 3 {
		return 0, 0, ""
	}
	info := strings.TrimRight(s[run:], "\r")
	if c == '`' && strings.IndexByte(info, '`') >= 0 {
		return 0, 0, ""
	}
	return c, run, info
}

// inRanges reports whether at lies in one of rs (sorted, disjoint).
func inRanges(rs [][2]int, at int) bool {
	i := sort.Search(len(rs), func(i int) bool { return rs[i][1] > at })
	return i < len(rs) && at >= rs[i][0]
}
