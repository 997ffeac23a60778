package main

import (
	"fmt"

	"vouch/model"
	"vouch/review/clientversion"
)

// clientTargets is the release each client's support answers are for under --claude and
// --codex: the one installed here when its package metadata says which (nothing is run),
// else the newest vouch models. Each choice is stated in a source note, so a reader knows
// which release "supported" was answered for.
func clientTargets(ids []string, lookPath func(string) (string, error)) (map[string]string, []model.Diagnostic) {
	versions := map[string]string{}
	var notes []model.Diagnostic
	for _, id := range ids {
		c, _ := model.LookupClient(id)
		note := model.Diagnostic{Code: "client-version", Severity: model.SeverityInfo, Boundary: model.BoundarySource}
		found, ok := clientversion.Installed(id, lookPath)
		switch {
		case !ok:
			versions[id] = c.Newest()
			note.Message = fmt.Sprintf("%s was not found installed (no %s on PATH whose package metadata names its release); its support answers are for %s, the newest release vouch models.", c.Name, programName(id), c.Newest())
		case c.Models(found.Version):
			versions[id] = found.Version
			note.File = found.From
			note.Message = fmt.Sprintf("%s %s is installed (read from %s); its support answers are for that release.", c.Name, found.Version, found.From)
		default:
			versions[id] = found.Version
			note.File = found.From
			note.Severity = model.SeverityWarning
			note.Message = fmt.Sprintf("%s %s is installed (read from %s), a release vouch has not observed (it models %v); its support answers apply the rules of the newest modelled release, %s, and may miss what changed since.", c.Name, found.Version, found.From, c.Versions, c.Newest())
		}
		notes = append(notes, note)
	}
	return versions, notes
}

// targetClients answers for the installed Claude Code under --claude and the installed
// Codex under --codex, for every load of this run.
func (a *app) targetClients(claude, codex bool) {
	var ids []string
	if claude {
		ids = append(ids, model.ClientClaudeCode)
	}
	if codex {
		ids = append(ids, model.ClientCodex)
	}
	if len(ids) == 0 {
		return
	}
	a.loadBase.ClientVersions, a.clientNotes = clientTargets(ids, nil)
}

func programName(id string) string {
	if id == model.ClientCodex {
		return "codex"
	}
	return "claude"
}
