package instructions

import (
	"bytes"
	"fmt"

	"vouch/internal/lazyre"
)

// Block is one well-formed managed block: a start marker line, a body and an end marker
// line with the same manager and id. Offsets index the scanned bytes.
type Block struct {
	Manager   string `json:"manager"` // vouch, dalo, or any other NAME of <!-- NAME:start ID -->
	ID        string `json:"id"`
	StartLine int    `json:"start_line"` // 1-based line of the start marker
	EndLine   int    `json:"end_line"`   // 1-based line of the end marker
	// Start is the offset of the start marker line; End the offset just after the end
	// marker line's text (before its line break, if any).
	Start, End int `json:"-"`
	// BodyStart and BodyEnd delimit the body: after the start marker's line break, up to
	// the line break before the end marker.
	BodyStart, BodyEnd int `json:"-"`
}

// Body returns the block's body from the bytes it was scanned from.
func (b Block) Body(data []byte) []byte { return data[b.BodyStart:b.BodyEnd] }

// Problem kinds: damaged marker structure. Any of them makes apply and remove refuse,
// because the extent of some block is no longer certain.
const (
	ProblemMissingEnd     = "marker-missing-end"     // a start marker never closed
	ProblemMissingStart   = "marker-missing-start"   // an end marker with no start
	ProblemDuplicateStart = "marker-duplicate-start" // the same manager and id started twice
	ProblemDuplicateEnd   = "marker-duplicate-end"   // a block's end marker repeated
	ProblemOutOfOrder     = "marker-out-of-order"    // an end before its start, or blocks crossing
	ProblemNested         = "marker-nested"          // a start marker inside another block
)

// Problem is one damaged marker, with the line numbers a person needs to fix it.
type Problem struct {
	Kind      string `json:"kind"`
	Manager   string `json:"manager"`
	ID        string `json:"id"`
	Line      int    `json:"line"`                 // the marker at fault
	OtherLine int    `json:"other_line,omitempty"` // the marker it conflicts with, 0 when none
	Message   string `json:"message"`
}

// markerRE matches a whole marker line. Only whole lines count as markers: a marker
// quoted inside prose is text. The manager name is any identifier so that blocks of
// managers vouch does not know are still recognised and left alone.
var markerRE = lazyre.New(`^[ \t]*<!--[ \t]*([A-Za-z][A-Za-z0-9_.-]*):(start|end)[ \t]+(\S+?)[ \t]*-->[ \t]*$`)

type marker struct {
	manager, id string
	start       bool
	line        int
	lineStart   int // offset of the line
	textEnd     int // offset after the line's text (before \r\n or \n)
	next        int // offset of the next line
}

func (m marker) key() string { return m.manager + "\x00" + m.id }

// lineSpan returns the text end and the next line's start for the line at off. Carriage
// returns before the line's end are not text: a marker line keeps counting as one when a
// lone CR ends the file or an editor doubled the CR of a CRLF, since appending a block
// after such a line (which adds a line break) must not turn it into something else.
func lineSpan(data []byte, off int) (textEnd, next int) {
	next = len(data)
	textEnd = next
	if i := bytes.IndexByte(data[off:], '\n'); i >= 0 {
		textEnd = off + i
		next = textEnd + 1
	}
	for textEnd > off && data[textEnd-1] == '\r' {
		textEnd--
	}
	return textEnd, next
}

// scanMarkers lists every marker line in data (after a UTF-8 BOM, if any).
func scanMarkers(data []byte) []marker {
	var out []marker
	off := bomLen(data)
	for line := 1; off < len(data); line++ {
		textEnd, next := lineSpan(data, off)
		text := data[off:textEnd]
		if bytes.Contains(text, []byte("<!--")) {
			if m := markerRE.FindSubmatch(text); m != nil {
				out = append(out, marker{
					manager: string(m[1]), id: string(m[3]), start: string(m[2]) == "start",
					line: line, lineStart: off, textEnd: textEnd, next: next,
				})
			}
		}
		off = next
	}
	return out
}

// Scan finds every managed block of any manager in data and every damaged marker.
// Blocks do not nest: a start marker inside an open block is a problem. Damaged blocks
// are reported as problems and left out of the returned blocks.
func Scan(data []byte) ([]Block, []Problem) {
	markers := scanMarkers(data)
	var (
		blocks   []Block
		problems []Problem
		open     *marker
		done     = map[string]int{} // key -> end line of a completed block
		inner    = map[string]int{} // key -> line of a start ignored because a block was open
	)
	add := func(kind string, m marker, other int, format string, args ...any) {
		problems = append(problems, Problem{Kind: kind, Manager: m.manager, ID: m.id, Line: m.line, OtherLine: other, Message: fmt.Sprintf(format, args...)})
	}
	laterStart := func(i int, key string) int {
		for _, m := range markers[i+1:] {
			if m.start && m.key() == key {
				return m.line
			}
		}
		return 0
	}
	for i := range markers {
		m := markers[i]
		switch {
		case m.start && open != nil && open.key() == m.key():
			inner[m.key()] = m.line
			add(ProblemDuplicateStart, m, open.line, "Line %d starts %s block %q again while the one started on line %d is still open; remove one of the start markers.", m.line, m.manager, m.id, open.line)
		case m.start && open != nil:
			inner[m.key()] = m.line
			add(ProblemNested, m, open.line, "Line %d starts %s block %q inside %s block %q started on line %d; blocks cannot nest.", m.line, m.manager, m.id, open.manager, open.id, open.line)
		case m.start:
			if prev, ok := done[m.key()]; ok {
				add(ProblemDuplicateStart, m, prev, "Line %d starts %s block %q a second time (the first ended on line %d); keep one block per id.", m.line, m.manager, m.id, prev)
			}
			mm := m
			open = &mm
		case open != nil && open.key() == m.key():
			s := *open
			open = nil
			bodyStart := s.next
			bodyEnd := m.lineStart
			if bodyEnd > bodyStart {
				// Drop the line break before the end marker: it belongs to the layout.
				bodyEnd--
				if bodyEnd > bodyStart && data[bodyEnd-1] == '\r' {
					bodyEnd--
				}
			}
			if _, dup := done[m.key()]; !dup {
				blocks = append(blocks, Block{Manager: m.manager, ID: m.id, StartLine: s.line, EndLine: m.line,
					Start: s.lineStart, End: m.textEnd, BodyStart: bodyStart, BodyEnd: bodyEnd})
			}
			done[m.key()] = m.line
		case open != nil:
			add(ProblemOutOfOrder, m, open.line, "Line %d ends %s block %q while %s block %q started on line %d is still open; the blocks cross.", m.line, m.manager, m.id, open.manager, open.id, open.line)
		default:
			if l, ok := inner[m.key()]; ok {
				delete(inner, m.key())
				add(ProblemOutOfOrder, m, l, "Line %d ends %s block %q whose start on line %d lies inside another block; the blocks cross.", m.line, m.manager, m.id, l)
			} else if l := laterStart(i, m.key()); l != 0 {
				add(ProblemOutOfOrder, m, l, "Line %d ends %s block %q before its start marker on line %d.", m.line, m.manager, m.id, l)
			} else if prev, ok := done[m.key()]; ok {
				add(ProblemDuplicateEnd, m, prev, "Line %d ends %s block %q again (it already ended on line %d); remove the extra end marker.", m.line, m.manager, m.id, prev)
			} else {
				add(ProblemMissingStart, m, 0, "Line %d ends %s block %q that never started; add its start marker or remove this line.", m.line, m.manager, m.id)
			}
		}
	}
	if open != nil {
		add(ProblemMissingEnd, *open, 0, "Line %d starts %s block %q that never ends; add <!-- %s:end %s --> after its text.", open.line, open.manager, open.id, open.manager, open.id)
	}
	if len(problems) > 0 {
		// A duplicated block is damaged as a whole: do not offer either copy as the block.
		bad := map[string]bool{}
		for _, p := range problems {
			bad[p.Manager+"\x00"+p.ID] = true
		}
		kept := blocks[:0]
		for _, b := range blocks {
			if !bad[b.Manager+"\x00"+b.ID] {
				kept = append(kept, b)
			}
		}
		blocks = kept
	}
	return blocks, problems
}

func bomLen(data []byte) int {
	if bytes.HasPrefix(data, bom) {
		return len(bom)
	}
	return 0
}

var bom = []byte{0xEF, 0xBB, 0xBF}
