// Package agentplugins loads Agent Plugins 1.0.0 packages: plugin.json, skills/ and mcp.json.
package agentplugins

import (
	"os"
	"path/filepath"

	"vouch/model"
	"vouch/review/fsguard"
)

// Options configure the loader.
type Options struct {
	DataDir string // ${PLUGIN_DATA} is shown as DataDir/<plugin-name>; never created
	Limits  fsguard.Limits
}

// IsRoot reports whether dir is an Agent Plugins root (it holds plugin.json).
func IsRoot(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, "plugin.json"))
	return err == nil
}

// Load reviews the plugin rooted at dir. It never fails: problems become diagnostics.
func Load(dir string, opts Options) *model.Package {
	return &model.Package{Format: model.FormatAgentPlugins, Name: filepath.Base(dir), Root: dir}
}
