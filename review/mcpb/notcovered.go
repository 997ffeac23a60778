package mcpb

import (
	"fmt"
	"sort"
	"strings"

	"vouch/model"
	"vouch/review/closure"
)

// dirMark stands for ${__dirname} (the folder the host unpacks the bundle into) while
// classifying: an absolute path with no other meaning, so what lies below it reads as
// the bundle and anything else (${HOME}, ${DOCUMENTS}, an absolute path) as outside.
const dirMark = "/__dirname__"

// notCovered lists what the server depends on that no approval of the bundle can bind,
// with the shared rule (closure.NotCoveredBy) over the launch as the host expands it, for
// the base launch and every platform override: a program from PATH (or the host's
// built-in runtime), launchers, variables that load code, paths outside the bundle (the
// user's home folders included), and MCPB's own: a ${user_config.K} of type file or
// directory without a default names whatever the user picks, outside the bundle, and the
// .git directory the closure leaves out.
func (b *bundle) notCovered(base launch, overrides map[string]launch, vars func(string) []variable, opts []userOption) []model.NotCovered {
	var out []model.NotCovered
	seen := map[string]bool{}
	add := func(ns ...model.NotCovered) {
		for _, n := range ns {
			n.Subject = strings.ReplaceAll(n.Subject, dirMark, "${__dirname}")
			n.Detail = strings.ReplaceAll(n.Detail, dirMark, "${__dirname}")
			if k := n.Kind + "\x00" + n.Subject; !seen[k] {
				seen[k] = true
				out = append(out, n)
			}
		}
	}
	picked := map[string]string{} // user_config keys whose value is a path the user picks
	for _, o := range opts {
		if (o.Type == "directory" || o.Type == "file") && o.Default == nil {
			picked[o.Key] = o.Type
		}
	}
	scan := func(l launch, platform string) {
		vs := vars(platform)
		for i := range vs {
			if vs[i].Name == "__dirname" {
				vs[i].Vals = []string{dirMark}
			}
		}
		e := l.expand(vs)
		p := closure.Process{Command: e.Command, Args: e.Args, Root: dirMark, Starts: "the host starts the server"}
		if rel, ok := closure.Below(dirMark, e.Command); ok {
			p.Bundled = true
			p.Interpreter = b.interp[rel]
		} else if strings.HasPrefix(e.Command, "/") || strings.HasPrefix(e.Command, "~") {
			add(model.NotCovered{Kind: model.NotCoveredOutside, Subject: e.Command, Detail: fmt.Sprintf("It runs %s, outside the bundle; whatever is there when the host starts the server is not part of this approval.", e.Command)})
		}
		for _, kv := range e.Env {
			p.Env = append(p.Env, closure.EnvVar{Name: kv[0], Value: kv[1]})
		}
		add(closure.NotCoveredBy(p)...)
		for _, v := range append(append([]string{e.Command}, e.Args...), envValues(e.Env)...) {
			for _, m := range userConfigRef.FindAllStringSubmatch(v, -1) {
				if typ, ok := picked[m[1]]; ok {
					add(model.NotCovered{Kind: model.NotCoveredOutside, Subject: "${user_config." + m[1] + "}",
						Detail: fmt.Sprintf("It is given the %s the user picks for %s at install, outside the bundle; what is there is not part of this approval.", typ, m[1])})
				}
			}
		}
	}
	scan(base, "")
	keys := make([]string, 0, len(overrides))
	for k := range overrides {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		scan(overrides[k], k)
	}
	add(b.unbound...)
	return out
}

func envValues(env [][2]string) []string {
	out := make([]string, len(env))
	for i, kv := range env {
		out[i] = kv[1]
	}
	return out
}
