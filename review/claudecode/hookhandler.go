package claudecode

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"

	"vouch/model"
	"vouch/review/internal/prose"
	"vouch/review/jsontext"
)

var handlerFields = map[string][]string{
	// onFailure is read on command and http handlers (Claude's own schema has it).
	"command":  {"command", "args", "async", "asyncRewake", "shell", "rewakeMessage", "rewakeSummary", "onFailure"},
	"http":     {"url", "headers", "allowedEnvVars", "onFailure"},
	"mcp_tool": {"server", "tool", "input"},
	"prompt":   {"prompt", "model"},
	"agent":    {"prompt", "model"},
}

var commonHandlerFields = []string{"type", "if", "timeout", "statusMessage", "once"}

// hookAt is one handler and where it sits: its source, its event and its matcher group.
type hookAt struct {
	src        *hookSource
	id         string
	event      string // the event name as written
	canon      string // the Claude Code event it names, ignoring case ("" for none)
	exact      bool   // the name is a Claude Code event as written
	matcher    string
	hasMatcher bool
	h          *jsontext.Value // the handler object
	ptr        string          // JSON pointer of the handler in src.file
}

// handlerBuild is one handler's component while its fields are read: what the handler
// declares, and the contract, summary and capabilities that follow from it.
type handlerBuild struct {
	hookAt
	l    *loader
	c    *model.Component
	typ  string
	info eventInfo

	ifRule     string
	hasIf      bool
	statusMsg  string
	once       bool
	timeout    float64
	hasTimeout bool

	contract     model.Fields
	summary      []string
	caps         []model.Capability
	runs         []string // what a command handler runs: the command, then its args
	execForm     bool     // args given: the command is one program, not a shell line
	what         string   // what the handler does, opening its first summary line
	async        bool
	codexIgnored []string // fields Claude reads and Codex ignores
	// claudeRefuse is why Claude refuses the handler over a field Codex ignores ("" when
	// no such field is wrong): Codex still runs it.
	claudeRefuse string
}

// hook builds the component of one handler: an invalid one as soon as its shape is wrong,
// else its contract, the plain-language summary of when it fires and what it can do, what
// each client does with it, and the files it binds.
func (l *loader) hook(at hookAt) *model.Component {
	b := &handlerBuild{hookAt: at, l: l, c: &model.Component{Kind: model.KindHook, ID: at.id}, codexIgnored: []string{}}
	b.c.Details = model.Fields{{Key: "event", Value: at.event}, {Key: "file", Value: displayFile(at.src.file)}}
	if at.hasMatcher {
		b.c.Details = append(b.c.Details, model.Field{Key: "matcher", Value: at.matcher})
	}
	if !b.readType() {
		return l.hookInvalid(b.c)
	}
	b.readCommon()
	b.info = events[at.canon]
	b.contract = model.Fields{{Key: "event", Value: at.event}, {Key: "matcher", Value: at.matcher}, {Key: "type", Value: b.typ}}
	switch b.typ {
	case "command":
		b.command()
	case "http":
		b.http()
	case "mcp_tool":
		b.mcpTool()
	case "prompt", "agent":
		b.modelJudge()
	}
	toText := b.commonOptions()
	b.describe(toText)
	return b.finish()
}

func (b *handlerBuild) bad(code, msg string, off int) {
	b.c.Diagnostics = append(b.c.Diagnostics, model.Place{File: b.src.file, Pointer: b.ptr, Line: b.l.line(b.src.data, off)}.Component(code, model.SeverityError, msg, specRef("1.4")))
}

func (b *handlerBuild) warn(code, msg string, off int) {
	b.c.Diagnostics = append(b.c.Diagnostics, model.Place{File: b.src.file, Pointer: b.ptr, Line: b.l.line(b.src.data, off)}.Component(code, model.SeverityWarning, msg, specRef("1.4")))
}

// readType decides whether the handler is an object of a known type; a handler that is
// not cannot be read further. It also flags fields Claude does not read for the type.
func (b *handlerBuild) readType() bool {
	h, id := b.h, b.id
	if h.Kind != jsontext.Object {
		b.bad("hook-handler-not-object", fmt.Sprintf("Handler %s is a JSON %s, not an object, so it is not loaded.", id, h.Kind), h.Off)
		return false
	}
	typ, ok := strVal(h, "type")
	if !ok {
		b.bad("hook-handler-missing-type", fmt.Sprintf("Handler %s has no string \"type\"; it must be command, http, mcp_tool, prompt or agent, so it is not loaded.", id), h.Off)
		return false
	}
	fields, known := handlerFields[typ]
	if !known {
		b.bad("hook-handler-unknown-type", fmt.Sprintf("Handler %s has the type %q; it must be command, http, mcp_tool, prompt or agent, so it is not loaded.", id, clip(typ)), h.Off)
		return false
	}
	b.typ = typ
	b.c.Details = append(b.c.Details, model.Field{Key: "type", Value: typ})
	for _, m := range h.Obj {
		if !slices.Contains(fields, m.Key) && !slices.Contains(commonHandlerFields, m.Key) {
			b.warn("hook-handler-unknown-field", fmt.Sprintf("Handler %s (%s) has the field %q, which "+claudeSeen+" does not read for this type.", id, typ, clip(m.Key)), m.KeyOff)
		}
	}
	return true
}

// str reads a string field; a value of another type is an error that stops the handler.
func (b *handlerBuild) str(k string) (string, bool) {
	m := b.h.Get(k)
	if m == nil {
		return "", false
	}
	if m.Val.Kind != jsontext.String {
		b.bad("hook-field-type", fmt.Sprintf("%q of handler %s is a %s; it must be a string, so the handler is not loaded.", k, b.id, m.Val.Kind), m.KeyOff)
		return "", false
	}
	return m.Val.Str, true
}

// boolean reads a true/false field; a value of another type is an error that stops the handler.
func (b *handlerBuild) boolean(k string) bool {
	m := b.h.Get(k)
	if m == nil {
		return false
	}
	if m.Val.Kind != jsontext.Bool {
		b.bad("hook-field-type", fmt.Sprintf("%q of handler %s is a %s; it must be true or false, so the handler is not loaded.", k, b.id, m.Val.Kind), m.KeyOff)
		return false
	}
	return m.Val.Bool
}

// readCommon reads the fields every handler type has: if, statusMessage, once, timeout.
func (b *handlerBuild) readCommon() {
	b.ifRule, b.hasIf = b.str("if")
	b.statusMsg, _ = b.str("statusMessage")
	b.once = b.boolean("once")
	if m := b.h.Get("timeout"); m != nil {
		if m.Val.Kind != jsontext.Number || m.Val.Float() <= 0 {
			b.bad("hook-timeout-invalid", fmt.Sprintf("The timeout of handler %s must be a number of seconds greater than 0, so the handler is not loaded.", b.id), m.KeyOff)
		} else {
			b.timeout, b.hasTimeout = m.Val.Float(), true
		}
	}
}

// commandArgs reads "args": present or not, and the strings it holds.
func (b *handlerBuild) commandArgs() (args []string, has bool) {
	am := b.h.Get("args")
	if am == nil {
		return nil, false
	}
	if am.Val.Kind != jsontext.Array {
		b.bad("hook-field-type", fmt.Sprintf("\"args\" of handler %s is a %s; it must be an array of strings.", b.id, am.Val.Kind), am.KeyOff)
		return nil, true
	}
	for _, a := range am.Val.Arr {
		if a.Kind != jsontext.String {
			b.bad("hook-field-type", fmt.Sprintf("\"args\" of handler %s holds a %s; every argument must be a string.", b.id, a.Kind), am.KeyOff)
			break
		}
		args = append(args, a.Str)
	}
	return args, true
}

// command reads a command handler: what it runs, in which form and shell, and whether
// Claude waits for it.
func (b *handlerBuild) command() {
	h := b.h
	cmd, hasCmd := b.str("command")
	if !hasCmd && h.Get("command") == nil {
		b.bad("hook-command-missing", fmt.Sprintf("Command handler %s has no \"command\", so it is not loaded.", b.id), h.Off)
	}
	args, hasArgs := b.commandArgs()
	shell, hasShell := b.str("shell")
	if hasShell && shell != "bash" && shell != "powershell" {
		b.bad("hook-shell-invalid", fmt.Sprintf("Handler %s has shell %q; it must be bash or powershell, so "+claudeSeen+" does not load the handler (%s ignore shell and run it).", b.id, clip(shell), model.Releases(model.ClientCodex, model.Codex169)), h.Get("shell").KeyOff)
		b.claudeRefuse = fmt.Sprintf("%s refuse a shell other than bash or powershell (here %q).", model.Releases(model.ClientClaudeCode, model.ClaudeCode328), clip(shell))
	}
	asyncLit := b.boolean("async")
	rewake := b.boolean("asyncRewake")
	b.async = asyncLit || rewake // asyncRewake implies async
	b.commandDetails(cmd, args, hasArgs, shell, hasShell)
	b.runs = append(append(b.runs, cmd), args...)
	b.execForm = hasArgs
	if args == nil {
		args = []string{}
	}
	b.contract = append(b.contract,
		model.Field{Key: "command", Value: cmd},
		model.Field{Key: "args", Value: args},
		model.Field{Key: "shell", Value: shell},
		model.Field{Key: "async", Value: asyncLit},
		model.Field{Key: "asyncRewake", Value: rewake},
	)
	if hasArgs {
		b.execFormWhat(cmd, args)
	} else {
		b.shellFormWhat(cmd, shell, hasShell)
	}
	if hasShell {
		b.codexIgnored = append(b.codexIgnored, "shell")
	}
	if rewake {
		b.codexIgnored = append(b.codexIgnored, "asyncRewake")
	}
	b.commandEffects(cmd, rewake)
}

// commandDetails lists the command as written and, where placeholders change it, as run.
func (b *handlerBuild) commandDetails(cmd string, args []string, hasArgs bool, shell string, hasShell bool) {
	b.c.Details = append(b.c.Details, model.Field{Key: "command", Value: cmd})
	if x, ok := b.l.expandedField(cmd); ok {
		b.c.Details = append(b.c.Details, model.Field{Key: "command (expanded)", Value: x})
	}
	if hasArgs {
		b.c.Details = append(b.c.Details, model.Field{Key: "args", Value: args})
		if exp, changed := b.l.expandAll(args); changed {
			b.c.Details = append(b.c.Details, model.Field{Key: "args (expanded)", Value: exp})
		}
	}
	if hasShell {
		b.c.Details = append(b.c.Details, model.Field{Key: "shell", Value: shell})
	}
}

// execFormWhat describes a command run directly with args, where user_config is substituted.
func (b *handlerBuild) execFormWhat(cmd string, args []string) {
	b.what = fmt.Sprintf("Runs `%s` directly with the arguments %s (exec form, no shell)", cmd, joinQuoted(args))
	if userConfigVar.MatchString(cmd) {
		b.warn("hook-user-config-in-command", fmt.Sprintf("Handler %s uses ${user_config.…} in command; Claude substitutes it only in args (exec form).", b.id), b.h.Off)
	}
	b.codexIgnored = append(b.codexIgnored, "args")
}

// shellFormWhat describes a command run as a shell line, where an unquoted plugin path
// splits and user_config is refused.
func (b *handlerBuild) shellFormWhat(cmd, shell string, hasShell bool) {
	sh := "bash"
	if hasShell {
		sh = shell
	}
	b.what = fmt.Sprintf("Runs the shell command `%s` (with %s)", cmd, sh)
	if userConfigVar.MatchString(cmd) {
		b.bad("hook-user-config-in-shell", fmt.Sprintf("Handler %s uses ${user_config.…} in a shell-form command; Claude rejects that since 2.1.207 (use the exec form with args, or CLAUDE_PLUGIN_OPTION_<KEY>).", b.id), b.h.Off)
	}
	for _, v := range unquotedRoot(cmd) {
		b.warn("hook-unquoted-plugin-root", fmt.Sprintf("Handler %s uses %s without quotes in a shell command; if the expanded path contains a space the command splits into several words and fails: wrap it in double quotes, as Claude's validator advises.", b.id, v), b.h.Off)
	}
}

// commandEffects states what the running command can reach and whether Claude waits for it.
func (b *handlerBuild) commandEffects(cmd string, rewake bool) {
	for _, v := range plainPluginRoot(strings.Join(b.runs, " ")) {
		b.warn("hook-plain-plugin-root", fmt.Sprintf("Handler %s uses %s, which is not a placeholder of "+claudeSeen+": in Claude it is a plain shell variable, normally unset, so the path collapses to \"/…\" (use ${CLAUDE_PLUGIN_ROOT}; "+codexSeen+" substitutes both).", b.id, v), b.h.Off)
		b.summary = append(b.summary, fmt.Sprintf("%s here is a plain shell variable in %s, normally unset (only ${CLAUDE_PLUGIN_ROOT}, ${CLAUDE_PLUGIN_DATA} and ${CLAUDE_PROJECT_DIR} are substituted); %s replaces it with the plugin path.", v, claudeSeen, codexSeen))
	}
	b.caps = append(b.caps, model.Capability{Kind: model.CapSubprocess, Scope: []string{cmd},
		Detail: fmt.Sprintf("%s on this machine with the user's permissions, from the plugin folder's files.", b.what)})
	b.caps = append(b.caps, model.Capability{Kind: model.CapEnv, Scope: []string{"CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA", "CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_OPTION_*"},
		Detail: "Receives the plugin, data and project paths and every userConfig value as environment variables, plus the user's whole environment."})
	if b.async {
		b.summary = append(b.summary, "Runs in the background (async): it cannot block, and what it returns reaches Claude on the next turn.")
		if rewake {
			b.summary = append(b.summary, "asyncRewake: exiting 2 wakes Claude up with its output.")
		}
	}
}

// http reads an http handler: where the event is posted and what leaves with it.
func (b *handlerBuild) http() {
	h := b.h
	u, _ := b.str("url")
	b.c.Details = append(b.c.Details, model.Field{Key: "url", Value: u})
	host := u
	if pu, err := url.Parse(u); err == nil && pu.Host != "" {
		host = pu.Hostname()
	} else {
		b.bad("hook-url-invalid", fmt.Sprintf("Handler %s has the url %q, which is not an absolute URL, so the handler is not loaded.", b.id, clip(u)), h.Off)
	}
	var hdrNames []string
	hdr := map[string]string{}
	if hm := h.Get("headers"); hm != nil && hm.Val.Kind == jsontext.Object {
		for _, e := range hm.Val.Obj {
			hdr[e.Key] = e.Val.Str
			hdrNames = append(hdrNames, e.Key)
		}
	}
	allowed := []string{}
	if am := h.Get("allowedEnvVars"); am != nil && am.Val.Kind == jsontext.Array {
		for _, a := range am.Val.Arr {
			allowed = append(allowed, a.Str)
		}
	}
	b.contract = append(b.contract, model.Field{Key: "url", Value: u}, model.Field{Key: "headers", Value: hdr}, model.Field{Key: "allowedEnvVars", Value: allowed})
	b.what = fmt.Sprintf("POSTs the event to %s", u)
	if len(hdrNames) > 0 {
		sort.Strings(hdrNames)
		b.summary = append(b.summary, "Sends the headers "+strings.Join(hdrNames, ", ")+".")
	}
	if len(allowed) > 0 {
		b.summary = append(b.summary, "The environment variables "+strings.Join(allowed, ", ")+" may be interpolated into its headers, so their values leave this machine.")
		b.caps = append(b.caps, model.Capability{Kind: model.CapEnv, Scope: allowed, Detail: "Sends the values of " + strings.Join(allowed, ", ") + " in request headers."})
	}
	b.caps = append(b.caps, model.Capability{Kind: model.CapNetwork, Scope: []string{host}, Detail: fmt.Sprintf("Sends the hook input to %s.", u)})
}

// mcpTool reads an mcp_tool handler; a tool of the plugin's own server depends on it.
func (b *handlerBuild) mcpTool() {
	server, _ := b.str("server")
	tool, _ := b.str("tool")
	input := any(nil)
	if im := b.h.Get("input"); im != nil {
		input = jsontext.Display(im.Val)
	}
	b.c.Details = append(b.c.Details, model.Field{Key: "server", Value: server}, model.Field{Key: "tool", Value: tool})
	b.contract = append(b.contract, model.Field{Key: "server", Value: server}, model.Field{Key: "tool", Value: tool}, model.Field{Key: "input", Value: fmt.Sprint(input)})
	b.what = fmt.Sprintf("Calls the tool %q of MCP server %q", tool, server)
	pkg := b.l.pkg.Name
	if name, ok := strings.CutPrefix(server, "plugin:"+pkg+":"); ok {
		b.c.DependsOn = append(b.c.DependsOn, model.Ref(pkg, model.KindMCPServer, name))
	}
}

// modelJudge reads a prompt or agent handler: a model decides, given the prompt.
func (b *handlerBuild) modelJudge() {
	p, _ := b.str("prompt")
	mdl, _ := b.str("model")
	b.c.Details = append(b.c.Details, model.Field{Key: "prompt", Value: p})
	if mdl != "" {
		b.c.Details = append(b.c.Details, model.Field{Key: "model", Value: mdl})
	}
	b.contract = append(b.contract, model.Field{Key: "prompt", Value: p}, model.Field{Key: "model", Value: mdl})
	if b.typ == "prompt" {
		b.what = "Asks a model to judge the event with the prompt it gives"
	} else {
		b.what = "Starts a subagent, with tools, to judge the event with the prompt it gives"
	}
	b.caps = append(b.caps, model.Capability{Kind: model.CapModelContext, Scope: []string{p}, Detail: "Sends the event and its prompt to a model, whose answer decides."})
}

// commonOptions records the common fields in the contract and details, and returns the
// timeout as the summary states it.
func (b *handlerBuild) commonOptions() string {
	toText := fmt.Sprintf("%d s (the default)", defaultTimeout(b.canon, b.typ))
	if b.hasTimeout {
		toText = fmt.Sprintf("%s s", trimFloat(b.timeout))
		b.c.Details = append(b.c.Details, model.Field{Key: "timeout", Value: trimFloat(b.timeout)})
	}
	b.contract = append(b.contract, model.Field{Key: "if", Value: b.ifRule}, model.Field{Key: "timeout", Value: trimFloat(b.timeout)}, model.Field{Key: "once", Value: b.once}, model.Field{Key: "file", Value: displayFile(b.src.file)})
	if b.hasIf {
		b.c.Details = append(b.c.Details, model.Field{Key: "if", Value: b.ifRule})
		b.codexIgnored = append(b.codexIgnored, "if")
	}
	if b.statusMsg != "" {
		b.c.Details = append(b.c.Details, model.Field{Key: "statusMessage", Value: b.statusMsg})
	}
	if b.once {
		b.codexIgnored = append(b.codexIgnored, "once")
		b.summary = append(b.summary, "once: true is honoured only in skill frontmatter; in a plugin's hooks Claude ignores it, so the hook runs every time.")
	}
	return toText
}

// describe writes the summary in plain language: when the hook fires, which calls its
// matcher and if select, and (for a known event) what it receives and can do.
func (b *handlerBuild) describe(toText string) {
	when, mk, matchText := b.whenAndMatcher()
	head := b.what
	if head == "" {
		head = "Runs"
	}
	b.summary = append([]string{fmt.Sprintf("%s %s (%s).", head, when, b.event)}, b.summary...)
	if matchText != "" {
		b.summary = append(b.summary, matchText)
	}
	if b.hasIf {
		b.ifSummary()
	}
	if b.exact {
		b.eventEffects(when, mk, toText)
	}
}

// whenAndMatcher is when the hook fires, the kind of its matcher, and the sentence that
// says which events the matcher lets through.
func (b *handlerBuild) whenAndMatcher() (when, mk, matchText string) {
	info, matcher, event := b.info, b.matcher, b.event
	when = "when " + event + " fires"
	if b.exact {
		when = info.When
	}
	mk, names := matcherKind(matcher, b.canon == "FileChanged" || b.canon == "StopFailure")
	switch {
	case !b.exact:
	case info.MatchOn == "" && b.hasMatcher && matcher != "" && matcher != "*":
		matchText = fmt.Sprintf("The matcher %q is ignored: %s has no matcher support, so the hook runs every time.", matcher, event)
		b.warn("hook-matcher-ignored", fmt.Sprintf("Handler %s has the matcher %q on %s, which has no matcher support; Claude silently ignores it, so the hook runs every time.", b.id, clip(matcher), event), b.h.Off)
	case info.MatchOn == "":
	case mk == "all":
		matchText = fmt.Sprintf("Matcher %s: it runs for every %s.", matcherLabel(matcher, b.hasMatcher), strings.TrimPrefix(info.MatchOn, "the "))
	case mk == "exact":
		matchText = fmt.Sprintf("Matcher %q is an exact list: it runs only when %s is %s.", matcher, info.MatchOn, prose.List(names, "or", "(nothing)"))
		if info.Tool {
			when = strings.Replace(when, "each tool call", "every "+prose.List(names, "or", "(nothing)")+" tool call", 1)
		}
	default:
		if _, err := regexp.Compile(matcher); err != nil {
			b.warn("hook-matcher-invalid-regex", fmt.Sprintf("Handler %s has the matcher %q, which is not a valid regular expression; Claude's validator does not flag it, and the hook may never run.", b.id, clip(matcher)), b.h.Off)
		}
		matchText = fmt.Sprintf("Matcher %q is an unanchored JavaScript regular expression tested against %s: it matches anywhere in the name (Edit.* also matches NotebookEdit).", matcher, info.MatchOn)
	}
	if info.Tool && strings.HasPrefix(matcher, "mcp__") && !strings.HasPrefix(matcher, "mcp__plugin_") {
		// a plugin's own server tools are mcp__plugin_<plugin>_<server>__<tool>
		matchText += " A plugin-bundled server's tools are named mcp__plugin_<plugin>_<server>__<tool>; a matcher on the bare server name never fires for them."
	}
	return when, mk, matchText
}

// ifSummary says what "if" narrows: a tool event's calls in Claude (Codex ignores it),
// and nothing at all on other events, where the handler never runs.
func (b *handlerBuild) ifSummary() {
	event, matcher := b.event, b.matcher
	if !b.info.Tool {
		b.summary = append(b.summary, fmt.Sprintf("Has \"if\": %q, but if works only on tool events: on %s this handler never runs.", b.ifRule, event))
		b.warn("hook-if-never-runs", fmt.Sprintf("Handler %s has \"if\" on %s, which is not a tool event; Claude never runs it.", b.id, event), b.h.Off)
		return
	}
	b.summary = append(b.summary, fmt.Sprintf("Runs only when the call also matches the permission rule %q (if).", b.ifRule))
	if b.info.Codex && b.l.otherManifest == "" {
		every := "every " + event + " event"
		if matcher != "" && matcher != "*" {
			every = "every " + matcher + " call"
		}
		b.summary = append(b.summary, fmt.Sprintf("Codex %s ignores if: there this hook runs on %s.", b.l.opts.CodexVersion, every))
	}
}

// eventEffects says, for a known event, what the handler receives, what it can do, how it
// fails, and the hook and model-context capabilities that follow.
func (b *handlerBuild) eventEffects(when, mk, toText string) {
	info, typ, event := b.info, b.typ, b.event
	stdin := "session id, the transcript path (so it can read the whole conversation), working directory, permission mode and the event name"
	if info.Stdin != "" {
		stdin = info.Stdin + ", plus the " + stdin
	}
	switch typ {
	case "http":
		b.summary = append(b.summary, "Its request body holds "+stdin+".")
	case "command":
		b.summary = append(b.summary, "Receives on stdin "+stdin+".")
	default:
		b.summary = append(b.summary, "It is given "+stdin+".")
	}
	eff := b.effects()
	b.summary = append(b.summary, "It can "+strings.Join(eff, "; ")+".")
	scope := []string{event}
	if info.MatchOn != "" && b.matcher != "" && b.matcher != "*" {
		scope = append(scope, "matcher "+b.matcher)
	}
	if b.async {
		scope = append(scope, "non-blocking") // async: Claude Code does not wait for it
	} else {
		scope = append(scope, effectWord(info))
	}
	b.caps = append(b.caps, model.Capability{Kind: model.CapHook, Scope: scope, Detail: fmt.Sprintf("Fires %s (%s); it can %s.", when, matcherShort(info, mk, b.matcher, b.hasMatcher), strings.Join(eff, "; "))})
	for _, e := range info.Effects {
		if strings.Contains(e, "context") {
			b.caps = append(b.caps, model.Capability{Kind: model.CapModelContext, Scope: []string{event}, Detail: "Its output can add text Claude reads."})
			break
		}
	}
	gating := (info.Block || b.canon == "PermissionRequest") && !b.async
	if gating && typ != "prompt" && typ != "agent" && b.canon != "WorktreeCreate" {
		b.summary = append(b.summary, fmt.Sprintf("Timeout %s. It fails open: if it crashes, exits 1 (any code but 2) or times out, it decides nothing and %s.", toText, failOpen(b.canon)))
	} else {
		b.summary = append(b.summary, fmt.Sprintf("Timeout %s.", toText))
	}
	if !strings.Contains(info.Types, typ) {
		b.warn("hook-type-not-accepted", fmt.Sprintf("Handler %s is a %s handler on %s, which accepts only %s handlers (Claude Code docs).", b.id, typ, event, strings.ReplaceAll(info.Types, " ", ", ")), b.h.Off)
	}
}

// effects is what the handler can do to its event: an async one only adds context or a
// message on the next turn; a blocking event's handler can block with exit 2.
func (b *handlerBuild) effects() []string {
	info := b.info
	eff := append([]string(nil), info.Effects...)
	if b.async {
		// An async hook cannot block; what it returns arrives on the next turn.
		var kept []string
		for _, e := range eff {
			if strings.Contains(e, "context") || strings.Contains(e, "message") {
				kept = append(kept, e+" (on the next turn)")
			}
		}
		eff = kept
	} else if info.Block && !slices.Contains(eff, "block") && !anyContains(eff, "exit 2") {
		eff = append([]string{"block it (exit 2)"}, eff...)
	}
	return append(eff, "stop the whole session (continue: false)", "show the user a message (systemMessage)")
}

func anyContains(xs []string, sub string) bool {
	for _, x := range xs {
		if strings.Contains(x, sub) {
			return true
		}
	}
	return false
}

// unknownEventLine leads the summary of a handler on an event name Claude Code does not
// have; codexOnlyHook replaces it when Codex runs the event.
var unknownEventLine = "Unsupported: " + claudeSeen + " ignores this event name, so the hook never runs."

// finish turns the gathered answers into the component: invalid when any error was
// found, unsupported when Claude ignores the event name, and a command handler's closure
// bound.
func (b *handlerBuild) finish() *model.Component {
	l, c := b.l, b.c
	c.Summary = append(c.Summary, b.summary...)
	if b.typ == "command" {
		if b.execForm {
			markNotCovered(c, l.execNotCovered(b.runs[0], b.runs[1:], nil, "the hook runs", true))
		} else if len(b.runs) > 0 {
			markNotCovered(c, l.shellNotCovered(b.runs[0], "the hook runs", true))
		}
	}
	claude := b.claudeSupport()
	if hasErrors(c.Diagnostics) {
		if !b.codexRunsAnyway() {
			return l.hookInvalid(c)
		}
		claude = model.Support{Provider: clientClaude, Version: ClaudeVersion, Status: model.NotSupported, Detail: b.claudeRefuse}
		c.Summary = append([]string{claudeSeen + " does not load it (see its diagnostics); " + codexSeen + " ignores the field Claude refuses and runs it."}, c.Summary...)
	}
	c.Capabilities = b.caps
	c.Support = []model.Support{claude, b.codexSupport()}
	if !b.exact {
		c.Validity = model.Unsupported
		c.Summary = append([]string{unknownEventLine}, c.Summary...)
	} else {
		c.Validity = model.Valid
	}
	l.codexOnlyHook(c, b.src, b.event, b.typ)
	c.Contract = &model.Contract{Kind: model.KindHook, Fields: b.contract}
	if b.typ == "command" {
		l.bindClosure(c, "hook")
		l.namedFiles(c, strings.Join(b.runs, " "), b.src.file, b.ptr)
	}
	return c
}

// codexRunsAnyway reports whether the handler's only errors are in fields Codex ignores
// (shell) while Codex runs it: the hook is then valid, for Codex's reading of this same
// file, and not run by Claude Code.
func (b *handlerBuild) codexRunsAnyway() bool {
	if b.claudeRefuse == "" {
		return false
	}
	for _, d := range b.c.Diagnostics {
		if d.IsError() && d.Code != "hook-shell-invalid" {
			return false
		}
	}
	return b.codexSkips(b.l.codexSameHooks(b.src)) == ""
}

func (l *loader) hookInvalid(c *model.Component) *model.Component {
	return notLoaded(c, "Not loaded: this handler is invalid (see its diagnostics).",
		"The handler is invalid, so Claude Code does not load it.", "The handler is invalid.")
}

// notLoaded marks a component neither client loads because its declaration is invalid:
// no contract, the summary first, and each client's reason.
func notLoaded(c *model.Component, summary, claude, codex string) *model.Component {
	c.Validity = model.Invalid
	c.Contract = nil
	c.Summary = append([]string{summary}, c.Summary...)
	c.Support = []model.Support{
		{Provider: clientClaude, Version: ClaudeVersion, Status: model.NotSupported, Detail: claude},
		{Provider: clientCodex, Version: CodexVersion, Status: model.NotSupported, Detail: codex},
	}
	return c
}

// claudeSupport answers whether Claude Code runs the handler: not for an unknown event, an
// event newer than the release, "if" off a tool event, or a type the event refuses.
func (b *handlerBuild) claudeSupport() model.Support {
	info, canon := b.info, b.canon
	no := func(detail string) model.Support {
		return model.Support{Provider: clientClaude, Version: ClaudeVersion, Status: model.NotSupported, Detail: detail}
	}
	switch {
	case !b.exact:
		return no("Claude Code ignores unknown or mis-cased event names.")
	case info.Since != "" && !model.AtLeast(b.l.opts.ClaudeVersion, info.Since):
		return no(fmt.Sprintf("Claude Code %s ignores %s with a warning; Claude Code %s and later run it.", b.l.opts.ClaudeVersion, canon, info.Since))
	case b.hasIf && !info.Tool:
		return no("A handler with \"if\" on an event that is not a tool event never runs.")
	case !strings.Contains(info.Types, b.typ):
		return no(fmt.Sprintf("%s accepts only %s handlers.", canon, strings.ReplaceAll(info.Types, " ", ", ")))
	}
	return model.Support{Provider: clientClaude, Version: ClaudeVersion, Status: model.Supported, Detail: "Claude Code runs it whenever the plugin is enabled; it has no per-hook trust."}
}

// codexSupport answers whether Codex runs the handler, and when it does, how its reading
// differs from Claude's.
func (b *handlerBuild) codexSupport() model.Support {
	same := b.l.codexSameHooks(b.src)
	if why := b.codexSkips(same); why != "" {
		return model.Support{Provider: clientCodex, Version: CodexVersion, Status: model.NotSupported, Detail: why}
	}
	matcher := b.matcher
	notes := []string{}
	if matcher != "" && matcher != "*" {
		if _, err := regexp.Compile(matcher); err != nil {
			why := fmt.Sprintf("Codex reads the matcher as a Rust regular expression; %q does not compile, so Codex skips the group.", matcher)
			return model.Support{Provider: clientCodex, Version: CodexVersion, Status: model.NotSupported, Detail: why}
		}
		notes = append(notes, fmt.Sprintf("Codex reads the matcher %q as a regular expression.", matcher))
	}
	notes = append(notes, b.codexDifferences()...)
	sort.Strings(notes)
	lead := []string{"Codex runs plugin hooks only after the user trusts them; commands run as $SHELL -lc with ${CLAUDE_PLUGIN_ROOT} and ${PLUGIN_ROOT} replaced at load."}
	if same {
		lead = append([]string{b.l.codexAlsoLoads(hooksFile)}, lead...)
	}
	return model.Support{Provider: clientCodex, Version: CodexVersion, Status: model.Supported, Detail: strings.Join(append(lead, notes...), " ")}
}

// codexSkips is why Codex does not run the handler at all ("" when it does). same says
// Codex reads this very hooks file through its own manifest.
func (b *handlerBuild) codexSkips(same bool) string {
	src := b.src
	switch {
	case b.l.otherManifest != "" && !same:
		return b.l.codexReadsOther(", so it does not load this plugin's hooks.")
	case src.codexSkip != "" && !same:
		return src.codexSkip
	case src.codexReject != "":
		return src.codexReject
	case !b.exact || !b.info.Codex:
		return fmt.Sprintf("Codex has no %s event and drops Claude-only events silently.", b.canon)
	case b.typ == "prompt" || b.typ == "agent":
		return fmt.Sprintf("Codex skips %s handlers (\"not supported yet\").", b.typ)
	case b.typ == "http":
		return "Codex rejects http handlers."
	}
	return ""
}

// codexDifferences lists the fields Codex reads otherwise than Claude: if, the fields it
// ignores, and the timeouts it clamps.
func (b *handlerBuild) codexDifferences() []string {
	var notes []string
	canon, matcher := b.canon, b.matcher
	if b.hasIf {
		what := "every " + canon + " event"
		if matcher != "" && matcher != "*" {
			what = fmt.Sprintf("every %s call (%s, matcher %q)", matcher, canon, matcher)
		}
		notes = append(notes, fmt.Sprintf("Codex ignores \"if\" (%q): there this hook runs on %s, not only the calls the rule names.", b.ifRule, what))
	}
	if len(b.codexIgnored) > 0 {
		notes = append(notes, "Codex silently ignores "+strings.Join(b.codexIgnored, ", ")+".")
		if slices.Contains(b.codexIgnored, "args") {
			notes = append(notes, "Without args, Codex runs only the command word through the shell.")
		}
	}
	if b.hasTimeout && b.timeout < 1 {
		notes = append(notes, "Codex turns a timeout below 1 s into 1 s.")
	}
	if canon == "SessionEnd" {
		notes = append(notes, "Codex clamps SessionEnd timeouts to 3 s.")
	}
	return notes
}
