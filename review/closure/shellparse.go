package closure

import (
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// A hook line is read with a real shell parser (bash's grammar, which sh and zsh share
// for everything a hook needs), and every word is expanded the way the shell expands it:
// quotes removed, ANSI-C $'…' decoded, braces expanded, the variables the client sets
// substituted. A word whose value the shell only knows at run time (a variable of the
// user's environment, ${X%pattern} and the other operators, $(…), $((…)), globs against
// the project) cannot be placed, so it is reported as unresolved: never assumed to be
// inside the package.

// word is one word of a parsed command: its fields after expansion, or, when the shell
// decides its value at run time, only its source text.
type word struct {
	Text     string   // as written in the line
	Fields   []string // after expansion; nil when unresolved
	Resolved bool
}

// parsedCommand is one simple command of a parsed line.
type parsedCommand struct {
	Env   []EnvVar
	Words []word // the command word first
	// Redirs are the targets of redirections (> f, < f): paths the command opens.
	Redirs []word
	// Unresolved lists assignments whose value the shell decides at run time.
	Unresolved []word
	Pipe       bool
	// Offset is where the command starts in the line; Then is the byte range of what
	// runs only after it succeeded (the right side of "cmd && …"), Then[1] == 0 for none.
	Offset int
	Then   [2]int
}

// parseShell reads line as the shell does. ok is false when the line is not valid shell
// (the caller falls back to the lexical reading and says so). vars are the variables set
// in the shell's environment, with the values the caller classifies by.
func parseShell(line string, vars map[string]string) (cmds []parsedCommand, funcs map[string]bool, ok bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil {
		return nil, nil, false
	}
	r := &resolver{line: line, vars: vars, andThen: map[*syntax.Stmt][2]int{}}
	r.cfg = &expand.Config{Env: environ(vars)}
	funcs = map[string]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ParamExp:
			// ${ROOT:-$(dirname "$0")/..} with ROOT set never runs its default: what
			// the default holds is not a command of the line.
			return !r.setDefault(n)
		case *syntax.FuncDecl:
			if n.Name != nil {
				funcs[n.Name.Value] = true
			}
		case *syntax.BinaryCmd:
			if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
				r.pipeAfter = append(r.pipeAfter, n.X)
			}
			if n.Op == syntax.AndStmt {
				// a && b && c is (a && b) && c: all of it after a runs only if a did.
				first := n.X
				for {
					b, ok := first.Cmd.(*syntax.BinaryCmd)
					if !ok || b.Op != syntax.AndStmt {
						break
					}
					first = b.X
				}
				if _, seen := r.andThen[first]; !seen {
					r.andThen[first] = [2]int{int(first.End().Offset()), int(n.End().Offset())}
				}
			}
		case *syntax.Stmt:
			r.stmt = n
		case *syntax.CallExpr:
			cmds = append(cmds, r.call(n))
		}
		return true
	})
	return cmds, funcs, true
}

type resolver struct {
	line      string
	vars      map[string]string
	cfg       *expand.Config
	stmt      *syntax.Stmt   // the statement being walked
	pipeAfter []*syntax.Stmt // statements whose output a | sends on
	andThen   map[*syntax.Stmt][2]int
}

func (r *resolver) call(c *syntax.CallExpr) parsedCommand {
	pc := parsedCommand{Offset: int(c.Pos().Offset())}
	for _, a := range c.Assigns {
		if a.Name == nil {
			continue
		}
		if a.Value == nil {
			if a.Array == nil {
				pc.Env = append(pc.Env, EnvVar{Name: a.Name.Value})
			}
			continue
		}
		w := r.word(a.Value)
		if !w.Resolved {
			pc.Unresolved = append(pc.Unresolved, w)
			pc.Env = append(pc.Env, EnvVar{Name: a.Name.Value, Value: w.Text})
			continue
		}
		pc.Env = append(pc.Env, EnvVar{Name: a.Name.Value, Value: strings.Join(w.Fields, " ")})
	}
	for _, a := range c.Args {
		pc.Words = append(pc.Words, r.word(a))
	}
	if s := r.stmt; s != nil && s.Cmd == c {
		for _, rd := range s.Redirs {
			if rd.Word != nil && rd.Hdoc == nil && rd.Op != syntax.Hdoc && rd.Op != syntax.DashHdoc && rd.Op != syntax.WordHdoc && rd.Op != syntax.DplIn && rd.Op != syntax.DplOut {
				pc.Redirs = append(pc.Redirs, r.word(rd.Word))
			}
		}
		for _, p := range r.pipeAfter {
			if p == s {
				pc.Pipe = true
			}
		}
		pc.Then = r.andThen[s]
	}
	return pc
}

// word expands w when every part of it has a value vouch knows.
func (r *resolver) word(w *syntax.Word) word {
	out := word{Text: r.text(w)}
	if !r.static(w.Parts) {
		return out
	}
	fields, err := expand.Fields(r.cfg, r.withoutDefaults(w))
	if err != nil {
		return out
	}
	out.Fields, out.Resolved = fields, true
	return out
}

func (r *resolver) text(n syntax.Node) string {
	s, e := int(n.Pos().Offset()), int(n.End().Offset())
	if s < 0 || e > len(r.line) || s > e {
		return ""
	}
	return r.line[s:e]
}

// static reports whether the shell gives these parts one value that does not depend on
// the run: literals, quotes, and the known variables substituted whole (or with a
// default, which a set variable never uses).
func (r *resolver) static(parts []syntax.WordPart) bool {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.DblQuoted:
			if !r.static(p.Parts) {
				return false
			}
		case *syntax.ParamExp:
			if !r.knownParam(p) {
				return false
			}
		case *syntax.BraceExp:
			for _, e := range p.Elems {
				if !r.static(e.Parts) {
					return false
				}
			}
		default: // $(…), `…`, $((…)), <(…), extended globs
			return false
		}
	}
	return true
}

func (r *resolver) knownParam(p *syntax.ParamExp) bool {
	if p.Param == nil {
		return false
	}
	v, ok := r.vars[p.Param.Value]
	if num, special := specialParams[p.Param.Value]; special && !ok {
		v, ok = num, true
	}
	if !ok {
		return false
	}
	plain := *p
	plain.Exp = nil
	if plain.Param == nil || plain.Flags != nil || plain.Excl || plain.Length || plain.Width || plain.IsSet ||
		plain.Split != syntax.OptUnset || plain.GlobSubst != syntax.OptUnset || plain.RcExpand != syntax.OptUnset ||
		plain.NestedParam != nil || plain.Index != nil || len(plain.Modifiers) > 0 || plain.Slice != nil || plain.Repl != nil || plain.Names != 0 {
		return false
	}
	if p.Exp == nil {
		return true
	}
	// ${X:-default}, ${X:=default}, ${X:?message} of a set, non-empty X is X itself.
	switch p.Exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull, syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
		return v != ""
	}
	return false
}

// setDefault reports whether p is a known, non-empty variable with a default (or an
// error message) that the shell therefore never evaluates.
func (r *resolver) setDefault(p *syntax.ParamExp) bool {
	if p.Exp == nil || p.Param == nil || r.vars[p.Param.Value] == "" {
		return false
	}
	switch p.Exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull, syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
		return r.knownParam(p)
	}
	return false
}

// withoutDefaults is w with the defaults of set variables dropped: the expander would
// otherwise refuse a default it never needs ($(…) there runs nothing).
func (r *resolver) withoutDefaults(w *syntax.Word) *syntax.Word {
	var parts func(ps []syntax.WordPart) ([]syntax.WordPart, bool)
	parts = func(ps []syntax.WordPart) ([]syntax.WordPart, bool) {
		out, changed := make([]syntax.WordPart, len(ps)), false
		for i, p := range ps {
			out[i] = p
			switch p := p.(type) {
			case *syntax.ParamExp:
				if r.setDefault(p) {
					plain := *p
					plain.Exp = nil
					out[i], changed = &plain, true
				}
			case *syntax.DblQuoted:
				if inner, ok := parts(p.Parts); ok {
					q := *p
					q.Parts = inner
					out[i], changed = &q, true
				}
			}
		}
		return out, changed
	}
	if ps, ok := parts(w.Parts); ok {
		return &syntax.Word{Parts: ps}
	}
	return w
}

// environ gives the expander the known variables only. "HOME name" is how the expander
// asks for ~name: it is answered without looking the user up, as a path outside.
type environ map[string]string

// specialParams are the shell's own parameters that hold a number ($? $# $$ $!) or the
// option letters ($-): never a path, whatever their value, so a word using one can be
// placed with a stand-in. The positional ones ($1, $@) are not among them.
var specialParams = map[string]string{"?": "0", "#": "0", "$": "1", "!": "1", "-": "hB"}

func (e environ) Get(name string) expand.Variable {
	if v, ok := e[name]; ok {
		return expand.Variable{Set: true, Exported: true, Kind: expand.String, Str: v}
	}
	if v, ok := specialParams[name]; ok {
		return expand.Variable{Set: true, Kind: expand.String, Str: v}
	}
	if user, ok := strings.CutPrefix(name, "HOME "); ok {
		return expand.Variable{Set: true, Kind: expand.String, Str: "~" + user}
	}
	return expand.Variable{}
}

func (e environ) Each(fn func(name string, vr expand.Variable) bool) {
	for k := range e {
		if !fn(k, e.Get(k)) {
			return
		}
	}
}
