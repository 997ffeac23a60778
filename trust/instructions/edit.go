package instructions

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"vouch/model"
)

// Manager is the name in vouch's own markers.
const Manager = "vouch"

// BlockID returns the id of the block holding instruction of package pkg: the
// component ref (<pkg>#instruction:<id>) encoded so that it is safe inside an HTML
// comment and a marker line. Bytes outside a conservative set become %XX, and a '-'
// that would follow another '-' is encoded too, so the id never holds "--", ">",
// whitespace or a line break.
func BlockID(pkg, instruction string) string {
	return EncodeID(model.Ref(pkg, model.KindInstruction, instruction))
}

// EncodeID makes any string a valid marker id (see BlockID).
func EncodeID(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			strings.IndexByte("._#:/@+=~,", c) >= 0
		if c == '-' {
			out := b.String()
			ok = !strings.HasSuffix(out, "-")
		}
		if ok {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	if b.Len() == 0 {
		return "%00"
	}
	return b.String()
}

// EOL style detection. The style of the lines vouch adds follows the file: the line
// break used by most lines wins; on a tie, the break of the last terminated line; a file
// without any line break (empty, or one line) gets LF.
func detectEOL(data []byte) string {
	crlf, lf := 0, 0
	last := "\n"
	for i := bytes.IndexByte(data, '\n'); i >= 0; {
		if i > 0 && data[i-1] == '\r' {
			crlf++
			last = "\r\n"
		} else {
			lf++
			last = "\n"
		}
		j := bytes.IndexByte(data[i+1:], '\n')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	switch {
	case crlf > lf:
		return "\r\n"
	case lf > crlf:
		return "\n"
	default:
		return last
	}
}

// eolBefore is the length of the line break ending at i (2 for \r\n, 1 for \n, else 0).
func eolBefore(data []byte, i int) int {
	if i >= 1 && i <= len(data) && data[i-1] == '\n' {
		if i >= 2 && data[i-2] == '\r' {
			return 2
		}
		return 1
	}
	return 0
}

// eolAt is the length of the line break starting at i.
func eolAt(data []byte, i int) int {
	if i < len(data) && data[i] == '\n' {
		return 1
	}
	if i+1 < len(data) && data[i] == '\r' && data[i+1] == '\n' {
		return 2
	}
	return 0
}

// ErrBodyMarker is returned when an instruction body holds a marker line: written into
// a block, it would end the block early or forge another manager's block.
var ErrBodyMarker = errors.New("the instruction text contains a managed-block marker line")

// normalizeBody is the body as vouch writes it: no UTF-8 BOM, outer CR/LF trimmed (as
// Dalo does), every line break in the target's style.
func normalizeBody(body, eol string) string {
	body = strings.TrimPrefix(body, string(bom))
	body = strings.Trim(body, "\r\n")
	body = strings.ReplaceAll(body, "\r\n", "\n")
	if eol != "\n" {
		body = strings.ReplaceAll(body, "\n", eol)
	}
	return body
}

// SameBody reports whether two bodies are the same text up to line-break style, a BOM
// and outer line breaks: differences an editor may introduce without anyone editing.
func SameBody(a, b string) bool { return normalizeBody(a, "\n") == normalizeBody(b, "\n") }

func renderBlock(id, body, eol string) (string, error) {
	nb := normalizeBody(body, eol)
	if ms := scanMarkers([]byte(nb)); len(ms) > 0 {
		return "", fmt.Errorf("%w (line %d: %s:%s %s)", ErrBodyMarker, ms[0].line, ms[0].manager, map[bool]string{true: "start", false: "end"}[ms[0].start], ms[0].id)
	}
	return "<!-- " + Manager + ":start " + id + " -->" + eol + nb + eol + "<!-- " + Manager + ":end " + id + " -->", nil
}

// MarkerError is returned when a target file has damaged markers: vouch refuses to
// write until a person repairs them.
type MarkerError struct {
	Path     string
	Problems []Problem
}

func (e *MarkerError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s has damaged managed-block markers; repair them before vouch writes to it:", e.Path)
	for _, p := range e.Problems {
		b.WriteString(" ")
		b.WriteString(p.Message)
	}
	return b.String()
}

func findBlock(blocks []Block, id string) (Block, bool) {
	for _, b := range blocks {
		if b.Manager == Manager && b.ID == id {
			return b, true
		}
	}
	return Block{}, false
}

// applyBytes returns data with the vouch block id holding body: replaced in place when
// present, otherwise appended. Appending adds exactly one blank line between the existing
// text and the block (none to an empty file), and keeps the final-newline state: a file
// without a final line break gets none after the end marker. Blank lines already at the
// end of the file are kept as they are. removeBytes inverts this exactly.
func applyBytes(data []byte, blocks []Block, id, body string) ([]byte, error) {
	eol := detectEOL(data)
	blk, err := renderBlock(id, body, eol)
	if err != nil {
		return nil, err
	}
	if b, ok := findBlock(blocks, id); ok {
		out := make([]byte, 0, len(data)+len(blk))
		out = append(out, data[:b.Start]...)
		out = append(out, blk...)
		return append(out, data[b.End:]...), nil
	}
	cs := bomLen(data)
	out := make([]byte, 0, len(data)+len(blk)+3*len(eol))
	out = append(out, data...)
	switch {
	case len(data) == cs: // empty (perhaps a BOM alone)
		out = append(out, blk...)
		out = append(out, eol...)
	case eolBefore(data, len(data)) > 0:
		out = append(out, eol...)
		out = append(out, blk...)
		out = append(out, eol...)
	default: // no final line break: end the last line, add the blank line, keep no final break
		out = append(out, eol...)
		out = append(out, eol...)
		out = append(out, blk...)
	}
	return out, nil
}

// removeRange is the span removeBytes deletes for block b: the block and the line
// breaks vouch added with it (see applyBytes).
func removeRange(data []byte, b Block) (from, to int) {
	s, e := b.Start, b.End
	after := eolAt(data, e)
	cs := bomLen(data)
	if s == cs {
		// First in the file: it was written to an empty file. A blank line after it
		// separated a block appended later; it goes too, so that block comes first again.
		to = e + after
		if after > 0 && to < len(data) {
			to += eolAt(data, to)
		}
		return s, to
	}
	before := eolBefore(data, s)
	prev := s - before
	prevBlank := prev == cs || eolBefore(data, prev) > 0
	if !prevBlank {
		// Not laid out by vouch (edited or moved by hand): take the block's lines only.
		if after > 0 {
			return s, e + after
		}
		return prev, e
	}
	if after > 0 {
		return prev, e + after
	}
	// Last in a file without a final line break: vouch added two line breaks before it.
	if prev-before >= cs && bytes.Equal(data[prev-before:prev], data[prev:s]) {
		return prev - before, e
	}
	return prev, e
}

func removeBytes(data []byte, blocks []Block, id string) []byte {
	b, ok := findBlock(blocks, id)
	if !ok {
		return data
	}
	from, to := removeRange(data, b)
	out := make([]byte, 0, len(data)-(to-from))
	out = append(out, data[:from]...)
	return append(out, data[to:]...)
}
