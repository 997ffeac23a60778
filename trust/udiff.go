package trust

import (
	"fmt"
	"strings"
)

// diffContext is the number of unchanged lines shown around each change.
const diffContext = 3

type lineOp struct {
	op   byte   // ' ', '-', '+'
	text string // one line, with its line break when it had one
}

// UnifiedDiff returns a unified diff (3 lines of context) of two texts, computed line by
// line (lineOps); "" when they are equal. Each printed line drops its break (and a CR
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

// lineOps compares a and b line by line (linediff.go): equal lines share an id, and the
// script's work is bounded by the number of lines, whatever they hold.
func lineOps(a, b string) []lineOp {
	la, lb := splitLines(a), splitLines(b)
	ids := make(map[string]int32, len(la))
	intern := func(lines []string) []int32 {
		out := make([]int32, len(lines))
		for i, l := range lines {
			id, ok := ids[l]
			if !ok {
				id = int32(len(ids))
				ids[l] = id
			}
			out[i] = id
		}
		return out
	}
	ia, ib := intern(la), intern(lb)
	script := diffLineIDs(ia, ib, len(ids))
	ops := make([]lineOp, len(script))
	for k, e := range script {
		text := la
		if e.op == '+' {
			text = lb
		}
		ops[k] = lineOp{e.op, text[e.i]}
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
	out := make([]string, 0, strings.Count(s, "\n")+1)
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
