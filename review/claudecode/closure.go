package claudecode

import (
	"path"
	"sort"
	"strings"

	"vouch/model"
	"vouch/review/skills"
)

// closure is what a hook's, a stdio server's or an executable's approval covers besides
// its contract fields: every regular file of the plugin folder, because a command can run
// any file in it (a wrapper script loads its lib/, node resolves node_modules/ from the
// plugin root). The JSON files whose meaning is in the contract fields (plugin.json,
// hooks files, .mcp.json, .lsp.json, marketplace.json) are left out, so editing one hook
// does not disturb the approval of another. A symlink that leaves the plugin or dangles
// makes the list incomplete, so nothing bound to it can be approved.
type closure struct {
	files    []model.File
	diags    []model.Diagnostic
	complete bool
}

// pluginClosure is the one place the closure is computed; it walks the plugin once per
// load. (When the shared closure package lands, only this function changes.)
func (l *loader) pluginClosure() *closure {
	if l.cl != nil {
		return l.cl
	}
	skip := map[string]bool{manifestFile: true, marketplaceFile: true, hooksFile: true, mcpFile: true, lspFile: true}
	for _, f := range []string{"hooks", "mcpServers", "lspServers"} {
		for _, p := range l.paths[f] {
			if strings.HasSuffix(p, ".json") {
				skip[p] = true
			}
		}
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
	files, diags := skills.CollectFiles(l.root, ".", skills.CollectOptions{
		Known:      l.read,
		Code:       "plugin",
		Owner:      "the approval of the plugin's hooks and servers",
		Spec:       specRef("1.2; vouch DESIGN §6 closure"),
		LimitMsg:   "The plugin's files could not all be read (%v), so a hook's or server's approval could not cover every file it may run",
		LinksBlock: true,
		Skip:       func(rel string) bool { return skip[rel] || owned[rel] != nil },
	})
	for _, c := range owned {
		files = append(files, c.Contract.Files...)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	l.cl = &closure{files: files[:len(files):len(files)], diags: diags, complete: !hasErrors(diags)}
	return l.cl
}

// bindClosure puts the plugin closure into c's contract, or blocks c when it is incomplete.
func (l *loader) bindClosure(c *model.Component, what string) {
	cl := l.pluginClosure()
	c.Diagnostics = append(c.Diagnostics, cl.diags...)
	if !cl.complete {
		c.Contract = nil
		c.Summary = append(c.Summary, "Blocked: vouch could not bind every file of the plugin (a limit, an unreadable file, or a symlink that leaves the plugin or dangles; see the diagnostics), so an approval could not cover everything this "+what+" may run.")
		return
	}
	c.Files = cl.files
	if c.Contract != nil {
		c.Contract.Files = cl.files
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
