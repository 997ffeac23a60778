package closure

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"vouch/model"
)

// A hook in Claude Code and Codex is a shell command line, not one program with
// arguments: NotCoveredByShell reads such a line as the simple commands it holds
// ("a && b | c"), each one a Process for NotCoveredBy, and adds what only a shell line
// shows: a program named by an absolute path outside the package, a download piped into
// a shell (curl … | sh), and tools that fetch code over the network at run time. The
// parse is lexical (quotes, operators, leading NAME=value assignments); nothing is run
// and nothing is expanded beyond what the caller already substituted.

// SimpleCommand is one command of a shell line: its leading assignments, the program
// and its arguments, quotes removed.
type SimpleCommand struct {
	Env     []EnvVar
	Command string
	Args    []string
	// Pipe is true when a | sends the command's output to the next one.
	Pipe bool
}

// maxShellWords bounds the words read from one line: a hook is a few commands, a
// pathological line must not cost more than that.
const maxShellWords = 4096

// SplitShell splits a shell line into simple commands at ; & && || | newlines and
// parentheses, honouring single and double quotes and backslashes. $(…) and `…` are not
// nested: their words start a new command, which is what they run.
func SplitShell(line string) []SimpleCommand {
	var out []SimpleCommand
	var words []string
	var cur strings.Builder
	inWord, single, double := false, false, false
	count := 0
	endWord := func() {
		if inWord {
			words = append(words, cur.String())
			count++
		}
		cur.Reset()
		inWord = false
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

// simple reads leading NAME=value words as assignments and skips shell keywords that
// introduce a command (if, then, exec, command, env...).
func simple(words []string) SimpleCommand {
	var sc SimpleCommand
	i := 0
	for ; i < len(words); i++ {
		w := words[i]
		if name, val, ok := strings.Cut(w, "="); ok && isName(name) {
			sc.Env = append(sc.Env, EnvVar{Name: name, Value: val})
			continue
		}
		if prefixWords[w] {
			continue
		}
		break
	}
	// An empty command word ("" b) names no program: the shell fails with "command not
	// found" and runs nothing, so nothing of it is a dependency.
	if i < len(words) && words[i] != "" {
		sc.Command = words[i]
		sc.Args = words[i+1:]
	}
	return sc
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// prefixWords run the command that follows them: the next word is the program.
var prefixWords = map[string]bool{"if": true, "then": true, "else": true, "elif": true, "do": true, "while": true, "until": true,
	"!": true, "{": true, "exec": true, "command": true, "env": true, "nohup": true, "time": true, "sudo": true, "nice": true}

// builtins are run by the shell itself: no program is looked up for them.
var builtins = map[string]bool{"cd": true, "echo": true, "printf": true, "exit": true, "return": true, "true": true, "false": true,
	"test": true, "[": true, "[[": true, "]]": true, "export": true, "set": true, "unset": true, "shift": true, "read": true, "local": true,
	"fi": true, "done": true, "esac": true, "}": true, ":": true, "wait": true, "trap": true, "eval": true, "for": true, "case": true, "in": true,
	"pwd": true, "type": true, "umask": true, "ulimit": true}

// shells run their standard input as a script: a download piped into one runs it.
var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "fish": true, "python": true, "python3": true, "node": true, "perl": true, "ruby": true, "pwsh": true}

// fetchers download at run time; installers also run what they download (lifecycle
// scripts, build scripts).
var fetchers = map[string]string{"curl": "downloads", "wget": "downloads", "git": "", "gh": "", "pip": "", "pip3": "", "npm": "", "pnpm": "", "yarn": "", "go": "", "cargo": "", "gem": "", "brew": "", "deno": "", "uv": ""}

// fetchSub are the sub-commands of fetchers that fetch code.
var fetchSub = map[string][]string{"git": {"clone", "pull", "fetch"}, "gh": {"release", "repo"}, "pip": {"install"}, "pip3": {"install"},
	"npm": {"install", "i", "ci", "update"}, "pnpm": {"install", "add", "i"}, "yarn": {"add", "install"}, "go": {"install", "get", "run"},
	"cargo": {"install"}, "gem": {"install"}, "brew": {"install"}, "deno": {"run", "install"}, "uv": {"run", "pip", "sync"}}

// NotCoveredByShell lists what a shell line depends on that no approval can bind. base
// holds the package's Root, Data, DataName and Starts (its Command, Args and Env are
// ignored); interp gives the #! line of a bundled program by its absolute path (nil for
// none). The shell itself comes from the client and is not named here.
func NotCoveredByShell(line string, base Process, interp func(abs string) string) []model.NotCovered {
	return notCoveredByShell(line, base, interp, 0)
}

// maxShellDepth bounds how deep "sh -c '…'" lines are read again.
const maxShellDepth = 3

// script returns the script a shell is given with -c (sh -c, bash -lc), if any.
func script(sc SimpleCommand) (string, bool) {
	switch path.Base(sc.Command) {
	case "sh", "bash", "zsh", "dash", "ksh", "fish", "pwsh":
	default:
		return "", false
	}
	for i, a := range sc.Args {
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "c") && i+1 < len(sc.Args) {
			return sc.Args[i+1], true
		}
		if !strings.HasPrefix(a, "-") {
			return "", false
		}
	}
	return "", false
}

func notCoveredByShell(line string, base Process, interp func(abs string) string, depth int) []model.NotCovered {
	var out []model.NotCovered
	seen := map[string]bool{}
	add := func(items ...model.NotCovered) {
		for _, n := range items {
			if n.Kind == model.NotCoveredOutside && streams(n.Subject) {
				continue // 2>/dev/null: the standard streams are not code
			}
			k := n.Kind + "\x00" + n.Subject
			if !seen[k] {
				seen[k] = true
				out = append(out, n)
			}
		}
	}
	starts := base.Starts
	if starts == "" {
		starts = "it runs"
	}
	cmds := SplitShell(line)
	for i, sc := range cmds {
		p := base
		p.Command, p.Args, p.Env, p.Bundled, p.Interpreter = sc.Command, sc.Args, sc.Env, false, ""
		prog := sc.Command
		name := path.Base(prog)
		switch {
		case prog == "" || builtins[prog]:
			p.Command = ""
		case strings.HasPrefix(prog, "/") || strings.HasPrefix(prog, "~"):
			switch where(prog, p.Root, p.Root, p.Data) {
			case inPackage:
				p.Bundled = true
				if interp != nil {
					p.Interpreter = interp(path.Clean(prog))
				}
			case inData:
				p.Command = ""
				add(model.NotCovered{Kind: model.NotCoveredPluginData, Subject: p.DataName, Detail: fmt.Sprintf("It runs %s from %s (%s), which the client and the process write at run time; that code is not part of this approval.", prog, p.DataName, p.Data)})
			default:
				p.Command = ""
				add(model.NotCovered{Kind: model.NotCoveredOutside, Subject: prog, Detail: fmt.Sprintf("It runs %s, outside the package; whatever is there when %s is not part of this approval.", prog, starts)})
			}
		case strings.Contains(prog, "/"):
			p.Bundled = true // relative to the working directory: the plugin root or the project
		}
		if prog == "source" || prog == "." {
			p.Command = ""
		}
		if inner, ok := script(sc); ok && depth < maxShellDepth {
			// sh -c 'curl … | sh': the script is a shell line of its own.
			p.Args = nil
			add(NotCoveredBy(p)...)
			add(notCoveredByShell(inner, base, interp, depth+1)...)
			continue
		}
		add(NotCoveredBy(p)...)
		if how, ok := fetchers[name]; ok {
			sub := fetchSub[name]
			if how != "" || (len(sc.Args) > 0 && slices.Contains(sub, sc.Args[0])) {
				what := name
				if how == "" {
					what += " " + sc.Args[0]
				}
				pipe := ""
				if how != "" && i+1 < len(cmds) && shells[path.Base(cmds[i+1].Command)] && sc.Pipe {
					pipe = " and pipes it into " + path.Base(cmds[i+1].Command) + ", which runs it"
					what += " | " + path.Base(cmds[i+1].Command)
				}
				add(model.NotCovered{Kind: model.NotCoveredFetch, Subject: what, Detail: fmt.Sprintf("It fetches code or data over the network when %s (%s)%s: what it downloads is not part of this approval.", starts, what, pipe)})
			}
		}
	}
	return out
}

func streams(p string) bool {
	return p == "/dev/null" || p == "/dev/tty" || strings.HasPrefix(p, "/dev/std") || strings.HasPrefix(p, "/dev/fd/")
}

// SummaryLine is the one Summary sentence a component with n not-covered items carries:
// short, pointing at the list (the list itself is the finding).
func SummaryLine(n int) string {
	things := "things"
	if n == 1 {
		things = "thing"
	}
	return fmt.Sprintf("%s%d %s it depends on (see not covered).", SummaryPrefix, n, things)
}

// SummaryPrefix starts SummaryLine, so a loader that adds items later can replace it.
const SummaryPrefix = "Not covered by this approval: "
