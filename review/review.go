// Package review turns paths into packages: it detects which format each path holds,
// runs that format's loader and returns the packages in a stable order. Loaders are pure:
// files in, model out, no writes.
package review

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"vouch/model"
	"vouch/review/agentplugins"
	"vouch/review/codex"
	"vouch/review/dalo"
	"vouch/review/fsguard"
	"vouch/review/splice"
)

// Options configure a review run.
type Options struct {
	// SourceID is the source identity used in Dalo references (default "validation").
	SourceID string
	// DataDir is the directory shown for ${PLUGIN_DATA}; a plugin's data dir is DataDir/<name>.
	// Validation never creates it.
	DataDir string
	// Limits bound every read; zero means fsguard.DefaultLimits().
	Limits fsguard.Limits
	// SearchDepth bounds how deep plain directories are searched for package roots (default 4).
	SearchDepth int
}

func (o Options) withDefaults() Options {
	if o.SourceID == "" {
		o.SourceID = "validation"
	}
	if o.Limits == (fsguard.Limits{}) {
		o.Limits = fsguard.DefaultLimits()
	}
	if o.SearchDepth == 0 {
		o.SearchDepth = 4
	}
	return o
}

// ErrNotFound is returned (wrapped) when a path given by the user does not exist.
var ErrNotFound = errors.New("path not found")

// Result is what Open found.
type Result struct {
	Packages []*model.Package
	// Diagnostics are findings about the sources themselves (nothing found, unreadable dirs).
	Diagnostics []model.Diagnostic
}

// Open reviews each path. A missing path is an error (usage: exit 2); everything else,
// however hostile, becomes diagnostics. It is Stream with every batch kept.
func Open(opts Options, paths ...string) (*Result, error) {
	res := &Result{}
	diags, err := Stream(opts, paths, func(batch []*model.Package) bool {
		res.Packages = append(res.Packages, batch...)
		return true
	})
	if err != nil {
		return nil, err
	}
	res.Diagnostics = diags
	return res, nil
}

type job struct {
	format model.Format
	path   string
	// only keeps just the package rooted there: a Dalo package directory given on its own
	// (plugins/<name>, the path reports print) is loaded with its source, which resolves
	// its references, and reported alone.
	only string
}

func (j job) load(opts Options) []*model.Package {
	switch j.format {
	case model.FormatAgentPlugins:
		return []*model.Package{agentplugins.Load(j.path, agentplugins.Options{DataDir: opts.DataDir, Limits: opts.Limits})}
	case model.FormatDalo:
		pkgs := dalo.Load(j.path, dalo.Options{SourceID: opts.SourceID, Limits: opts.Limits})
		if j.only == "" {
			return pkgs
		}
		var kept []*model.Package
		for _, p := range pkgs {
			if p.Root == j.only {
				kept = append(kept, p)
			}
		}
		return kept
	case model.FormatSplice:
		return []*model.Package{splice.Load(j.path, splice.Options{Limits: opts.Limits})}
	case model.FormatCodex:
		return []*model.Package{codex.Load(j.path, codex.Options{Limits: opts.Limits})}
	case model.FormatCodexMarketplace:
		return codex.LoadMarketplace(j.path, codex.Options{Limits: opts.Limits})
	}
	return nil
}

// detect says which format a path holds, or "" for a plain directory to search.
func detect(path string, limits fsguard.Limits) model.Format {
	st, err := os.Stat(path)
	if err != nil {
		return ""
	}
	if !st.IsDir() {
		if splice.IsArtifact(path, limits) {
			return model.FormatSplice
		}
		return ""
	}
	return detectDir(path)
}

// detectDir is detect for a path already listed as a directory (not a symlink): the
// search needs no stat of its own.
func detectDir(path string) model.Format {
	switch {
	case codex.IsMarketplace(path):
		return model.FormatCodexMarketplace
	case codex.IsRoot(path) && !agentplugins.IsRoot(path):
		return model.FormatCodex
	case agentplugins.IsRoot(path):
		return model.FormatAgentPlugins
	case dalo.IsSource(path):
		return model.FormatDalo
	case splice.IsPackageDir(path):
		return model.FormatSplice
	}
	return ""
}

// discover finds package roots under p. A package root is never searched further;
// symlinked directories are not followed during the search.
func discover(p string, opts Options) ([]job, []model.Diagnostic) {
	if f := detect(p, opts.Limits); f != "" {
		return []job{{format: f, path: p}}, nil
	}
	if src, root, ok := dalo.PackageDir(p); ok {
		return []job{{format: model.FormatDalo, path: src, only: root}}, nil
	}
	st, err := os.Stat(p)
	if err != nil || !st.IsDir() {
		return nil, []model.Diagnostic{{
			Code: "unrecognized-source", Severity: model.SeverityError, Boundary: model.BoundarySource, File: p,
			Message: fmt.Sprintf("%s is not a package directory, a Splice archive or a Splice bundle.", p),
		}}
	}
	var jobs []job
	var diags []model.Diagnostic
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		if depth > opts.SearchDepth {
			return
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			diags = append(diags, model.Diagnostic{Code: "unreadable-directory", Severity: model.SeverityWarning,
				Boundary: model.BoundarySource, File: dir, Message: fmt.Sprintf("Could not list %s: %v.", dir, err)})
			return
		}
		if len(entries) > opts.Limits.MaxEntries {
			entries = entries[:opts.Limits.MaxEntries]
		}
		sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
		for _, e := range entries {
			child := filepath.Join(dir, e.Name())
			if e.Type()&os.ModeSymlink != 0 {
				continue
			}
			if !e.IsDir() {
				// While searching, only artifact-looking names are opened: any other gzip
				// file in a tree is not a broken Splice archive. A path given directly is
				// detected by content alone.
				if looksLikeArtifact(e.Name()) && splice.IsArtifact(child, opts.Limits) {
					jobs = append(jobs, job{format: model.FormatSplice, path: child})
				}
				continue
			}
			if f := detectDir(child); f != "" {
				jobs = append(jobs, job{format: f, path: child})
				continue
			}
			walk(child, depth+1)
		}
	}
	walk(p, 1)
	return jobs, diags
}

func looksLikeArtifact(name string) bool {
	n := strings.ToLower(name)
	return strings.HasSuffix(n, ".tar.gz") || strings.HasSuffix(n, ".tgz") || strings.HasSuffix(n, ".json")
}
