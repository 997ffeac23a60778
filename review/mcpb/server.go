package mcpb

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"vouch/internal/lazyre"
	"vouch/model"
	"vouch/review/closure"
	"vouch/review/jsontext"
)

// Platforms are the keys of platform_overrides that a host matches (process.platform).
var Platforms = []string{"darwin", "linux", "win32"}

// Client names the host vouch reports support for. Its rules come from the MCPB tooling,
// not from a Claude Desktop build: the support answer says so.
const (
	clientDesktop = model.ClientClaudeDesktop
	basis         = "mcpb 2.1.2"
)

// userOption is one user_config entry as the host reads it.
type userOption struct {
	Key                           string
	Type, Title, Description      string
	Required, Sensitive, Multiple bool
	Default                       *jsontext.Value
}

// launch is the server's command line for one platform.
type launch struct {
	Command string
	Args    []string
	Env     [][2]string // in declaration order, last occurrence of a name kept
}

// serverDecl is what the manifest declares about the bundle's one server, read once and
// used by the details, the summary, the contract and the not-covered list.
type serverDecl struct {
	c     *model.Component
	typ   string // server.type
	entry string // server.entry_point
	cfg   *jsontext.Value
	base  launch // mcp_config as written
	opts  []userOption
	vars  func(platform string) []variable

	overrides        model.Fields      // each platform's effective launch, expanded, for display
	overrideMap      map[string]any    // each platform's effective launch, for the contract
	overrideLaunches map[string]launch // each platform's effective launch
	tools, prompts   []string
}

// build makes the bundle's server component: what it declares, the plain-language
// account, and, when the manifest passes and every file is bound, its contract.
func (b *bundle) build() {
	m := b.manifest
	d := &serverDecl{c: &model.Component{Kind: model.KindMCPServer, ID: b.pkg.Name, Validity: model.Invalid}}
	c := d.c
	b.pkg.Components = append(b.pkg.Components, c)
	d.typ, _ = m.str("server", "type")
	d.entry, _ = m.str("server", "entry_point")
	if d.typ != "" {
		c.Details = append(c.Details, model.Field{Key: "server.type", Value: d.typ})
	}
	if d.entry != "" {
		c.Details = append(c.Details, model.Field{Key: "server.entry_point", Value: d.entry})
	}
	d.cfg = m.value("server", "mcp_config")
	d.base = readLaunch(d.cfg)
	d.opts = readUserConfig(m.value("user_config"))
	d.vars = b.launchVars(d.opts)
	if d.cfg != nil {
		launchDetails(c, d.base, d.vars)
	}
	b.platformOverrides(d)
	userConfigDetails(c, d.opts)
	d.tools, d.prompts = declared(m.value("tools")), declared(m.value("prompts"))
	if len(d.tools) > 0 {
		c.Details = append(c.Details, model.Field{Key: "tools (declared, not enforced)", Value: d.tools})
	}
	if len(d.prompts) > 0 {
		c.Details = append(c.Details, model.Field{Key: "prompts (declared, not enforced)", Value: d.prompts})
	}
	if b.sig != nil {
		c.Details = append(c.Details, model.Field{Key: "signature", Value: fmt.Sprintf("MCPB_SIG_V1 block, %d-byte PKCS#7 (not verified by vouch)", b.sig.Length)})
	}
	b.account(d)
	c.Support = b.support()
	c.Diagnostics = append(c.Diagnostics, b.closureDiags...)
	b.bind(d)
}

// launchVars gives the variables the host substitutes on a platform: the extension
// folder, separators, home folders and each user_config default.
func (b *bundle) launchVars(opts []userOption) func(platform string) []variable {
	dir := b.pkg.Root
	if b.archive {
		dir = "<extension folder>"
	}
	home := b.opts.Home
	if home == "" {
		if h, err := os.UserHomeDir(); err == nil {
			home = h
		} else {
			home = "~"
		}
	}
	return func(platform string) []variable {
		sep, hj := "/", func(s string) string { return home + "/" + s }
		if platform == "win32" {
			sep, hj = "\\", func(s string) string { return home + "\\" + s }
		}
		vs := []variable{{"__dirname", []string{dir}, false}, {"pathSeparator", []string{sep}, false}, {"/", []string{sep}, false},
			{"HOME", []string{home}, false}, {"DESKTOP", []string{hj("Desktop")}, false}, {"DOCUMENTS", []string{hj("Documents")}, false}, {"DOWNLOADS", []string{hj("Downloads")}, false}}
		for _, o := range opts {
			if o.Default == nil {
				continue
			}
			vs = append(vs, variable{"user_config." + o.Key, defaultStrings(o.Default), o.Default.Kind == jsontext.Array})
		}
		return vs
	}
}

// launchDetails lists the command line as written and, where substitution changes it,
// as the host runs it.
func launchDetails(c *model.Component, base launch, vars func(string) []variable) {
	c.Details = append(c.Details, model.Field{Key: "command", Value: base.Command})
	exp := base.expand(vars(""))
	if exp.Command != base.Command {
		c.Details = append(c.Details, model.Field{Key: "command (expanded)", Value: exp.Command})
	}
	if base.Args != nil {
		c.Details = append(c.Details, model.Field{Key: "args", Value: base.Args})
		if !slices.Equal(exp.Args, base.Args) {
			c.Details = append(c.Details, model.Field{Key: "args (expanded)", Value: exp.Args})
		}
	}
	if base.Env != nil {
		c.Details = append(c.Details, model.Field{Key: "env", Value: envFields(base.Env)})
		if fmt.Sprint(exp.Env) != fmt.Sprint(base.Env) {
			c.Details = append(c.Details, model.Field{Key: "env (expanded)", Value: envFields(exp.Env)})
		}
	}
}

// platformOverrides reads server.mcp_config.platform_overrides: each platform's launch is
// the base with the override's fields replaced; a key that is no platform never applies.
func (b *bundle) platformOverrides(d *serverDecl) {
	d.overrides, d.overrideMap, d.overrideLaunches = model.Fields{}, map[string]any{}, map[string]launch{}
	po := d.cfg.Get("platform_overrides")
	if po == nil || po.Val.Kind != jsontext.Object {
		return
	}
	for _, mem := range po.Val.Obj {
		if mem.Val.Kind != jsontext.Object {
			continue
		}
		eff := d.base.override(readLaunch(mem.Val))
		d.overrideLaunches[mem.Key] = eff
		exp := eff.expand(d.vars(mem.Key))
		d.overrides = append(d.overrides, model.Field{Key: mem.Key + " (effective, expanded)", Value: exp.fields()})
		d.overrideMap[mem.Key] = eff.contract()
		if !slices.Contains(Platforms, mem.Key) {
			b.pkg.Diagnostics = append(b.pkg.Diagnostics, mdiag("platform-override-unknown", model.SeverityWarning, model.BoundaryEntry,
				jsontext.Pointer("server", "mcp_config", "platform_overrides", mem.Key), jsontext.Line(b.manifest.Data, mem.KeyOff),
				fmt.Sprintf("platform_overrides has the key %q, which is no platform a host reports (darwin, linux, win32); it never applies.", clip(mem.Key))))
		}
	}
	if len(d.overrides) > 0 {
		d.c.Details = append(d.c.Details, model.Field{Key: "platform_overrides", Value: d.overrides})
	}
}

// userConfigDetails lists each user_config option as the host reads it.
func userConfigDetails(c *model.Component, opts []userOption) {
	if len(opts) == 0 {
		return
	}
	uc := model.Fields{}
	for _, o := range opts {
		f := model.Fields{{Key: "type", Value: o.Type}, {Key: "title", Value: o.Title}, {Key: "description", Value: o.Description},
			{Key: "required", Value: o.Required}, {Key: "sensitive", Value: o.Sensitive}, {Key: "multiple", Value: o.Multiple}}
		if o.Default != nil {
			f = append(f, model.Field{Key: "default", Value: display(o.Default)})
		}
		uc = append(uc, model.Field{Key: o.Key, Value: f})
	}
	c.Details = append(c.Details, model.Field{Key: "user_config", Value: uc})
}

// account is the plain-language summary: what starts, with which files, environment,
// overrides and user answers, and what no approval binds.
func (b *bundle) account(d *serverDecl) {
	c, base := d.c, d.base
	exp := base.expand(d.vars(""))
	cmdline := strings.TrimSpace(strings.Join(append([]string{exp.Command}, exp.Args...), " "))
	if d.cfg != nil {
		c.Summary = append(c.Summary, fmt.Sprintf("Starts `%s` as a local process when %s enables the extension (literal: `%s`).", cmdline, model.ClientName(clientDesktop),
			strings.TrimSpace(strings.Join(append([]string{base.Command}, base.Args...), " "))))
	}
	if bundled := b.bundledCommand(exp.Command); bundled != "" {
		c.Summary = append(c.Summary, fmt.Sprintf("Runs the bundled file %s.", bundled))
	}
	if d.entry != "" {
		b.entryPoint(c, d.entry)
	}
	if len(exp.Env) > 0 {
		names := envNames(exp.Env)
		c.Summary = append(c.Summary, "Passes environment variables "+strings.Join(names, ", ")+" to the process.")
		c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapEnv, Scope: names, Detail: "Passes environment variables " + strings.Join(names, ", ") + " to the process."})
	}
	if len(d.overrides) > 0 {
		keys := make([]string, 0, len(d.overrideMap))
		for k := range d.overrideMap {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		c.Summary = append(c.Summary, "On "+strings.Join(keys, ", ")+" the host launches the platform override instead (see platform_overrides).")
	}
	userConfigAccount(c, d.opts)
	if len(d.tools)+len(d.prompts) > 0 {
		c.Summary = append(c.Summary, fmt.Sprintf("Declares %d tool(s) and %d prompt(s) in the manifest for display only: the host does not enforce the list, so the running server may offer other tools and prompts.", len(d.tools), len(d.prompts)))
	}
	if d.cfg != nil {
		c.NotCovered = b.notCovered(base, d.overrideLaunches, d.vars, d.opts)
		if len(c.NotCovered) > 0 {
			c.Summary = append(c.Summary, closure.SummaryLine(len(c.NotCovered)))
		}
		c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapServerLaunch, Scope: []string{base.Command},
			Detail: fmt.Sprintf("Starts `%s` as a local stdio MCP server when the extension is enabled.", cmdline)})
	}
}

// entryPoint says which bundle file server.entry_point names, or warns that it names none.
func (b *bundle) entryPoint(c *model.Component, entry string) {
	if rel := b.bundleFile(entry); rel != "" {
		c.Summary = append(c.Summary, fmt.Sprintf("Its entry point is the bundle file %s.", rel))
		return
	}
	b.pkg.Diagnostics = append(b.pkg.Diagnostics, mdiag("entry-point-missing", model.SeverityWarning, model.BoundaryComponent, "/server/entry_point", line(b.manifest, "server", "entry_point"),
		fmt.Sprintf("server.entry_point %q is not a file of the bundle; mcpb validate does not check it, but the server is unlikely to start.", clip(entry))))
}

// userConfigAccount says what the host asks the user at install and where the answers go.
func userConfigAccount(c *model.Component, opts []userOption) {
	if len(opts) == 0 {
		return
	}
	var keys, sensitive, required []string
	for _, o := range opts {
		keys = append(keys, o.Key)
		if o.Sensitive {
			sensitive = append(sensitive, o.Key)
		}
		if o.Required {
			required = append(required, o.Key)
		}
	}
	s := fmt.Sprintf("Asks the user at install for %s; the answers are substituted into the command line and environment.", strings.Join(keys, ", "))
	if len(sensitive) > 0 {
		s += " Sensitive (stored as secrets and handed to the server): " + strings.Join(sensitive, ", ") + "."
	}
	if len(required) > 0 {
		s += " Required (without them the host does not start the server at all): " + strings.Join(required, ", ") + "."
	}
	c.Summary = append(c.Summary, s)
	for _, o := range opts {
		if o.Multiple {
			c.Summary = append(c.Summary, fmt.Sprintf("%s takes several values; an argument that is exactly ${user_config.%s} becomes one argument per value.", o.Key, o.Key))
		}
		if o.Type == "directory" || o.Type == "file" {
			c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapFilesystemRead, Scope: []string{"user_config." + o.Key},
				Detail: fmt.Sprintf("Receives the %s the user picks for %q; what it does there is up to the server.", o.Type, o.Title)})
		}
	}
}

// bind decides the component's validity and, when every file is bound, its contract:
// blocked when the manifest fails or a file cannot be bound.
func (b *bundle) bind(d *serverDecl) {
	c := d.c
	if b.invalid || d.cfg == nil {
		c.Summary = append([]string{"Blocked: the manifest does not pass mcpb validate (see the package diagnostics), so it cannot be approved."}, c.Summary...)
		return
	}
	c.Validity = model.Valid
	if !b.complete {
		c.Summary = append(c.Summary, "Blocked: vouch could not bind every file of the bundle (see the diagnostics), so an approval could not cover everything this server may run; it cannot be approved.")
		return
	}
	ucContract := map[string]any{}
	for _, o := range d.opts {
		e := map[string]any{"type": o.Type, "required": o.Required, "sensitive": o.Sensitive, "multiple": o.Multiple}
		if o.Default != nil {
			e["default"] = canonicalValue(o.Default)
		}
		ucContract[o.Key] = e
	}
	c.Files = b.files
	c.Contract = &model.Contract{Kind: model.KindMCPServer, Fields: model.Fields{
		{Key: "manifest_version", Value: b.manifest.Version},
		{Key: "server.type", Value: d.typ},
		{Key: "server.entry_point", Value: d.entry},
		{Key: "mcp_config", Value: d.base.contract()},
		{Key: "platform_overrides", Value: d.overrideMap},
		{Key: "user_config", Value: ucContract},
	}, Files: b.files}
	c.Summary = append(c.Summary, "Runs with the bundle's files: every file of the bundle (only manifest.json is covered by the fields above instead) is part of what you approve; editing any of them needs a new approval.")
}

func (b *bundle) support() []model.Support {
	s := model.Support{Provider: clientDesktop, Version: basis, Status: model.Supported,
		Detail: "Judged by the rules of @anthropic-ai/mcpb 2.1.2 (strict manifest schemas 0.1–0.4, its variable substitution and pack format), the tooling Claude Desktop's extensions are built with; no Claude Desktop build was run."}
	if b.invalid {
		s.Status, s.Detail = model.NotSupported, "mcpb 2.1.2 rejects this manifest (see the diagnostics); a host that validates the same way does not install it."
	}
	if p := b.manifest.value("compatibility", "platforms"); p != nil && p.Kind == jsontext.Array && s.Status == model.Supported {
		var ps []string
		for _, e := range p.Arr {
			ps = append(ps, e.Str)
		}
		s.Detail += " The bundle declares the platforms " + strings.Join(ps, ", ") + "."
	}
	if v, ok := b.manifest.str("compatibility", "claude_desktop"); ok && s.Status == model.Supported {
		s.Detail += fmt.Sprintf(" It asks for Claude Desktop %s.", v)
	}
	return []model.Support{s}
}

// bundledCommand names the bundle file the expanded command runs, if it is one.
func (b *bundle) bundledCommand(cmd string) string {
	root := b.pkg.Root
	if b.archive {
		root = "<extension folder>"
	}
	rel := ""
	switch {
	case strings.HasPrefix(cmd, root+"/"):
		rel = strings.TrimPrefix(cmd, root+"/")
	case !strings.Contains(cmd, "/") && !strings.Contains(cmd, "\\"):
		return ""
	default:
		return ""
	}
	rel = filepath.ToSlash(filepath.Clean(rel))
	for _, f := range b.files {
		if f.Path == rel {
			return rel
		}
	}
	return ""
}

// bundleFile returns the closure path of a bundle-relative path, or "" when the bundle
// has no such file.
func (b *bundle) bundleFile(p string) string {
	rel := filepath.ToSlash(filepath.Clean(strings.TrimPrefix(p, "${__dirname}/")))
	for _, f := range b.files {
		if f.Path == rel {
			return rel
		}
	}
	return ""
}

func readLaunch(v *jsontext.Value) launch {
	var l launch
	if v == nil || v.Kind != jsontext.Object {
		return l
	}
	if c := v.Get("command"); c != nil && c.Val.Kind == jsontext.String {
		l.Command = c.Val.Str
	}
	if a := v.Get("args"); a != nil && a.Val.Kind == jsontext.Array {
		l.Args = []string{}
		for _, e := range a.Val.Arr {
			if e.Kind == jsontext.String {
				l.Args = append(l.Args, e.Str)
			}
		}
	}
	if e := v.Get("env"); e != nil && e.Val.Kind == jsontext.Object {
		l.Env = [][2]string{}
		idx := map[string]int{}
		for _, mem := range e.Val.Obj {
			if mem.Val.Kind != jsontext.String {
				continue
			}
			if i, ok := idx[mem.Key]; ok {
				l.Env[i][1] = mem.Val.Str
				continue
			}
			idx[mem.Key] = len(l.Env)
			l.Env = append(l.Env, [2]string{mem.Key, mem.Val.Str})
		}
	}
	return l
}

// override applies a platform override as getMcpConfigForManifest does: each of
// command, args and env replaces the base one when it is truthy in JavaScript (an empty
// command string does not; an empty array or object does).
func (l launch) override(o launch) launch {
	out := l
	if o.Command != "" {
		out.Command = o.Command
	}
	if o.Args != nil {
		out.Args = o.Args
	}
	if o.Env != nil {
		out.Env = o.Env
	}
	return out
}

func (l launch) contract() map[string]any {
	args := l.Args
	if args == nil {
		args = []string{}
	}
	env := map[string]string{}
	for _, kv := range l.Env {
		env[kv[0]] = kv[1]
	}
	return map[string]any{"command": l.Command, "args": args, "env": env}
}

func (l launch) fields() model.Fields {
	f := model.Fields{{Key: "command", Value: l.Command}}
	if l.Args != nil {
		f = append(f, model.Field{Key: "args", Value: l.Args})
	}
	if l.Env != nil {
		f = append(f, model.Field{Key: "env", Value: envFields(l.Env)})
	}
	return f
}

// variable is one substitution: a name and its value (several for a multi-valued
// user_config default, which is kept as an array).
type variable struct {
	Name  string
	Vals  []string
	Array bool
}

var wholeUserConfig = lazyre.New(`^\$\{user_config\.[^}]+\}$`)

// userConfigRef finds ${user_config.KEY} left in a value (no default to substitute).
var userConfigRef = lazyre.New(`\$\{user_config\.([^}]+)\}`)

// expand substitutes the variables as mcpb's replaceVariables does, in the host's order
// (__dirname, pathSeparator, /, the system folders, then user_config): one pass per
// variable over each string, so a value inserted earlier can be expanded by a later
// variable; an array value is never put inside a string; an argument that is exactly
// ${user_config.KEY} becomes every value of KEY; anything unknown is left verbatim.
func (l launch) expand(vars []variable) launch {
	out := launch{Command: expandString(l.Command, vars)}
	if l.Args != nil {
		out.Args = []string{}
		for _, a := range l.Args {
			if wholeUserConfig.MatchString(a) {
				name := a[2 : len(a)-1]
				if v := lookup(vars, name); v != nil && (v.Array || len(v.Vals) == 1 && v.Vals[0] != "") {
					out.Args = append(out.Args, v.Vals...)
					continue
				}
				out.Args = append(out.Args, a)
				continue
			}
			out.Args = append(out.Args, expandString(a, vars))
		}
	}
	if l.Env != nil {
		out.Env = [][2]string{}
		for _, kv := range l.Env {
			out.Env = append(out.Env, [2]string{kv[0], expandString(kv[1], vars)})
		}
	}
	return out
}

func lookup(vars []variable, name string) *variable {
	for i := range vars {
		if vars[i].Name == name {
			return &vars[i]
		}
	}
	return nil
}

func expandString(s string, vars []variable) string {
	for _, v := range vars {
		pat := "${" + v.Name + "}"
		if !strings.Contains(s, pat) || v.Array {
			continue
		}
		s = strings.ReplaceAll(s, pat, v.Vals[0])
	}
	return s
}

func readUserConfig(v *jsontext.Value) []userOption {
	if v == nil || v.Kind != jsontext.Object {
		return nil
	}
	var out []userOption
	idx := map[string]int{}
	for _, mem := range v.Obj {
		if mem.Val.Kind != jsontext.Object {
			continue
		}
		o := userOption{Key: mem.Key}
		get := func(k string) *jsontext.Value {
			if m := mem.Val.Get(k); m != nil {
				return m.Val
			}
			return nil
		}
		str := func(k string) string {
			if x := get(k); x != nil && x.Kind == jsontext.String {
				return x.Str
			}
			return ""
		}
		boolean := func(k string) bool {
			x := get(k)
			return x != nil && x.Kind == jsontext.Bool && x.Bool
		}
		o.Type, o.Title, o.Description = str("type"), str("title"), str("description")
		o.Required, o.Sensitive, o.Multiple = boolean("required"), boolean("sensitive"), boolean("multiple")
		if d := get("default"); d != nil && d.Kind != jsontext.Null && d.Kind != jsontext.Object {
			o.Default = d
		}
		if i, ok := idx[mem.Key]; ok {
			out[i] = o
			continue
		}
		idx[mem.Key] = len(out)
		out = append(out, o)
	}
	return out
}

// defaultStrings converts a default as the host does: booleans to "true"/"false",
// numbers with JavaScript's String(), arrays element by element.
func defaultStrings(v *jsontext.Value) []string {
	switch v.Kind {
	case jsontext.Array:
		out := []string{}
		for _, e := range v.Arr {
			out = append(out, defaultStrings(e)...)
		}
		return out
	case jsontext.Bool:
		return []string{strconv.FormatBool(v.Bool)}
	case jsontext.Number:
		return []string{jsNumber(v.Float())}
	case jsontext.String:
		return []string{v.Str}
	}
	return []string{""}
}

func jsNumber(f float64) string {
	if b, err := model.CanonicalJSON(f); err == nil {
		return string(b)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func canonicalValue(v *jsontext.Value) any {
	switch v.Kind {
	case jsontext.Array:
		out := make([]any, len(v.Arr))
		for i, e := range v.Arr {
			out[i] = canonicalValue(e)
		}
		return out
	case jsontext.Bool:
		return v.Bool
	case jsontext.Number:
		return jsNumber(v.Float())
	case jsontext.String:
		return v.Str
	}
	return nil
}

// declared lists tools or prompts as "name: description" lines.
func declared(v *jsontext.Value) []string {
	if v == nil || v.Kind != jsontext.Array {
		return nil
	}
	var out []string
	for _, e := range v.Arr {
		if e.Kind != jsontext.Object {
			continue
		}
		name, desc := "", ""
		if n := e.Get("name"); n != nil && n.Val.Kind == jsontext.String {
			name = n.Val.Str
		}
		if d := e.Get("description"); d != nil && d.Val.Kind == jsontext.String {
			desc = d.Val.Str
		}
		if desc != "" {
			name += ": " + desc
		}
		out = append(out, name)
	}
	return out
}

func envFields(env [][2]string) model.Fields {
	f := model.Fields{}
	for _, kv := range env {
		f = append(f, model.Field{Key: kv[0], Value: kv[1]})
	}
	return f
}

func envNames(env [][2]string) []string {
	var out []string
	for _, kv := range env {
		out = append(out, kv[0])
	}
	sort.Strings(out)
	return out
}
