package claudecode

import (
	"fmt"
	"slices"
	"strings"

	"vouch/model"
	"vouch/review/codex"
	"vouch/review/jsontext"
)

// hookSource is one place hooks come from: hooks/hooks.json, a file the manifest names,
// or an inline manifest object.
type hookSource struct {
	file   string // slash path relative to the plugin root
	base   []string
	label  string // id prefix: "" for hooks/hooks.json
	events *jsontext.Value
	data   []byte
	inline bool
	// codexReject says why Codex rejects the whole file ("" when it reads it).
	codexReject string
	// codexSkip says why Codex does not read this source at all ("" when it does).
	codexSkip string
	// modules is the file's "modules" member: JavaScript Claude loads in its own process.
	modules *jsontext.Member
	// claudeRefuse says why Claude Code loads nothing of this source ("" when it reads it).
	claudeRefuse string
}

// hooksStep lists one hook component per handler from hooks/hooks.json and the
// manifest's hooks (files, a list, or an inline object), merged as Claude merges them:
// the manifest's hooks are loaded in addition to hooks/hooks.json (Claude Code).
func (l *loader) hooksStep() {
	var srcs []*hookSource
	codexSkipDefault := ""
	if l.paths["hooks"] != nil && (l.otherManifest != "" || l.manifest == nil || !l.codexLoadsDefault("hooks")) {
		codexSkipDefault = "Codex reads the manifest's hooks instead of hooks/hooks.json (the manifest field replaces the default there), so it does not run this hook."
	}
	files := []string{}
	if l.rootHas(hooksFile) {
		files = append(files, hooksFile)
	}
	for _, p := range l.paths["hooks"] {
		if p == hooksFile {
			l.pkgDiag(model.Place{File: manifestFile, Pointer: "/hooks"}.ComponentType("hooks-file-listed-twice", model.SeverityInfo,
				"The manifest lists ./hooks/hooks.json, which "+claudeSeen+" loads by default anyway; its hooks are listed once.", specRef("1.2")))
			codexSkipDefault = ""
			continue
		}
		if slices.Contains(files, p) {
			continue // listed twice: loaded once
		}
		files = append(files, p)
	}
	for _, f := range files {
		src := l.hookFile(f)
		if src == nil {
			continue
		}
		if f == hooksFile {
			src.codexSkip = codexSkipDefault
		}
		srcs = append(srcs, src)
	}
	srcs = append(srcs, l.inlineHookSources()...)
	for _, src := range srcs {
		l.hookModules(src)
		if src.events == nil {
			continue // a file of modules only
		}
		before := len(l.pkg.Components)
		l.hookEvents(src)
		l.gateFile(src, l.pkg.Components[before:])
		claudeRefuses(src, l.pkg.Components[before:])
	}
}

// setSupport replaces the answer of s's client in c.
func setSupport(c *model.Component, s model.Support) {
	for i := range c.Support {
		if c.Support[i].Provider == s.Provider {
			c.Support[i] = s
		}
	}
}

// supportOf is c's answer for client (empty when it has none).
func supportOf(c *model.Component, client string) model.Support {
	for _, s := range c.Support {
		if s.Provider == client {
			return s
		}
	}
	return model.Support{}
}

// claudeRefuses marks the valid hooks of a source Claude Code refuses as a whole as not
// run by Claude; what Codex does with them stays its own answer.
func claudeRefuses(src *hookSource, cs []*model.Component) {
	if src.claudeRefuse == "" {
		return
	}
	for _, c := range cs {
		for i := range c.Support {
			if c.Support[i].Provider == clientClaude && c.Validity == model.Valid {
				c.Support[i] = model.Support{Provider: clientClaude, Version: ClaudeVersion, Status: model.NotSupported, Detail: src.claudeRefuse}
			}
		}
	}
}

// inlineHookSources are the manifest's inline hooks objects. Claude Code reads one as the
// event map itself; Codex reads it only in a hooks file's form, inside a {"hooks": ...}
// wrapper, which Claude ignores: such a wrapper gives the hooks Codex runs and Claude
// does not, and an event map without it gives the hooks Claude runs and Codex does not.
func (l *loader) inlineHookSources() []*hookSource {
	var srcs []*hookSource
	for i, iv := range l.inline["hooks"] {
		label := "plugin.json"
		if len(l.inline["hooks"]) > 1 || strings.Contains(iv.ptr, "/hooks/") {
			label = fmt.Sprintf("plugin.json[%d]", i)
		}
		file, data := l.inlineSrc(iv)
		src := &hookSource{file: file, base: jsontext.SplitPointer(iv.ptr), label: label, events: iv.v, data: data, inline: true}
		if w := iv.v.Get("hooks"); w != nil && w.Val.Kind == jsontext.Object {
			srcs = append(srcs, l.inlineWrapper(src, iv, w))
			continue
		}
		if l.otherManifest == "" && !codex.InlineHooksRead(iv.v) {
			src.codexSkip = model.Releases(model.ClientCodex, model.Codex169) + " read inline manifest hooks only in a hooks file's form ({\"hooks\": {...}}), so they load none of this event map's hooks (hooks/hooks.json loads instead)."
		}
		srcs = append(srcs, src)
	}
	return srcs
}

// inlineWrapper is the source of the hooks inside an inline {"hooks": ...} wrapper: Claude
// reads "hooks" as an unknown event and ignores every hook inside it, and when it holds
// PreToolUse or PermissionRequest hooks, which may guard permissions, its validator fails
// it (CC-bin p08); Codex reads the object as a hooks document and runs them.
func (l *loader) inlineWrapper(src *hookSource, iv inlineVal, w *jsontext.Member) *hookSource {
	sev, effect := model.SeverityWarning, "Claude reads \"hooks\" as an unknown event and ignores every hook inside it"
	if w.Val.Get("PreToolUse") != nil || w.Val.Get("PermissionRequest") != nil {
		sev, effect = model.SeverityError, "it holds PreToolUse/PermissionRequest hooks, so Claude's validator rejects it (Unrecognized key \"hooks\") and none of them runs"
	}
	codexDoes := ""
	if l.otherManifest == "" {
		codexDoes = "; " + model.Releases(model.ClientCodex, model.Codex169) + " read this wrapper as a hooks file's and run the hooks inside it"
	}
	l.pkgDiag(model.Place{File: src.file, Pointer: iv.ptr + "/hooks", Line: l.line(src.data, w.KeyOff)}.ComponentType("hooks-inline-wrapper", sev,
		"Inline hooks in plugin.json must be the event map itself, without the \"hooks\" wrapper a hooks file has; "+effect+codexDoes+".", specRef("1.4")))
	src.base, src.events = append(src.base, "hooks"), w.Val
	src.claudeRefuse = model.Releases(model.ClientClaudeCode, model.ClaudeCode328) + " read the \"hooks\" wrapper of inline manifest hooks as an unknown event and run none of the hooks inside it."
	for _, m := range iv.v.Obj {
		if m.Key != "hooks" && m.Key != "description" {
			// Codex's hooks document denies unknown fields at its root, as a hooks file's
			// does; for an inline object this is read from its source, not observed.
			src.codexReject = fmt.Sprintf("Codex rejects the whole inline hooks object because of its field %q beside \"hooks\" (a hooks document has only description and hooks; read from Codex's source, not observed).", clip(m.Key))
		}
	}
	return src
}

// gateFile applies Claude's fail-closed rule: a PreToolUse or PermissionRequest handler
// that cannot be loaded may be what guards the permissions beside it, so nothing in its
// file is applied until it is fixed (CC-bin: "nothing it sits in is applied").
func (l *loader) gateFile(src *hookSource, cs []*model.Component) {
	broken, brokenEvent := "", ""
	for _, c := range cs {
		// A handler Claude refuses over a field Codex ignores is valid, for Codex, and
		// broken for Claude all the same.
		if ev, _ := c.Details.Get("event"); (c.Validity == model.Invalid || hasErrors(c.Diagnostics)) && (ev == "PreToolUse" || ev == "PermissionRequest") {
			broken, brokenEvent = c.ID, ev.(string)
			break
		}
	}
	if broken == "" {
		return
	}
	l.pkgDiag(model.Place{File: src.file, Pointer: jsontext.Pointer(src.base...)}.ComponentType("hooks-file-not-applied", model.SeverityError,
		fmt.Sprintf("The %s handler %s cannot be loaded, and it may be what guards the permissions beside it, so "+claudeSeen+" applies none of the hooks in %s until it is fixed or removed.", brokenEvent, broken, displayFile(src.file)), specRef("1.4")))
	for _, c := range cs {
		if c.Validity != model.Valid || c.ID == broken {
			continue
		}
		if supportOf(c, clientCodex).Status == model.Supported {
			// Codex has no such rule: the hook stays what Codex runs, not run by Claude.
			setSupport(c, model.Support{Provider: clientClaude, Version: ClaudeVersion, Status: model.NotSupported, Detail: "Claude Code applies none of this file's hooks while " + broken + " is invalid."})
			continue
		}
		c.Validity = model.Skipped
		c.Contract = nil
		c.Files = nil
		c.Summary = append([]string{fmt.Sprintf("Not applied: handler %s in the same file is invalid, so %s applies none of this file's hooks.", broken, claudeSeen)}, c.Summary...)
		for i := range c.Support {
			if c.Support[i].Provider == clientClaude {
				c.Support[i] = model.Support{Provider: clientClaude, Version: ClaudeVersion, Status: model.NotSupported, Detail: "Claude Code applies none of this file's hooks while " + broken + " is invalid."}
			}
		}
	}
}

func (l *loader) line(data []byte, off int) int {
	if data == nil || off < 0 || off > len(data) {
		return 0
	}
	return jsontext.Line(data, off)
}

func (l *loader) rootHas(rel string) bool {
	_, err := l.root.Lstat(rel)
	return err == nil
}

// hookFile reads one hooks file: {"description"?, "hooks": {<Event>: [...]}}.
func (l *loader) hookFile(rel string) *hookSource {
	doc, data, issues, missing, ok := l.parseJSON(rel, "hooks-file", model.BoundaryPackage, claudeSeen+" fails to load the whole plugin (a broken hooks file breaks the plugin load)")
	if missing {
		return nil
	}
	if !ok {
		if data != nil {
			l.pkg.Rejected = true
		}
		return nil
	}
	for _, is := range issues {
		sev := model.SeverityError
		if is.Code == jsontext.CodeDuplicateKey {
			sev = model.SeverityWarning
		}
		l.pkgDiag(model.Place{File: rel, Pointer: is.Pointer, Line: jsontext.Line(data, is.Off)}.ComponentType("hooks-file-"+strings.TrimPrefix(is.Code, "json-"), sev,
			fmt.Sprintf("In %s, %s.", rel, is.Msg), specRef("1.4")))
	}
	bad := func(code, ptr string, off int, msg string) *hookSource {
		l.pkgDiag(model.Place{File: rel, Pointer: ptr, Line: jsontext.Line(data, off)}.ComponentType(code, model.SeverityError, msg, specRef("1.4")))
		return nil
	}
	if doc.Kind != jsontext.Object {
		return bad("hooks-file-not-object", "", doc.Off, fmt.Sprintf("%s holds a JSON %s; it must be an object with a \"hooks\" map, so its hooks are not loaded.", rel, doc.Kind))
	}
	src := &hookSource{file: rel, base: []string{"hooks"}, data: data}
	if rel != hooksFile {
		src.label = rel
	}
	hm := doc.Get("hooks")
	if hm == nil {
		for _, m := range doc.Obj {
			if canon, _ := knownEvent(m.Key); canon != "" {
				return bad("hooks-file-no-wrapper", jsontext.Pointer(m.Key), m.KeyOff,
					fmt.Sprintf("%s has the event %q at its top level; a hooks file must put the events inside a \"hooks\" object (only inline manifest hooks go without it), so its hooks are not loaded.", rel, clip(m.Key)))
			}
		}
		if mods := doc.Get("modules"); mods != nil {
			return &hookSource{file: rel, data: data, modules: mods}
		}
		return bad("hooks-file-no-hooks", "", doc.Off, fmt.Sprintf("%s has neither \"hooks\" nor \"modules\", so Claude's validator rejects it and no hooks are loaded from it.", rel))
	}
	if hm.Val.Kind != jsontext.Object {
		return bad("hooks-file-hooks-type", "/hooks", hm.KeyOff, fmt.Sprintf("\"hooks\" in %s is a %s; it must be an object mapping events to matcher groups, so its hooks are not loaded.", rel, hm.Val.Kind))
	}
	for _, m := range doc.Obj {
		switch m.Key {
		case "hooks", "description":
		case "modules":
			src.codexReject = model.Releases(model.ClientCodex, model.Codex169) + " reject the whole hooks file because of its \"modules\" field (unknown field `modules`, expected `description` or `hooks`), so they run none of its hooks."
		case "$schema":
			src.codexReject = "Codex rejects the whole hooks file because it has \"$schema\" (unknown field `$schema`, expected `description` or `hooks`)."
		default:
			l.pkgDiag(model.Place{File: rel, Pointer: jsontext.Pointer(m.Key), Line: jsontext.Line(data, m.KeyOff)}.ComponentType("hooks-file-unknown-field", model.SeverityWarning,
				fmt.Sprintf("%s has the top-level field %q, which "+claudeSeen+" does not read (and "+codexSeen+" rejects the whole file for it).", rel, clip(m.Key)), specRef("1.4")))
			src.codexReject = fmt.Sprintf("Codex rejects the whole hooks file because of the unknown top-level field %q.", clip(m.Key))
		}
	}
	src.events = hm.Val
	src.modules = doc.Get("modules")
	return src
}

// hookEvents walks the event map of one source. Codex rejects a whole file for any bad
// handler, so the file is checked for those first.
func (l *loader) hookEvents(src *hookSource) {
	ev := src.events
	if src.codexReject == "" {
		// Codex deserializes inline manifest hooks with the same handler types, so one bad
		// handler costs it the whole object too.
		src.codexReject = codexFileProblem(ev)
		if src.inline && src.codexReject != "" {
			src.codexReject = strings.TrimSuffix(src.codexReject, ".") + "; vouch assumes the same for the manifest's inline hooks, which Codex reads with the same types (not observed)."
		}
	}
	for _, m := range ev.Firsts() {
		em := ev.Get(m.Key)
		ptr := jsontext.Pointer(append(append([]string(nil), src.base...), m.Key)...)
		canon, exact := knownEvent(m.Key)
		if !exact {
			// Events are keyed by version, so the sentence names the release it answers for.
			at := model.ClientLabel(clientClaude, l.opts.ClaudeVersion)
			msg := fmt.Sprintf("%q is not a hook event of %s, so Claude ignores its hooks at runtime.", clip(m.Key), at)
			if canon != "" {
				msg = fmt.Sprintf("%q is not a hook event of %s (event names are case-sensitive: did you mean %q?), so Claude ignores its hooks at runtime.", clip(m.Key), at, canon)
			}
			if _, ok := codexOnlyEvents[m.Key]; ok {
				msg = fmt.Sprintf("%q is not a hook event of %s, so Claude Code ignores its hooks; %s run them.", m.Key, at, model.Releases(model.ClientCodex, model.Codex169))
			}
			l.pkgDiag(model.Place{File: src.file, Pointer: ptr, Line: l.line(src.data, em.KeyOff)}.ComponentType("hook-unknown-event", model.SeverityWarning, msg, specRef("1.4")))
		}
		if em.Val.Kind != jsontext.Array {
			l.pkgDiag(model.Place{File: src.file, Pointer: ptr, Line: l.line(src.data, em.KeyOff)}.ComponentType("hook-event-not-array", model.SeverityError,
				fmt.Sprintf("The value of event %q is a %s; it must be an array of matcher groups, so these hooks are not loaded.", clip(m.Key), em.Val.Kind), specRef("1.4")))
			continue
		}
		for gi, g := range em.Val.Arr {
			gptr := ptr + "/" + fmt.Sprint(gi)
			if g.Kind != jsontext.Object {
				l.pkgDiag(model.Place{File: src.file, Pointer: gptr, Line: l.line(src.data, g.Off)}.ComponentType("hook-group-not-object", model.SeverityError,
					fmt.Sprintf("Matcher group %d of %q is a %s; it must be an object with \"hooks\", so it is not loaded.", gi, clip(m.Key), g.Kind), specRef("1.4")))
				continue
			}
			matcher, hasMatcher := "", false
			if mm := g.Get("matcher"); mm != nil {
				if mm.Val.Kind != jsontext.String {
					l.pkgDiag(model.Place{File: src.file, Pointer: gptr + "/matcher", Line: l.line(src.data, mm.KeyOff)}.ComponentType("hook-matcher-type", model.SeverityError,
						fmt.Sprintf("The matcher of group %d of %q is a %s; it must be a string, so the group is not loaded.", gi, clip(m.Key), mm.Val.Kind), specRef("1.4")))
					continue
				}
				matcher, hasMatcher = mm.Val.Str, true
			}
			hs := g.Get("hooks")
			if hs == nil || hs.Val.Kind != jsontext.Array {
				l.pkgDiag(model.Place{File: src.file, Pointer: gptr, Line: l.line(src.data, g.Off)}.ComponentType("hook-group-no-hooks", model.SeverityError,
					fmt.Sprintf("Matcher group %d of %q has no \"hooks\" array, so it is not loaded.", gi, clip(m.Key)), specRef("1.4")))
				continue
			}
			for hi, h := range hs.Val.Arr {
				id := fmt.Sprintf("%s:%d:%d", m.Key, gi, hi)
				if src.label != "" {
					id = src.label + ":" + id
				}
				c := l.hook(hookAt{src: src, id: id, event: m.Key, canon: canon, exact: exact, matcher: matcher, hasMatcher: hasMatcher, h: h, ptr: gptr + "/hooks/" + fmt.Sprint(hi)})
				l.pkg.Components = append(l.pkg.Components, c)
			}
		}
	}
}

// codexFileProblem is why Codex rejects a whole hooks file: an event value that is
// not an array, a handler without type or command, an http handler or a negative timeout.
func codexFileProblem(ev *jsontext.Value) string {
	for _, m := range ev.Obj {
		if m.Val.Kind != jsontext.Array {
			return fmt.Sprintf("Codex rejects the whole hooks file because event %q is not an array.", clip(m.Key))
		}
		for _, g := range m.Val.Arr {
			hs := g.Get("hooks")
			if hs == nil || hs.Val.Kind != jsontext.Array {
				continue
			}
			for _, h := range hs.Val.Arr {
				t, ok := strVal(h, "type")
				switch {
				case !ok:
					return "Codex rejects the whole hooks file because a handler has no \"type\"."
				case t == "http":
					return "Codex rejects the whole hooks file because it holds an http handler."
				case t == "command" && h.Get("command") == nil:
					return "Codex rejects the whole hooks file because a command handler has no \"command\"."
				}
				if to := h.Get("timeout"); to != nil && to.Val.Kind == jsontext.Number && to.Val.Float() < 0 {
					return "Codex rejects the whole hooks file because a handler has a negative timeout."
				}
			}
		}
	}
	return ""
}

// matcherShort is the matcher in a few words, for the Capabilities tab.
func matcherShort(info eventInfo, kind, m string, has bool) string {
	switch {
	case info.MatchOn == "":
		return "no matcher: every time"
	case kind == "all":
		return "every " + strings.TrimPrefix(info.MatchOn, "the ")
	case kind == "exact":
		return fmt.Sprintf("matcher %q, exact", m)
	}
	return fmt.Sprintf("matcher %q, unanchored regex", m)
}

// failOpen says what happens when a gating hook decides nothing.
func failOpen(event string) string {
	switch event {
	case "PreToolUse":
		return "the tool call proceeds"
	case "PermissionRequest":
		return "the user is asked as usual"
	case "UserPromptSubmit", "UserPromptExpansion":
		return "the prompt goes through"
	case "Stop", "SubagentStop", "TeammateIdle":
		return "Claude stops as it would have"
	case "PreCompact":
		return "the compaction goes ahead"
	case "ConfigChange":
		return "the change takes effect"
	}
	return "Claude goes on as if it were not there"
}

func displayFile(f string) string {
	if f == "" {
		return "(marketplace entry)"
	}
	return f
}

func matcherLabel(m string, has bool) string {
	if !has {
		return "absent"
	}
	return fmt.Sprintf("%q", m)
}

func effectWord(info eventInfo) string {
	switch {
	case info.Block:
		return "can-block"
	case len(info.Effects) > 0:
		return "can-modify"
	}
	return "observe"
}

func trimFloat(f float64) string {
	s := fmt.Sprintf("%g", f)
	return s
}
