package claudecode

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"vouch/model"
	"vouch/review/fsguard"
)

// Claude Code's record of what it installed lives in its plugins directory
// ($CLAUDE_CONFIG_DIR/plugins, default ~/.claude/plugins). Observed with Claude Code
// 2.1.328 (plugin marketplace add, plugin install, plugin disable, plugin list --json, and
// the files read at start in its --debug-file log):
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
	Enabled        bool
	EnabledBy      string // the settings file that decided, "" when none names the plugin
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
func ReadInstallations(pluginsDir string, settingsFiles []string) ([]Installation, []model.Diagnostic) {
	var diags []model.Diagnostic
	problem := func(sev model.Severity, code, file, msg string) {
		diags = append(diags, model.Diagnostic{Code: code, Severity: sev, Boundary: model.BoundarySource, File: file, Message: msg, Spec: specRef("1.2")})
	}
	ipath := filepath.Join(pluginsDir, installedFile)
	var record struct {
		Version int                          `json:"version"`
		Plugins map[string][]json.RawMessage `json:"plugins"`
	}
	if !readState(ipath, &record, problem) {
		return nil, diags
	}
	if record.Version != 2 {
		problem(model.SeverityWarning, "claude-installed-version", ipath, fmt.Sprintf("%s has version %d; vouch reads version 2 (Claude Code %s), so installs may be missed.", ipath, record.Version, ClaudeVersion))
	}
	markets := readMarketplaces(filepath.Join(pluginsDir, marketplacesFile), problem)
	enabled, by := readEnabled(settingsFiles, problem)

	ids := make([]string, 0, len(record.Plugins))
	for id := range record.Plugins {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var out []Installation
	for _, id := range ids {
		name, market, _ := strings.Cut(id, "@")
		for _, raw := range record.Plugins[id] {
			var e struct {
				Scope       string `json:"scope"`
				InstallPath string `json:"installPath"`
				Version     string `json:"version"`
				ProjectPath string `json:"projectPath"`
			}
			if json.Unmarshal(raw, &e) != nil || e.InstallPath == "" || !filepath.IsAbs(e.InstallPath) {
				problem(model.SeverityWarning, "claude-installed-entry", ipath, fmt.Sprintf("%s has an entry for %q without an absolute installPath; it is not reviewed.", ipath, clip(id)))
				continue
			}
			in := Installation{ID: id, Name: name, Marketplace: market, Scope: e.Scope, ProjectPath: e.ProjectPath,
				Version: e.Version, InstallPath: filepath.Clean(e.InstallPath), Folder: filepath.Clean(e.InstallPath),
				Enabled: enabled[id], EnabledBy: by[id]}
			if dir, rel, ok := markets.folderOf(name, market); ok {
				in.MarketplaceDir, in.Folder = dir, filepath.Join(dir, filepath.FromSlash(rel))
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

// readState reads one of Claude's JSON state files into v; a missing file is fine for
// every file but installed_plugins.json, whose absence the caller has ruled out.
func readState(p string, v any, problem func(model.Severity, string, string, string)) bool {
	data, _, err := fsguard.ReadUserFile(p, maxStateFile)
	if err != nil {
		if !os.IsNotExist(err) {
			problem(model.SeverityError, "claude-state-unreadable", p, fmt.Sprintf("%s could not be read (%v).", p, err))
		}
		return false
	}
	if err := json.Unmarshal(data, v); err != nil {
		problem(model.SeverityError, "claude-state-malformed", p, fmt.Sprintf("%s is not the JSON Claude Code writes (%v).", p, err))
		return false
	}
	return true
}

type marketplaces map[string]string // name → folder, for directory marketplaces only

func readMarketplaces(p string, problem func(model.Severity, string, string, string)) marketplaces {
	var known map[string]struct {
		Source struct {
			Source string `json:"source"`
			Path   string `json:"path"`
		} `json:"source"`
		InstallLocation string `json:"installLocation"`
	}
	if !readState(p, &known, problem) {
		return nil
	}
	m := marketplaces{}
	for name, k := range known {
		if k.Source.Source != "directory" {
			continue
		}
		dir := k.InstallLocation
		if dir == "" {
			dir = k.Source.Path
		}
		if filepath.IsAbs(dir) {
			m[name] = filepath.Clean(dir)
		}
	}
	return m
}

// folderOf finds the folder Claude reads a plugin of a directory marketplace from: the
// marketplace entry's relative source inside the marketplace folder.
func (m marketplaces) folderOf(name, market string) (dir, rel string, ok bool) {
	dir, ok = m[market]
	if !ok {
		return "", "", false
	}
	var doc struct {
		Metadata struct {
			PluginRoot string `json:"pluginRoot"`
		} `json:"metadata"`
		Plugins []struct {
			Name   string          `json:"name"`
			Source json.RawMessage `json:"source"`
		} `json:"plugins"`
	}
	data, _, err := fsguard.ReadUserFile(filepath.Join(dir, filepath.FromSlash(marketplaceFile)), maxStateFile)
	if err != nil || json.Unmarshal(data, &doc) != nil {
		return "", "", false
	}
	for _, p := range doc.Plugins {
		var src string
		if p.Name != name || json.Unmarshal(p.Source, &src) != nil {
			continue
		}
		src = strings.TrimPrefix(src, "./")
		if pr := strings.Trim(strings.TrimPrefix(doc.Metadata.PluginRoot, "./"), "/"); pr != "" && !strings.Contains(src, "/") {
			src = pr + "/" + src
		}
		if src == "" || src == "." {
			return dir, ".", true
		}
		if hasDotDot(src) || filepath.IsAbs(src) {
			return "", "", false
		}
		return dir, src, true
	}
	return "", "", false
}

// readEnabled folds enabledPlugins over the settings files, later files winning.
func readEnabled(files []string, problem func(model.Severity, string, string, string)) (map[string]bool, map[string]string) {
	enabled, by := map[string]bool{}, map[string]string{}
	for _, f := range files {
		var s struct {
			EnabledPlugins map[string]json.RawMessage `json:"enabledPlugins"`
		}
		if !readState(f, &s, problem) {
			continue
		}
		for id, v := range s.EnabledPlugins {
			var b bool
			if json.Unmarshal(v, &b) != nil {
				// Claude also accepts a list of version constraints for an enabled plugin.
				var list []any
				b = json.Unmarshal(v, &list) == nil
			}
			enabled[id], by[id] = b, f
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
		b.WriteString("; no settings file enables it, so Claude Code leaves it disabled")
	}
	if in.MarketplaceDir != "" {
		fmt.Fprintf(&b, ". Claude Code reads it from %s (its marketplace is a local folder), not from its copy in %s: an edit there changes what runs.", in.Folder, in.InstallPath)
	} else {
		fmt.Fprintf(&b, ". Claude Code reads it from %s.", in.Folder)
	}
	return model.Diagnostic{Code: "claude-installed", Severity: model.SeverityInfo, Boundary: model.BoundaryPackage, Message: b.String(), Spec: specRef("1.2")}
}
