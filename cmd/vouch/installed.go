package main

import (
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"vouch/model"
	"vouch/review/claudecode"
)

// claudeInstalledDir is where Claude Code records the plugins it has installed:
// $CLAUDE_CONFIG_DIR/plugins (default ~/.claude/plugins), whose installed_plugins.json
// names each install and the folder Claude reads it from (review expands it, with the
// enabled state from the settings files). Without that record it falls back to the copies
// in plugins/cache, one folder per <marketplace>/<plugin>/<version>.
func claudeInstalledDir(getenv func(string) string) string {
	plugins := claudeHomeFolder(getenv, "plugins")
	if plugins == "" {
		return ""
	}
	if claudecode.IsInstallDir(plugins) {
		return plugins
	}
	return filepath.Join(plugins, "cache")
}

// sourcesWithInstalled adds the installed Claude Code plugins to the sources when
// --claude is given. Nothing is written and nothing under it runs.
func (a *app) sourcesWithInstalled(args []string, claude bool) ([]string, error) {
	if !claude {
		return args, nil
	}
	dir := claudeInstalledDir(os.Getenv)
	skills := claudeSkillsDir(os.Getenv)
	if skills != "" {
		a.loadBase.ClaudeSkillsDir = skills
	}
	if st, err := os.Stat(dir); dir == "" || err != nil || !st.IsDir() {
		if skills != "" {
			return args, nil // only the plugins of the skills folder
		}
		return nil, a.fail(2, "claude-not-installed", "--claude reviews the plugins Claude Code installed in "+dir+", which does not exist; set CLAUDE_CONFIG_DIR if Claude Code keeps its configuration elsewhere.")
	}
	return append(append([]string(nil), args...), dir), nil
}

// claudeSkillsDir is Claude Code's skills folder ($CLAUDE_CONFIG_DIR/skills, default
// ~/.claude/skills) when it exists: a folder there that holds .claude-plugin/plugin.json
// loads as the plugin <name>@skills-dir without being installed, so --claude reviews it.
func claudeSkillsDir(getenv func(string) string) string {
	dir := claudeHomeFolder(getenv, "skills")
	if st, err := os.Stat(dir); dir == "" || err != nil || !st.IsDir() {
		return ""
	}
	return dir
}

// claudeHomeFolder is the folder name in Claude Code's configuration home, or "" when
// that home cannot be resolved from the environment.
func claudeHomeFolder(getenv func(string) string, name string) string {
	claude, _ := model.LookupClient(model.ClientClaudeCode)
	base, err := claude.Home(getenv)
	if err != nil {
		return ""
	}
	return filepath.Join(base, name)
}

// sourcesOrInstalled is the argument rule of commands that take --claude: SOURCE... is
// required unless --claude names the sources.
func sourcesOrInstalled(claude *bool) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 && !*claude {
			return cobra.MinimumNArgs(1)(cmd, args)
		}
		return nil
	}
}

func addClaudeFlag(cmd *cobra.Command, claude *bool) {
	cmd.Flags().BoolVar(claude, "claude", false, "also review the plugins Claude Code has installed, from the folders it reads them from, with whether each is enabled ($CLAUDE_CONFIG_DIR/plugins, default ~/.claude/plugins), and the plugins it loads from its skills folder without an install (<name>@skills-dir), read-only; support is answered for the Claude Code release installed (read from its package metadata, never run), else the newest vouch models")
}
