package instructions

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// DiffContext is the number of unchanged lines shown around each change.
const DiffContext = 3

type lineOp struct {
	op   byte // ' ', '-', '+'
	text string
}

// splitLines splits after every '\n', keeping the break on each line.
func splitLines(s string) []string {
	var out []string
	for len(s) > 0 {
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

// lineOps compares before and after line by line. The unchanged head and tail are cut
// off first, so go-diff only sees the changed region: vouch changes one contiguous
// block, and a hostile target with millions of distinct lines must not reach go-diff's
// line table, which has a fixed capacity.
func lineOps(before, after []byte) (ops []lineOp) {
	a, b := splitLines(string(before)), splitLines(string(after))
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	q := 0
	for q < len(a)-p && q < len(b)-p && a[len(a)-1-q] == b[len(b)-1-q] {
		q++
	}
	for _, l := range a[:p] {
		ops = append(ops, lineOp{' ', l})
	}
	midA, midB := strings.Join(a[p:len(a)-q], ""), strings.Join(b[p:len(b)-q], "")
	ops = append(ops, diffMiddle(midA, midB)...)
	for _, l := range a[len(a)-q:] {
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
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(ca, cb, false), lines)
	for _, d := range diffs {
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

// UnifiedDiff renders a unified diff of before and after with DiffContext lines of
// context, labelled with the given names. Each line's break is dropped (a CR before it
// too, so CRLF files read like LF ones); a last line without a break is followed by
// "\ No newline at end of file", as diff(1) prints it. Equal inputs give "".
func UnifiedDiff(before, after []byte, nameBefore, nameAfter string) string {
	if bytes.Equal(before, after) {
		return ""
	}
	ops := lineOps(before, after)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", nameBefore, nameAfter)
	// Group changes into hunks separated by more than 2*DiffContext unchanged lines.
	i := 0
	for i < len(ops) {
		for i < len(ops) && ops[i].op == ' ' {
			i++
		}
		if i >= len(ops) {
			break
		}
		start := max(i-DiffContext, 0)
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
			if run == len(ops) || run-end > 2*DiffContext {
				end = min(end+DiffContext, len(ops))
				break
			}
			end = run
		}
		writeHunk(&out, ops, start, end)
		i = end
	}
	return out.String()
}

func writeHunk(out *strings.Builder, ops []lineOp, start, end int) {
	// Line numbers of the hunk's first line in each file.
	aLine, bLine := 1, 1
	for _, o := range ops[:start] {
		if o.op != '+' {
			aLine++
		}
		if o.op != '-' {
			bLine++
		}
	}
	aN, bN := 0, 0
	for _, o := range ops[start:end] {
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
	for _, o := range ops[start:end] {
		text := o.text
		noEOL := !strings.HasSuffix(text, "\n")
		text = strings.TrimSuffix(text, "\n")
		text = strings.TrimSuffix(text, "\r")
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
