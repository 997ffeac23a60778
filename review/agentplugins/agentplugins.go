// Package agentplugins loads Agent Plugins 1.0.0 packages: plugin.json, skills/, mcp.json
// and client extension namespaces. It applies the specification exactly, including what
// it must ignore: `$schema` selects the embedded 1.0.0 rules (never fetched), the official
// schemas are checked first and the rules they cannot express after, and every failure is
// reported at the narrowest boundary the specification names (package, component type,
// component). Nothing is executed and nothing is written: the loader only reads, through
// fsguard.
package agentplugins

import (
	"fmt"
	"path/filepath"

	"vouch/model"
	"vouch/review/fsguard"
	"vouch/review/jsontext"
	"vouch/review/probe"
)

// Options configure the loader.
type Options struct {
	DataDir string // ${PLUGIN_DATA} is shown as DataDir/<plugin-name>; never created
	Limits  fsguard.Limits
	// Retained: the caller keeps the package for long (the console): strings taken from
	// plugin.json and mcp.json are copies, so the files' texts can be freed.
	Retained bool
}

// jsonOptions are the parse options of plugin.json and mcp.json.
func (o Options) jsonOptions() jsontext.Options {
	j := jsontext.Limits
	j.OwnStrings = o.Retained
	return j
}

// IsRootIn reports whether the probed folder is an Agent Plugins root (it holds
// plugin.json).
func IsRootIn(p *probe.Dir) bool { return p.Exists("plugin.json") }

// specRef formats a section reference of the Agent Plugins specification.
func specRef(section string) string { return "agent-plugins §" + section }

// loader holds the state of one Load call.
type loader struct {
	opts    Options
	root    *fsguard.Root
	pkg     *model.Package
	dataDir string // DataDir/<plugin-name>, display and containment only
	schemas *compiled
	// files caches the hashes of files read for contracts, so that no file is read twice
	// (two servers may launch the same bundled executable).
	files map[string]fileResult
	// cl is the plugin's file closure, walked once on first need (see closure).
	cl *pluginClosure
	// extData records manifest extension namespaces (in order) for extension components.
	extData []jsontext.Member
	// extIssues are non-fatal parse findings inside extension values, by namespace.
	extIssues    map[string][]model.Diagnostic
	manifestData []byte
	mcpData      []byte // mcp.json as read, for the servers' closure
	// defaultCwdText is defaultCwd's string, built on first use.
	defaultCwdText string
}

type fileResult struct {
	file model.File
	err  error
}

// Load reviews the plugin rooted at dir. It never fails: problems become diagnostics.
func Load(dir string, opts Options) *model.Package {
	opts.Limits = opts.Limits.OrDefault()
	pkg := &model.Package{Format: model.FormatAgentPlugins, Name: filepath.Base(dir)}
	if abs, err := filepath.Abs(dir); err == nil {
		pkg.Root = abs
		pkg.Name = filepath.Base(abs)
	}
	l := &loader{opts: opts, pkg: pkg, files: map[string]fileResult{}}
	sch, err := loadSchemas()
	if err != nil {
		// Only a broken build can get here; say so instead of accepting anything.
		l.reject("schema-unavailable", "", "", 0, fmt.Sprintf("The embedded Agent Plugins schemas could not be compiled (%v).", err), "5.2")
		return pkg
	}
	l.schemas = sch
	root, err := fsguard.Open(dir, opts.Limits)
	if err != nil {
		l.reject("package-unreadable", "", "", 0, fmt.Sprintf("The plugin root could not be opened (%v).", err), "4.1")
		return pkg
	}
	defer root.Close()
	l.root = root
	// The root is listed first: the plugin's closure lists it anyway, and its listing
	// answers the lookups of plugin.json, skills/ and mcp.json that come before that.
	// An error is left for the lookup that meets it to report.
	_, _ = root.ReadDirNames(".")
	pkg.Root = root.Path()
	pkg.Reader = &fsguard.DirReader{Dir: root.Path(), Limits: opts.Limits}

	if !l.manifest() {
		pkg.Rejected = true
		pkg.Components = nil
		return pkg
	}
	l.dataDir = filepath.Join(dataBase(opts.DataDir), pkg.Name)
	if _, err := root.Lstat(".codex-plugin/plugin.json"); err == nil {
		l.pkgDiag(model.Place{File: ".codex-plugin/plugin.json"}.Package("codex-prefers-root-manifest", model.SeverityInfo,
			"Codex "+codexVersion+" reads this root plugin.json and prefers it over .codex-plugin/plugin.json, so Codex loads the Agent Plugins view of this folder.", specRef("10")))
	}
	l.skills()
	l.mcp()
	l.extensions()
	pkg.SortComponents()
	return pkg
}

// dataBase is where ${PLUGIN_DATA} points for display when the caller chose nothing.
func dataBase(d string) string {
	if d == "" {
		return "<vouch-data>"
	}
	return d
}

func (l *loader) pkgDiag(d model.Diagnostic) { l.pkg.Diagnostics = append(l.pkg.Diagnostics, d) }

// reject records a fatal package-level error.
func (l *loader) reject(code, file, ptr string, line int, msg, section string) {
	l.pkgDiag(model.Place{File: file, Pointer: ptr, Line: line}.Package(code, model.SeverityError, msg, specRef(section)))
	l.pkg.Rejected = true
}
