package codex

import (
	"sort"

	"vouch/model"
	"vouch/review/skills"
)

// closure is what every runnable component's approval covers besides its contract fields:
// every regular file of the plugin folder, manifests included. A hook command such as
// `${PLUGIN_ROOT}/hooks/check.sh` or `node ./x.js` runs plugin files no field names, and
// Codex's own trust marks a hook modified when any plugin file changes (NOTES §2.3 [obs]),
// so the closure is the whole folder. A symlink that leaves the folder, dangles or loops
// makes the list incomplete: the components that need it are then blocked.
//
// This is the one place the closure is computed; a shared closure package will replace it.
type closure struct {
	files    []model.File // sorted by path, capacity clipped: shared read-only
	diags    []model.Diagnostic
	complete bool
}

func (l *loader) closure() *closure {
	if l.cl != nil {
		return l.cl
	}
	files, diags := skills.CollectFiles(l.root, ".", skills.CollectOptions{
		Code:       "plugin",
		Owner:      "the plugin's hooks and servers",
		Spec:       specHooks,
		LimitMsg:   "The plugin's files could not all be read (%v), so an approval of a hook or server could not cover every file it may run",
		Known:      map[string][]byte{l.mf: l.data},
		LinksBlock: true,
	})
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	l.cl = &closure{files: files[:len(files):len(files)], diags: diags, complete: !hasErrors(diags)}
	return l.cl
}
