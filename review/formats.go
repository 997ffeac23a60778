package review

import (
	"path/filepath"
	"strings"

	"vouch/model"
	"vouch/review/agentplugins"
	"vouch/review/claudecode"
	"vouch/review/codex"
	"vouch/review/dalo"
	"vouch/review/foreign"
	"vouch/review/fsguard"
	"vouch/review/mcpb"
	"vouch/review/probe"
	"vouch/review/rootmanifest"
	"vouch/review/skillpkg"
	"vouch/review/skills"
	"vouch/review/splice"
)

// format is one entry of the format table: what a format is called, how a
// package of it is recognised, and how one is loaded. Detection (a path given as SOURCE)
// and discovery (the search below a plain directory) know formats only through this
// table, so a format is added in one place.
//
// Adding a format (review/claudecode, review/codex, review/mcpb, standalone skills):
//  1. write its package under review/ with a cheap detection test (a few Lstats, no
//     parsing: discovery calls it on every directory it lists) and a pure Load (files in,
//     model out, no writes; bounded reads through fsguard);
//  2. add its model.Format constant (and the name to the report schema's format enum);
//  3. add one entry to formats below: name and title, dir and/or file detection, load,
//     and the manifest file names a user might give instead of the folder. The entry's
//     position is its detection priority: the first entry that recognises a directory
//     claims it, unless it is marked alongside (see below).
//
// Nothing else in review changes: the search, the messages that list the formats
// ("No Agent Plugins, Dalo or Splice package was found"), the hint for a manifest file
// given as SOURCE and the concurrent loading all read the table.
type format struct {
	name  model.Format
	title string // as messages name it: "Agent Plugins"

	// dir reports whether the probed directory (never a symlink while searching) is a
	// package root of this format. nil: the format has no directory form. It asks the
	// probe, which lists the folder once for every format's questions.
	dir func(p *probe.Dir) bool
	// manifestKind claims a directory whose manifest.json is of this kind. Splice and MCP
	// Bundles share the file name, and mcpb.Classify tells them apart by reading it: the
	// detection reads it once for both entries (dirKind) instead of once per entry.
	manifestKind mcpb.Kind
	// file reports, by content, whether the file at path is a package of this format; it
	// must read at most a few KiB. fileName is the cheap name test applied before file
	// while searching, so an arbitrary file in a large tree is not opened; a path given
	// as SOURCE is tested by content alone. nil: the format has no file form.
	file     func(path string, limits fsguard.Limits) bool
	fileName func(name string) bool
	// inside maps a path given as SOURCE that is not a root itself but a part of a
	// package of this format to the path to load and the root of the one package to
	// keep from what that load returns (Dalo: plugins/<name> is loaded with its source,
	// which resolves its references, and reported alone). nil: no such form.
	inside func(path string) (load, keep string, ok bool)
	// manifests are the manifest files, relative to a package root, that a user may name
	// instead of the folder; discovery then says which folder to give.
	manifests []string
	// alongside marks a format whose package is read beside another format's package in
	// the same folder (one folder can be read by several clients, README.md): a format claiming the
	// folder earlier in the table does not hide it. Any match claims the folder for the
	// entries after it that are not alongside: a Claude Code plugin's Desktop
	// manifest.json is never read as a Splice package.
	alongside bool
	// notBeside is a format whose package makes this one's marker its own document: a
	// Splice package's SKILL.md is its skill document, not an Agent Skills skill.
	notBeside model.Format

	load func(path string, opts Options) []*model.Package
}

// formats is the table, in detection priority order.
var formats = []*format{
	{
		name: model.FormatAgentPlugins, title: "Agent Plugins",
		dir:       isAgentPluginsRoot,
		manifests: []string{"plugin.json"},
		load: func(path string, opts Options) []*model.Package {
			return []*model.Package{agentplugins.Load(path, agentplugins.Options{DataDir: opts.DataDir, Limits: opts.Limits, Retained: opts.Retained})}
		},
	},
	{
		name: model.FormatDalo, title: "Dalo",
		dir:       dalo.IsSourceIn,
		inside:    dalo.PackageDir,
		manifests: []string{"PLUGIN.toml"},
		load: func(path string, opts Options) []*model.Package {
			return dalo.Load(path, dalo.Options{SourceID: opts.SourceID, Limits: opts.Limits})
		},
	},
	{
		name: model.FormatCodexMarketplace, title: "Codex marketplace",
		dir:       codex.IsMarketplaceIn,
		alongside: true,
		manifests: []string{".agents/plugins/marketplace.json"},
		load: func(path string, opts Options) []*model.Package {
			pkgs := codex.LoadMarketplace(path, codex.Options{Limits: opts.Limits})
			codex.StampVersion(pkgs, opts.ClientVersions[model.ClientCodex])
			return pkgs
		},
	},
	{
		// Codex reads a root Agent Plugins plugin.json before .codex-plugin/: read
		// beside it, the Codex package says it is shadowed for Codex.
		name: model.FormatCodex, title: "Codex",
		dir:       codex.IsRootIn,
		alongside: true,
		manifests: []string{".codex-plugin/plugin.json"},
		load: func(path string, opts Options) []*model.Package {
			pkgs := []*model.Package{codex.Load(path, codex.Options{Limits: opts.Limits, Skills: opts.skills})}
			codex.StampVersion(pkgs, opts.ClientVersions[model.ClientCodex])
			return pkgs
		},
	},
	{
		name: model.FormatClaudeCode, title: "Claude Code",
		dir:       claudecode.DetectIn,
		alongside: true,
		manifests: []string{".claude-plugin/plugin.json", ".claude-plugin/marketplace.json"},
		load: func(path string, opts Options) []*model.Package {
			return claudecode.Load(path, claudecode.Options{Limits: opts.Limits,
				ClaudeVersion: opts.ClientVersions[model.ClientClaudeCode], CodexVersion: opts.ClientVersions[model.ClientCodex], Skills: opts.skills})
		},
	},
	{
		name: model.FormatMCPB, title: "MCP Bundle",
		manifestKind: mcpb.KindMCPB,
		file:         func(path string, _ fsguard.Limits) bool { return mcpb.IsArtifact(path) },
		fileName:     mcpb.HasBundleName,
		alongside:    true,
		manifests:    []string{"manifest.json"},
		load: func(path string, opts Options) []*model.Package {
			return []*model.Package{mcpb.Load(path, mcpb.Options{Limits: opts.Limits, SignatureRoots: opts.SignatureRoots})}
		},
	},
	{
		name: model.FormatSplice, title: "Splice",
		// manifest.json is Splice's only with specVersion (an MCP Bundle's has
		// manifest_version); any other is a source diagnostic (sourceNotes), not a package.
		manifestKind: mcpb.KindSplice,
		file:         splice.IsArtifact,
		fileName:     looksLikeArtifact,
		manifests:    []string{"manifest.json"},
		load: func(path string, opts Options) []*model.Package {
			return []*model.Package{splice.Load(path, splice.Options{Limits: opts.Limits})}
		},
	},
	{
		// A root SKILL.md is a skill wherever it sits (copied into a skills folder, every
		// client loads it), so its package is read beside any other format's.
		name: model.FormatAgentSkills, title: "Agent Skills",
		dir:       skillpkg.IsRootIn,
		alongside: true,
		notBeside: model.FormatSplice,
		manifests: []string{"SKILL.md"},
		load: func(path string, opts Options) []*model.Package {
			return []*model.Package{skillpkg.Load(path, skillpkg.Options{Limits: opts.Limits, Skills: opts.skills})}
		},
	},
}

// isAgentPluginsRoot: a root plugin.json makes an Agent Plugins package unless it is
// foreign (no Agent Plugins $schema) in a folder that another client's own markers
// claim: a catalogue's plugin.json beside .claude-plugin/, .codex-plugin/ or the Claude
// Code default layout is not a broken Agent Plugins package but a file those clients
// ignore, and their packages say so. Alone, it is still read as Agent Plugins, so a
// manifest that lost its $schema gets the loader's error.
func isAgentPluginsRoot(p *probe.Dir) bool {
	if !agentplugins.IsRootIn(p) {
		return false
	}
	if !(claudecode.IsRootIn(p) || codex.IsRootIn(p) || claudecode.IsMarketplaceIn(p)) {
		return true
	}
	return rootmanifest.IsAgentPlugins(p.Path())
}

// sourceNotes are the findings about a folder that no loader reports: a manifest.json
// that is neither an MCP Bundle's nor Splice's, and manifests of clients vouch does not
// read (Cursor, Kimi, Devin, Gemini CLI, Kiro).
func sourceNotes(p *probe.Dir) []model.Diagnostic {
	var out []model.Diagnostic
	if _, d := mcpb.ClassifyIn(p); d != nil {
		out = append(out, *d)
	}
	return append(out, foreign.ScanIn(p)...)
}

// looksLikeArtifact is Splice's name test while searching: any other gzip file in a tree
// is not a broken Splice archive.
func looksLikeArtifact(name string) bool {
	n := strings.ToLower(name)
	return strings.HasSuffix(n, ".tar.gz") || strings.HasSuffix(n, ".tgz") || strings.HasSuffix(n, ".json")
}

// detectDir returns a job for every format that reads the directory dir: the first
// claiming entry and any alongside ones, in table order. None means a plain directory.
func detectDir(dir string) []job { return detectProbed(probe.New(dir)) }

// detectProbed is detectDir of a probed directory: every format's test and the source
// notes ask one probe, which lists the folder once.
func detectProbed(p *probe.Dir) []job {
	dir := p.Path()
	if foreign.IsClientDir(filepath.Base(dir)) {
		// A client's manifest folder is never a package root of its own (an Agent
		// Plugins root named ".claude-plugin" would look for skills inside it); given
		// alone, Claude Code's stands for its plugin.
		if claudecode.IsManifestDir(dir) {
			return []job{{format: formatNamed(model.FormatClaudeCode), path: dir}}
		}
		return nil
	}
	var jobs []job
	claimed := false
	kind := manifestKindOf(p)
	for _, f := range formats {
		if (claimed && !f.alongside) || (f.notBeside != "" && hasFormat(jobs, f.notBeside)) || !f.isDir(p, kind) {
			continue
		}
		jobs = append(jobs, job{format: f, path: dir, dir: true})
		claimed = true
	}
	if len(jobs) > 1 {
		// The formats of one folder read its skills once between them.
		shared := skills.NewShared(len(jobs))
		for i := range jobs {
			jobs[i].skills = shared
		}
	}
	return jobs
}

// detectFile returns the job for a file that is a package, or none. searching applies
// each format's name test first.
func detectFile(path string, limits fsguard.Limits, searching bool) []job {
	for _, f := range formats {
		if f.file == nil || (searching && f.fileName != nil && !f.fileName(filepath.Base(path))) {
			continue
		}
		if f.file(path, limits) {
			return []job{{format: f, path: path}}
		}
	}
	return nil
}

// detectInside returns the job for a path that lies inside a package, or none.
func detectInside(path string) []job {
	for _, f := range formats {
		if f.inside == nil {
			continue
		}
		if load, keep, ok := f.inside(path); ok {
			return []job{{format: f, path: load, only: keep}}
		}
	}
	return nil
}

// manifestOf says, for a file given as SOURCE, which format's manifest it is and the
// folder to give instead, when that folder is a package of the format.
func manifestOf(path string) (*format, string, bool) {
	for _, f := range formats {
		for _, m := range f.manifests {
			if filepath.Base(path) != filepath.Base(m) {
				continue
			}
			dir := filepath.Dir(path)
			for range strings.Count(filepath.ToSlash(m), "/") {
				dir = filepath.Dir(dir)
			}
			if pd := probe.New(dir); f.isDir(pd, manifestKindOf(pd)) || (f.inside != nil && insideOK(f, dir)) {
				return f, dir, true
			}
		}
	}
	return nil, "", false
}

func insideOK(f *format, dir string) bool {
	_, _, ok := f.inside(dir)
	return ok
}

// formatTitles lists the formats as a message does: "Agent Plugins, Dalo or Splice".
func formatTitles() string {
	var names []string
	for _, f := range formats {
		names = append(names, f.title)
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// IsFormat reports whether name is the name of a format in the table, as a qualified
// component ref (<format>:<package>#<kind>:<id>) puts it in front.
func IsFormat(name string) bool {
	for _, f := range formats {
		if string(f.name) == name {
			return true
		}
	}
	return false
}

func formatNamed(name model.Format) *format {
	for _, f := range formats {
		if f.name == name {
			return f
		}
	}
	panic("review: no format " + string(name))
}

// isDir reports whether the probed folder, whose manifest.json is of kind, is a package
// root of f.
func (f *format) isDir(p *probe.Dir, kind mcpb.Kind) bool {
	if f.manifestKind != mcpb.KindNone {
		return f.manifestKind == kind
	}
	return f.dir != nil && f.dir(p)
}

func hasFormat(jobs []job, f model.Format) bool {
	for _, j := range jobs {
		if j.format.name == f {
			return true
		}
	}
	return false
}

// manifestKindOf reads the folder's manifest.json once (nothing when there is none).
func manifestKindOf(p *probe.Dir) mcpb.Kind {
	k, _ := mcpb.ClassifyIn(p)
	return k
}
