package claudecode

import (
	"path"
	"strings"

	"vouch/model"
	"vouch/review/closure"
)

// pluginClosure is what a hook's, a stdio server's or an executable's approval covers
// besides its contract fields: every file of the plugin folder (closure.Collect, the one
// rule every loader shares), because a command can run any file in it (a wrapper script
// loads its lib/, node resolves node_modules/ from the plugin root). Links are bound as
// links; one that leaves the plugin, dangles, loops or is absolute blocks every
// component bound to the closure.
//
// Manifests are included (plugin.json, hooks files, .mcp.json, .lsp.json,
// marketplace.json), as for every runnable component: a hook's process can
// read them, so editing one hook's entry asks for the other hooks to be approved again.
// A skill whose own file list is complete is taken from its contract instead of being
// read again. The plugin is walked once per load.
func (l *loader) pluginClosure() *closure.Result {
	if l.cl != nil {
		return l.cl
	}
	// A skill loaded with a complete file list has hashed its files already, and command,
	// agent and output-style files read for review are kept: neither is read again.
	owned := map[string]*model.Component{}
	for _, c := range l.pkg.Components {
		if c.Kind == model.KindSkill && c.Contract != nil && c.BodyFile != "" && !skippedLinks(c) {
			if dir := path.Dir(c.BodyFile); dir != "." {
				owned[dir] = c
			}
		}
	}
	res := closure.Collect(l.root, ".", closure.Options{
		Known:    l.read,
		Code:     "plugin",
		Owner:    "the approval of the plugin's hooks and servers",
		Spec:     specRef("1.2; vouch README.md, what an approval covers"),
		LimitMsg: "The plugin's files could not all be read (%v), so a hook's or server's approval could not cover every file it may run",
		Runnable: true,
		Skip:     func(rel string) bool { return owned[rel] != nil },
	})
	res.AddOwned(owned)
	l.cl = &res
	return l.cl
}

// bindClosure puts the plugin closure into c's contract, or blocks c when it is incomplete.
func (l *loader) bindClosure(c *model.Component, what string) {
	cl := l.pluginClosure()
	c.Diagnostics = append(c.Diagnostics, cl.Diagnostics...)
	if !cl.Complete {
		c.Contract = nil
		c.Summary = append(c.Summary, "Blocked: vouch could not bind every file of the plugin (a limit, an unreadable file, or a symlink that leaves the plugin or dangles; see the diagnostics), so an approval could not cover everything this "+what+" may run.")
		return
	}
	c.Files = cl.Files
	if c.Contract != nil {
		c.Contract.Files = cl.Files
	}
	c.Summary = append(c.Summary, "Runs with the plugin's files: every file of the plugin folder is part of what you approve; editing any of them needs a new approval.")
}

// skippedLinks reports whether a skill left a file out (a link that escapes or dangles, a
// special file): for the skill that is a warning, for a process it is not, so such a
// skill's folder is walked again under the closure's stricter rules.
func skippedLinks(c *model.Component) bool {
	for _, d := range c.Diagnostics {
		if strings.HasPrefix(d.Code, "skill-file-") {
			return true
		}
	}
	return false
}
