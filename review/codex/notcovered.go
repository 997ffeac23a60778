package codex

import (
	"path"
	"sort"
	"strings"

	"vouch/internal/lazyre"
	"vouch/model"
	"vouch/review/closure"
)

// While classifying, the plugin root and $CODEX_HOME stand as absolute marker paths with
// no shell metacharacters (a real root may hold spaces); the data directory beneath
// $CODEX_HOME reads as outside the plugin, and as its data. Findings name them as the
// variables again.
const (
	rootMark  = "/__PLUGIN_ROOT__"
	codexHome = "/__CODEX_HOME__"
)

var unmark = strings.NewReplacer(rootMark, "${PLUGIN_ROOT}", codexHome, "$CODEX_HOME")

// process is how a component of this plugin starts, for closure.NotCoveredBy: the root
// as vouch reads it (Codex runs the installed copy of the same bytes), the data directory
// Codex gives the plugin.
func (l *loader) process(starts string) closure.Process {
	return closure.Process{Root: rootMark, Data: l.dataMark(), DataName: "${PLUGIN_DATA}", Starts: starts}
}

// dataMark is the data directory under the $CODEX_HOME marker; the plugin name is kept
// to word characters so the marker stays one shell word.
func (l *loader) dataMark() string {
	name := []byte(l.pkg.Name)
	for i, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			name[i] = '-'
		}
	}
	return codexHome + "/plugins/data/" + string(name)
}

// expandForScan substitutes what Codex (at load) or the hook's environment (at run)
// makes of the plugin variables, and $HOME as ~.
func (l *loader) expandForScan(s string) string {
	root, data := rootMark, l.dataMark()
	return strings.NewReplacer("${PLUGIN_ROOT}", root, "${CLAUDE_PLUGIN_ROOT}", root, "$PLUGIN_ROOT", root, "$CLAUDE_PLUGIN_ROOT", root,
		"${PLUGIN_DATA}", data, "${CLAUDE_PLUGIN_DATA}", data, "$PLUGIN_DATA", data, "$CLAUDE_PLUGIN_DATA", data,
		"${CODEX_HOME}", codexHome, "$CODEX_HOME", codexHome, "${HOME}", "~", "$HOME", "~").Replace(s)
}

func (l *loader) interp(abs string) string {
	rel, ok := closure.Below(rootMark, abs)
	if !ok {
		return ""
	}
	return l.closure().Interpreters[rel]
}

// loginProfile is what Codex's $SHELL -lc adds to every hook: the login shell runs the
// user's profile before the command (Codex).
var loginProfile = model.NotCovered{Kind: model.NotCoveredPathProgram, Subject: "$SHELL -lc",
	Detail: codexSeen + " runs the hook with your login shell ($SHELL -lc), which first runs your shell profile (~/.profile, ~/.bash_profile, ~/.zprofile…): what those files hold is not part of this approval."}

// hookNotCovered classifies a hook's shell line with the shared rule; the login shell's
// profile comes first, as it runs first.
func (l *loader) hookNotCovered(command string) []model.NotCovered {
	p := l.process("the hook runs")
	p.Vars = map[string]string{"PLUGIN_ROOT": rootMark, "CLAUDE_PLUGIN_ROOT": rootMark, "PLUGIN_DATA": l.dataMark(), "CLAUDE_PLUGIN_DATA": l.dataMark(), "CODEX_HOME": codexHome, "HOME": "~"}
	nc := append([]model.NotCovered{loginProfile}, closure.NotCoveredByShell(l.expandPlaceholders(command), p, l.interp)...)
	return tidy(append(nc, l.missingFiles(command)...))
}

// rootPath is a plugin path named after the root variable, as Codex substitutes or the
// hook's shell expands it: ${PLUGIN_ROOT}/x, "$CLAUDE_PLUGIN_ROOT"/x.
var rootPath = lazyre.New(`\$\{?(?:CLAUDE_)?PLUGIN_ROOT\}?"?/([^\s"'$;|&()<>` + "`" + `]+)`)

// missingFiles names the plugin files a hook command runs or reads that are not in the
// plugin (when every file of it was read): the command fails there until one is put in
// place, and that file is not part of the approval.
func (l *loader) missingFiles(command string) []model.NotCovered {
	cl := l.closure()
	if !cl.Complete {
		return nil
	}
	var out []model.NotCovered
	for _, m := range rootPath.FindAllStringSubmatch(command, -1) {
		rel := path.Clean(m[1])
		if strings.HasPrefix(rel, "..") || rel == "." {
			continue // outside: the shell rule names it
		}
		found := false
		for _, f := range cl.Files {
			if f.Path == rel || strings.HasPrefix(f.Path, rel+"/") {
				found = true // the file, or a directory of the plugin
				break
			}
		}
		if !found {
			out = append(out, model.NotCovered{Kind: model.NotCoveredMissing, Subject: "${PLUGIN_ROOT}/" + rel,
				Detail: "It names ${PLUGIN_ROOT}/" + rel + ", which is not in the plugin: the hook fails until a file is put there, and that file is not part of this approval."})
		}
	}
	return out
}

// expandPlaceholders substitutes what Codex replaces in a hook command at load, as
// spelled; the unbraced forms and ${X:-…} are the shell's, read from the hook's
// environment (p.Vars).
func (l *loader) expandPlaceholders(s string) string {
	return strings.NewReplacer("${PLUGIN_ROOT}", rootMark, "${CLAUDE_PLUGIN_ROOT}", rootMark).Replace(s)
}

// serverNotCovered classifies a stdio server: its command, args, env, the variables it
// forwards from the user's environment (env_vars) and its cwd.
func (l *loader) serverNotCovered(command string, args []string, env map[string]string, forwarded []string, cwd string) []model.NotCovered {
	p := l.process("the server starts")
	p.Command = l.expandForScan(command)
	for _, a := range args {
		p.Args = append(p.Args, l.expandForScan(a))
	}
	names := make([]string, 0, len(env))
	for k := range env {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		p.Env = append(p.Env, closure.EnvVar{Name: k, Value: l.expandForScan(env[k])})
	}
	p.Inherit = forwarded
	if cwd != "" {
		c := l.expandForScan(cwd)
		if !strings.HasPrefix(c, "/") && !strings.HasPrefix(c, "~") {
			c = path.Join(rootMark, c)
		}
		p.Cwd = c
	}
	if !strings.HasPrefix(p.Command, "/") && !strings.HasPrefix(p.Command, "~") && strings.Contains(p.Command, "/") {
		// ./x and bin/x run from the server's cwd (the plugin root without one), and are
		// the plugin's files only while cleaning keeps them inside (./../x is not).
		dir := p.Cwd
		if dir == "" {
			dir = rootMark
		}
		p.Command = path.Join(dir, p.Command)
	}
	if strings.HasPrefix(p.Command, "/") {
		rel, ok := closure.Below(rootMark, p.Command)
		p.Bundled = ok
		p.Interpreter = l.closure().Interpreters[rel]
	}
	var out []model.NotCovered
	if strings.HasPrefix(p.Command, "/") && !p.Bundled || strings.HasPrefix(p.Command, "~") {
		out = append(out, model.NotCovered{Kind: model.NotCoveredOutside, Subject: command, Detail: "It runs " + command + ", outside the plugin; whatever is there when the server starts is not part of this approval."})
	}
	return tidy(append(out, closure.NotCoveredBy(p)...))
}

// tidy names $CODEX_HOME as the user sees it.
func tidy(nc []model.NotCovered) []model.NotCovered {
	out := nc[:0]
	for _, n := range nc {
		n.Subject, n.Detail = unmark.Replace(n.Subject), unmark.Replace(n.Detail)
		out = append(out, n)
	}
	return out
}
