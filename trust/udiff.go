package trust

import (
	"fmt"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// diffContext is the number of unchanged lines shown around each change.
const diffContext = 3

type lineOp struct {
	op   byte   // ' ', '-', '+'
	text string // one line, with its line break when it had one
}

// UnifiedDiff returns a unified diff (3 lines of context) of two texts, computed line by
// line with go-diff; "" when they are equal. Each printed line drops its break (and a CR
// before it, so CRLF files read like LF ones); a last line without a break is followed by
// "\ No newline at end of file", as diff(1) prints it. It is used for package files and
// instruction targets alike, both hostile, so it never panics on any input.
func UnifiedDiff(oldName, newName, a, b string) string {
	if a == b {
		return ""
	}
	ops := lineOps(a, b)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldName, newName)
	// Line numbers of ops[i] in each file, kept as i advances.
	aLine, bLine := 1, 1
	advance := func(from, to int) {
		for _, o := range ops[from:to] {
			if o.op != '+' {
				aLine++
			}
			if o.op != '-' {
				bLine++
			}
		}
	}
	pos := 0
	i := 0
	for i < len(ops) {
		for i < len(ops) && ops[i].op == ' ' {
			i++
		}
		if i >= len(ops) {
			break
		}
		start := max(i-diffContext, 0)
		end := i
		for end < len(ops) {
			if ops[end].op != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].op == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*diffContext {
				end = min(end+diffContext, len(ops))
				break
			}
			end = run
		}
		advance(pos, start)
		writeHunk(&out, ops[start:end], aLine, bLine)
		advance(start, end)
		pos, i = end, end
	}
	return out.String()
}

// lineOps compares a and b line by line. The unchanged head and tail are cut off first, so
// go-diff only sees the changed region: a hostile file with millions of distinct lines must
// not reach go-diff's line table, which has a fixed capacity.
func lineOps(a, b string) (ops []lineOp) {
	la, lb := splitLines(a), splitLines(b)
	p := 0
	for p < len(la) && p < len(lb) && la[p] == lb[p] {
		p++
	}
	q := 0
	for q < len(la)-p && q < len(lb)-p && la[len(la)-1-q] == lb[len(lb)-1-q] {
		q++
	}
	for _, l := range la[:p] {
		ops = append(ops, lineOp{' ', l})
	}
	ops = append(ops, diffMiddle(strings.Join(la[p:len(la)-q], ""), strings.Join(lb[p:len(lb)-q], ""))...)
	for _, l := range la[len(la)-q:] {
		ops = append(ops, lineOp{' ', l})
	}
	return ops
}

func diffMiddle(a, b string) (ops []lineOp) {
	whole := func() []lineOp {
		var o []lineOp
		for _, l := range splitLines(a) {
			o = append(o, lineOp{'-', l})
		}
		for _, l := range splitLines(b) {
			o = append(o, lineOp{'+', l})
		}
		return o
	}
	if a == "" || b == "" {
		return whole()
	}
	defer func() {
		// go-diff panics on more distinct lines than its line table holds; a plain
		// delete-and-insert is a correct (if less tidy) diff.
		if recover() != nil {
			ops = whole()
		}
	}()
	dmp := diffmatchpatch.New()
	ca, cb, lines := dmp.DiffLinesToChars(a, b)
	for _, d := range dmp.DiffCharsToLines(dmp.DiffMain(ca, cb, false), lines) {
		op := byte(' ')
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			op = '-'
		case diffmatchpatch.DiffInsert:
			op = '+'
		}
		for _, l := range splitLines(d.Text) {
			ops = append(ops, lineOp{op, l})
		}
	}
	return ops
}

func writeHunk(out *strings.Builder, hunk []lineOp, aLine, bLine int) {
	aN, bN := 0, 0
	for _, o := range hunk {
		if o.op != '+' {
			aN++
		}
		if o.op != '-' {
			bN++
		}
	}
	// diff(1) prints the line before an empty range.
	if aN == 0 {
		aLine--
	}
	if bN == 0 {
		bLine--
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", hunkRange(aLine, aN), hunkRange(bLine, bN))
	for _, o := range hunk {
		noEOL := !strings.HasSuffix(o.text, "\n")
		text := strings.TrimSuffix(strings.TrimSuffix(o.text, "\n"), "\r")
		out.WriteByte(o.op)
		out.WriteString(text)
		out.WriteByte('\n')
		if noEOL {
			out.WriteString("\\ No newline at end of file\n")
		}
	}
}

func hunkRange(line, n int) string {
	if n == 1 {
		return fmt.Sprint(line)
	}
	return fmt.Sprintf("%d,%d", line, n)
}

// splitLines splits after every '\n', keeping the break on each line.
func splitLines(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}
