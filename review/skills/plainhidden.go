package skills

import (
	"strings"

	"vouch/model"
)

// plainHidden finds, in one pass over the lines, what the markdown parse of scanHidden
// would find (HTML blocks, raw HTML, link reference definitions) when markdown is in a
// narrow shape that most skill bodies are in; it reports false for every other input,
// which then goes to the parse. The shape: every '<' outside a fenced code block that
// starts at the left margin is either the start of an HTML comment on a line of its own
// that starts with "<!--" and holds its "-->", or in a code span, or starts an
// autolink-like "<scheme:" (plainInline); no "]:", no carriage return or NUL, no line
// that starts a definition description (':'), and no fence that is indented or inside a
// container.
//
// Why those findings are exact:
//   - "<" followed by a letter, then letters, digits, '+', '.' or '-', then ':' is
//     neither a tag (a tag name is followed by space, '/' or '>') nor any other form of
//     raw HTML or HTML block opener, so it is never reported, whether it is an autolink,
//     text or code. A '<' in a code span is code.
//   - A line that starts with "<!--" at the left margin opens an HTML block wherever it
//     is, since that block may interrupt a paragraph (so it is no lazy continuation of a
//     list item or block quote, which need indentation or a '>'), unless a fenced code
//     block is open. A fence at the left margin is one of the document's top level, for
//     the same reason. With "-->" on that line, the block is that line alone.
//   - Without "]:" there is no link reference definition.
//
// TestPlainHiddenMatchesParse, the fast-path tests and FuzzPlainHidden hold it to the
// parse.
func plainHidden(md string, lines *lineIndex) ([]model.HiddenContent, bool) {
	if strings.Contains(md, "]:") || strings.ContainsAny(md, "\r\x00") {
		return nil, false
	}
	var out []model.HiddenContent
	var fence byte // the fence character while a fenced code block is open
	fenceLen := 0
	for off := 0; off < len(md); {
		line := md[off:]
		next := len(md)
		if i := strings.IndexByte(line, '\n'); i >= 0 {
			line, next = line[:i], off+i+1
		}
		start := off
		off = next
		if hasNestedFence(line) {
			return nil, false
		}
		if fence != 0 {
			if n := runOf(line, fence); n >= fenceLen && blank(line[n:]) {
				fence = 0
			}
			continue
		}
		if c, n := fenceOpener(line); n > 0 {
			fence, fenceLen = c, n
			continue
		}
		if strings.HasPrefix(line, "<!--") && strings.Contains(line, "-->") {
			out = append(out, model.HiddenContent{Kind: HiddenComment, Line: lines.line(start), Text: line})
			continue
		}
		if strings.HasPrefix(strings.TrimLeft(line, " \t>"), ":") || !plainInline(line) {
			return nil, false
		}
	}
	return out, true
}

// fenceOpener returns the character and length of the fence a left-margin line opens,
// or 0: three or more backticks or tildes, and for backticks no backtick after them.
func fenceOpener(line string) (byte, int) {
	if line == "" || line[0] != '`' && line[0] != '~' {
		return 0, 0
	}
	c := line[0]
	n := runOf(line, c)
	if n < 3 || c == '`' && strings.IndexByte(line[n:], '`') >= 0 {
		return 0, 0
	}
	return c, n
}

// hasNestedFence reports whether line holds what may be a fence behind indentation or a
// container's markers (a fence in a list item or block quote, or an indented closing
// fence), which plainHidden leaves to the parse.
func hasNestedFence(line string) bool {
	rest := strings.TrimLeft(line, " \t>-*+.)0123456789")
	return len(rest) < len(line) && (strings.HasPrefix(rest, "```") || strings.HasPrefix(rest, "~~~"))
}

func runOf(s string, c byte) int {
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	return n
}

func blank(s string) bool { return strings.Trim(s, " \t") == "" }

// plainInline reports whether every '<' of line is in a code span or followed by a
// scheme and a colon ("<https:", "<mailto:"), which no HTML construct starts with. Code
// spans are found on the line alone, which is exact when every backtick run of every line
// is closed on its line (so no span reaches into the next line of its paragraph) and no
// backslash can escape one. A line is left to the parse when a "<scheme:" outside code
// could run over a backtick to its '>' (an autolink swallows the backtick, so the spans
// after it differ), and when it has a '|' besides a '<' in code (a table row splits its
// cells at every pipe, inside code spans too).
func plainInline(line string) bool {
	if strings.IndexByte(line, '`') < 0 {
		return schemeOpenersOnly(line)
	}
	if strings.IndexByte(line, '\\') >= 0 {
		return false
	}
	codeLT := false
	for i := 0; i < len(line); {
		switch line[i] {
		case '`':
			n := runOf(line[i:], '`')
			end := spanEnd(line, i+n, n)
			if end < 0 {
				return false
			}
			codeLT = codeLT || strings.IndexByte(line[i:end], '<') >= 0
			i = end
		case '<':
			if !schemeOpener(line[i:]) {
				return false
			}
			if gt := strings.IndexByte(line[i:], '>'); gt >= 0 && strings.IndexByte(line[i:i+gt], '`') >= 0 {
				return false
			}
			i++
		default:
			i++
		}
	}
	return !codeLT || strings.IndexByte(line, '|') < 0
}

// spanEnd is where the code span whose opening run of n backticks ends at from closes:
// just past the next run of exactly n backticks, or -1 when the line has none.
func spanEnd(line string, from, n int) int {
	for i := from; i < len(line); {
		if line[i] != '`' {
			i++
			continue
		}
		m := runOf(line[i:], '`')
		if m == n {
			return i + m
		}
		i += m
	}
	return -1
}

// schemeOpenersOnly reports whether every '<' of line starts "<scheme:".
func schemeOpenersOnly(line string) bool {
	for i := strings.IndexByte(line, '<'); i >= 0; {
		if !schemeOpener(line[i:]) {
			return false
		}
		k := strings.IndexByte(line[i+1:], '<')
		if k < 0 {
			return true
		}
		i += 1 + k
	}
	return true
}

// schemeOpener reports whether s starts with '<', a letter, then letters, digits, '+',
// '.' or '-', then ':'.
func schemeOpener(s string) bool {
	if len(s) < 2 || s[0] != '<' || !isLetter(s[1]) {
		return false
	}
	j := 2
	for j < len(s) && (isLetter(s[j]) || s[j] >= '0' && s[j] <= '9' || s[j] == '+' || s[j] == '.' || s[j] == '-') {
		j++
	}
	return j < len(s) && s[j] == ':'
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
