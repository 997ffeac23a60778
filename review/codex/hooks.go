package codex

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strconv"
	"strings"

	"vouch/model"
	"vouch/review/closure"
	"vouch/review/jsontext"
)

// hookSource is one hooks document Codex reads: a file, or an inline manifest object.
type hookSource struct {
	keySource string // what Codex's trust key uses: the file's relative path, or plugin.json#hooks[i]
	file      string // the file diagnostics name
	doc       *jsontext.Value
	data      []byte
}

// hooks loads the hooks Codex runs: the manifest's `hooks` (a path, an
// array of paths, an object or an array of objects) replaces hooks/hooks.json; an inline
// `{}` means no hooks at all; a bad path is ignored, and then the default file is read.
func (l *loader) hooks() {
	var sources []hookSource
	useDefault := true
	listed := map[string]bool{}
	if v := l.field("hooks"); v != nil {
		vals, array := []*jsontext.Value{v}, false
		if v.Kind == jsontext.Array {
			vals, array = v.Arr, true
		}
		for i, e := range vals {
			ptr := jsontext.Pointer("hooks")
			if array {
				ptr = jsontext.Pointer("hooks", strconv.Itoa(i))
			}
			switch e.Kind {
			case jsontext.String:
				rel, ok := l.manifestPath("hooks", ptr, e)
				if !ok {
					continue
				}
				useDefault = false
				if listed[rel] {
					// One file gives one set of components: approving it twice over would
					// say nothing more, and ids would repeat.
					l.pkgDiag(model.Place{File: l.mf, Pointer: ptr, Line: jsontext.Line(l.data, e.Off)}.ComponentType("hooks-path-repeated", model.SeverityWarning,
						errorf("hooks lists %q more than once; vouch lists its hooks once (whether Codex runs them once per listing has not been observed).", clip(e.Str)), specHooks))
					continue
				}
				listed[rel] = true
				if s, ok := l.hookFile(rel); ok {
					sources = append(sources, s)
				}
			case jsontext.Object:
				useDefault = false
				if !InlineHooksRead(e) {
					l.pkgDiag(model.Place{File: l.mf, Pointer: ptr, Line: jsontext.Line(l.data, e.Off)}.ComponentType("hooks-inline-unwrapped", model.SeverityWarning,
						"The inline hooks object lists events without a \"hooks\" wrapper: "+claudeSeen+" runs them, but "+model.Releases(model.ClientCodex, model.Codex169)+" load no hooks from it.", specHooks))
					continue
				}
				sources = append(sources, hookSource{keySource: "plugin.json#hooks[" + strconv.Itoa(i) + "]", file: l.mf, doc: e, data: l.data})
			default:
				l.pkgDiag(model.Place{File: l.mf, Pointer: ptr, Line: jsontext.Line(l.data, e.Off)}.ComponentType("manifest-path-ignored", model.SeverityWarning,
					errorf(codexSeen+" ignores a hooks entry that is a %s.", e.Kind), specHooks))
			}
		}
		if !useDefault {
			if _, err := l.root.Lstat(defaultHooksFile); err == nil {
				l.pkgDiag(model.Place{File: defaultHooksFile}.ComponentType("hooks-default-replaced", model.SeverityInfo,
					codexSeen+" does not read hooks/hooks.json here: the manifest's hooks replace it ("+model.Releases(model.ClientClaudeCode, model.ClaudeCode328)+" still run it).", specHooks))
			}
		}
	}
	if useDefault {
		if s, ok := l.hookFile(defaultHooksFile); ok {
			sources = append(sources, s)
		}
	}
	for _, s := range sources {
		l.hookDoc(s)
	}
}

// hookFile reads one hooks file. A missing default file is fine; a missing named file is
// a warning (Codex loads nothing from it).
func (l *loader) hookFile(rel string) (hookSource, bool) {
	data, ok := l.readNamed(rel, defaultHooksFile, "hooks-file-unreadable", "The hooks file %s %s, so "+codexSeen+" loads no hooks from it.", specHooks)
	if !ok {
		return hookSource{}, false
	}
	doc, issues, jerr := jsontext.Parse(data, jsontext.Limits)
	if jerr != nil {
		l.hooksRejected(rel, "", jsontext.Line(data, jerr.Off), jerr.Msg)
		return hookSource{}, false
	}
	for _, is := range issues {
		if is.Code == jsontext.CodeDuplicateKey {
			continue // ParseHooks reports duplicate events; other repeats keep the last value, as serde does for maps
		}
		l.hooksRejected(rel, is.Pointer, jsontext.Line(data, is.Off), is.Msg)
		return hookSource{}, false
	}
	return hookSource{keySource: rel, file: rel, doc: doc, data: data}, true
}

func (l *loader) hooksRejected(file, ptr string, line int, why string) {
	l.pkgDiag(model.Place{File: file, Pointer: ptr, Line: line}.ComponentType("hooks-file-rejected", model.SeverityError,
		errorf(codexSeen+" rejects the whole hooks document %s (%s), so none of its hooks run in Codex.", file, clip(why)), specHooks))
}

func (l *loader) hookDoc(s hookSource) {
	hf, herr := ParseHooks(s.doc)
	if herr != nil {
		l.hooksRejected(s.file, herr.Pointer, jsontext.Line(s.data, herr.Off), herr.Msg)
		return
	}
	for _, name := range hf.Dropped {
		l.pkgDiag(model.Place{File: s.file, Pointer: jsontext.Pointer("hooks", name)}.Component("hooks-event-unknown", model.SeverityInfo,
			errorf(codexSeen+" does not know the event %q and drops its hooks without a warning ("+model.Releases(model.ClientClaudeCode, model.ClaudeCode328)+" may run them).", clip(name)), specHooks))
	}
	for _, ev := range hf.Events {
		for gi, g := range ev.Groups {
			matcher := g.Matcher
			if matcherIgnored[ev.Name] {
				matcher = nil
			}
			note := ""
			if matcher != nil {
				ok, n := checkMatcher(*matcher)
				if !ok {
					l.pkgDiag(model.Place{File: s.file, Pointer: jsontext.Pointer("hooks", ev.Name, strconv.Itoa(gi), "matcher"), Line: jsontext.Line(s.data, g.Off)}.Component("hooks-matcher-invalid", model.SeverityError,
						errorf("The matcher %q is not a valid Rust regex (%s), so "+codexSeen+" skips this group of %d handler(s).", clip(*matcher), clip(n), len(g.Handlers)), specHooks))
					continue
				}
				note = n
			}
			for hi, h := range g.Handlers {
				l.pkg.Components = append(l.pkg.Components, l.hookComponent(s, ev, gi, hi, g, matcher, note, h))
			}
		}
	}
}

// effectiveTimeout is the timeout Codex applies (observed on Codex): 600 s by default, 0
// becomes 1; SessionEnd and Interrupt default to 1 s and SessionEnd is clamped to 3 s.
func effectiveTimeout(event string, h HookHandler) (uint64, string) {
	def := uint64(600)
	if event == "SessionEnd" || event == "Interrupt" {
		def = 1
	}
	t := def
	if h.HasTimeout {
		t = h.Timeout
	}
	note := ""
	if t == 0 {
		t, note = 1, "a timeout of 0 becomes 1 s"
	}
	if event == "SessionEnd" && t > 3 {
		t, note = 3, "it clamps SessionEnd hooks to 3 s"
	}
	return t, note
}

// DefinitionHash is Codex's trust hash of one command hook's definition (version_for_toml
// of the normalized identity in Codex): sha256 of the compact, key-sorted JSON of
// {event_name, matcher?, hooks: [{type, command, timeout, async, statusMessage?}]} with
// the command as written (before ${PLUGIN_ROOT} substitution) and the effective timeout.
func DefinitionHash(label string, matcher *string, command string, timeout uint64, async bool, status *string) string {
	b := startGroupHash(label)
	b.WriteString(`"async":`)
	b.WriteString(strconv.FormatBool(async))
	b.WriteString(`,"command":`)
	model.WriteJSONString(b, command)
	if status != nil {
		b.WriteString(`,"statusMessage":`)
		model.WriteJSONString(b, *status)
	}
	b.WriteString(`,"timeout":`)
	b.WriteString(strconv.FormatUint(timeout, 10))
	b.WriteString(`,"type":"command"}`)
	return finishGroupHash(b, matcher)
}

// startGroupHash writes the normalized group up to its one handler's opening brace; the
// keys sort so that event_name and hooks come before the handler and matcher after it.
func startGroupHash(label string) *strings.Builder {
	b := &strings.Builder{}
	b.WriteString(`{"event_name":`)
	model.WriteJSONString(b, label)
	b.WriteString(`,"hooks":[{`)
	return b
}

// finishGroupHash closes the handler list, adds the matcher when the group has one, and
// returns the sha256 of the whole as Codex's trust hash.
func finishGroupHash(b *strings.Builder, matcher *string) string {
	b.WriteString("]")
	if matcher != nil {
		b.WriteString(`,"matcher":`)
		model.WriteJSONString(b, *matcher)
	}
	b.WriteString("}")
	sum := sha256.Sum256([]byte(b.String()))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// mcpToolDefinitionHash is DefinitionHash for an mcp_tool handler: the normalized handler
// is {type: "mcp_tool", server, tool, timeout, input} with input defaulting to {} (checked
// against Codex's hooks/list, fixture hooks-handler-types).
func mcpToolDefinitionHash(label string, matcher *string, server, tool string, timeout uint64, input string) string {
	b := startGroupHash(label)
	b.WriteString(`"input":`)
	b.WriteString(input)
	b.WriteString(`,"server":`)
	model.WriteJSONString(b, server)
	b.WriteString(`,"timeout":`)
	b.WriteString(strconv.FormatUint(timeout, 10))
	b.WriteString(`,"tool":`)
	model.WriteJSONString(b, tool)
	b.WriteString(`,"type":"mcp_tool"}`)
	return finishGroupHash(b, matcher)
}

// canonicalJSON writes a parsed value compactly with object keys sorted, the last of
// repeated names kept, strings escaped as serde_json does and numbers as written (Codex
// passes them through TOML first, so a float may print differently there: (guess)
// integers are what inputs hold).
func canonicalJSON(v *jsontext.Value) string {
	var b strings.Builder
	var w func(v *jsontext.Value)
	w = func(v *jsontext.Value) {
		switch v.Kind {
		case jsontext.Null:
			b.WriteString("null")
		case jsontext.Bool:
			b.WriteString(strconv.FormatBool(v.Bool))
		case jsontext.Number:
			b.WriteString(v.Str)
		case jsontext.String:
			model.WriteJSONString(&b, v.Str)
		case jsontext.Array:
			b.WriteByte('[')
			for i, e := range v.Arr {
				if i > 0 {
					b.WriteByte(',')
				}
				w(e)
			}
			b.WriteByte(']')
		default:
			keys := map[string]*jsontext.Value{}
			var names []string
			for _, m := range v.Obj {
				if _, dup := keys[m.Key]; !dup {
					names = append(names, m.Key)
				}
				keys[m.Key] = m.Val
			}
			sort.Strings(names)
			b.WriteByte('{')
			for i, k := range names {
				if i > 0 {
					b.WriteByte(',')
				}
				model.WriteJSONString(&b, k)
				b.WriteByte(':')
				w(keys[k])
			}
			b.WriteByte('}')
		}
	}
	w(v)
	return b.String()
}

// eventEffect is the plain-language account of when a hook runs and what it can do there.
var eventEffect = map[string]struct{ When, Can string }{
	"PreToolUse":        {"before each tool call", "it receives the tool input and can deny the call"},
	"PermissionRequest": {"when " + codexSeen + " asks for permission", "it can allow or deny the request"},
	"PostToolUse":       {"after each tool call", "it receives the tool input and output and can add text the model reads"},
	"PreCompact":        {"before the conversation is compacted", "it can block the compaction"},
	"PostCompact":       {"after the conversation is compacted", "it can add text the model reads"},
	"SessionStart":      {"when a session starts", "it can add text the model reads"},
	"SessionEnd":        {"when a session ends", "its output is not used"},
	"UserPromptSubmit":  {"on every prompt you submit", "it receives the prompt text and can block it or add text the model reads"},
	"SubagentStart":     {"when a subagent starts", "it can add text the model reads"},
	"SubagentStop":      {"when a subagent stops", "it can make the subagent continue"},
	"Stop":              {"when the agent finishes a turn", "it can make the agent continue"},
	"Interrupt":         {"when you interrupt the agent", "its output is not used"},
	"PreModelRequest":   {"before every request to the model", "it sees the request being sent"},
	"PostModelRequest":  {"after every model response arrives", "it sees the model's response"},
}

// hookComponent builds one hook: a summary, capabilities, Codex's key and definition hash,
// and a contract over the handler's fields plus the whole plugin folder.
func (l *loader) hookComponent(s hookSource, ev HookEvent, gi, hi int, g HookGroup, matcher *string, note string, h HookHandler) *model.Component {
	keyTail := s.keySource + ":" + ev.Label + ":" + strconv.Itoa(gi) + ":" + strconv.Itoa(hi)
	c := &model.Component{Kind: model.KindHook, ID: keyTail}
	mk := "(none: every occurrence)"
	if matcher != nil {
		mk = *matcher
	}
	c.Details = model.Fields{{Key: "event", Value: ev.Name}, {Key: "matcher", Value: mk}, {Key: "type", Value: h.Type}, {Key: "source", Value: s.file}}
	if g.Matcher != nil && matcher == nil {
		c.Details = append(c.Details, model.Field{Key: "matcher (ignored by Codex for " + ev.Name + ")", Value: *g.Matcher})
	}
	eff := eventEffect[ev.Name]
	if h.Type == "prompt" || h.Type == "agent" {
		c.Validity = model.Unsupported
		c.Support = codexSupport(model.NotSupported, "Codex skips "+h.Type+" hooks with the warning \"not supported yet\".")
		c.Summary = []string{"Not run: " + model.Releases(model.ClientCodex, model.Codex169) + " skip " + h.Type + " hooks (\"not supported yet\"); " + model.Releases(model.ClientClaudeCode, model.ClaudeCode328) + " may run it."}
		return c
	}
	c.Validity = model.Valid
	c.Support = codexSupport(model.Supported, "")
	when := eff.When
	if matcher != nil && *matcher != "" && *matcher != "*" {
		when += " whose name matches the Rust regex `" + *matcher + "`"
	}
	timeout, tnote := effectiveTimeout(ev.Name, h)
	if h.Type == "mcp_tool" {
		input := "{}"
		if h.Input != nil {
			input = canonicalJSON(h.Input)
		}
		defHash := mcpToolDefinitionHash(ev.Label, matcher, h.Server, h.Tool, timeout, input)
		c.Details = append(c.Details, model.Field{Key: "server", Value: h.Server}, model.Field{Key: "tool", Value: h.Tool}, model.Field{Key: "input", Value: input},
			model.Field{Key: "timeout", Value: strconv.FormatUint(timeout, 10) + " s"},
			model.Field{Key: "codex trust key", Value: l.pkg.Name + "@" + l.marketplace() + ":" + keyTail},
			model.Field{Key: "codex definition hash", Value: defHash})
		c.Summary = []string{"Calls the MCP tool `" + h.Tool + "` of server `" + h.Server + "` " + when + " with the input " + input + "; " + eff.Can + ".",
			"Not covered by this approval: the MCP server `" + h.Server + "` itself; approve that server separately."}
		c.Capabilities = []model.Capability{{Kind: model.CapHook, Scope: []string{ev.Name, eff.Can}, Detail: "Runs " + when + "; " + eff.Can + "."}}
		c.Contract = &model.Contract{Kind: model.KindHook, Fields: model.Fields{
			{Key: "client", Value: ClientCodex}, {Key: "event", Value: ev.Name}, {Key: "matcher", Value: strPtr(matcher)},
			{Key: "type", Value: "mcp_tool"}, {Key: "server", Value: h.Server}, {Key: "tool", Value: h.Tool}, {Key: "input", Value: input},
			{Key: "timeout", Value: int64(min(timeout, 1<<53))},
			{Key: "codex_key", Value: keyTail}, {Key: "codex_definition_hash", Value: defHash},
		}}
		return c
	}
	defHash := DefinitionHash(ev.Label, matcher, h.Command, timeout, h.Async, h.StatusMessage)
	installed := "$CODEX_HOME/plugins/cache/" + l.marketplace() + "/" + l.pkg.Name + "/" + l.versionDir()
	expanded := expandPluginRoot(h.Command, installed)
	c.Details = append(c.Details, model.Field{Key: "command", Value: h.Command})
	if expanded != h.Command {
		c.Details = append(c.Details, model.Field{Key: "command (expanded at load)", Value: expanded})
	}
	c.Details = append(c.Details,
		model.Field{Key: "timeout", Value: strconv.FormatUint(timeout, 10) + " s"},
		model.Field{Key: "async", Value: h.Async},
		model.Field{Key: "codex trust key", Value: l.pkg.Name + "@" + l.marketplace() + ":" + keyTail},
		model.Field{Key: "codex definition hash", Value: defHash},
	)
	if h.StatusMessage != nil {
		c.Details = append(c.Details, model.Field{Key: "statusMessage", Value: *h.StatusMessage})
	}
	sum := "Runs `" + h.Command + "` with a login shell ($SHELL -lc) " + when + "; it receives the event as JSON on stdin; " + eff.Can + "."
	if h.Async {
		sum = "Runs `" + h.Command + "` in the background with a login shell ($SHELL -lc) " + when + "; it receives the event as JSON on stdin."
	}
	c.Summary = []string{sum, codexSeen + " stops waiting after " + strconv.FormatUint(timeout, 10) + " s" + parenthetical(tnote) + "."}
	if note != "" {
		c.Summary = append(c.Summary, "Matcher: "+note+".")
	}
	if len(h.Ignored) > 0 {
		sort.Strings(h.Ignored)
		msg := codexSeen + " ignores " + strings.Join(quoteAll(h.Ignored), ", ") + " on this handler"
		for _, f := range h.Ignored {
			if f == "if" {
				msg += ": without the `if` filter it runs on every matching event"
			}
		}
		c.Diagnostics = append(c.Diagnostics, model.Place{File: s.file, Line: jsontext.Line(s.data, h.Off)}.Component("hook-field-ignored", model.SeverityWarning, msg+".", specHooks))
		c.Summary = append(c.Summary, msg+".")
	}
	c.NotCovered = l.hookNotCovered(h.Command)
	c.Summary = append(c.Summary, closure.SummaryLine(len(c.NotCovered)))
	c.Capabilities = []model.Capability{
		{Kind: model.CapSubprocess, Scope: []string{h.Command}, Detail: "Runs `" + h.Command + "` through `$SHELL -lc`."},
		{Kind: model.CapHook, Scope: []string{ev.Name, eff.Can}, Detail: "Runs " + when + "; " + eff.Can + "."},
		{Kind: model.CapEnv, Scope: []string{"CLAUDE_PLUGIN_DATA", "CLAUDE_PLUGIN_ROOT", "PLUGIN_DATA", "PLUGIN_ROOT"}, Detail: codexSeen + " sets the plugin's root and data directories in the hook's environment."},
	}
	if strings.Contains(eff.Can, "model reads") {
		c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapModelContext, Scope: []string{ev.Name}, Detail: "Its output can add text the model reads."})
	}
	if !l.bindClosure(c, "Blocked: vouch could not read every file of the plugin (see the diagnostics), so an approval could not cover what this hook runs.") {
		return c
	}
	c.Summary = append(c.Summary, "Runs with the plugin's files: every file of the plugin folder is part of what you approve, as "+codexSeen+" marks a hook modified in its own trust when any plugin file changes.")
	c.Contract = &model.Contract{Kind: model.KindHook, Files: c.Files, Fields: model.Fields{
		{Key: "client", Value: ClientCodex},
		{Key: "event", Value: ev.Name},
		{Key: "matcher", Value: strPtr(matcher)},
		{Key: "type", Value: "command"},
		{Key: "command", Value: h.Command},
		{Key: "timeout", Value: int64(min(timeout, 1<<53))},
		{Key: "async", Value: h.Async},
		{Key: "status_message", Value: strPtr(h.StatusMessage)},
		{Key: "shell", Value: "$SHELL -lc"},
		{Key: "codex_key", Value: keyTail},
		{Key: "codex_definition_hash", Value: defHash},
	}}
	return c
}

func strPtr(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}

func parenthetical(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

func quoteAll(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = "`" + x + "`"
	}
	return out
}

// expandPluginRoot is Codex's load-time substitution (observed on Codex): each literal
// ${PLUGIN_ROOT} and ${CLAUDE_PLUGIN_ROOT} becomes the install path; forms such as
// ${CLAUDE_PLUGIN_ROOT:-$PLUGIN_ROOT} are left for the shell.
func expandPluginRoot(cmd, root string) string {
	return strings.NewReplacer("${PLUGIN_ROOT}", root, "${CLAUDE_PLUGIN_ROOT}", root).Replace(cmd)
}

func (l *loader) marketplace() string {
	if l.opts.Marketplace != "" {
		return l.opts.Marketplace
	}
	return "<marketplace>"
}

// versionDir is the version folder of Codex's install cache.
func (l *loader) versionDir() string {
	if l.pkg.Version != "" {
		return l.pkg.Version
	}
	return "local"
}
