package codex

import (
	"vouch/model"
	"vouch/review/closure"
)

// pluginFiles is what every runnable component's approval covers besides its contract
// fields: every file of the plugin folder, manifests included (closure.Collect, the one
// rule every loader shares). A hook command such as `${PLUGIN_ROOT}/hooks/check.sh` or
// `node ./x.js` runs plugin files no field names, and Codex's own trust marks a hook
// modified when any plugin file changes (observed on Codex 0.169.0), so the closure is the whole
// folder and nothing is skipped. Links are bound as links; one that leaves the folder,
// dangles, loops or is absolute makes the list incomplete, and the components that need
// it are blocked.
type pluginFiles struct {
	files    []model.File // sorted by path, capacity clipped: shared read-only
	diags    []model.Diagnostic
	complete bool
	interp   map[string]string // #! lines of executable files, by root-relative path
}

func (l *loader) closure() *pluginFiles {
	if l.cl != nil {
		return l.cl
	}
	res := closure.Collect(l.root, ".", closure.Options{
		Code:     "plugin",
		Owner:    "the plugin's hooks and servers",
		Spec:     specHooks,
		LimitMsg: "The plugin's files could not all be read (%v), so an approval of a hook or server could not cover every file it may run",
		Known:    map[string][]byte{l.mf: l.data},
		Runnable: true,
	})
	l.cl = &pluginFiles{files: res.Files, diags: res.Diagnostics, complete: res.Complete, interp: res.Interpreters}
	return l.cl
}
