package agentplugins

import (
	"vouch/model"
	"vouch/review/closure"
)

// pluginClosure is what every stdio server's approval covers besides its contract fields:
// every file of the plugin (closure.Collect from the root), plugin.json, mcp.json and
// skills included. A command such as `node` with `${PLUGIN_ROOT}/server.js` in args, a
// wrapper that loads lib files, `require('./skills/x/helper.js')`, `npx` reading a
// package.json in its default cwd (the plugin root), or a server that reads its own
// mcp.json all use plugin files that no field names, so the closure cannot be guessed
// from the entry: it is the whole plugin, and a skill edit needs the servers approved
// again too. Symlinks are bound as links; one leading out of the plugin, or to nothing,
// blocks every server (a process would follow it).
type pluginClosure struct {
	files  []model.File // sorted by path, capacity clipped: shared read-only by every server
	byPath map[string]int
	diags  []model.Diagnostic
	// complete is false when a limit, an unreadable file or a link that cannot be bound
	// left something out: such a list must never become an approvable contract.
	complete bool
	// interp holds the #! line of executable files, for what a bundled command runs with.
	interp map[string]string
}

// closure walks the plugin once per load, on the first stdio server that needs it.
func (l *loader) closure() *pluginClosure {
	if l.cl != nil {
		return l.cl
	}
	// A skill loaded with a complete file list has hashed its files already: they are taken
	// from its contract, not read again. Anything else under skills/ (loose files, a
	// directory without SKILL.md, a skill whose files could not all be bound) is walked.
	owned := map[string]*model.Component{}
	for _, c := range l.pkg.Components {
		if c.Kind == model.KindSkill && c.Contract != nil {
			owned[skillsDir+"/"+c.ID] = c
		}
	}
	known := map[string][]byte{}
	if l.manifestData != nil {
		known[manifestFile] = l.manifestData
	}
	if l.mcpData != nil {
		known[mcpFile] = l.mcpData
	}
	res := closure.Collect(l.root, ".", closure.Options{
		Code:     "plugin",
		Owner:    "the stdio servers' approval",
		Spec:     specRef("4.1"),
		LimitMsg: "The plugin's files could not all be read (%v), so a stdio server's approval could not cover every file it may run",
		Known:    known,
		Runnable: true,
		Skip:     func(rel string) bool { return owned[rel] != nil },
	})
	res.AddOwned(owned)
	files := res.Files
	cl := &pluginClosure{files: files, byPath: make(map[string]int, len(files)), diags: res.Diagnostics, complete: res.Complete, interp: res.Interpreters}
	for i, f := range files {
		if !f.IsLink() {
			cl.byPath[f.Path] = i
		}
	}
	l.cl = cl
	return cl
}
