package claudecode

import (
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"

	"vouch/model"
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
}

// hooksStep lists one hook component per handler from hooks/hooks.json and the
// manifest's hooks (files, a list, or an inline object), merged as Claude merges them:
// the manifest's hooks are loaded in addition to hooks/hooks.json (Claude Code 2.1.328).
func (l *loader) hooksStep() {
	var srcs []*hookSource
	manifestHooks := l.paths["hooks"] != nil
	codexSkipDefault := ""
	if manifestHooks {
		codexSkipDefault = "Codex reads the manifest's hooks instead of hooks/hooks.json (the manifest field replaces the default there), so it does not run this hook."
	}
	files := []string{}
	if l.rootHas(hooksFile) {
		files = append(files, hooksFile)
	}
	for _, p := range l.paths["hooks"] {
		if p == hooksFile {
			l.pkgDiag(l.diag("hooks-file-listed-twice", model.SeverityInfo, model.BoundaryComponentType, manifestFile, "/hooks", 0,
				"The manifest lists ./hooks/hooks.json, which Claude Code loads by default anyway; its hooks are listed once.", "1.2"))
			codexSkipDefault = ""
			continue
		}
		if contains(files, p) {
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
	for i, iv := range l.inline["hooks"] {
		label := "plugin.json"
		if len(l.inline["hooks"]) > 1 || strings.Contains(iv.ptr, "/hooks/") {
			label = fmt.Sprintf("plugin.json[%d]", i)
		}
		file, data := l.inlineSrc(iv)
		src := &hookSource{file: file, base: jsontext.SplitPointer(iv.ptr), label: label, events: iv.v, data: data, inline: true}
		if w := iv.v.Get("hooks"); w != nil && w.Val.Kind == jsontext.Object {
			// Claude reads the wrapper as an event named "hooks": unknown, so ignored at
			// runtime; when it holds PreToolUse or PermissionRequest hooks that may guard
			// permissions, the validator fails it (CC-bin p08).
			sev, effect := model.SeverityWarning, "Claude reads \"hooks\" as an unknown event and ignores every hook inside it"
			if w.Val.Get("PreToolUse") != nil || w.Val.Get("PermissionRequest") != nil {
				sev, effect = model.SeverityError, "it holds PreToolUse/PermissionRequest hooks, so Claude's validator rejects it (Unrecognized key \"hooks\") and none of them runs"
			}
			l.pkgDiag(l.diag("hooks-inline-wrapper", sev, model.BoundaryComponentType, file, iv.ptr+"/hooks", l.line(data, w.KeyOff),
				"Inline hooks in plugin.json must be the event map itself, without the \"hooks\" wrapper a hooks file has; "+effect+".", "1.4"))
			continue
		}
		srcs = append(srcs, src)
	}
	for _, src := range srcs {
		l.hookModules(src)
		if src.events == nil {
			continue // a file of modules only
		}
		before := len(l.pkg.Components)
		l.hookEvents(src)
		l.gateFile(src, l.pkg.Components[before:])
	}
}

// gateFile applies Claude's fail-closed rule: a PreToolUse or PermissionRequest handler
// that cannot be loaded may be what guards the permissions beside it, so nothing in its
// file is applied until it is fixed (CC-bin: "nothing it sits in is applied").
func (l *loader) gateFile(src *hookSource, cs []*model.Component) {
	broken, brokenEvent := "", ""
	for _, c := range cs {
		if ev, _ := c.Details.Get("event"); c.Validity == model.Invalid && (ev == "PreToolUse" || ev == "PermissionRequest") {
			broken, brokenEvent = c.ID, ev.(string)
			break
		}
	}
	if broken == "" {
		return
	}
	l.pkgDiag(l.diag("hooks-file-not-applied", model.SeverityError, model.BoundaryComponentType, src.file, jsontext.Pointer(src.base...), 0,
		fmt.Sprintf("The %s handler %s cannot be loaded, and it may be what guards the permissions beside it, so Claude Code applies none of the hooks in %s until it is fixed or removed.", brokenEvent, broken, displayFile(src.file)), "1.4"))
	for _, c := range cs {
		if c.Validity != model.Valid {
			continue
		}
		c.Validity = model.Skipped
		c.Contract = nil
		c.Files = nil
		c.Summary = append([]string{fmt.Sprintf("Not applied: handler %s in the same file is invalid, so Claude Code applies none of this file's hooks.", broken)}, c.Summary...)
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
	doc, data, issues, missing, ok := l.parseJSON(rel, "hooks-file", model.BoundaryPackage, "Claude Code fails to load the whole plugin (a broken hooks file breaks the plugin load)")
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
		l.pkgDiag(l.diag("hooks-file-"+strings.TrimPrefix(is.Code, "json-"), sev, model.BoundaryComponentType, rel, is.Pointer, jsontext.Line(data, is.Off),
			fmt.Sprintf("In %s, %s.", rel, is.Msg), "1.4"))
	}
	bad := func(code, ptr string, off int, msg string) *hookSource {
		l.pkgDiag(l.diag(code, model.SeverityError, model.BoundaryComponentType, rel, ptr, jsontext.Line(data, off), msg, "1.4"))
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
		case "hooks", "description", "modules":
		case "$schema":
			src.codexReject = "Codex rejects the whole hooks file because it has \"$schema\" (unknown field `$schema`, expected `description` or `hooks`)."
		default:
			l.pkgDiag(l.diag("hooks-file-unknown-field", model.SeverityWarning, model.BoundaryComponentType, rel, jsontext.Pointer(m.Key), jsontext.Line(data, m.KeyOff),
				fmt.Sprintf("%s has the top-level field %q, which Claude Code does not read (and Codex rejects the whole file for it).", rel, clip(m.Key)), "1.4"))
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
	seen := map[string]bool{}
	for _, m := range ev.Obj {
		if seen[m.Key] {
			continue
		}
		seen[m.Key] = true
		em := ev.Get(m.Key)
		ptr := jsontext.Pointer(append(append([]string(nil), src.base...), m.Key)...)
		canon, exact := knownEvent(m.Key)
		if !exact {
			msg := fmt.Sprintf("%q is not a Claude Code hook event, so Claude ignores its hooks at runtime.", clip(m.Key))
			if canon != "" {
				msg = fmt.Sprintf("%q is not a Claude Code hook event (event names are case-sensitive: did you mean %q?), so Claude ignores its hooks at runtime.", clip(m.Key), canon)
			}
			if _, ok := codexOnlyEvents[m.Key]; ok {
				msg = fmt.Sprintf("%q is not a Claude Code hook event, so Claude Code ignores its hooks; Codex 0.169.0 and 0.171.0 run them.", m.Key)
			}
			l.pkgDiag(l.diag("hook-unknown-event", model.SeverityWarning, model.BoundaryComponentType, src.file, ptr, l.line(src.data, em.KeyOff), msg, "1.4"))
		}
		if em.Val.Kind != jsontext.Array {
			l.pkgDiag(l.diag("hook-event-not-array", model.SeverityError, model.BoundaryComponentType, src.file, ptr, l.line(src.data, em.KeyOff),
				fmt.Sprintf("The value of event %q is a %s; it must be an array of matcher groups, so these hooks are not loaded.", clip(m.Key), em.Val.Kind), "1.4"))
			continue
		}
		for gi, g := range em.Val.Arr {
			gptr := ptr + "/" + fmt.Sprint(gi)
			if g.Kind != jsontext.Object {
				l.pkgDiag(l.diag("hook-group-not-object", model.SeverityError, model.BoundaryComponentType, src.file, gptr, l.line(src.data, g.Off),
					fmt.Sprintf("Matcher group %d of %q is a %s; it must be an object with \"hooks\", so it is not loaded.", gi, clip(m.Key), g.Kind), "1.4"))
				continue
			}
			matcher, hasMatcher := "", false
			if mm := g.Get("matcher"); mm != nil {
				if mm.Val.Kind != jsontext.String {
					l.pkgDiag(l.diag("hook-matcher-type", model.SeverityError, model.BoundaryComponentType, src.file, gptr+"/matcher", l.line(src.data, mm.KeyOff),
						fmt.Sprintf("The matcher of group %d of %q is a %s; it must be a string, so the group is not loaded.", gi, clip(m.Key), mm.Val.Kind), "1.4"))
					continue
				}
				matcher, hasMatcher = mm.Val.Str, true
			}
			hs := g.Get("hooks")
			if hs == nil || hs.Val.Kind != jsontext.Array {
				l.pkgDiag(l.diag("hook-group-no-hooks", model.SeverityError, model.BoundaryComponentType, src.file, gptr, l.line(src.data, g.Off),
					fmt.Sprintf("Matcher group %d of %q has no \"hooks\" array, so it is not loaded.", gi, clip(m.Key)), "1.4"))
				continue
			}
			for hi, h := range hs.Val.Arr {
				id := fmt.Sprintf("%s:%d:%d", m.Key, gi, hi)
				if src.label != "" {
					id = src.label + ":" + id
				}
				c := l.hook(src, id, m.Key, canon, exact, matcher, hasMatcher, h, gptr+"/hooks/"+fmt.Sprint(hi))
				l.pkg.Components = append(l.pkg.Components, c)
			}
		}
	}
}

// codexFileProblem is why Codex 0.169.0 rejects a whole hooks file: an event value that is
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

var handlerFields = map[string][]string{
	// onFailure is read on command and http handlers (2.1.328's own schema has it).
	"command":  {"command", "args", "async", "asyncRewake", "shell", "rewakeMessage", "rewakeSummary", "onFailure"},
	"http":     {"url", "headers", "allowedEnvVars", "onFailure"},
	"mcp_tool": {"server", "tool", "input"},
	"prompt":   {"prompt", "model"},
	"agent":    {"prompt", "model"},
}

var commonHandlerFields = []string{"type", "if", "timeout", "statusMessage", "once"}

// hook builds the component of one handler.
func (l *loader) hook(src *hookSource, id, event, canon string, exact bool, matcher string, hasMatcher bool, h *jsontext.Value, ptr string) *model.Component {
	c := &model.Component{Kind: model.KindHook, ID: id}
	file := src.file
	bad := func(code, msg string, off int) {
		c.Diagnostics = append(c.Diagnostics, l.diag(code, model.SeverityError, model.BoundaryComponent, file, ptr, l.line(src.data, off), msg, "1.4"))
	}
	warn := func(code, msg string, off int) {
		c.Diagnostics = append(c.Diagnostics, l.diag(code, model.SeverityWarning, model.BoundaryComponent, file, ptr, l.line(src.data, off), msg, "1.4"))
	}
	c.Details = model.Fields{{Key: "event", Value: event}, {Key: "file", Value: displayFile(file)}}
	if hasMatcher {
		c.Details = append(c.Details, model.Field{Key: "matcher", Value: matcher})
	}
	if h.Kind != jsontext.Object {
		bad("hook-handler-not-object", fmt.Sprintf("Handler %s is a JSON %s, not an object, so it is not loaded.", id, h.Kind), h.Off)
		return l.hookInvalid(c)
	}
	typ, ok := strVal(h, "type")
	if !ok {
		bad("hook-handler-missing-type", fmt.Sprintf("Handler %s has no string \"type\"; it must be command, http, mcp_tool, prompt or agent, so it is not loaded.", id), h.Off)
		return l.hookInvalid(c)
	}
	fields, known := handlerFields[typ]
	if !known {
		bad("hook-handler-unknown-type", fmt.Sprintf("Handler %s has the type %q; it must be command, http, mcp_tool, prompt or agent, so it is not loaded.", id, clip(typ)), h.Off)
		return l.hookInvalid(c)
	}
	c.Details = append(c.Details, model.Field{Key: "type", Value: typ})
	for _, m := range h.Obj {
		if !contains(fields, m.Key) && !contains(commonHandlerFields, m.Key) {
			warn("hook-handler-unknown-field", fmt.Sprintf("Handler %s (%s) has the field %q, which Claude Code does not read for this type.", id, typ, clip(m.Key)), m.KeyOff)
		}
	}
	str := func(k string) (string, bool) {
		m := h.Get(k)
		if m == nil {
			return "", false
		}
		if m.Val.Kind != jsontext.String {
			bad("hook-field-type", fmt.Sprintf("%q of handler %s is a %s; it must be a string, so the handler is not loaded.", k, id, m.Val.Kind), m.KeyOff)
			return "", false
		}
		return m.Val.Str, true
	}
	boolean := func(k string) bool {
		m := h.Get(k)
		if m == nil {
			return false
		}
		if m.Val.Kind != jsontext.Bool {
			bad("hook-field-type", fmt.Sprintf("%q of handler %s is a %s; it must be true or false, so the handler is not loaded.", k, id, m.Val.Kind), m.KeyOff)
			return false
		}
		return m.Val.Bool
	}
	ifRule, hasIf := str("if")
	statusMsg, _ := str("statusMessage")
	once := boolean("once")
	timeout, hasTimeout := 0.0, false
	if m := h.Get("timeout"); m != nil {
		if m.Val.Kind != jsontext.Number || m.Val.Float() <= 0 {
			bad("hook-timeout-invalid", fmt.Sprintf("The timeout of handler %s must be a number of seconds greater than 0, so the handler is not loaded.", id), m.KeyOff)
		} else {
			timeout, hasTimeout = m.Val.Float(), true
		}
	}
	info := events[canon]
	contract := model.Fields{
		{Key: "event", Value: event},
		{Key: "matcher", Value: matcher},
		{Key: "type", Value: typ},
	}
	var summary []string
	var caps []model.Capability
	var runs []string // what a command handler runs: the command, then its args
	execForm := false // args given: the command is one program, not a shell line
	what := ""
	async := false
	codexIgnored := []string{}

	switch typ {
	case "command":
		cmd, hasCmd := str("command")
		if !hasCmd && h.Get("command") == nil {
			bad("hook-command-missing", fmt.Sprintf("Command handler %s has no \"command\", so it is not loaded.", id), h.Off)
		}
		var args []string
		hasArgs := false
		if am := h.Get("args"); am != nil {
			hasArgs = true
			if am.Val.Kind != jsontext.Array {
				bad("hook-field-type", fmt.Sprintf("\"args\" of handler %s is a %s; it must be an array of strings.", id, am.Val.Kind), am.KeyOff)
			} else {
				for _, a := range am.Val.Arr {
					if a.Kind != jsontext.String {
						bad("hook-field-type", fmt.Sprintf("\"args\" of handler %s holds a %s; every argument must be a string.", id, a.Kind), am.KeyOff)
						break
					}
					args = append(args, a.Str)
				}
			}
		}
		shell, hasShell := str("shell")
		if hasShell && shell != "bash" && shell != "powershell" {
			bad("hook-shell-invalid", fmt.Sprintf("Handler %s has shell %q; it must be bash or powershell, so the handler is not loaded.", id, clip(shell)), h.Get("shell").KeyOff)
		}
		asyncLit := boolean("async")
		rewake := boolean("asyncRewake")
		async = asyncLit || rewake // asyncRewake implies async
		c.Details = append(c.Details, model.Field{Key: "command", Value: cmd})
		if x, ok := l.expandedField(cmd); ok {
			c.Details = append(c.Details, model.Field{Key: "command (expanded)", Value: x})
		}
		if hasArgs {
			c.Details = append(c.Details, model.Field{Key: "args", Value: args})
			exp := make([]string, len(args))
			changed := false
			for i, a := range args {
				exp[i] = l.expand(a)
				changed = changed || exp[i] != a
			}
			if changed {
				c.Details = append(c.Details, model.Field{Key: "args (expanded)", Value: exp})
			}
		}
		if hasShell {
			c.Details = append(c.Details, model.Field{Key: "shell", Value: shell})
		}
		runs = append(append(runs, cmd), args...)
		execForm = hasArgs
		if args == nil {
			args = []string{}
		}
		contract = append(contract,
			model.Field{Key: "command", Value: cmd},
			model.Field{Key: "args", Value: args},
			model.Field{Key: "shell", Value: shell},
			model.Field{Key: "async", Value: asyncLit},
			model.Field{Key: "asyncRewake", Value: rewake},
		)
		if hasArgs {
			what = fmt.Sprintf("Runs `%s` directly with the arguments %s (exec form, no shell)", cmd, joinQuoted(args))
			if userConfigVar.MatchString(cmd) {
				warn("hook-user-config-in-command", fmt.Sprintf("Handler %s uses ${user_config.…} in command; Claude substitutes it only in args (exec form).", id), h.Off)
			}
			codexIgnored = append(codexIgnored, "args")
		} else {
			sh := "bash"
			if hasShell {
				sh = shell
			}
			what = fmt.Sprintf("Runs the shell command `%s` (with %s)", cmd, sh)
			if userConfigVar.MatchString(cmd) {
				bad("hook-user-config-in-shell", fmt.Sprintf("Handler %s uses ${user_config.…} in a shell-form command; Claude rejects that since 2.1.207 (use the exec form with args, or CLAUDE_PLUGIN_OPTION_<KEY>).", id), h.Off)
			}
			for _, v := range unquotedRoot(cmd) {
				warn("hook-unquoted-plugin-root", fmt.Sprintf("Handler %s uses %s without quotes in a shell command; if the expanded path contains a space the command splits into several words and fails: wrap it in double quotes, as Claude's validator advises.", id, v), h.Off)
			}
		}
		if hasShell {
			codexIgnored = append(codexIgnored, "shell")
		}
		if rewake {
			codexIgnored = append(codexIgnored, "asyncRewake")
		}
		for _, v := range plainPluginRoot(strings.Join(runs, " ")) {
			warn("hook-plain-plugin-root", fmt.Sprintf("Handler %s uses %s, which is not a Claude Code placeholder: in Claude it is a plain shell variable, normally unset, so the path collapses to \"/…\" (use ${CLAUDE_PLUGIN_ROOT}; Codex substitutes both).", id, v), h.Off)
			summary = append(summary, fmt.Sprintf("%s here is a plain shell variable in Claude Code, normally unset (only ${CLAUDE_PLUGIN_ROOT}, ${CLAUDE_PLUGIN_DATA} and ${CLAUDE_PROJECT_DIR} are substituted); Codex replaces it with the plugin path.", v))
		}
		caps = append(caps, model.Capability{Kind: model.CapSubprocess, Scope: []string{cmd},
			Detail: fmt.Sprintf("%s on this machine with the user's permissions, from the plugin folder's files.", what)})
		caps = append(caps, model.Capability{Kind: model.CapEnv, Scope: []string{"CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA", "CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_OPTION_*"},
			Detail: "Receives the plugin, data and project paths and every userConfig value as environment variables, plus the user's whole environment."})
		if async || rewake {
			summary = append(summary, "Runs in the background (async): it cannot block, and what it returns reaches Claude on the next turn.")
			if rewake {
				summary = append(summary, "asyncRewake: exiting 2 wakes Claude up with its output.")
			}
		}
	case "http":
		u, _ := str("url")
		c.Details = append(c.Details, model.Field{Key: "url", Value: u})
		host := u
		if pu, err := url.Parse(u); err == nil && pu.Host != "" {
			host = pu.Hostname()
		} else {
			bad("hook-url-invalid", fmt.Sprintf("Handler %s has the url %q, which is not an absolute URL, so the handler is not loaded.", id, clip(u)), h.Off)
		}
		var hdrNames []string
		hdr := map[string]string{}
		if hm := h.Get("headers"); hm != nil && hm.Val.Kind == jsontext.Object {
			for _, e := range hm.Val.Obj {
				hdr[e.Key] = e.Val.Str
				hdrNames = append(hdrNames, e.Key)
			}
		}
		var allowed []string
		if am := h.Get("allowedEnvVars"); am != nil && am.Val.Kind == jsontext.Array {
			for _, a := range am.Val.Arr {
				allowed = append(allowed, a.Str)
			}
		}
		if allowed == nil {
			allowed = []string{}
		}
		contract = append(contract, model.Field{Key: "url", Value: u}, model.Field{Key: "headers", Value: hdr}, model.Field{Key: "allowedEnvVars", Value: allowed})
		what = fmt.Sprintf("POSTs the event to %s", u)
		if len(hdrNames) > 0 {
			sort.Strings(hdrNames)
			summary = append(summary, "Sends the headers "+strings.Join(hdrNames, ", ")+".")
		}
		if len(allowed) > 0 {
			summary = append(summary, "The environment variables "+strings.Join(allowed, ", ")+" may be interpolated into its headers, so their values leave this machine.")
			caps = append(caps, model.Capability{Kind: model.CapEnv, Scope: allowed, Detail: "Sends the values of " + strings.Join(allowed, ", ") + " in request headers."})
		}
		caps = append(caps, model.Capability{Kind: model.CapNetwork, Scope: []string{host}, Detail: fmt.Sprintf("Sends the hook input to %s.", u)})
	case "mcp_tool":
		server, _ := str("server")
		tool, _ := str("tool")
		input := any(nil)
		if im := h.Get("input"); im != nil {
			input = jsontext.Display(im.Val)
		}
		c.Details = append(c.Details, model.Field{Key: "server", Value: server}, model.Field{Key: "tool", Value: tool})
		contract = append(contract, model.Field{Key: "server", Value: server}, model.Field{Key: "tool", Value: tool}, model.Field{Key: "input", Value: fmt.Sprint(input)})
		what = fmt.Sprintf("Calls the tool %q of MCP server %q", tool, server)
		if name, ok := strings.CutPrefix(server, "plugin:"+l.pkg.Name+":"); ok {
			c.DependsOn = append(c.DependsOn, model.Ref(l.pkg.Name, model.KindMCPServer, name))
		}
	case "prompt", "agent":
		p, _ := str("prompt")
		mdl, _ := str("model")
		c.Details = append(c.Details, model.Field{Key: "prompt", Value: p})
		if mdl != "" {
			c.Details = append(c.Details, model.Field{Key: "model", Value: mdl})
		}
		contract = append(contract, model.Field{Key: "prompt", Value: p}, model.Field{Key: "model", Value: mdl})
		if typ == "prompt" {
			what = "Asks a model to judge the event with the prompt it gives"
		} else {
			what = "Starts a subagent, with tools, to judge the event with the prompt it gives"
		}
		caps = append(caps, model.Capability{Kind: model.CapModelContext, Scope: []string{p}, Detail: "Sends the event and its prompt to a model, whose answer decides."})
	}
	to := defaultTimeout(canon, typ)
	toText := fmt.Sprintf("%d s (the default)", to)
	if hasTimeout {
		toText = fmt.Sprintf("%s s", trimFloat(timeout))
		c.Details = append(c.Details, model.Field{Key: "timeout", Value: trimFloat(timeout)})
	}
	contract = append(contract, model.Field{Key: "if", Value: ifRule}, model.Field{Key: "timeout", Value: trimFloat(timeout)}, model.Field{Key: "once", Value: once}, model.Field{Key: "file", Value: displayFile(file)})
	if hasIf {
		c.Details = append(c.Details, model.Field{Key: "if", Value: ifRule})
		codexIgnored = append(codexIgnored, "if")
	}
	if statusMsg != "" {
		c.Details = append(c.Details, model.Field{Key: "statusMessage", Value: statusMsg})
	}
	if once {
		codexIgnored = append(codexIgnored, "once")
		summary = append(summary, "once: true is honoured only in skill frontmatter; in a plugin's hooks Claude ignores it, so the hook runs every time.")
	}

	// When it fires, in plain language.
	when := "when " + event + " fires"
	if exact {
		when = info.When
	}
	mk, names := matcherKind(matcher, canon == "FileChanged" || canon == "StopFailure")
	matchText := ""
	switch {
	case !exact:
	case info.MatchOn == "" && hasMatcher && matcher != "" && matcher != "*":
		matchText = fmt.Sprintf("The matcher %q is ignored: %s has no matcher support, so the hook runs every time.", matcher, event)
		warn("hook-matcher-ignored", fmt.Sprintf("Handler %s has the matcher %q on %s, which has no matcher support; Claude silently ignores it, so the hook runs every time.", id, clip(matcher), event), h.Off)
	case info.MatchOn == "":
	case mk == "all":
		matchText = fmt.Sprintf("Matcher %s: it runs for every %s.", matcherLabel(matcher, hasMatcher), strings.TrimPrefix(info.MatchOn, "the "))
	case mk == "exact":
		matchText = fmt.Sprintf("Matcher %q is an exact list: it runs only when %s is %s.", matcher, info.MatchOn, orList(names))
		if info.Tool {
			when = strings.Replace(when, "each tool call", "every "+orList(names)+" tool call", 1)
		}
	default:
		if _, err := regexp.Compile(matcher); err != nil {
			warn("hook-matcher-invalid-regex", fmt.Sprintf("Handler %s has the matcher %q, which is not a valid regular expression; Claude's validator does not flag it, and the hook may never run.", id, clip(matcher)), h.Off)
		}
		matchText = fmt.Sprintf("Matcher %q is an unanchored JavaScript regular expression tested against %s: it matches anywhere in the name (Edit.* also matches NotebookEdit).", matcher, info.MatchOn)
	}
	if info.Tool && strings.HasPrefix(matcher, "mcp__") && !strings.HasPrefix(matcher, "mcp__plugin_") {
		// a plugin's own server tools are mcp__plugin_<plugin>_<server>__<tool>
		matchText += " A plugin-bundled server's tools are named mcp__plugin_<plugin>_<server>__<tool>; a matcher on the bare server name never fires for them."
	}
	head := what
	if head == "" {
		head = "Runs"
	}
	summary = append([]string{fmt.Sprintf("%s %s (%s).", head, when, event)}, summary...)
	if matchText != "" {
		summary = append(summary, matchText)
	}
	if hasIf {
		if info.Tool {
			summary = append(summary, fmt.Sprintf("Runs only when the call also matches the permission rule %q (if).", ifRule))
			if info.Codex && l.otherManifest == "" {
				every := "every " + event + " event"
				if matcher != "" && matcher != "*" {
					every = "every " + matcher + " call"
				}
				summary = append(summary, fmt.Sprintf("Codex %s ignores if: there this hook runs on %s.", l.opts.CodexVersion, every))
			}
		} else {
			summary = append(summary, fmt.Sprintf("Has \"if\": %q, but if works only on tool events: on %s this handler never runs.", ifRule, event))
			warn("hook-if-never-runs", fmt.Sprintf("Handler %s has \"if\" on %s, which is not a tool event; Claude never runs it.", id, event), h.Off)
		}
	}
	if exact {
		stdin := "session id, the transcript path (so it can read the whole conversation), working directory, permission mode and the event name"
		if info.Stdin != "" {
			stdin = info.Stdin + ", plus the " + stdin
		}
		switch typ {
		case "http":
			summary = append(summary, "Its request body holds "+stdin+".")
		case "command":
			summary = append(summary, "Receives on stdin "+stdin+".")
		default:
			summary = append(summary, "It is given "+stdin+".")
		}
		eff := append([]string(nil), info.Effects...)
		if async {
			// An async hook cannot block; what it returns arrives on the next turn.
			var kept []string
			for _, e := range eff {
				if strings.Contains(e, "context") || strings.Contains(e, "message") {
					kept = append(kept, e+" (on the next turn)")
				}
			}
			eff = kept
		} else if info.Block && !contains(eff, "block") {
			has := false
			for _, e := range eff {
				if strings.Contains(e, "exit 2") {
					has = true
				}
			}
			if !has {
				eff = append([]string{"block it (exit 2)"}, eff...)
			}
		}
		eff = append(eff, "stop the whole session (continue: false)", "show the user a message (systemMessage)")
		summary = append(summary, "It can "+strings.Join(eff, "; ")+".")
		scope := []string{event}
		if info.MatchOn != "" && matcher != "" && matcher != "*" {
			scope = append(scope, "matcher "+matcher)
		}
		if async {
			scope = append(scope, "non-blocking") // async: Claude Code does not wait for it
		} else {
			scope = append(scope, effectWord(info))
		}
		caps = append(caps, model.Capability{Kind: model.CapHook, Scope: scope, Detail: fmt.Sprintf("Fires %s (%s); it can %s.", when, matcherShort(info, mk, matcher, hasMatcher), strings.Join(eff, "; "))})
		for _, e := range info.Effects {
			if strings.Contains(e, "context") {
				caps = append(caps, model.Capability{Kind: model.CapModelContext, Scope: []string{event}, Detail: "Its output can add text Claude reads."})
				break
			}
		}
		gating := (info.Block || canon == "PermissionRequest") && !async
		if gating && typ != "prompt" && typ != "agent" && canon != "WorktreeCreate" {
			summary = append(summary, fmt.Sprintf("Timeout %s. It fails open: if it crashes, exits 1 (any code but 2) or times out, it decides nothing and %s.", toText, failOpen(canon)))
		} else {
			summary = append(summary, fmt.Sprintf("Timeout %s.", toText))
		}
		if !strings.Contains(info.Types, typ) {
			warn("hook-type-not-accepted", fmt.Sprintf("Handler %s is a %s handler on %s, which accepts only %s handlers (Claude Code docs).", id, typ, event, strings.ReplaceAll(info.Types, " ", ", ")), h.Off)
		}
	}
	c.Summary = append(c.Summary, summary...)
	if typ == "command" {
		if execForm {
			markNotCovered(c, l.execNotCovered(runs[0], runs[1:], nil, "the hook runs", true))
		} else if len(runs) > 0 {
			markNotCovered(c, l.shellNotCovered(runs[0], "the hook runs", true))
		}
	}
	if hasErrors(c.Diagnostics) {
		return l.hookInvalid(c)
	}
	c.Capabilities = caps
	c.Support = l.hookSupport(src, canon, exact, typ, hasIf, ifRule, matcher, info, codexIgnored, timeout, hasTimeout)
	if !exact {
		c.Validity = model.Unsupported
		c.Summary = append([]string{"Unsupported: Claude Code ignores this event name, so the hook never runs."}, c.Summary...)
	} else {
		c.Validity = model.Valid
	}
	l.codexOnlyHook(c, src, event, typ)
	c.Contract = &model.Contract{Kind: model.KindHook, Fields: contract}
	if typ == "command" {
		l.bindClosure(c, "hook")
		l.namedFiles(c, strings.Join(runs, " "), file, ptr)
	}
	return c
}

func (l *loader) hookInvalid(c *model.Component) *model.Component {
	c.Validity = model.Invalid
	c.Contract = nil
	c.Summary = append([]string{"Not loaded: this handler is invalid (see its diagnostics)."}, c.Summary...)
	c.Support = []model.Support{
		{Provider: clientClaude, Version: ClaudeVersion, Status: model.NotSupported, Detail: "The handler is invalid, so Claude Code does not load it."},
		{Provider: clientCodex, Version: CodexVersion, Status: model.NotSupported, Detail: "The handler is invalid."},
	}
	return c
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

func orList(xs []string) string {
	q := make([]string, len(xs))
	copy(q, xs)
	switch len(q) {
	case 0:
		return "(nothing)"
	case 1:
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
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

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// hookSupport answers for Claude Code and Codex: whether each runs a handler of this
// event, type and matcher.
func (l *loader) hookSupport(src *hookSource, canon string, exact bool, typ string, hasIf bool, ifRule, matcher string, info eventInfo, codexIgnored []string, timeout float64, hasTimeout bool) []model.Support {
	cl := model.Support{Provider: clientClaude, Version: ClaudeVersion, Status: model.Supported, Detail: "Claude Code runs it whenever the plugin is enabled; it has no per-hook trust."}
	switch {
	case !exact:
		cl = model.Support{Provider: clientClaude, Version: ClaudeVersion, Status: model.NotSupported, Detail: "Claude Code ignores unknown or mis-cased event names."}
	case info.Since != "" && !model.AtLeast(l.opts.ClaudeVersion, info.Since):
		cl = model.Support{Provider: clientClaude, Version: ClaudeVersion, Status: model.NotSupported,
			Detail: fmt.Sprintf("Claude Code %s ignores %s with a warning; Claude Code %s and later run it.", l.opts.ClaudeVersion, canon, info.Since)}
	case hasIf && !info.Tool:
		cl = model.Support{Provider: clientClaude, Version: ClaudeVersion, Status: model.NotSupported, Detail: "A handler with \"if\" on an event that is not a tool event never runs."}
	case !strings.Contains(info.Types, typ):
		cl = model.Support{Provider: clientClaude, Version: ClaudeVersion, Status: model.NotSupported, Detail: fmt.Sprintf("%s accepts only %s handlers.", canon, strings.ReplaceAll(info.Types, " ", ", "))}
	}
	cx := model.Support{Provider: clientCodex, Version: CodexVersion, Status: model.Supported}
	notes := []string{"Codex runs plugin hooks only after the user trusts them; commands run as $SHELL -lc with ${CLAUDE_PLUGIN_ROOT} and ${PLUGIN_ROOT} replaced at load."}
	un := func(why string) {
		cx = model.Support{Provider: clientCodex, Version: CodexVersion, Status: model.NotSupported, Detail: why}
	}
	same := l.codexSameHooks(src)
	switch {
	case l.otherManifest != "" && !same:
		un(fmt.Sprintf("Codex reads %s instead of .claude-plugin/plugin.json, so it does not load this plugin's hooks.", l.otherManifest))
	case src.codexSkip != "" && !same:
		un(src.codexSkip)
	case src.codexReject != "":
		un(src.codexReject)
	case !exact || !info.Codex:
		un(fmt.Sprintf("Codex has no %s event and drops Claude-only events silently.", canon))
	case typ == "prompt" || typ == "agent":
		un(fmt.Sprintf("Codex skips %s handlers (\"not supported yet\").", typ))
	case typ == "http":
		un("Codex rejects http handlers.")
	default:
		if matcher != "" && matcher != "*" {
			if _, err := regexp.Compile(matcher); err != nil {
				un(fmt.Sprintf("Codex reads the matcher as a Rust regular expression; %q does not compile, so Codex skips the group.", matcher))
				break
			}
			notes = append(notes, fmt.Sprintf("Codex reads the matcher %q as a regular expression.", matcher))
		}
		if hasIf {
			what := "every " + canon + " event"
			if matcher != "" && matcher != "*" {
				what = fmt.Sprintf("every %s call (%s, matcher %q)", matcher, canon, matcher)
			}
			notes = append(notes, fmt.Sprintf("Codex ignores \"if\" (%q): there this hook runs on %s, not only the calls the rule names.", ifRule, what))
		}
		if len(codexIgnored) > 0 {
			notes = append(notes, "Codex silently ignores "+strings.Join(codexIgnored, ", ")+".")
			if contains(codexIgnored, "args") {
				notes = append(notes, "Without args, Codex runs only the command word through the shell.")
			}
		}
		if hasTimeout && timeout < 1 {
			notes = append(notes, "Codex turns a timeout below 1 s into 1 s.")
		}
		if canon == "SessionEnd" {
			notes = append(notes, "Codex clamps SessionEnd timeouts to 3 s.")
		}
		if cx.Status == model.Supported {
			sort.Strings(notes[1:])
			if same {
				notes = append([]string{l.codexAlsoLoads(hooksFile)}, notes...)
			}
			cx.Detail = strings.Join(notes, " ")
		}
	}
	return []model.Support{cl, cx}
}
