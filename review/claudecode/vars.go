package claudecode

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"

	"vouch/internal/lazyre"
	"vouch/model"
	"vouch/review/closure"
	"vouch/review/fsguard"
)

// The three path placeholders Claude Code substitutes, and ${user_config.KEY}.
const (
	varRoot    = "${CLAUDE_PLUGIN_ROOT}"
	varData    = "${CLAUDE_PLUGIN_DATA}"
	varProject = "${CLAUDE_PROJECT_DIR}"
)

var userConfigVar = lazyre.New(`\$\{user_config\.([A-Za-z_][A-Za-z0-9_]*)\}`)

// marketplace names the marketplace the plugin installs from in the paths Claude Code
// derives from it: "<marketplace>" when the caller did not say.
func (l *loader) marketplace() string {
	if l.opts.Marketplace == "" {
		return "<marketplace>"
	}
	return l.opts.Marketplace
}

// dataDir is where ${CLAUDE_PLUGIN_DATA} points: <config>/plugins/data/<id>, the id being
// plugin@marketplace with every character outside [A-Za-z0-9_-] turned into "-".
func (l *loader) dataDir() string {
	id := []byte(l.pkg.Name + "@" + l.marketplace())
	for i, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '<' || c == '>') {
			id[i] = '-'
		}
	}
	return strings.TrimSuffix(l.opts.ConfigDir, "/") + "/plugins/data/" + string(id)
}

// expand shows what Claude substitutes inline: the three path placeholders and
// ${user_config.KEY} (shown as <user_config.KEY>, the value the user enters). One pass,
// left to right, replacement text not rescanned.
func (l *loader) expand(s string) string {
	if !strings.Contains(s, "${") {
		return s
	}
	r := strings.NewReplacer(varRoot, l.root.Path(), varData, l.dataDir(), varProject, "<project dir>")
	s = r.Replace(s)
	return userConfigVar.ReplaceAllString(s, "<user_config.$1>")
}

// expandAll expands each argument, and says whether any of them changed.
func (l *loader) expandAll(args []string) ([]string, bool) {
	exp, changed := make([]string, len(args)), false
	for i, a := range args {
		exp[i] = l.expand(a)
		changed = changed || exp[i] != a
	}
	return exp, changed
}

// expandedField returns the expanded text when it differs from s.
func (l *loader) expandedField(s string) (string, bool) {
	x := l.expand(s)
	return x, x != s
}

var envRef = lazyre.New(`\$\{([A-Za-z_][A-Za-z0-9_]*)(:-[^}]*)?\}`)

// envFlow lists the environment variables a .mcp.json value reads through ${VAR} or
// ${VAR:-default} (Claude expands them from the user's environment, Claude Code), leaving
// out the plugin placeholders.
func envFlow(vals ...string) []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range vals {
		for _, m := range envRef.FindAllStringSubmatch(v, -1) {
			n := m[1]
			if n == "CLAUDE_PLUGIN_ROOT" || n == "CLAUDE_PLUGIN_DATA" || n == "CLAUDE_PROJECT_DIR" || seen[n] {
				continue
			}
			seen[n] = true
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// unquotedRoot reports whether a shell command uses ${CLAUDE_PLUGIN_ROOT} (or the data or
// project placeholder) outside double quotes: the expanded path splits on spaces.
func unquotedRoot(cmd string) []string {
	var out []string
	inDouble, inSingle := false, false
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case c == '\\' && !inSingle && i+1 < len(cmd):
			i++
		case c == '\'' && !inDouble:
			inSingle = !inSingle
		case c == '"' && !inSingle:
			inDouble = !inDouble
		case c == '$' && !inDouble && !inSingle:
			for _, v := range []string{varRoot, varData, varProject} {
				if strings.HasPrefix(cmd[i:], v) {
					out = append(out, v)
				}
			}
		}
	}
	return out
}

// markNotCovered adds to c.NotCovered what its approval cannot bind, and one Summary
// sentence pointing at that list (the list itself is the finding; the Summary only
// directs the reader to it).
func markNotCovered(c *model.Component, nc []model.NotCovered) {
	seen := map[string]bool{}
	for _, n := range c.NotCovered {
		seen[n.Kind+"\x00"+n.Subject] = true
	}
	added := 0
	for _, n := range nc {
		if k := n.Kind + "\x00" + n.Subject; !seen[k] {
			seen[k] = true
			c.NotCovered = append(c.NotCovered, n)
			added++
		}
	}
	if added == 0 {
		return
	}
	for i, s := range c.Summary {
		if strings.HasPrefix(s, closure.SummaryPrefix) {
			c.Summary = append(c.Summary[:i], c.Summary[i+1:]...)
			break
		}
	}
	c.Summary = append(c.Summary, closure.SummaryLine(len(c.NotCovered)))
}

// While classifying, the placeholders stand as absolute marker paths with no shell
// metacharacters (a real root may hold spaces, a data dir "<marketplace>"): the plugin
// root, its data directory, and the project, which is outside the plugin. Findings name
// them as Claude's placeholders again.
const (
	rootMark    = "/__CLAUDE_PLUGIN_ROOT__"
	dataMark    = "/__CLAUDE_PLUGIN_DATA__"
	projectMark = "/__CLAUDE_PROJECT_DIR__"
)

var unmark = strings.NewReplacer(rootMark, varRoot, dataMark, varData, projectMark, varProject)

// process describes how a component starts for closure.NotCoveredBy, with Claude's
// placeholders expanded as Claude does.
func (l *loader) process(starts string) closure.Process {
	return closure.Process{Root: rootMark, Data: dataMark, DataName: varData, Starts: starts}
}

// expandForScan substitutes the placeholders for classification: the plugin's own
// paths, the project marker, and $HOME as ~ (a home path is outside the plugin).
func (l *loader) expandForScan(s string) string {
	r := strings.NewReplacer(varRoot, rootMark, "$CLAUDE_PLUGIN_ROOT", rootMark, varData, dataMark, "$CLAUDE_PLUGIN_DATA", dataMark,
		varProject, projectMark, "$CLAUDE_PROJECT_DIR", projectMark, "${HOME}", "~", "$HOME", "~")
	return userConfigVar.ReplaceAllString(r.Replace(s), "user_config.$1")
}

// interp gives the #! line of a bundled program named by its absolute path.
func (l *loader) interp(abs string) string {
	rel, ok := closure.Below(rootMark, abs)
	if !ok {
		return ""
	}
	return l.pluginClosure().Interpreters[rel]
}

// shellNotCovered classifies a shell line Claude runs (a hook command, a monitor, a !`…`
// injection, a headersHelper) with the shared rule, then names what only Claude has.
// A hook's and an injection's working directory is the project (Claude runs them
// there), so inProject makes relative paths name project files.
func (l *loader) shellNotCovered(line, starts string, inProject bool) []model.NotCovered {
	p := l.process(starts)
	if inProject {
		p.Cwd = projectMark
	}
	p.Vars = shellVars
	return l.claudeOnly(closure.NotCoveredByShell(l.expandPlaceholders(line), p, l.interp), line)
}

// shellVars are what a hook's shell finds set: Claude exports the three path variables to
// hooks (and $HOME is the user's, outside the plugin). Any other variable is the user's.
var shellVars = map[string]string{"CLAUDE_PLUGIN_ROOT": rootMark, "CLAUDE_PLUGIN_DATA": dataMark, "CLAUDE_PROJECT_DIR": projectMark, "HOME": "~"}

// expandPlaceholders substitutes what Claude itself replaces in a shell line before the
// shell reads it: the three placeholders exactly as spelled (${CLAUDE_PLUGIN_ROOT}, never
// $CLAUDE_PLUGIN_ROOT or ${CLAUDE_PLUGIN_ROOT%x}, which the shell expands from the
// environment), and ${user_config.KEY}, which Claude refuses in shell lines.
func (l *loader) expandPlaceholders(s string) string {
	r := strings.NewReplacer(varRoot, rootMark, varData, dataMark, varProject, projectMark)
	return userConfigVar.ReplaceAllString(r.Replace(s), "user_config.$1")
}

// execNotCovered classifies a program started with arguments and environment (a stdio
// server, an LSP server, an exec-form hook).
func (l *loader) execNotCovered(cmd string, args []string, env map[string]string, starts string, inProject bool) []model.NotCovered {
	cwd := ""
	if inProject {
		cwd = projectMark
	}
	return l.execNotCoveredIn(cmd, args, env, starts, cwd)
}

// execNotCoveredIn is execNotCovered for a process started in cwd (a marker path, ""
// for the plugin root).
func (l *loader) execNotCoveredIn(cmd string, args []string, env map[string]string, starts, cwd string) []model.NotCovered {
	p := l.process(starts)
	p.Cwd = cwd
	p.Command = l.expandForScan(cmd)
	prog := p.Command
	if !strings.HasPrefix(prog, "/") && !strings.HasPrefix(prog, "~") && strings.Contains(prog, "/") {
		// ./bin/x runs from the directory the process starts in, not the plugin's.
		dir := cwd
		if dir == "" {
			dir = rootMark
		}
		prog = path.Join(dir, prog)
	}
	if strings.HasPrefix(prog, "/") {
		rel, ok := closure.Below(rootMark, prog)
		p.Bundled = ok
		p.Interpreter = l.pluginClosure().Interpreters[rel]
	}
	text := []string{cmd}
	for _, a := range args {
		p.Args = append(p.Args, l.expandForScan(a))
		text = append(text, a)
	}
	for _, k := range slices.Sorted(maps.Keys(env)) {
		p.Env = append(p.Env, closure.EnvVar{Name: k, Value: l.expandForScan(env[k])})
		text = append(text, env[k])
	}
	var out []model.NotCovered
	if strings.HasPrefix(prog, "/") && !p.Bundled {
		out = append(out, l.outside(p.Command, starts))
	}
	return l.claudeOnly(append(out, closure.NotCoveredBy(p)...), strings.Join(text, " "))
}

// stdioNotCovered classifies a .mcp.json stdio server as Claude starts it: ${VAR} and
// ${VAR:-default} in its command, args and cwd come from the user's environment when the
// server starts, so a word holding one names nothing vouch can place; the process starts
// in cwd when one is given.
func (l *loader) stdioNotCovered(cmd string, args []string, env map[string]string, cwd string) []model.NotCovered {
	const starts = "the server starts"
	var out []model.NotCovered
	for _, w := range append(append([]string{cmd, cwd}, args...), mapValues(env)...) {
		if len(envFlow(w)) > 0 {
			out = append(out, model.NotCovered{Kind: model.NotCoveredUnresolved, Subject: w, Detail: fmt.Sprintf("Claude expands %s from your environment when %s; what it names then is not part of this approval.", w, starts)})
		}
	}
	dir := ""
	if cwd != "" {
		x := l.expandForScan(cwd)
		switch {
		case strings.HasPrefix(x, "/") || strings.HasPrefix(x, "~"):
			dir = x
		case len(envFlow(cwd)) == 0:
			out = append(out, model.NotCovered{Kind: model.NotCoveredUnresolved, Subject: cwd, Detail: fmt.Sprintf("The server starts in %s, relative to a directory Claude does not name; what relative paths find there is not part of this approval.", cwd)})
		}
		if dir != "" {
			if _, ok := closure.Below(rootMark, dir); !ok && !strings.HasPrefix(dir, dataMark) {
				out = append(out, model.NotCovered{Kind: model.NotCoveredOutside, Subject: dir, Detail: fmt.Sprintf("The server starts in %s, outside the plugin: relative paths it runs or loads are not part of this approval.", dir)})
			}
		}
	}
	for i := range out {
		out[i].Subject, out[i].Detail = unmark.Replace(out[i].Subject), unmark.Replace(out[i].Detail)
	}
	return append(out, l.execNotCoveredIn(cmd, args, env, starts, dir)...)
}

func (l *loader) outside(prog, starts string) model.NotCovered {
	return model.NotCovered{Kind: model.NotCoveredOutside, Subject: prog, Detail: fmt.Sprintf("It runs %s, outside the plugin; whatever is there when %s is not part of this approval.", prog, starts)}
}

// claudeOnly rewrites the shared findings in Claude's terms and adds Claude's own: the
// plugin cache (another plugin's files, or "the newest version" there), the project's
// files (${CLAUDE_PROJECT_DIR}, .claude/).
func (l *loader) claudeOnly(nc []model.NotCovered, raw string) []model.NotCovered {
	out := nc[:0:0]
	project := false
	for _, n := range nc {
		switch {
		case strings.Contains(n.Subject, projectMark):
			n.Subject = unmark.Replace(n.Subject)
			n.Detail = fmt.Sprintf("It names %s, a file of the project Claude runs in, not of the plugin: whatever the project holds there is not part of this approval.", n.Subject)
			project = true
		case strings.Contains(n.Subject, ".claude/") && !strings.Contains(strings.ToLower(n.Subject), ".claude/plugins/cache"):
			project = true
		case strings.Contains(strings.ToLower(n.Subject), ".claude/plugins/cache"):
			n.Detail = fmt.Sprintf("It runs code from Claude's plugin cache (%s), possibly another plugin's or the newest cached version: those bytes are not part of this plugin.", n.Subject)
		}
		n.Subject, n.Detail = unmark.Replace(n.Subject), strings.ReplaceAll(unmark.Replace(n.Detail), "("+varData+")", "("+l.dataDir()+")")
		out = append(out, n)
	}
	if !project && strings.Contains(raw, ".claude/") && !strings.Contains(strings.ToLower(raw), ".claude/plugins/cache") {
		out = append(out, model.NotCovered{Kind: model.NotCoveredOutside, Subject: ".claude/", Detail: "It reads files under .claude/ of the project it runs in: behaviour that comes from the project is not part of this approval."})
	}
	return out
}

var placeholderTokens = strings.NewReplacer(
	`"${CLAUDE_PLUGIN_ROOT}"`, "PLUGIN-ROOT", varRoot, "PLUGIN-ROOT", `"$CLAUDE_PLUGIN_ROOT"`, "PLUGIN-ROOT", "$CLAUDE_PLUGIN_ROOT", "PLUGIN-ROOT",
	`"${CLAUDE_PLUGIN_DATA}"`, "PLUGIN-DATA", varData, "PLUGIN-DATA", `"$CLAUDE_PLUGIN_DATA"`, "PLUGIN-DATA", "$CLAUDE_PLUGIN_DATA", "PLUGIN-DATA",
)

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// plainPluginRoot reports a ${PLUGIN_ROOT}/${PLUGIN_DATA} in a Claude command: not a Claude
// placeholder, a plain shell variable (usually unset).
func plainPluginRoot(s string) []string {
	s = withoutSetDefaults(s)
	var out []string
	for _, v := range []string{"PLUGIN_ROOT", "PLUGIN_DATA"} {
		if strings.Contains(s, "${"+v+"}") || strings.Contains(s, "${"+v+":") {
			out = append(out, "${"+v+"}")
			continue
		}
		for i := 0; ; {
			j := strings.Index(s[i:], "$"+v)
			if j < 0 {
				break
			}
			j += i
			if end := j + 1 + len(v); end == len(s) || !isWordByte(s[end]) {
				out = append(out, "${"+v+"}")
				break
			}
			i = j + 1
		}
	}
	return out
}

var rootPath = lazyre.New(`PLUGIN-ROOT/([A-Za-z0-9._/@+-]+)`)

// pluginPaths lists the plugin files a command names through ${CLAUDE_PLUGIN_ROOT}.
func pluginPaths(text string) []string {
	var out []string
	for _, m := range rootPath.FindAllStringSubmatch(placeholderTokens.Replace(text), -1) {
		p := strings.TrimSuffix(m[1], "/")
		if p != "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// namedFiles says which plugin files a runnable component names, with their hashes, and
// warns about a named file that is not in the plugin.
func (l *loader) namedFiles(c *model.Component, text, file, ptr string) {
	for _, p := range pluginPaths(text) {
		if !withinPlugin(p) {
			continue
		}
		st, err := l.root.Stat(p)
		if err != nil {
			c.Diagnostics = append(c.Diagnostics, model.Place{File: file, Pointer: ptr}.Component("named-file-missing", model.SeverityWarning,
				fmt.Sprintf("It runs ${CLAUDE_PLUGIN_ROOT}/%s, which is not in the plugin; the command will fail.", clip(p)), specRef("1.3")))
			markNotCovered(c, []model.NotCovered{{Kind: model.NotCoveredMissing, Subject: varRoot + "/" + p,
				Detail: fmt.Sprintf("It runs %s/%s, which is not in the plugin: the command fails until a file is put there, and that file is not part of this approval.", varRoot, p)}})
			continue
		}
		if st.Type != fsguard.TypeFile || c.Contract == nil {
			continue
		}
		for _, f := range c.Contract.Files {
			if f.Path == p && f.IsLink() {
				// Bound as a link (its target is part of the approval); the file it leads
				// to is listed under its own path.
				c.Summary = append(c.Summary, fmt.Sprintf("Runs the bundled file %s, a symlink to %s.", p, f.Link))
			} else if f.Path == p && len(f.SHA256) >= 12 {
				exec := ""
				first := strings.TrimLeft(placeholderTokens.Replace(text), "\" '")
				if !f.Exec && strings.HasPrefix(first, "PLUGIN-ROOT/"+p) {
					exec = ", which has no execute permission: running it directly fails"
				}
				c.Summary = append(c.Summary, fmt.Sprintf("Runs the bundled file %s (sha256 %s%s).", p, f.SHA256[:12], exec))
			}
		}
	}
}

// withoutSetDefaults drops the defaults of ${CLAUDE_PLUGIN_ROOT:-…} and
// ${CLAUDE_PLUGIN_DATA:-…}: Claude Code sets both variables in a hook's environment, so
// the shell never evaluates what follows :- (a fallback such as $PLUGIN_ROOT for Codex).
func withoutSetDefaults(s string) string {
	for _, v := range []string{"CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA"} {
		for i := 0; ; {
			j := strings.Index(s[i:], "${"+v+":")
			if j < 0 {
				break
			}
			j += i
			k, depth := j+len(v)+3, 1
			for ; k < len(s) && depth > 0; k++ {
				switch s[k] {
				case '{':
					depth++
				case '}':
					depth--
				}
			}
			if depth > 0 {
				break
			}
			s = s[:j] + "${" + v + "}" + s[k:]
			i = j + len(v) + 3
		}
	}
	return s
}

func withinPlugin(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return false
		}
	}
	return true
}
