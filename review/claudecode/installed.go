package claudecode

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"vouch/model"
	"vouch/review/fsguard"
	"vouch/review/jsontext"
)

// Claude Code's record of what it installed lives in its plugins directory
// ($CLAUDE_CONFIG_DIR/plugins, default ~/.claude/plugins). Observed with the Claude Code
// releases vouch models (plugin marketplace add, plugin install, plugin disable, plugin
// list --json, and the files read at start in its --debug-file log):
//   - installed_plugins.json {"version":2,"plugins":{"<name>@<marketplace>":[{scope,
//     installPath, version, projectPath?}]}} lists the installs;
//   - known_marketplaces.json names each marketplace's source; for a "directory"
//     marketplace Claude reads the plugin from that folder ("readFromFolder"), not from
//     the copy it made under plugins/cache: editing the folder changes what runs;
//   - enabledPlugins in the settings files decides what is enabled: project
//     (.claude/settings.json, .claude/settings.local.json) over user settings; a plugin
//     named in none of them is disabled.
const (
	installedFile    = "installed_plugins.json"
	marketplacesFile = "known_marketplaces.json"
	// maxStateFile bounds each of Claude's state files read here: they list plugins,
	// not package content.
	maxStateFile = 8 << 20
)

// Installation is one plugin Claude Code has installed on this machine.
type Installation struct {
	ID          string // <name>@<marketplace>
	Name        string
	Marketplace string
	Scope       string // user, project or local
	ProjectPath string // the project a project or local install belongs to
	Version     string
	InstallPath string // the copy under plugins/cache
	// Folder is what Claude Code reads: InstallPath, or the plugin's folder inside a
	// directory marketplace. MarketplaceDir is that marketplace's folder ("" otherwise):
	// the plugin is loaded from it with its entry merged.
	Folder         string
	MarketplaceDir string
	// EntryMarketplace is, for a plugin of a marketplace Claude copied (GitHub, git, a
	// URL), the folder of that copy: Claude reads Folder with the copy's entry for the
	// plugin merged in. "" otherwise.
	EntryMarketplace string
	Enabled          bool
	EnabledBy        string // the settings file that decided, "" when none names the plugin
}

// IsInstallDir reports whether dir is a Claude Code plugins directory: it holds
// installed_plugins.json.
func IsInstallDir(dir string) bool {
	st, err := os.Lstat(filepath.Join(dir, installedFile))
	return err == nil && st.Mode().IsRegular()
}

// ReadInstallations reads the installs recorded in pluginsDir and decides which are
// enabled from the settings files: settingsFiles in increasing precedence (user, then
// project, then local), each optional. Problems (an unreadable or malformed file, an
// install whose folder is missing) become diagnostics at the source boundary; nothing
// is written.
//
// Claude Code reads every one of these files with JSON.parse and looks members up by
// their exact name, the last of repeated names winning; so does this reader (jsontext,
// Get). encoding/json would also take "Plugins" or "ENABLEDPLUGINS" for the real key,
// reviewing a folder Claude does not run or calling disabled a plugin Claude runs.
func ReadInstallations(pluginsDir string, settingsFiles []string) ([]Installation, []model.Diagnostic) {
	var diags []model.Diagnostic
	problem := func(sev model.Severity, code, file, msg string) {
		diags = append(diags, model.Diagnostic{Code: code, Severity: sev, Boundary: model.BoundarySource, File: file, Message: msg, Spec: specRef("1.2")})
	}
	ipath := filepath.Join(pluginsDir, installedFile)
	record := readState(ipath, problem)
	if record == nil {
		return nil, diags
	}
	plugins := member(record, "plugins", jsontext.Object)
	if plugins == nil {
		problem(model.SeverityError, "claude-state-malformed", ipath, fmt.Sprintf("%s has no \"plugins\" object, so it is not the JSON "+claudeSeen+" writes.", ipath))
		return nil, diags
	}
	if v := member(record, "version", jsontext.Number); v == nil || v.Float() != 2 {
		shown := "no number"
		if v != nil {
			shown = clip(v.Str)
		}
		problem(model.SeverityWarning, "claude-installed-version", ipath, fmt.Sprintf("%s has version %s; vouch reads version 2 (Claude Code %s), so installs may be missed.", ipath, shown, ClaudeVersion))
	}
	markets := readMarketplaces(filepath.Join(pluginsDir, marketplacesFile), problem)
	enabled, by := readEnabled(settingsFiles, problem)

	var out []Installation
	for _, id := range lastMembers(plugins) {
		name, market, _ := strings.Cut(id, "@")
		list := plugins.Get(id).Val
		if list.Kind != jsontext.Array {
			problem(model.SeverityWarning, "claude-installed-entry", ipath, fmt.Sprintf("%s lists %q with no array of installs; it is not reviewed.", ipath, clip(id)))
			continue
		}
		for _, e := range list.Arr {
			installPath, _ := strVal(e, "installPath")
			if e.Kind != jsontext.Object || installPath == "" || !filepath.IsAbs(installPath) {
				problem(model.SeverityWarning, "claude-installed-entry", ipath, fmt.Sprintf("%s has an entry for %q without an absolute installPath; it is not reviewed.", ipath, clip(id)))
				continue
			}
			scope, _ := strVal(e, "scope")
			version, _ := strVal(e, "version")
			project, _ := strVal(e, "projectPath")
			in := Installation{ID: id, Name: name, Marketplace: market, Scope: scope, ProjectPath: project,
				Version: version, InstallPath: filepath.Clean(installPath), Folder: filepath.Clean(installPath),
				Enabled: enabled[id], EnabledBy: by[id]}
			mk := markets[market]
			if mk.directory {
				if rel, ok := mk.folderOf(name); ok {
					in.MarketplaceDir, in.Folder = mk.dir, filepath.Join(mk.dir, filepath.FromSlash(rel))
				}
			} else if mk.dir != "" {
				// Claude runs the cached copy and merges the entry of the marketplace's
				// own copy into it: a strict: false entry is the plugin's whole
				// definition, whatever the cache folder holds.
				in.EntryMarketplace = mk.dir
			}
			if st, err := os.Stat(in.Folder); err != nil || !st.IsDir() {
				problem(model.SeverityError, "claude-installed-missing", ipath, fmt.Sprintf("%s (installed) is read from %s, which is not a folder here, so it cannot be reviewed.", clip(id), in.Folder))
				continue
			}
			out = append(out, in)
		}
	}
	return out, diags
}

// stateOptions parse Claude's state files as JSON.parse reads a file decoded leniently
// as UTF-8: repeated names are kept (the last wins), and nesting is bounded so a
// hostile file costs a diagnostic, not the stack. No entry bound applies: a cut list
// would silently drop installs or settings.
var stateOptions = jsontext.Options{MaxDepth: 64, Lenient: true, AllowDuplicates: true}

// readState reads one of Claude's JSON state files, which must hold an object; a missing
// file is fine for every file but installed_plugins.json, whose absence the caller has
// ruled out. nil when the file is missing, unreadable or not an object.
func readState(p string, problem func(model.Severity, string, string, string)) *jsontext.Value {
	data, _, err := fsguard.ReadUserFile(p, maxStateFile+1)
	if err != nil {
		if !os.IsNotExist(err) {
			problem(model.SeverityError, "claude-state-unreadable", p, fmt.Sprintf("%s could not be read (%v).", p, err))
		}
		return nil
	}
	if len(data) > maxStateFile {
		problem(model.SeverityError, "claude-state-unreadable", p, fmt.Sprintf("%s is larger than %d bytes, so vouch does not read it.", p, maxStateFile))
		return nil
	}
	doc, _, jerr := jsontext.Parse(data, stateOptions)
	if jerr != nil {
		problem(model.SeverityError, "claude-state-malformed", p, fmt.Sprintf("%s is not the JSON "+claudeSeen+" writes (line %d: %s).", p, jsontext.Line(data, jerr.Off), jerr.Msg))
		return nil
	}
	if doc.Kind != jsontext.Object {
		problem(model.SeverityError, "claude-state-malformed", p, fmt.Sprintf("%s holds a %s, not the object "+claudeSeen+" writes.", p, doc.Kind))
		return nil
	}
	return doc
}

// member is the value of the last member named exactly key when it has kind k, else nil.
func member(v *jsontext.Value, key string, k jsontext.Kind) *jsontext.Value {
	if m := v.Get(key); m != nil && m.Val.Kind == k {
		return m.Val
	}
	return nil
}

// lastMembers are the distinct member names of obj, sorted: each stands for its last
// occurrence, the one JSON.parse keeps.
func lastMembers(obj *jsontext.Value) []string {
	var names []string
	for _, m := range obj.Firsts() {
		names = append(names, m.Key)
	}
	sort.Strings(names)
	return names
}

// marketplace is what known_marketplaces.json says of one marketplace: the folder holding
// its marketplace.json and whether it is a directory marketplace (Claude reads its
// plugins from that folder) or a copy Claude made (it reads the cached plugin copies).
type marketplace struct {
	dir       string
	directory bool
}

type marketplaces map[string]marketplace

func readMarketplaces(p string, problem func(model.Severity, string, string, string)) marketplaces {
	known := readState(p, problem)
	if known == nil {
		return nil
	}
	m := marketplaces{}
	for _, name := range lastMembers(known) {
		k := known.Get(name).Val
		src := member(k, "source", jsontext.Object)
		if src == nil {
			continue
		}
		kind, _ := strVal(src, "source")
		dir, _ := strVal(k, "installLocation")
		if dir == "" && kind == "directory" {
			dir, _ = strVal(src, "path")
		}
		if filepath.IsAbs(dir) {
			m[name] = marketplace{dir: filepath.Clean(dir), directory: kind == "directory"}
		}
	}
	return m
}

// folderOf finds the folder Claude reads a plugin of a directory marketplace from: the
// marketplace entry's relative source inside the marketplace folder.
func (m marketplace) folderOf(name string) (rel string, ok bool) {
	e, pluginRoot := readEntry(m.dir, name)
	if e == nil {
		return "", false
	}
	src, ok := strVal(e, "source")
	if !ok {
		return "", false
	}
	return relativeSource(src, pluginRoot)
}

// relativeSource is where a string source puts a plugin inside its marketplace, as
// Claude resolves it: "./path" from the marketplace root, and a bare name (no "./", no
// "/") below metadata.pluginRoot; anything else, or a path with "..", is not a folder of
// the marketplace.
func relativeSource(src, pluginRoot string) (string, bool) {
	var rel string
	switch {
	case src == "." || strings.HasPrefix(src, "./"):
		rel = path.Clean(strings.TrimPrefix(src, "./"))
	case pluginRoot != "" && src != "" && !strings.Contains(src, "/"):
		rel = path.Join(strings.TrimSuffix(strings.TrimPrefix(pluginRoot, "./"), "/"), src)
	default:
		return "", false
	}
	if hasDotDot(src) || hasDotDot(pluginRoot) || path.IsAbs(rel) {
		return "", false
	}
	if rel == "" {
		rel = "."
	}
	return rel, true
}

// readEntry reads dir's marketplace.json as Claude does and returns the entry named name
// (the first, as Claude's lookup finds it) and metadata.pluginRoot.
func readEntry(dir, name string) (*jsontext.Value, string) {
	data, _, err := fsguard.ReadUserFile(filepath.Join(dir, filepath.FromSlash(marketplaceFile)), maxStateFile+1)
	if err != nil || len(data) > maxStateFile {
		return nil, ""
	}
	doc, _, jerr := jsontext.Parse(data, stateOptions)
	if jerr != nil || doc.Kind != jsontext.Object {
		return nil, ""
	}
	pluginRoot := ""
	if md := member(doc, "metadata", jsontext.Object); md != nil {
		pluginRoot, _ = strVal(md, "pluginRoot")
	}
	list := member(doc, "plugins", jsontext.Array)
	if list == nil {
		return nil, ""
	}
	for _, e := range list.Arr {
		if n, _ := strVal(e, "name"); n == name && e.Kind == jsontext.Object {
			return e, pluginRoot
		}
	}
	return nil, ""
}

// readEnabled folds enabledPlugins over the settings files, later files winning.
func readEnabled(files []string, problem func(model.Severity, string, string, string)) (map[string]bool, map[string]string) {
	enabled, by := map[string]bool{}, map[string]string{}
	for _, f := range files {
		s := readState(f, problem)
		if s == nil {
			continue
		}
		ep := member(s, "enabledPlugins", jsontext.Object)
		if ep == nil {
			continue
		}
		for _, id := range lastMembers(ep) {
			v := ep.Get(id).Val
			// Claude also accepts a list of version constraints for an enabled plugin.
			enabled[id], by[id] = (v.Kind == jsontext.Bool && v.Bool) || v.Kind == jsontext.Array, f
		}
	}
	return enabled, by
}

// Note is the diagnostic that tells a reviewer how Claude Code holds an installed
// plugin: its id, scope, whether it is enabled and by which file, and where it is read
// from.
func (in Installation) Note() model.Diagnostic {
	var b strings.Builder
	fmt.Fprintf(&b, "Installed in Claude Code as %s", clip(in.ID))
	if in.Version != "" {
		fmt.Fprintf(&b, " (version %s", clip(in.Version))
	} else {
		b.WriteString(" (")
	}
	switch in.Scope {
	case "project", "local":
		fmt.Fprintf(&b, ", %s scope: only in %s)", in.Scope, clip(in.ProjectPath))
	case "":
		b.WriteString(")")
	default:
		fmt.Fprintf(&b, ", %s scope)", clip(in.Scope))
	}
	switch {
	case in.Enabled:
		fmt.Fprintf(&b, "; enabled by %s, so its hooks and servers run in every session", in.EnabledBy)
	case in.EnabledBy != "":
		fmt.Fprintf(&b, "; disabled by %s, so nothing of it runs until it is enabled", in.EnabledBy)
	default:
		b.WriteString("; no settings file enables it, so " + claudeSeen + " leaves it disabled")
	}
	if in.MarketplaceDir != "" {
		fmt.Fprintf(&b, ". %s reads it from %s (its marketplace is a local folder), not from its copy in %s: an edit there changes what runs.", claudeSeen, in.Folder, in.InstallPath)
	} else if in.EntryMarketplace != "" {
		fmt.Fprintf(&b, ". %s reads it from %s, with its entry in the marketplace copy at %s merged in (a strict: false entry is the whole plugin).", claudeSeen, in.Folder, in.EntryMarketplace)
	} else {
		fmt.Fprintf(&b, ". %s reads it from %s.", claudeSeen, in.Folder)
	}
	return model.Diagnostic{Code: "claude-installed", Severity: model.SeverityInfo, Boundary: model.BoundaryPackage, Message: b.String(), Spec: specRef("1.2")}
}

// LoadInstalled loads the installed copy in folder as Claude Code runs a plugin of a
// marketplace it copied (GitHub, git, a URL): the copy, with the entry named name in the
// marketplace.json of marketDir merged as Claude merges it. A strict: false entry is the
// whole definition, so its hooks and LSP servers are reviewed even when the copy holds
// only a README. Without that entry the copy is reviewed on its own, and says so.
func LoadInstalled(folder, marketDir, name string, opts Options) *model.Package {
	e, _ := readEntry(marketDir, name)
	if e == nil {
		p := LoadPlugin(folder, opts)
		p.Diagnostics = append(p.Diagnostics, model.Diagnostic{Code: "claude-installed-entry-not-loaded", Severity: model.SeverityWarning, Boundary: model.BoundaryPackage, File: p.Root,
			Message: fmt.Sprintf("The marketplace copy in %s has no entry named %q, so the installed folder is reviewed on its own; Claude Code may merge an entry vouch did not see.", marketDir, clip(name)), Spec: specRef("1.8")})
		return p
	}
	strict := true
	if s := member(e, "strict", jsontext.Bool); s != nil {
		strict = s.Bool
	}
	return loadPlugin(folder, opts, &entry{name: name, obj: e, strict: strict})
}
