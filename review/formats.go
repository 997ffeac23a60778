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
//  2. add its model.Format constant (and the name to the report schema's format enum,
//     which TestFormatListsFollowTheTable holds to this table);
//  3. add one entry to formats below: name and title, dir and/or file detection, load,
//     the manifest file names a user might give instead of the folder, its help line and
//     its locate probe. The entry's position is its detection priority: the first entry
//     that recognises a directory claims it, unless it is marked alongside (see below).
//
// Nothing else changes: the search, the messages that list the formats ("No Agent
// Plugins, Dalo or Splice package was found"), the hint for a manifest file given as
// SOURCE, the manifest folders the search never enters, Locate's probes, the commands'
// help and the concurrent loading all read the table.
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

	// emits are the formats, besides name, of the packages load may return (Claude Code's
	// loader reads a marketplace beside a plugin).
	emits []model.Format
	// doc names the format as help text lists it ("Agent Plugins 1.0.0") and docWhere
	// says what of it vouch reads ("plugin.json"); fileDoc names its file form as a
	// message does ("a Splice archive or bundle"), for a format that has one.
	doc, docWhere, fileDoc string
	// manifestDir is the folder holding the format's manifest (".claude-plugin"): never a
	// package root of its own, its plugin is the folder above it.
	manifestDir string
	// probe is how Locate rules a package of this format out without loading it; nil:
	// every package of the format is loaded.
	probe *nameProbe
}

// formats is the table, in detection priority order.
var formats = []*format{
	{
		name: model.FormatAgentPlugins, title: "Agent Plugins",
		doc: "Agent Plugins 1.0.0", docWhere: "plugin.json",
		dir:       isAgentPluginsRoot,
		manifests: []string{"plugin.json"},
		// agentplugins.Load: plugin.json's name, else the folder's.
		probe: &nameProbe{manifests: []string{"plugin.json"}},
		load: func(path string, opts Options) []*model.Package {
			return []*model.Package{agentplugins.Load(path, agentplugins.Options{DataDir: opts.DataDir, Limits: opts.Limits, Retained: opts.Retained})}
		},
	},
	{
		name: model.FormatDalo, title: "Dalo",
		doc: `Portable Agent Packages 0.1 "Dalo"`, docWhere: "plugins/<name>/PLUGIN.toml",
		dir:       dalo.IsSourceIn,
		inside:    dalo.PackageDir,
		manifests: []string{"PLUGIN.toml"},
		load: func(path string, opts Options) []*model.Package {
			return dalo.Load(path, dalo.Options{SourceID: opts.SourceID, Limits: opts.Limits})
		},
	},
	{
		name: model.FormatCodexMarketplace, title: "Codex marketplace",
		doc: "Codex marketplaces", docWhere: ".agents/plugins/marketplace.json",
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
		doc: "Codex plugins", docWhere: ".codex-plugin/",
		dir:         codex.IsRootIn,
		alongside:   true,
		manifests:   []string{".codex-plugin/plugin.json"},
		manifestDir: ".codex-plugin",
		// codex.Load: .codex-plugin/plugin.json's name, or Claude Code's manifest it falls
		// back to, else the folder's.
		probe: &nameProbe{manifests: []string{".codex-plugin/plugin.json", ".claude-plugin/plugin.json", "plugin.json"}},
		load: func(path string, opts Options) []*model.Package {
			pkgs := []*model.Package{codex.Load(path, codex.Options{Limits: opts.Limits, Skills: opts.skills})}
			codex.StampVersion(pkgs, opts.ClientVersions[model.ClientCodex])
			return pkgs
		},
	},
	{
		name: model.FormatClaudeCode, title: "Claude Code",
		doc: "Claude Code plugins and marketplaces", docWhere: ".claude-plugin/ or the default layout",
		emits:       []model.Format{model.FormatClaudeCodeMarketplace},
		dir:         claudecode.DetectIn,
		alongside:   true,
		manifests:   []string{".claude-plugin/plugin.json", ".claude-plugin/marketplace.json"},
		manifestDir: ".claude-plugin",
		load: func(path string, opts Options) []*model.Package {
			return claudecode.Load(path, claudecode.Options{Limits: opts.Limits,
				ClaudeVersion: opts.ClientVersions[model.ClientClaudeCode], CodexVersion: opts.ClientVersions[model.ClientCodex], Skills: opts.skills})
		},
	},
	{
		name: model.FormatMCPB, title: "MCP Bundle",
		doc: "MCP Bundles", docWhere: "manifest.json, .mcpb and .dxt", fileDoc: "an MCP Bundle (.mcpb)",
		// mcpb.Load: manifest.json's name, else the folder's (or the file's without .mcpb).
		probe:        &nameProbe{manifests: []string{"manifest.json"}, trim: []string{".mcpb", ".dxt", ".MCPB", ".DXT", ".zip"}},
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
		doc: "Splice v1", docWhere: "a package directory, .tar.gz archive or bundle", fileDoc: "a Splice archive or bundle",
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
		doc: "Agent Skills", docWhere: "SKILL.md folders",
		// skillpkg.Load: always the folder's.
		probe:     &nameProbe{},
		dir:       skillpkg.IsRootIn,
		alongside: true,
		notBeside: model.FormatSplice,
		manifests: []string{"SKILL.md"},
		load: func(path string, opts Options) []*model.Package {
			return []*model.Package{skillpkg.Load(path, skillpkg.Options{Limits: opts.Limits, Skills: opts.skills, Versions: opts.ClientVersions})}
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
	if isManifestDir(filepath.Base(dir)) {
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
	return joinList(names, "or")
}

// joinList joins names as a sentence lists them: commas between, the conjunction before
// the last ("A, B and C"; "A or B"; one name alone).
func joinList(names []string, conjunction string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + conjunction + " " + names[len(names)-1]
}

// IsFormat reports whether name is the name of a format in the table, as a qualified
// component ref (<format>:<package>#<kind>:<id>) puts it in front.
func IsFormat(name string) bool {
	for _, f := range Formats() {
		if string(f) == name {
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

// isManifestDir reports whether a directory name is a client plugin's manifest folder, a
// read format's or a foreign one's, which discovery must never take for a package root.
func isManifestDir(name string) bool {
	for _, f := range formats {
		if f.manifestDir != "" && f.manifestDir == name {
			return true
		}
	}
	return foreign.IsClientDir(name)
}

// FormatNames lists the formats vouch reads as the help's sentence does: "Agent Plugins
// 1.0.0, ... and Agent Skills".
func FormatNames() string {
	var names []string
	for _, f := range formats {
		names = append(names, f.doc)
	}
	return joinList(names, "and")
}

// FormatLines are the formats vouch reads, one line each, as a command's help lists
// them: "  Agent Plugins 1.0.0 (plugin.json)\n".
func FormatLines(indent string) string {
	var b strings.Builder
	for _, f := range formats {
		b.WriteString(indent + f.doc)
		if f.docWhere != "" {
			b.WriteString(" (" + f.docWhere + ")")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// SourceForms are what a SOURCE that is a package may be: a package directory, then
// each format's file form ("an MCP Bundle (.mcpb)"), for the messages that list them.
func SourceForms() []string {
	forms := []string{"a package directory"}
	for _, f := range formats {
		if f.fileDoc != "" {
			forms = append(forms, f.fileDoc)
		}
	}
	return forms
}

// OrList joins phrases as a sentence does: "a, b, or c".
func OrList(phrases []string) string {
	if len(phrases) < 3 {
		return strings.Join(phrases, " or ")
	}
	return strings.Join(phrases[:len(phrases)-1], ", ") + ", or " + phrases[len(phrases)-1]
}

// Formats are the names of every format a package can have, table entries first and
// then the formats they also emit: the values of a report's "format".
func Formats() []model.Format {
	var out []model.Format
	for _, f := range formats {
		out = append(out, f.name)
	}
	for _, f := range formats {
		out = append(out, f.emits...)
	}
	return out
}
