package closure

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"vouch/internal/textclip"
	"vouch/model"
)

// A hook in Claude Code and Codex is a shell command line, not one program with
// arguments: NotCoveredByShell reads such a line as the simple commands it holds
// ("a && b | c"), each one a Process for NotCoveredBy, and adds what only a shell line
// shows: a program named by an absolute path outside the package, a download piped into
// a shell (curl … | sh), and tools that fetch code over the network at run time. The
// line is parsed as bash parses it and each word expanded as the shell would
// (shellparse.go); nothing is run. A line the parser refuses is read lexically by
// SplitShell, and that it could not be read is itself listed.

// SimpleCommand is one command of a shell line: its leading assignments, the program
// and its arguments, quotes removed.
type SimpleCommand struct {
	Env     []EnvVar
	Command string
	Args    []string
	// Pipe is true when a | sends the command's output to the next one.
	Pipe bool
}

// maxShellWords bounds the words the lexical fallback reads from a line the parser
// refuses (a line that is not valid shell, already listed as not read).
const maxShellWords = 4096

// SplitShell splits a shell line into simple commands at ; & && || | newlines and
// parentheses, honouring single and double quotes and backslashes. $(…) and `…` are not
// nested: their words start a new command, which is what they run.
func SplitShell(line string) []SimpleCommand {
	s := &shellSplitter{line: line}
	for i := 0; i < len(line) && s.count < maxShellWords; i++ {
		ch := line[i]
		switch {
		case s.single:
			if ch == '\'' {
				s.single = false
			} else {
				s.cur.WriteByte(ch)
			}
		case ch == '\\' && i+1 < len(line):
			i++
			s.cur.WriteByte(line[i])
			s.inWord = true
		case s.double:
			i = s.inDouble(i)
		default:
			i = s.unquoted(i)
		}
	}
	s.endCmd(false)
	return s.out
}

// shellSplitter is SplitShell's state: the commands so far, the words of the current
// one, the word being read, which quotes are open and whether a case pattern is read.
type shellSplitter struct {
	line           string
	out            []SimpleCommand
	words          []string
	cur            strings.Builder
	inWord         bool
	single, double bool
	count          int // words read, bounded by maxShellWords
	// A case's patterns ("a|*/b)") are words to match, not commands: pattern is set from
	// "case X in" and after each ";;" until the ")" that ends the pattern; depth counts
	// the cases open, so "esac" closes one.
	pattern bool
	depth   int
}

func (s *shellSplitter) endWord() {
	if s.inWord {
		w := s.cur.String()
		first := len(s.words) == 0
		s.words = append(s.words, w)
		s.caseWord(w, first)
		s.count++
	}
	s.cur.Reset()
	s.inWord = false
}

// caseWord follows the case a word opens or closes. Inside a pattern every word is one
// to match, dropped at the ) or | that follows, except an "esac" that starts a command.
func (s *shellSplitter) caseWord(w string, first bool) {
	switch {
	case s.pattern && w == "esac" && first:
		s.pattern, s.depth = false, s.depth-1
	case s.pattern:
	case len(s.words) >= 3 && s.words[len(s.words)-3] == "case" && w == "in":
		s.pattern, s.depth = true, s.depth+1
	}
}

// dropPattern forgets the pattern words read so far; the words before them (case X in)
// stay one command.
func (s *shellSplitter) dropPattern() {
	s.endWord()
	if i := slices.Index(s.words, "in"); len(s.words) > 0 && s.words[0] == "case" && i >= 0 {
		s.words = s.words[:i+1]
		return
	}
	s.words = nil
}

func (s *shellSplitter) endCmd(pipe bool) {
	s.endWord()
	if len(s.words) > 0 && !(len(s.words) == 1 && s.words[0] == "") {
		sc := simple(s.words)
		sc.Pipe = pipe
		s.out = append(s.out, sc)
	}
	s.words = nil
}

// next is the byte after i, or 0 past the end of the line.
func (s *shellSplitter) next(i int) byte {
	if i+1 < len(s.line) {
		return s.line[i+1]
	}
	return 0
}

// inDouble reads the byte at i inside double quotes, and returns the index of the last
// byte it used.
func (s *shellSplitter) inDouble(i int) int {
	switch ch := s.line[i]; {
	case ch == '"':
		s.double = false
	case ch == '`' || (ch == '$' && s.next(i) == '('):
		// A command substitution inside quotes still runs its command.
		s.endCmd(false)
		if ch == '$' {
			i++
		}
		s.double = false
	default:
		s.cur.WriteByte(ch)
	}
	return i
}

// unquoted reads the byte at i outside quotes: a comment, a quote that opens, a word
// break or a case pattern's end, else an operator. It returns the index of the last byte
// it used.
func (s *shellSplitter) unquoted(i int) int {
	switch ch := s.line[i]; {
	case ch == '#' && !s.inWord:
		// A comment runs to the end of the line.
		for i+1 < len(s.line) && s.line[i+1] != '\n' {
			i++
		}
	case ch == '\'':
		s.single, s.inWord = true, true
	case ch == '"':
		s.double, s.inWord = true, true
	case ch == ' ' || ch == '\t':
		s.endWord()
	case s.pattern && s.casePattern(ch):
	default:
		i = s.operator(i)
	}
	return i
}

// casePattern reads a byte that separates a case's patterns or ends them, and reports
// whether it was one.
func (s *shellSplitter) casePattern(ch byte) bool {
	switch {
	case ch == '|' || ch == '(' && len(s.words) == 0 && !s.inWord:
		s.dropPattern() // a|b) or (a) : alternatives of one pattern
	case ch == ')':
		s.dropPattern()
		s.pattern = false
		s.endCmd(false)
	default:
		return false
	}
	return true
}

// operator reads the byte at i outside quotes and case patterns: a command break, a
// redirection or a byte of a word. It returns the index of the last byte it used.
func (s *shellSplitter) operator(i int) int {
	switch ch := s.line[i]; {
	case ch == ';' && s.next(i) == ';' && s.depth > 0:
		s.endCmd(false)
		i++
		s.pattern = true // the next pattern
	case ch == '|' && s.next(i) == '|':
		s.endCmd(false)
		i++
	case ch == '|':
		s.endCmd(true)
	case ch == ';' || ch == '&' || ch == '\n' || ch == '\r' || ch == '(' || ch == ')' || ch == '`':
		s.endCmd(false)
	case ch == '$' && s.next(i) == '(':
		s.endCmd(false)
		i++
	case ch == '<' || ch == '>':
		i = s.redirect(i)
	default:
		s.cur.WriteByte(ch)
		s.inWord = true
	}
	return i
}

// redirect reads a redirection operator at i. Its target is a path, not an argument: it
// is kept as one word so an outside path is still seen, without the operator (or the fd
// before it).
func (s *shellSplitter) redirect(i int) int {
	if w := s.cur.String(); s.inWord && w != "" && strings.Trim(w, "0123456789") == "" {
		s.cur.Reset()
		s.inWord = false
	}
	s.endWord()
	for i+1 < len(s.line) && (s.line[i+1] == '>' || s.line[i+1] == '&') {
		i++
	}
	return i
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
	"pwd": true, "type": true, "umask": true, "ulimit": true, "continue": true, "break": true, "hash": true, "alias": true,
	"declare": true, "typeset": true, "readonly": true, "let": true, "getopts": true, "popd": true, "dirs": true, "jobs": true, "shopt": true}

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
	n := &ncList{seen: map[string]bool{}}
	starts := base.Starts
	if starts == "" {
		starts = "it runs"
	}
	cmds, funcs, ok := parseShell(line, base.Vars)
	if !ok {
		n.add(model.NotCovered{Kind: model.NotCoveredUnresolved, Subject: clipLine(line), Detail: fmt.Sprintf("vouch could not read this line as the shell does (it is not valid shell); what it runs when %s is not part of this approval beyond what is listed here.", starts)})
		cmds, funcs = lexical(line), nil
	}
	cwd := base.Cwd
	if cwd == "" {
		cwd = base.Root
	}
	st := &shellRun{base: base, interp: interp, starts: starts, cwds: []string{cwd}, funcs: funcs, n: n, depth: depth}
	progs := make([]string, len(cmds))
	for i, pc := range cmds {
		progs[i] = program(pc).value
	}
	for i, pc := range cmds {
		next := ""
		if pc.Pipe && i+1 < len(cmds) {
			next = progs[i+1]
		}
		st.command(pc, next)
	}
	return n.out
}

// ncList collects findings once each; the standard streams are not code.
type ncList struct {
	out  []model.NotCovered
	seen map[string]bool
}

func (l *ncList) add(items ...model.NotCovered) {
	for _, n := range items {
		if n.Kind == model.NotCoveredOutside && streams(n.Subject) {
			continue // 2>/dev/null
		}
		k := n.Kind + "\x00" + n.Subject
		if !l.seen[k] {
			l.seen[k] = true
			l.out = append(l.out, n)
		}
	}
}

// item is one field of a command after expansion, or one word the shell expands at run
// time (resolved false, value the source text).
type item struct {
	value    string
	resolved bool
}

func items(ws []word) []item {
	var out []item
	for _, w := range ws {
		if !w.Resolved {
			out = append(out, item{value: w.Text})
			continue
		}
		for _, f := range w.Fields {
			out = append(out, item{value: f, resolved: true})
		}
	}
	return out
}

// program finds the program a command runs past the words that run the next one (exec,
// env, nice -n 10, sudo...). A zero item means the command runs no program: no words,
// an empty command word, or "command -v" (which only looks a name up).
func program(pc parsedCommand) item {
	it := items(pc.Words)
	i, _ := programAt(it)
	if i < 0 {
		return item{}
	}
	return it[i]
}

func programAt(it []item) (int, []EnvVar) {
	var env []EnvVar
	i := 0
	for i < len(it) && it[i].resolved && prefixWords[it[i].value] {
		pre := it[i].value
		i++
		for i < len(it) && it[i].resolved && strings.HasPrefix(it[i].value, "-") && it[i].value != "-" {
			if pre == "command" && (it[i].value == "-v" || it[i].value == "-V") {
				return -1, nil
			}
			if valueFlag[pre+" "+it[i].value] {
				i++
			}
			i++
		}
		for pre == "env" && i < len(it) && it[i].resolved {
			name, val, ok := strings.Cut(it[i].value, "=")
			if !ok || !isName(name) {
				break
			}
			env = append(env, EnvVar{Name: name, Value: val})
			i++
		}
	}
	if i >= len(it) || it[i].resolved && it[i].value == "" {
		return -1, env
	}
	return i, env
}

// valueFlag are the options of prefix words that take the next word as their value.
var valueFlag = map[string]bool{"nice -n": true, "sudo -u": true, "sudo -g": true, "env -u": true, "env -C": true, "env -S": true}

// lexical turns the lexical reading of a line into parsed commands, every word taken as
// written: the fallback for a line the parser refuses.
func lexical(line string) []parsedCommand {
	var out []parsedCommand
	for _, sc := range SplitShell(line) {
		pc := parsedCommand{Env: sc.Env, Pipe: sc.Pipe}
		if sc.Command != "" {
			pc.Words = append(pc.Words, word{Text: sc.Command, Fields: []string{sc.Command}, Resolved: true})
		}
		for _, a := range sc.Args {
			pc.Words = append(pc.Words, word{Text: a, Fields: []string{a}, Resolved: true})
		}
		out = append(out, pc)
	}
	return out
}

func clipLine(s string) string { return textclip.Clip(s, 121, "…") }

// shellRun is the state of one line being classified: the directories relative paths
// may be resolved against (a cd adds one; the subshell it ran in is not tracked, so a
// path is inside only when it is inside from every one of them).
type shellRun struct {
	base   Process
	interp func(abs string) string
	starts string
	cwds   []string
	funcs  map[string]bool
	n      *ncList
	depth  int
	// pending holds a command's unresolved words until its program is named: findings
	// read in the order the command runs.
	pending []model.NotCovered
	// scopes are the "cd DIR && …" right sides: there DIR is the one directory.
	scopes []cdScope
	at     int // offset of the command being classified
}

// cdScope is a directory that holds for certain over a byte range of the line, with the
// other cd's seen inside it from adds on.
type cdScope struct {
	dir    string
	lo, hi int
	adds   int
}

// dirs are the directories the command at s.at may run in.
func (s *shellRun) dirs() []string {
	for i := len(s.scopes) - 1; i >= 0; i-- {
		if sc := s.scopes[i]; s.at >= sc.lo && s.at < sc.hi {
			return append([]string{sc.dir}, s.cwds[sc.adds:]...)
		}
	}
	return s.cwds
}

func (s *shellRun) unresolved(what, text string) {
	s.pending = append(s.pending, model.NotCovered{Kind: model.NotCoveredUnresolved, Subject: text, Detail: fmt.Sprintf("%s %s is expanded by the shell when %s from values vouch does not have (your environment, a pattern, a command's output); whatever it names then is not part of this approval.", what, text, s.starts)})
}

func (s *shellRun) command(pc parsedCommand, next string) {
	defer func() { s.n.add(s.pending...); s.pending = nil }()
	s.at = pc.Offset
	for _, w := range pc.Unresolved {
		s.unresolved("The value", w.Text)
	}
	it := items(pc.Words)
	at, envPre := programAt(it)
	p := s.base
	p.Command, p.Args, p.Env, p.Bundled, p.Interpreter, p.Vars = "", nil, append(append([]EnvVar(nil), pc.Env...), envPre...), false, "", nil
	if at < 0 {
		s.redirs(pc, nil)
		s.each(p)
		return
	}
	prog, args := it[at], it[at+1:]
	if !prog.resolved {
		s.pending = append(s.pending, model.NotCovered{Kind: model.NotCoveredUnresolved, Subject: prog.value, Detail: fmt.Sprintf("It runs the program named by %s, which the shell expands when %s from values vouch does not have; which program that is, is not part of this approval.", prog.value, s.starts)})
		s.operands(&p, "", args)
		s.redirs(pc, &p)
		s.each(p)
		return
	}
	name := path.Base(prog.value)
	switch {
	case prog.value == "cd" || prog.value == "pushd":
		s.cd(args, pc.Then)
		return
	case prog.value == "eval":
		s.eval(args)
		return
	case prog.value == "source" || prog.value == ".":
		// The script runs in this shell: it is a path like any other operand.
		s.operands(&p, "source", args)
	case builtins[prog.value] || s.funcs[prog.value]:
		s.redirs(pc, &p)
		s.each(p)
		return
	default:
		p.Command = prog.value
		s.place(&p)
		if inner, ok := script(SimpleCommand{Command: prog.value, Args: values(args)}); ok && s.depth < maxShellDepth {
			// sh -c 'curl … | sh': the script is a shell line of its own, run after the shell.
			s.redirs(pc, &p)
			s.each(p)
			if i := slices.IndexFunc(args, func(a item) bool { return a.value == inner }); i >= 0 && !args[i].resolved {
				s.unresolved("The script", inner)
			} else {
				b := s.base
				b.Cwd = s.dirs()[0]
				s.n.add(notCoveredByShell(inner, b, s.interp, s.depth+1)...)
			}
			return
		}
		s.operands(&p, name, args)
	}
	s.redirs(pc, &p)
	s.each(p)
	s.fetches(name, values(args), next)
}

func values(it []item) []string {
	out := make([]string, len(it))
	for i, a := range it {
		out[i] = a.value
	}
	return out
}

// place decides whether the program of p is a file of the package: an absolute path as
// it is, a relative one (./x, bin/x) from every directory it may run in, both cleaned.
func (s *shellRun) place(p *Process) {
	prog := p.Command
	if !strings.HasPrefix(prog, "/") && !strings.HasPrefix(prog, "~") && !strings.Contains(prog, "/") {
		return // looked up on PATH: NotCoveredBy names it
	}
	dirs := s.dirs()
	if strings.HasPrefix(prog, "/") || strings.HasPrefix(prog, "~") {
		dirs = dirs[:1]
	}
	for _, d := range dirs {
		abs := prog
		if !strings.HasPrefix(prog, "/") && !strings.HasPrefix(prog, "~") {
			abs = path.Join(d, prog)
		}
		switch where(prog, p.Root, d, p.Data) {
		case inPackage:
			p.Bundled = true
			if s.interp != nil && p.Interpreter == "" {
				p.Interpreter = s.interp(path.Clean(abs))
			}
		case inData:
			p.Command, p.Bundled = "", false
			s.n.add(model.NotCovered{Kind: model.NotCoveredPluginData, Subject: p.DataName, Detail: fmt.Sprintf("It runs %s from %s (%s), which the client and the process write at run time; that code is not part of this approval.", prog, p.DataName, p.Data)})
			return
		default:
			p.Command, p.Bundled = "", false
			s.n.add(model.NotCovered{Kind: model.NotCoveredOutside, Subject: prog, Detail: fmt.Sprintf("It runs %s, outside the package; whatever is there when %s is not part of this approval.", prog, s.starts)})
			return
		}
	}
}

// interpreters run the file named by their first operand (node x.js, python3 x.py): a
// bare name there is a file in the working directory, not a program on PATH. The
// options listed make the code come from the command line instead.
var interpreters = map[string][]string{"node": {"-e", "--eval", "-p", "--print"}, "nodejs": {"-e", "--eval", "-p", "--print"},
	"python": {"-c", "-m"}, "python3": {"-c", "-m"}, "python2": {"-c", "-m"}, "ruby": {"-e"}, "perl": {"-e", "-E"}, "php": {"-r"},
	"bash": {"-c"}, "sh": {"-c"}, "zsh": {"-c"}, "dash": {"-c"}, "ksh": {"-c"}, "tsx": {"-e", "--eval"}, "ts-node": {"-e", "--eval"}, "lua": {"-e"}}

// scriptFirst take a script or pattern, not a file, as their first operand (sed 's/a/b/',
// grep -q 'x|y', jq '.a'); textOnly take no file at all.
var (
	scriptFirst = map[string]bool{"sed": true, "awk": true, "gawk": true, "mawk": true, "grep": true, "egrep": true, "fgrep": true, "rg": true, "jq": true, "yq": true}
	textOnly    = map[string]bool{"tr": true, "expr": true, "basename": true, "dirname": true, "seq": true, "sleep": true, "date": true, "uname": true, "whoami": true, "id": true}
)

// scriptFlags are the options of scriptFirst programs whose values are not files: the
// number of words they take and whether the value is the script itself (sed -e 's|/a|/b|',
// grep -e pat: then the first operand is a file, not the script). awk -v a=b, rg -g glob
// and jq --arg name value leave the script the first operand.
var scriptFlags = map[string]map[string]valueFlagOf{
	"sed": {"-e": {1, true}, "--expression": {1, true}},
	"awk": {"-v": {1, false}, "-F": {1, false}}, "gawk": {"-v": {1, false}, "-F": {1, false}}, "mawk": {"-v": {1, false}, "-F": {1, false}},
	"grep": {"-e": {1, true}, "--regexp": {1, true}}, "egrep": {"-e": {1, true}, "--regexp": {1, true}}, "fgrep": {"-e": {1, true}, "--regexp": {1, true}},
	"rg": {"-e": {1, true}, "--regexp": {1, true}, "-g": {1, false}, "--glob": {1, false}, "-t": {1, false}, "--type": {1, false}},
	"jq": {"--arg": {2, false}, "--argjson": {2, false}}, "yq": {"--arg": {2, false}},
}

type valueFlagOf struct {
	words  int
	script bool
}

// operands sorts the arguments of a program: resolved ones are classified as paths by
// NotCoveredBy, one the shell expands at run time is named as unresolved (a text-only
// operand, a pattern, is neither).
func (s *shellRun) operands(p *Process, name string, args []item) {
	if textOnly[name] {
		return
	}
	first := true
	codeFlags, interp := interpreters[name]
	if name == "source" {
		interp = true
	}
	skip := 0 // words that are an option's value, not files
	for _, a := range args {
		if skip > 0 {
			skip--
			continue
		}
		operand := !strings.HasPrefix(a.value, "-") || !a.resolved
		if f, ok := scriptFlags[name][a.value]; ok && !operand {
			skip = f.words
			if f.script {
				first = false
			}
			continue
		}
		if operand && first {
			first = false
			if scriptFirst[name] {
				continue
			}
			if interp && a.resolved && !strings.Contains(a.value, "/") && a.value != "" {
				// node x.js runs ./x.js from the directory the line runs in.
				p.Args = append(p.Args, "./"+a.value)
				continue
			}
		}
		if !operand && slices.Contains(codeFlags, a.value) {
			interp = false // the code is the next argument, not a file
		}
		if !a.resolved {
			s.unresolved("The argument", a.value)
			continue
		}
		p.Args = append(p.Args, a.value)
	}
}

// redirs adds the files a command's redirections open to its arguments.
func (s *shellRun) redirs(pc parsedCommand, p *Process) {
	for _, w := range pc.Redirs {
		if !w.Resolved {
			s.unresolved("The redirection target", w.Text)
			continue
		}
		if p != nil {
			p.Args = append(p.Args, w.Fields...)
		}
	}
}

// each classifies p from every directory the line may be in at this point, then names
// what was left unresolved.
func (s *shellRun) each(p Process) {
	for _, d := range s.dirs() {
		p.Cwd = d
		s.n.add(NotCoveredBy(p)...)
	}
	s.n.add(s.pending...)
	s.pending = nil
}

// cd changes the directory relative paths are read from. Over the right side of
// "cd DIR && …" DIR is the directory (the cd succeeded there); anywhere else later in the
// line the cd may have failed or run in a subshell, so both directories are possible. A
// directory the shell decides at run time is named as unresolved.
func (s *shellRun) cd(args []item, then [2]int) {
	d := "~" // cd alone goes home
	for _, a := range args {
		if a.resolved && strings.HasPrefix(a.value, "-") && a.value != "-" {
			continue
		}
		if !a.resolved || a.value == "-" || strings.HasPrefix(a.value, "~") {
			s.unresolved("The directory", a.value)
			return
		}
		d = a.value
		if !strings.HasPrefix(d, "/") {
			cur := s.dirs()
			d = path.Join(cur[len(cur)-1], d)
		}
		d = path.Clean(d)
		break
	}
	if then[1] > then[0] {
		s.scopes = append(s.scopes, cdScope{dir: d, lo: then[0], hi: then[1], adds: len(s.cwds)})
	}
	s.cwds = append(s.cwds, d)
}

// eval runs its arguments as a line of its own.
func (s *shellRun) eval(args []item) {
	for _, a := range args {
		if !a.resolved {
			s.unresolved("The code given to eval,", a.value)
			return
		}
	}
	if s.depth < maxShellDepth {
		b := s.base
		b.Cwd = s.dirs()[0]
		s.n.add(notCoveredByShell(strings.Join(values(args), " "), b, s.interp, s.depth+1)...)
	}
}

// fetches names the tools that download code or data when the line runs.
func (s *shellRun) fetches(name string, args []string, next string) {
	how, ok := fetchers[name]
	if !ok {
		return
	}
	if how == "" && (len(args) == 0 || !slices.Contains(fetchSub[name], args[0])) {
		return
	}
	what := name
	if how == "" {
		what += " " + args[0]
	}
	pipe := ""
	if how != "" && shells[path.Base(next)] {
		pipe = " and pipes it into " + path.Base(next) + ", which runs it"
		what += " | " + path.Base(next)
	}
	s.n.add(model.NotCovered{Kind: model.NotCoveredFetch, Subject: what, Detail: fmt.Sprintf("It fetches code or data over the network when %s (%s)%s: what it downloads is not part of this approval.", s.starts, what, pipe)})
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
