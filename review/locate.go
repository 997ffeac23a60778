package review

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"vouch/internal/parallel"
	"vouch/model"
	"vouch/review/fsguard"
)

// Locate is Open for a caller that wants only the package a component ref
// (<package>#<kind>:<id>) names, such as the dispatch-time gate (`vouch check SOURCE
// REF`): SOURCE is discovered as Open discovers it, but a package root is loaded only
// when a cheap probe cannot rule out that its package is the ref's. Every package Open
// would return that holds the ref is returned (so two copies of one name are both there and the caller can refuse the
// ambiguity); packages of other names may be returned too, wherever the probe was unsure.
//
// A probe rules a root out only when the format's naming rule is known (nameProbes): the
// package is named after its folder or by a JSON string in one of a few manifests, so a
// name that is neither the folder's nor a substring of those manifests' bytes cannot be
// the package's. A manifest holding a backslash (an escape could spell the name), one
// that cannot be read within the manifest limit, and every format without a probe are
// loaded. Diagnostics are the search's errors (a source that was not searched
// completely, say); the notes about folders no package carries are left out.
func Locate(opts Options, path, ref string) (*Result, error) {
	opts = opts.withDefaults()
	opts.skipNotes = true
	if _, err := os.Lstat(path); err != nil {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, path)
	}
	jobs, diags := discover(path, opts)
	may := make([]bool, len(jobs))
	parallel.For(len(jobs), ioWorkers(), func(i int) { may[i] = mayHold(jobs[i], ref, opts.Limits) })
	var keep []job
	for i, j := range jobs {
		if may[i] {
			keep = append(keep, j)
		}
	}
	res := &Result{Diagnostics: diags}
	loadAll(opts, queueOf(keep), func(batch []*model.Package) bool {
		res.Packages = append(res.Packages, batch...)
		return true
	})
	return res, nil
}

// nameProbe is how a format names a package: after the folder (with the extensions in
// trim removed), unless one of manifests holds a JSON string naming it. A format's table
// entry holds its probe; one without (Dalo sources, marketplaces and Claude Code plugins
// name packages from several files, and Splice archives must be decoded first) is always
// loaded.
type nameProbe struct {
	manifests []string
	trim      []string
}

// mayHold reports whether the package j loads could hold ref; true when unsure. A package
// name may itself hold "#", so the ref's package is some prefix ending before a "#": the
// folder test tries each, and a manifest naming any of them holds the shortest.
func mayHold(j job, ref string, limits fsguard.Limits) bool {
	probe := j.format.probe
	hash := strings.IndexByte(ref, '#')
	if probe == nil || j.only != "" || hash <= 0 {
		return true
	}
	shortest := ref[:hash]
	abs := j.path
	if !filepath.IsAbs(abs) {
		// Abs asks the working directory (a getcwd and two stats) on every call: only for
		// a relative SOURCE.
		var err error
		if abs, err = filepath.Abs(j.path); err != nil {
			return true
		}
	}
	base := filepath.Base(abs)
	for _, ext := range probe.trim {
		base = strings.TrimSuffix(base, ext)
	}
	if strings.HasPrefix(ref, base+"#") || strings.HasPrefix(ref, filepath.Base(j.path)+"#") {
		return true
	}
	if len(probe.manifests) == 0 {
		return false
	}
	if !j.dir {
		if st, err := os.Stat(j.path); err != nil || !st.IsDir() {
			return true // an artifact: its manifest is inside it
		}
	}
	for _, m := range probe.manifests {
		data, found, ok := readManifest(filepath.Join(j.path, filepath.FromSlash(m)), limits.MaxManifestSize)
		if !found {
			continue
		}
		if !ok || bytes.IndexByte(data, '\\') >= 0 || bytes.Contains(data, []byte(shortest)) {
			return true
		}
	}
	return false
}
