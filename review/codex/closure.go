package codex

import (
	"path"
	"strings"

	"vouch/model"
	"vouch/review/closure"
)

// closure is what every runnable component's approval covers besides its contract
// fields: every file of the plugin folder, manifests included (closure.Collect, the one
// rule every loader shares). A hook command such as `${PLUGIN_ROOT}/hooks/check.sh` or
// `node ./x.js` runs plugin files no field names, and Codex's own trust marks a hook
// modified when any plugin file changes (observed on Codex), so the closure is the whole
// folder and nothing is skipped (a skill's files already hashed are taken from it). Links are bound as links; one that leaves the folder,
// dangles, loops or is absolute makes the list incomplete, and the components that need
// it are blocked. Its Files are sorted by path with their capacity clipped: every
// component shares them read-only.
func (l *loader) closure() *closure.Result {
	if l.cl != nil {
		return l.cl
	}
	owned := l.hashedSkills()
	res := closure.Collect(l.root, ".", closure.Options{
		Code:     "plugin",
		Owner:    "the plugin's hooks and servers",
		Spec:     specHooks,
		LimitMsg: "The plugin's files could not all be read (%v), so an approval of a hook or server could not cover every file it may run",
		Known:    map[string][]byte{l.mf: l.data},
		Runnable: true,
		Skip:     func(rel string) bool { return owned[rel] != nil },
	})
	res.AddOwned(owned)
	l.cl = &res
	return l.cl
}

// bindClosure gives c the plugin closure's diagnostics and files and reports true; when
// the closure is incomplete no approval could cover what c runs, so c gets no files, the
// blocked sentence joins its summary, and it reports false.
func (l *loader) bindClosure(c *model.Component, blocked string) bool {
	cl := l.closure()
	c.Diagnostics = append(c.Diagnostics, cl.Diagnostics...)
	if !cl.Complete {
		c.Summary = append(c.Summary, blocked)
		return false
	}
	c.Files = cl.Files
	return true
}

// hashedSkills are the skills, by directory, whose own file list is exactly what the
// plugin's walk would find there: a complete contract, regular files only, none of them
// executable (whose #! line the walk reads) and none a link (which the walk follows under
// its stricter rules). Their files are taken from the skill instead of being read and
// hashed a second time.
func (l *loader) hashedSkills() map[string]*model.Component {
	owned := map[string]*model.Component{}
	for _, c := range l.pkg.Components {
		if c.Kind != model.KindSkill || c.Contract == nil || c.BodyFile == "" {
			continue
		}
		dir := path.Dir(c.BodyFile)
		if dir == "." || !plainFiles(c, dir) {
			continue
		}
		owned[dir] = c
	}
	return owned
}

// plainFiles reports whether c's files are regular, not executable, all below dir, and
// its loading left nothing out.
func plainFiles(c *model.Component, dir string) bool {
	for _, d := range c.Diagnostics {
		if strings.HasPrefix(d.Code, "skill-file") {
			return false
		}
	}
	for _, f := range c.Contract.Files {
		if f.IsLink() || f.Exec || !strings.HasPrefix(f.Path, dir+"/") {
			return false
		}
	}
	return true
}
