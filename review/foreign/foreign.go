// Package foreign names what vouch finds in a folder but does not read: the manifest
// folders of client plugin formats, which are never package roots of their own (their
// plugin is the folder above them), and manifests of clients vouch has no loader for
// (Cursor, Kimi, Devin, Gemini CLI, Kiro). Saying so is the point: a file a client would
// load must never pass silently as "nothing here", nor be misread as another format
// (a .cursor-plugin/plugin.json is not an Agent Plugins manifest).
package foreign

import (
	"fmt"
	"path/filepath"

	"vouch/model"
	"vouch/review/probe"
)

// clientDirs are the manifest folders of client plugin formats vouch does not read; the
// folders of the formats it reads are in review's format table.
var clientDirs = map[string]bool{
	".cursor-plugin": true,
	".kimi-plugin":   true,
	".devin-plugin":  true,
}

// IsClientDir reports whether a directory name is the manifest folder of a client plugin
// format vouch does not read, which discovery must never take for a package root.
func IsClientDir(name string) bool { return clientDirs[name] }

// unread lists manifests of clients vouch has no loader for, by path below the folder.
var unread = []struct{ rel, client, what string }{
	{".cursor-plugin/plugin.json", "Cursor", "a Cursor plugin manifest"},
	{".cursor-plugin/marketplace.json", "Cursor", "a Cursor plugin marketplace"},
	{".kimi-plugin/plugin.json", "Kimi", "a Kimi plugin manifest"},
	{".devin-plugin/plugin.json", "Devin", "a Devin plugin manifest"},
	{"gemini-extension.json", "Gemini CLI", "a Gemini CLI extension manifest"},
	{"POWER.md", "Kiro", "a Kiro power"},
	{".kiro", "Kiro", "Kiro workspace configuration (steering, hooks, settings/mcp.json)"},
}

// Scan names, as source diagnostics, the manifests in dir that vouch does not read. It
// only stats a handful of fixed paths.
func Scan(dir string) []model.Diagnostic { return ScanIn(probe.New(dir)) }

// ScanIn is Scan asked of a probe, which answers from one listing of the folder.
func ScanIn(d *probe.Dir) []model.Diagnostic {
	var out []model.Diagnostic
	for _, u := range unread {
		if !d.Exists(u.rel) {
			continue
		}
		p := filepath.Join(d.Path(), filepath.FromSlash(u.rel))
		out = append(out, model.Diagnostic{Code: "manifest-not-read", Severity: model.SeverityWarning, Boundary: model.BoundarySource, File: p,
			Message: fmt.Sprintf("%s is %s; vouch does not read %s packages, so what %s would load from this folder is not reviewed here.", p, u.what, u.client, u.client),
			Spec:    "vouch README.md (one folder, several clients)"})
	}
	return out
}

// ClientDirSource is the diagnostic for a client manifest folder given as a source: its
// plugin is the folder above it.
func ClientDirSource(p string) model.Diagnostic {
	return model.Diagnostic{Code: "client-manifest-folder", Severity: model.SeverityError, Boundary: model.BoundarySource, File: p,
		Message: fmt.Sprintf("%s is a plugin's manifest folder, never a package of its own; review the folder that holds it (%s).", p, filepath.Dir(p)),
		Spec:    "vouch README.md (one folder, several clients)"}
}
