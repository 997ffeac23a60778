package agentplugins

import (
	"sort"
	"strings"

	"vouch/model"
	"vouch/review/fsguard"
	"vouch/review/skills"
)

// closure is what every stdio server's approval covers besides its contract fields: every
// regular file of the plugin except the skills (each skill is approved as its own
// component) and plugin.json and mcp.json (what in them matters is in the contract
// fields). A command such as `node` with `${PLUGIN_ROOT}/server.js` in args, a wrapper
// that loads lib files, or `npx` reading a package.json in its default cwd (the plugin
// root) all run plugin files that no field names, so the closure cannot be guessed from
// the entry: it is the whole plugin.
type closure struct {
	files  []model.File // sorted by path, capacity clipped: shared read-only by every server
	byPath map[string]int
	diags  []model.Diagnostic
	// complete is false when a limit or an unreadable file left a file out: such a list
	// must never become an approvable contract.
	complete bool
}

// closure walks the plugin once per load, on the first stdio server that needs it.
func (l *loader) closure() *closure {
	if l.cl != nil {
		return l.cl
	}
	// skills/ is left out only when it is the skills location; a file named skills is
	// just a file a server could read.
	skipSkills := false
	if e, err := l.root.Stat(skillsDir); err == nil && e.Type == fsguard.TypeDir {
		skipSkills = true
	}
	files, diags := skills.CollectFiles(l.root, ".", skills.CollectOptions{
		Code:     "plugin",
		Owner:    "the stdio servers' approval",
		Spec:     specRef("4.1"),
		LimitMsg: "The plugin's files could not all be read (%v), so a stdio server's approval could not cover every file it may run",
		Skip: func(rel string) bool {
			return rel == manifestFile || rel == mcpFile ||
				skipSkills && (rel == skillsDir || strings.HasPrefix(rel, skillsDir+"/"))
		},
	})
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	cl := &closure{files: files[:len(files):len(files)], byPath: make(map[string]int, len(files)), diags: diags, complete: !hasErrors(diags)}
	for i, f := range files {
		cl.byPath[f.Path] = i
	}
	l.cl = cl
	return cl
}
