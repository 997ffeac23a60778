package closure

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// FuzzSplitShellSame: the lexer split into one method per state reads every line as the
// single function it replaced did (kept below as splitShellOld, the reference).
func FuzzSplitShellSame(f *testing.F) {
	for _, s := range []string{
		// TestSplitShell
		`node "${X}/a b.js" && echo ok`, `A=1 B='x y' python3 -m m | tee /tmp/log`, `curl -fsSL https://x.sh | sh`,
		`echo "$(cat ~/.ssh/id_rsa)"`, `if test -f x; then exec ./run; fi`, `cmd > /etc/out 2>&1`,
		"# set up\nnode a.js # why\necho a#b", `A=1 B='x y' python3`,
		// FuzzSplitShell
		`a && b`, `"x\`, `'`, `$(`, "a\\", `A= b`, "curl x | sh",
		// TestSplitShellCasePatterns
		`case $x in a|b) echo;; */c|d) node x.js ;; esac; echo "unterminated`,
		`case "$1" in (*.ts) npx tsc;; esac; "`, `a | b; case x in y) c | d;; esac`,
		`case a in b) case c in d|e) f;; esac;; g|h) i;; esac; j '`,
		`case $x in a|b) echo;; */c|d) exit 0;; esac; echo "unterminated`,
		// the benchmark's line
		benchLine,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := SplitShell(s), splitShellOld(s); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n new %+v\n old %+v", s, got, want)
		}
	})
}

// splitShellOld is SplitShell as one function, before its states became methods.
func splitShellOld(line string) []SimpleCommand {
	var out []SimpleCommand
	var words []string
	var cur strings.Builder
	inWord, single, double := false, false, false
	count := 0
	// A case's patterns ("a|*/b)") are words to match, not commands: pattern is set from
	// "case X in" and after each ";;" until the ")" that ends the pattern; depth counts
	// the cases open, so "esac" closes one.
	pattern, depth := false, 0
	endWord := func() {
		if inWord {
			w := cur.String()
			switch {
			case pattern && w == "esac" && len(words) == 0:
				pattern, depth = false, depth-1
				words = append(words, w)
			case pattern:
				// a pattern word: dropped at the ) or | that follows
				words = append(words, w)
			default:
				words = append(words, w)
				if len(words) >= 3 && words[len(words)-3] == "case" && w == "in" {
					pattern, depth = true, depth+1
				}
			}
			count++
		}
		cur.Reset()
		inWord = false
	}
	// dropPattern forgets the pattern words read so far; the words before them (case X
	// in) stay one command.
	dropPattern := func() {
		endWord()
		if i := slices.Index(words, "in"); len(words) > 0 && words[0] == "case" && i >= 0 {
			words = words[:i+1]
			return
		}
		words = nil
	}
	endCmd := func(pipe bool) {
		endWord()
		if len(words) > 0 && !(len(words) == 1 && words[0] == "") {
			sc := simple(words)
			sc.Pipe = pipe
			out = append(out, sc)
		}
		words = nil
	}
	for i := 0; i < len(line) && count < maxShellWords; i++ {
		ch := line[i]
		switch {
		case single:
			if ch == '\'' {
				single = false
			} else {
				cur.WriteByte(ch)
			}
		case ch == '\\' && i+1 < len(line):
			i++
			cur.WriteByte(line[i])
			inWord = true
		case double:
			switch {
			case ch == '"':
				double = false
			case ch == '`' || (ch == '$' && i+1 < len(line) && line[i+1] == '('):
				// A command substitution inside quotes still runs its command.
				endCmd(false)
				if ch == '$' {
					i++
				}
				double = false
			default:
				cur.WriteByte(ch)
			}
		case ch == '#' && !inWord:
			// A comment runs to the end of the line.
			for i+1 < len(line) && line[i+1] != '\n' {
				i++
			}
		case ch == '\'':
			single, inWord = true, true
		case ch == '"':
			double, inWord = true, true
		case ch == ' ' || ch == '\t':
			endWord()
		case pattern && (ch == '|' || ch == '(' && len(words) == 0 && !inWord):
			dropPattern() // a|b) or (a) : alternatives of one pattern
		case pattern && ch == ')':
			dropPattern()
			pattern = false
			endCmd(false)
		case ch == ';' && i+1 < len(line) && line[i+1] == ';' && depth > 0:
			endCmd(false)
			i++
			pattern = true // the next pattern
		case ch == '|' && i+1 < len(line) && line[i+1] == '|':
			endCmd(false)
			i++
		case ch == '|':
			endCmd(true)
		case ch == ';' || ch == '&' || ch == '\n' || ch == '\r' || ch == '(' || ch == ')' || ch == '`':
			endCmd(false)
		case ch == '$' && i+1 < len(line) && line[i+1] == '(':
			endCmd(false)
			i++
		case ch == '<' || ch == '>':
			// A redirection's target is a path, not an argument: keep it as one word so
			// an outside path is still seen, without the operator (or the fd before it).
			if w := cur.String(); inWord && w != "" && strings.Trim(w, "0123456789") == "" {
				cur.Reset()
				inWord = false
			}
			endWord()
			for i+1 < len(line) && (line[i+1] == '>' || line[i+1] == '&') {
				i++
			}
		default:
			cur.WriteByte(ch)
			inWord = true
		}
	}
	endCmd(false)
	return out
}
