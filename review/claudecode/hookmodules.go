package claudecode

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"vouch/model"
	"vouch/review/jsontext"
)

// hookModules lists each entry of a hooks file's "modules" as a component: JavaScript
// that Claude Code (every release vouch models) loads inside its own process, with the power of
// every hook (its validator lists them under provides.modules). Such code is the most
// powerful thing a plugin can ship, so each one is runnable and approvable, with the
// plugin's files as its closure, and is never folded into the hooks file's other entries.
func (l *loader) hookModules(src *hookSource) {
	m := src.modules
	if m == nil {
		return
	}
	ptr := "/modules"
	if m.Val.Kind != jsontext.Array {
		l.pkgDiag(model.Place{File: src.file, Pointer: ptr, Line: l.line(src.data, m.KeyOff)}.ComponentType("hook-modules-type", model.SeverityError,
			fmt.Sprintf("\"modules\" in %s is a %s; it must be an array of module paths, so "+model.ClientAt(clientClaude, model.ClaudeCode332)+" loads none of them.", src.file, m.Val.Kind), specRef("1.4")))
		return
	}
	l.modulesRefused(src, m)
	names := map[string]int{}
	for i, v := range m.Val.Arr {
		eptr := fmt.Sprintf("%s/%d", ptr, i)
		if v.Kind != jsontext.String || strings.TrimSpace(v.Str) == "" {
			l.pkgDiag(model.Place{File: src.file, Pointer: eptr, Line: l.line(src.data, v.Off)}.Entry("hook-module-type", model.SeverityError,
				fmt.Sprintf("Entry %d of \"modules\" in %s is not a module path, so it is not loaded.", i, src.file), specRef("1.4")))
			continue
		}
		id, _ := l.uniqueID(names, moduleID(src, v.Str))
		c := l.hookModule(src, id, v.Str, eptr, l.line(src.data, v.Off))
		claudeRefuses(src, []*model.Component{c})
		l.pkg.Components = append(l.pkg.Components, c)
	}
}

// modulesRefused applies Claude Code's schema for "modules": at most one entry, and a
// string. A list that breaks it makes Claude refuse the whole hooks file, its hooks as
// well as its modules ("Failed to load hooks for <plugin>"; observed offline on the
// releases named).
func (l *loader) modulesRefused(src *hookSource, m *jsontext.Member) {
	why := ""
	for _, v := range m.Val.Arr {
		if v.Kind != jsontext.String {
			why = fmt.Sprintf("an entry of \"modules\" is a %s, not a string", v.Kind)
		}
	}
	if len(m.Val.Arr) > 1 {
		why = fmt.Sprintf("\"modules\" has %d entries (\"hooks.json `modules` names one hooks module per plugin; a second entry is refused\")", len(m.Val.Arr))
	}
	if why == "" {
		return
	}
	releases := model.Releases(model.ClientClaudeCode, model.ClaudeCode328)
	src.claudeRefuse = fmt.Sprintf("%s refuse the whole of %s because %s, so they load none of its hooks or modules.", releases, src.file, why)
	l.pkgDiag(model.Place{File: src.file, Pointer: "/modules", Line: l.line(src.data, m.KeyOff)}.ComponentType("hook-modules-refused", model.SeverityError,
		src.claudeRefuse, specRef("1.4")))
}

func moduleID(src *hookSource, p string) string {
	id := strings.TrimPrefix(path.Clean(strings.TrimPrefix(p, "./")), "./")
	if src.label != "" {
		return src.label + ":" + id
	}
	return id
}

func (l *loader) hookModule(src *hookSource, id, spec, ptr string, line int) *model.Component {
	c := &model.Component{Kind: model.KindHookModule, ID: id,
		Details: model.Fields{{Key: "module", Value: spec}, {Key: "file", Value: displayFile(src.file)}}}
	rel, inside := modulePath(spec)
	if !inside {
		c.Diagnostics = append(c.Diagnostics, model.Place{File: src.file, Pointer: ptr, Line: line}.Component("hook-module-outside", model.SeverityError,
			fmt.Sprintf("Module %q is not a path inside the plugin, so no approval could bind the code Claude would load.", clip(spec)), specRef("1.4")))
	} else if !l.rootHas(rel) {
		c.Diagnostics = append(c.Diagnostics, model.Place{File: src.file, Pointer: ptr, Line: line}.Component("hook-module-missing", model.SeverityError,
			fmt.Sprintf("Module %q does not exist in the plugin (%s), so "+claudeSeen+" cannot load it.", clip(spec), rel), specRef("1.4")))
	}
	if hasErrors(c.Diagnostics) {
		c.Validity = model.Invalid
		c.Support = unsupportedBoth("The module entry is invalid.")
		return c
	}
	c.Details = append(c.Details, model.Field{Key: "path", Value: rel})
	evs := l.moduleEvents()
	c.Details = append(c.Details, model.Field{Key: "sees", Value: strings.Join(evs, ", ")})
	c.Summary = []string{fmt.Sprintf("Claude Code loads %s as JavaScript inside its own process whenever the plugin is enabled: it runs with everything Claude Code can do, sees every hook event (%d in Claude Code %s) and can act on each like a hook of any type.", rel, len(evs), l.opts.ClaudeVersion)}
	c.Capabilities = []model.Capability{
		{Kind: model.CapCodeExecution, Scope: []string{rel}, Detail: "Runs inside the process of " + model.Releases(clientClaude, model.ClaudeCode332) + ", not as a separate command."},
		{Kind: model.CapHook, Scope: evs, Detail: "Sees every hook event and can block, allow or rewrite what a hook can."},
	}
	c.Validity = model.Valid
	c.Contract = &model.Contract{Kind: model.KindHookModule, Fields: model.Fields{{Key: "module", Value: spec}, {Key: "path", Value: rel}, {Key: "file", Value: src.file}}}
	c.Support = []model.Support{
		{Provider: clientClaude, Version: ClaudeVersion, Status: model.Supported, Detail: "Claude Code loads hooks-file modules in its own process (observed with " + model.ClaudeCode332 + "; its validator lists them under provides.modules)."},
		{Provider: clientCodex, Version: CodexVersion, Status: model.NotSupported, Detail: "Codex has no in-process hook modules."},
	}
	l.bindClosure(c, "module")
	return c
}

// modulePath is the slash path, relative to the plugin root, that a module entry names
// (vouch reads "./x.mjs" from the plugin root, as every other plugin path is), and
// whether it stays inside the plugin.
func modulePath(spec string) (string, bool) {
	s := strings.ReplaceAll(spec, "${CLAUDE_PLUGIN_ROOT}/", "./")
	if strings.HasPrefix(s, "/") || strings.Contains(s, "\\") || strings.Contains(s, "${") || strings.Contains(s, "://") {
		return "", false
	}
	rel := path.Clean(s)
	if rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	return rel, true
}

// moduleEvents are the hook events the target Claude Code release runs: what a module
// can see.
func (l *loader) moduleEvents() []string {
	var out []string
	for name, info := range events {
		if info.Since == "" || model.AtLeast(l.opts.ClaudeVersion, info.Since) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}
