package agentplugins

import (
	"sort"

	"vouch/model"
	"vouch/review/skills"
)

// closure is what every stdio server's approval covers besides its contract fields: every
// regular file of the plugin except plugin.json and mcp.json (what in them matters is in
// the contract fields). A command such as `node` with `${PLUGIN_ROOT}/server.js` in args,
// a wrapper that loads lib files, `require('./skills/x/helper.js')`, or `npx` reading a
// package.json in its default cwd (the plugin root) all run plugin files that no field
// names, so the closure cannot be guessed from the entry: it is the whole plugin, skills
// included, and a skill edit needs the servers approved again too. A symlink leading out
// of the plugin, or to nothing, makes the list incomplete: a server would follow it.
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
	// A skill loaded with a complete file list has hashed its files already: they are taken
	// from its contract, not read again. Anything else under skills/ (loose files, a
	// directory without SKILL.md, a skill whose files could not all be read) is walked.
	owned := map[string]*model.Component{}
	for _, c := range l.pkg.Components {
		if c.Kind == model.KindSkill && c.Contract != nil {
			owned[skillsDir+"/"+c.ID] = c
		}
	}
	files, diags := skills.CollectFiles(l.root, ".", skills.CollectOptions{
		Code:       "plugin",
		Owner:      "the stdio servers' approval",
		Spec:       specRef("4.1"),
		LimitMsg:   "The plugin's files could not all be read (%v), so a stdio server's approval could not cover every file it may run",
		LinksBlock: true,
		Skip: func(rel string) bool {
			return rel == manifestFile || rel == mcpFile || owned[rel] != nil
		},
	})
	for _, c := range owned {
		files = append(files, c.Contract.Files...)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	cl := &closure{files: files[:len(files):len(files)], byPath: make(map[string]int, len(files)), diags: diags, complete: !hasErrors(diags)}
	for i, f := range files {
		cl.byPath[f.Path] = i
	}
	l.cl = cl
	return cl
}
