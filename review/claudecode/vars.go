package claudecode

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"vouch/model"
	"vouch/review/fsguard"
)

// The three path placeholders Claude substitutes, and ${user_config.KEY} (NOTES §1.3).
const (
	varRoot    = "${CLAUDE_PLUGIN_ROOT}"
	varData    = "${CLAUDE_PLUGIN_DATA}"
	varProject = "${CLAUDE_PROJECT_DIR}"
)

var userConfigVar = regexp.MustCompile(`\$\{user_config\.([A-Za-z_][A-Za-z0-9_]*)\}`)

// dataDir is where ${CLAUDE_PLUGIN_DATA} points: <config>/plugins/data/<id>, the id being
// plugin@marketplace with every character outside [A-Za-z0-9_-] turned into "-".
func (l *loader) dataDir() string {
	mk := l.opts.Marketplace
	if mk == "" {
		mk = "<marketplace>"
	}
	id := []byte(l.pkg.Name + "@" + mk)
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

// expandedField returns the expanded text when it differs from s.
func (l *loader) expandedField(s string) (string, bool) {
	x := l.expand(s)
	return x, x != s
}

var envRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)(:-[^}]*)?\}`)

// envFlow lists the environment variables a .mcp.json value reads through ${VAR} or
// ${VAR:-default} (Claude expands them from the user's environment, NOTES §1.3), leaving
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

// markNotCovered records what an approval of c cannot bind, in its Summary and in a
// "not covered" detail. TODO(closure): move to Component.NotCovered when the model has it.
func markNotCovered(c *model.Component, text string) {
	nc := notCovered(text)
	if len(nc) == 0 {
		return
	}
	for _, s := range nc {
		c.Summary = append(c.Summary, "Not covered by this approval: "+s)
	}
	c.Details = append(c.Details, model.Field{Key: "not covered", Value: nc})
}

// notCovered lists what a command runs that an approval of the plugin's bytes cannot bind
// (DESIGN §6): code from outside the plugin, code downloaded at start, behaviour read from
// the project. These belong in Component.NotCovered once the model has it.
func notCovered(text string) []string {
	var out []string
	// Paths built on the plugin placeholders are inside the plugin (or its data folder).
	text = placeholderTokens.Replace(text)
	add := func(s string) {
		for _, o := range out {
			if o == s {
				return
			}
		}
		out = append(out, s)
	}
	low := strings.ToLower(text)
	if strings.Contains(low, ".claude/plugins/cache") {
		add("It runs code from Claude's plugin cache (~/.claude/plugins/cache/…), possibly another plugin's or the newest cached version: those bytes are not part of this plugin.")
	}
	for _, f := range strings.FieldsFunc(text, func(r rune) bool {
		return r == ' ' || r == '\t' || r == ';' || r == '&' || r == '|' || r == '(' || r == '"' || r == '\'' || r == '='
	}) {
		switch {
		case strings.HasPrefix(f, "/") && len(f) > 1 && !strings.HasPrefix(f, "/dev/") && !strings.HasPrefix(f, "/tmp"):
			add(fmt.Sprintf("It names the absolute path %s, outside the plugin: whatever is there is not covered by this approval.", clip(f)))
		case strings.HasPrefix(f, "~/") || strings.HasPrefix(f, "$HOME/") || strings.HasPrefix(f, "${HOME}/"):
			if !strings.Contains(strings.ToLower(f), ".claude/plugins/cache") {
				add(fmt.Sprintf("It names %s in the user's home directory, outside the plugin: not covered by this approval.", clip(f)))
			}
		}
	}
	for _, w := range []string{"npx", "uvx", "bunx", "pnpm dlx", "pipx run", "deno run", "uv run"} {
		if containsWord(low, w) {
			add(fmt.Sprintf("It uses %s, which can download and run a package at start: that code is not part of this plugin.", w))
		}
	}
	if (strings.Contains(low, "curl") || strings.Contains(low, "wget")) && (strings.Contains(low, "| sh") || strings.Contains(low, "|sh") || strings.Contains(low, "| bash") || strings.Contains(low, "|bash")) {
		add("It pipes a download into a shell (curl|sh): the code it runs is fetched at run time and not covered by this approval.")
	}
	for _, w := range []string{"curl", "wget", "git clone", "gh release download", "pip install", "npm install", "npm i", "go install", "cargo install"} {
		if containsWord(low, w) {
			add(fmt.Sprintf("It fetches code or data from the network at run time (%s): what it downloads is not covered by this approval.", w))
			break
		}
	}
	if strings.Contains(text, ".claude/") || strings.Contains(text, "CLAUDE_PROJECT_DIR") {
		add("It reads the project (${CLAUDE_PROJECT_DIR} or files under .claude/): behaviour that comes from the project is not covered by this approval.")
	}
	return out
}

var placeholderTokens = strings.NewReplacer(
	`"${CLAUDE_PLUGIN_ROOT}"`, "PLUGIN-ROOT", varRoot, "PLUGIN-ROOT", `"$CLAUDE_PLUGIN_ROOT"`, "PLUGIN-ROOT", "$CLAUDE_PLUGIN_ROOT", "PLUGIN-ROOT",
	`"${CLAUDE_PLUGIN_DATA}"`, "PLUGIN-DATA", varData, "PLUGIN-DATA", `"$CLAUDE_PLUGIN_DATA"`, "PLUGIN-DATA", "$CLAUDE_PLUGIN_DATA", "PLUGIN-DATA",
)

func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !isWordByte(s[j-1])
		after := j+len(w) == len(s) || !isWordByte(s[j+len(w)])
		if before && after {
			return true
		}
		i = j + 1
	}
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// plainPluginRoot reports a ${PLUGIN_ROOT}/${PLUGIN_DATA} in a Claude command: not a Claude
// placeholder, a plain shell variable (usually unset).
func plainPluginRoot(s string) []string {
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

var rootPath = regexp.MustCompile(`PLUGIN-ROOT/([A-Za-z0-9._/@+-]+)`)

// pluginPaths lists the plugin files a command names through ${CLAUDE_PLUGIN_ROOT}.
func pluginPaths(text string) []string {
	var out []string
	for _, m := range rootPath.FindAllStringSubmatch(placeholderTokens.Replace(text), 16) {
		p := strings.TrimSuffix(m[1], "/")
		if p != "" && !contains(out, p) {
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
			c.Diagnostics = append(c.Diagnostics, l.diag("named-file-missing", model.SeverityWarning, model.BoundaryComponent, file, ptr, 0,
				fmt.Sprintf("It runs ${CLAUDE_PLUGIN_ROOT}/%s, which is not in the plugin; the command will fail.", clip(p)), "1.3"))
			continue
		}
		if st.Type != fsguard.TypeFile || c.Contract == nil {
			continue
		}
		for _, f := range c.Contract.Files {
			if f.Path == p {
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

func withinPlugin(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return false
		}
	}
	return true
}
