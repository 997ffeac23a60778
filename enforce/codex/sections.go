package codex

import (
	"errors"
	"strconv"
	"strings"
)

// section is a stretch of config.toml text: the part before the first table header, or
// one [table] (or [[array]] table) header with the lines up to the next header.
type section struct {
	header     []string // the table's key; nil for the preamble, an array table, or a header vouch cannot read
	start, end int      // byte offsets of the section in the text
	// keepFrom is where the comments that lead into the next header start (end when there
	// are none): removing a table keeps them, since they describe what follows.
	keepFrom int
}

// splitSections cuts TOML text at its table headers. It follows strings (basic, literal
// and both multi-line forms), comments and multi-line arrays and inline tables, so a line
// inside a value that starts with '[' is not taken for a header. The caller re-parses what
// it builds from the pieces, so a misreading can only make an edit fail, never change a
// key it does not own.
func splitSections(text []byte) ([]section, error) {
	var secs []section
	cur := section{start: 0, keepFrom: -1}
	lastContentEnd := 0 // end of the last line of the section that is not blank or a comment
	firstTrailingComment := -1
	mode := byte(0) // 0, '"' inside a multi-line basic string, '\'' inside a multi-line literal
	depth := 0
	for ls := 0; ls < len(text); {
		le := ls
		for le < len(text) && text[le] != '\n' {
			le++
		}
		if le < len(text) {
			le++
		}
		line := text[ls:le]
		trim := strings.TrimLeft(string(line), " \t")
		if mode == 0 && depth == 0 && strings.HasPrefix(trim, "[") {
			cur.end = ls
			cur.keepFrom = trailingFrom(lastContentEnd, firstTrailingComment, ls)
			secs = append(secs, cur)
			cur = section{start: ls, header: parseHeader(trim)}
			lastContentEnd, firstTrailingComment = le, -1
			ls = le
			continue
		}
		trivia := mode == 0 && depth == 0 && (strings.TrimSpace(trim) == "" || strings.HasPrefix(trim, "#"))
		var err error
		mode, depth, err = scanLine(line, mode, depth)
		if err != nil {
			return nil, err
		}
		switch {
		case !trivia:
			lastContentEnd, firstTrailingComment = le, -1
		case strings.HasPrefix(trim, "#") && firstTrailingComment < 0:
			firstTrailingComment = ls
		}
		ls = le
	}
	if mode != 0 || depth != 0 {
		return nil, errors.New("a string, array or inline table is not closed at the end of the file")
	}
	cur.end = len(text)
	cur.keepFrom = trailingFrom(lastContentEnd, firstTrailingComment, len(text))
	return append(secs, cur), nil
}

func trailingFrom(lastContentEnd, firstComment, end int) int {
	if firstComment >= lastContentEnd {
		return firstComment
	}
	return end
}

// scanLine follows one line of a value: strings, comments and bracket depth.
func scanLine(line []byte, mode byte, depth int) (byte, int, error) {
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch mode {
		case '"':
			if c == '\\' {
				i++
			} else if c == '"' && hasAt(line, i, `"""`) {
				mode, i = 0, i+2
				for i+1 < len(line) && line[i+1] == '"' { // up to two quotes may end the content
					i++
				}
			}
			continue
		case '\'':
			if c == '\'' && hasAt(line, i, "'''") {
				mode, i = 0, i+2
				for i+1 < len(line) && line[i+1] == '\'' {
					i++
				}
			}
			continue
		}
		switch c {
		case '#':
			return mode, depth, nil
		case '"':
			if hasAt(line, i, `"""`) {
				mode, i = '"', i+2
				continue
			}
			for i++; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' {
					i++
				}
			}
		case '\'':
			if hasAt(line, i, "'''") {
				mode, i = '\'', i+2
				continue
			}
			for i++; i < len(line) && line[i] != '\''; i++ {
			}
		case '[', '{':
			depth++
		case ']', '}':
			depth--
			if depth < 0 {
				return mode, depth, errors.New("a closing bracket has no opening one")
			}
		}
	}
	return mode, depth, nil
}

func hasAt(b []byte, i int, s string) bool {
	return i+len(s) <= len(b) && string(b[i:i+len(s)]) == s
}

// parseHeader reads the key of a [table] header line; nil for an [[array]] table or a
// header it cannot read (such a table is never taken for one of vouch's).
func parseHeader(line string) []string {
	if strings.HasPrefix(line, "[[") {
		return nil
	}
	s := line[1:]
	var key []string
	for {
		s = strings.TrimLeft(s, " \t")
		var seg string
		switch {
		case strings.HasPrefix(s, `"`):
			end := 1
			for end < len(s) && s[end] != '"' {
				if s[end] == '\\' {
					end++
				}
				end++
			}
			if end >= len(s) {
				return nil
			}
			u, err := strconv.Unquote(s[:end+1])
			if err != nil {
				return nil
			}
			seg, s = u, s[end+1:]
		case strings.HasPrefix(s, "'"):
			end := strings.IndexByte(s[1:], '\'')
			if end < 0 {
				return nil
			}
			seg, s = s[1:end+1], s[end+2:]
		default:
			n := 0
			for n < len(s) && (s[n] >= 'a' && s[n] <= 'z' || s[n] >= 'A' && s[n] <= 'Z' || s[n] >= '0' && s[n] <= '9' || s[n] == '_' || s[n] == '-') {
				n++
			}
			if n == 0 {
				return nil
			}
			seg, s = s[:n], s[n:]
		}
		key = append(key, seg)
		s = strings.TrimLeft(s, " \t")
		switch {
		case strings.HasPrefix(s, "."):
			s = s[1:]
		case strings.HasPrefix(s, "]"):
			return key
		default:
			return nil
		}
	}
}
