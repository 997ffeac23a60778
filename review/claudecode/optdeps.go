package claudecode

import (
	"fmt"

	"vouch/model"
	"vouch/review/jsontext"
)

// optionalDependenciesStep lists each plugin named in optionalDependencies as a
// dependency: Claude Code, from the release that reads the field (fieldSince), installs
// those plugins along with this one, and each can be disabled on its own. Their code is not in this folder, so each is
// reviewed as its own plugin; listing them keeps what an install brings in visible.
func (l *loader) optionalDependenciesStep() {
	m := l.manifestMember("optionalDependencies")
	if m == nil || m.Val.Kind != jsontext.Array || !model.AtLeast(l.opts.ClaudeVersion, fieldSince["optionalDependencies"]) {
		return
	}
	names := map[string]int{}
	for i, v := range m.Val.Arr {
		name := ""
		switch v.Kind {
		case jsontext.String:
			name = v.Str
		case jsontext.Object:
			name, _ = strVal(v, "name")
		}
		ptr := fmt.Sprintf("/optionalDependencies/%d", i)
		if name == "" {
			l.pkgWarn("optional-dependency-unnamed", manifestFile, ptr, 0,
				fmt.Sprintf("Entry %d of optionalDependencies names no plugin (a string, or an object with \"name\"), so vouch cannot say what Claude Code installs for it.", i), "1.1")
			continue
		}
		id, _ := l.uniqueID(names, name)
		c := &model.Component{Kind: model.KindDependency, ID: id, Validity: model.Valid, Requirement: "optional",
			Details: model.Fields{{Key: "plugin", Value: name}, {Key: "declared in", Value: manifestFile + ptr}},
			Summary: []string{fmt.Sprintf("Claude Code %s installs the plugin %s together with this one; it can be disabled on its own. Its components are not in this folder: review it as its own plugin.", l.opts.ClaudeVersion, name)}}
		c.Contract = &model.Contract{Kind: model.KindDependency, Fields: model.Fields{{Key: "plugin", Value: name}, {Key: "optional", Value: true}}}
		c.Support = []model.Support{
			{Provider: clientClaude, Version: ClaudeVersion, Status: model.Supported, Detail: "Claude Code installs optional dependencies with the plugin (" + model.ClaudeCode331 + " and later)."},
			{Provider: clientCodex, Version: CodexVersion, Status: model.NotSupported, Detail: "Codex does not install a Claude plugin's optionalDependencies."},
		}
		l.pkg.Components = append(l.pkg.Components, c)
	}
}

// networkNote says what the manifest's network field does: nothing Claude Code enforces.
func (l *loader) networkNote() {
	if m := l.manifestMember("network"); m != nil {
		l.pkgDiag(model.Place{File: manifestFile, Pointer: "/network"}.Package("manifest-network-shown", model.SeverityInfo,
			"plugin.json declares network; "+model.Releases(model.ClientClaudeCode, model.ClaudeCode332)+" shows it and limits nothing by it, so the plugin's servers and hooks reach whatever they connect to.", specRef("1.1")))
	}
}
