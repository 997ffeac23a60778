package review

import (
	"fmt"
	"os"
	"path/filepath"

	"vouch/model"
	"vouch/review/claudecode"
)

// installedJobs expands a Claude Code plugins directory (one holding
// installed_plugins.json, e.g. ~/.claude/plugins) into what Claude Code would load: each
// recorded install, from the folder Claude reads it from, which for a local-folder
// marketplace is outside this directory. Each package carries a note with its id, scope
// and enabled state. The leftover version folders in plugins/cache are not loaded by
// Claude and are not reviewed.
func installedJobs(dir string) ([]job, []model.Diagnostic) {
	installs, diags := claudecode.ReadInstallations(dir, claudeSettingsFiles(dir))
	cc := formatNamed(model.FormatClaudeCode)
	var jobs []job
	for _, in := range installs {
		j := job{format: cc, path: in.Folder, notes: []model.Diagnostic{in.Note()}}
		if in.MarketplaceDir != "" {
			// Loaded from its marketplace so the entry is merged, as Claude reads it.
			only := in.Folder
			if real, err := filepath.EvalSymlinks(only); err == nil {
				only = real
			}
			j.path, j.only, j.onlyOrAlone = in.MarketplaceDir, only, true
		} else if in.EntryMarketplace != "" {
			market, name := in.EntryMarketplace, in.Name
			j.loadAs = func(path string, opts Options) []*model.Package {
				return []*model.Package{claudecode.LoadInstalled(path, market, name, claudecode.Options{Limits: opts.Limits})}
			}
		}
		jobs = append(jobs, j)
	}
	if len(installs) == 0 && len(diags) == 0 {
		diags = append(diags, model.Diagnostic{Code: "claude-nothing-installed", Severity: model.SeverityInfo, Boundary: model.BoundarySource, File: dir,
			Message: dir + " records no installed Claude Code plugins."})
	}
	return jobs, diags
}

// claudeSettingsFiles are the settings that decide which installed plugins are enabled,
// lowest precedence first: the user's (beside the plugins directory), then the current
// project's shared and local settings, then the machine's managed settings.
func claudeSettingsFiles(pluginsDir string) []string {
	files := []string{filepath.Join(filepath.Dir(pluginsDir), "settings.json")}
	if wd, err := os.Getwd(); err == nil {
		files = append(files, filepath.Join(wd, ".claude", "settings.json"), filepath.Join(wd, ".claude", "settings.local.json"))
	}
	return append(files, "/etc/claude-code/managed-settings.json")
}

// skillsDirJobs are the plugins of Claude Code's skills folder: a folder
// <skills>/<name>/ holding .claude-plugin/plugin.json loads as the plugin
// <name>@skills-dir, enabled, with no install step and no installed_plugins.json or
// enabledPlugins entry (observed on the newest Claude Code release vouch models, which the
// note names). A folder without that manifest is a personal skill, not a plugin, and is
// left to the skills reader.
func skillsDirJobs(dir string) ([]job, []model.Diagnostic) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, []model.Diagnostic{{Code: "unreadable-directory", Severity: model.SeverityError, Boundary: model.BoundarySource, File: dir,
			Message: fmt.Sprintf("Could not list %s (%v), so the plugins Claude Code loads from it were not reviewed.", dir, errText(err))}}
	}
	claude, _ := model.LookupClient(model.ClientClaudeCode)
	cc := formatNamed(model.FormatClaudeCode)
	var jobs []job
	for _, e := range entries { // os.ReadDir sorts by name
		folder := filepath.Join(dir, e.Name())
		if st, err := os.Stat(filepath.Join(folder, ".claude-plugin", "plugin.json")); err != nil || !st.Mode().IsRegular() {
			continue
		}
		id := e.Name() + "@skills-dir"
		note := model.Diagnostic{Code: "claude-skills-dir-plugin", Severity: model.SeverityInfo, Boundary: model.BoundaryPackage,
			Message: fmt.Sprintf("Claude Code loads this folder as the plugin %s, enabled, with no install step (observed on Claude Code %s): it is in %s, and nothing in installed_plugins.json or the settings turns it on or off.", id, claude.Newest(), dir)}
		jobs = append(jobs, job{format: cc, path: folder, notes: []model.Diagnostic{note}})
	}
	return jobs, nil
}
