package claudecode

import (
	"fmt"
	"maps"
	"net/url"
	"path"
	"slices"
	"strings"

	"vouch/model"
	"vouch/review/jsontext"
)

// serverSource is one place MCP (or LSP) servers come from.
type serverSource struct {
	file    string
	data    []byte
	base    []string // pointer to the server map
	servers *jsontext.Value
	codex   string // why Codex does not read it ("" when it does)
	rank    int    // place in Claude's merge order (placedServer)
	entry   bool   // the servers of a marketplace entry (inline, in marketplace.json)
}

// mcpStep lists the MCP servers of .mcp.json and of the manifest's mcpServers (paths,
// inline objects, a list, or .mcpb/.dxt bundle paths), merged as Claude merges them.
func (l *loader) mcpStep() {
	l.mcpNames = map[string]int{}
	l.mcpPlaced = nil
	manifestMCP := l.paths["mcpServers"] != nil
	for i, p := range l.paths["mcpServers"] {
		low := strings.ToLower(p)
		if strings.HasSuffix(low, ".mcpb") || strings.HasSuffix(low, ".dxt") {
			l.mcpBundle(p)
			continue
		}
		if p == mcpFile {
			continue
		}
		if src := l.serverFile(p, "mcp", true); src != nil {
			src.rank = 1 + l.pathOrder["mcpServers"][i]
			src.codex = l.codexServerSkip(p)
			l.mcpServers(src)
		}
	}
	for _, u := range l.remoteBundles {
		l.mcpRemoteBundle(u)
	}
	for _, iv := range l.inline["mcpServers"] {
		file, data := l.inlineSrc(iv)
		src := &serverSource{file: file, data: data, base: jsontext.SplitPointer(iv.ptr), servers: iv.v, rank: 1 + iv.order, codex: l.codexServerSkip(file)}
		if w := iv.v.Get("mcpServers"); w != nil && w.Val.Kind == jsontext.Object {
			src.servers, src.base = w.Val, append(src.base, "mcpServers")
		}
		l.mcpServers(src)
	}
	// .mcp.json after the manifest's servers: the order claude plugin validate lists them.
	if l.rootHas(mcpFile) {
		if src := l.serverFile(mcpFile, "mcp", true); src != nil {
			if manifestMCP {
				src.codex = "Codex reads the manifest's mcpServers instead of .mcp.json (the manifest path replaces the default there)."
			}
			if l.manifest != nil && l.otherManifest == "" && l.codexLoadsDefault("mcpServers") {
				src.codex = "" // a list Codex ignores: it reads .mcp.json after all
			}
			l.mcpServers(src)
		}
	}
	l.markHiddenServers()
}

// markHiddenServers answers, for each name several servers share, which one Claude Code
// runs: it merges .mcp.json first and then the manifest's mcpServers in list order, a
// later server replacing an earlier one of the same name (observed offline: `claude
// --plugin-dir P mcp list` shows one server per name, the last in that order). The others
// never start under Claude, so they are not supported there.
func (l *loader) markHiddenServers() {
	winner := map[string]*placedServer{}
	count := map[string]int{}
	for i := range l.mcpPlaced {
		p := &l.mcpPlaced[i]
		count[p.name]++
		if p.c.Validity != model.Valid {
			// An invalid server is dropped at load; whether it still replaces an earlier
			// one was not observed, so the earlier one is kept as running.
			continue
		}
		if w := winner[p.name]; w == nil || p.rank >= w.rank {
			winner[p.name] = p
		}
	}
	for i := range l.mcpPlaced {
		p := &l.mcpPlaced[i]
		if count[p.name] < 2 {
			continue
		}
		w := winner[p.name]
		msg := fmt.Sprintf("%d MCP servers are named %q; `claude plugin validate` lists them all, but "+claudeSeen+" keeps one server per name, the last in its merge order (.mcp.json first, then the manifest's mcpServers in order; observed with `claude --plugin-dir P mcp list`)", count[p.name], clip(p.name))
		switch {
		case w == p:
			msg += ": this one, which replaces the others."
		case w != nil:
			msg += fmt.Sprintf(": %s in %s, so this one never starts there.", w.c.ID, displayFile(w.file))
		default:
			msg += "."
		}
		p.c.Diagnostics = append(p.c.Diagnostics, model.Place{File: p.file, Pointer: p.ptr, Line: p.line}.Component("mcp-server-duplicate-name", model.SeverityWarning, msg, specRef("1.5")))
		if w == nil || w == p {
			continue
		}
		for k := range p.c.Support {
			if p.c.Support[k].Provider == clientClaude {
				p.c.Support[k] = model.Support{Provider: clientClaude, Version: ClaudeVersion, Status: model.NotSupported,
					Detail: fmt.Sprintf("Claude Code runs %s instead (a later server of the name %q replaces this one: .mcp.json is merged first, then the manifest's mcpServers in order), so this one never starts.", w.c.ID, clip(p.name))}
			}
		}
	}
}

// placedServer is an MCP server with its name, where it is defined and its place in
// Claude's merge order.
type placedServer struct {
	c    *model.Component
	name string
	rank int
	file string
	ptr  string
	line int
}

// serverFile reads a server file: {"mcpServers"|"lspServers": {...}} or a flat map.
func (l *loader) serverFile(rel, kind string, wrapped bool) *serverSource {
	doc, data, issues, missing, ok := l.parseJSON(rel, kind+"-file", model.BoundaryComponentType, "its servers are not loaded")
	if missing || !ok {
		return nil
	}
	for _, is := range issues {
		sev := model.SeverityError
		if is.Code == jsontext.CodeDuplicateKey {
			sev = model.SeverityWarning
		}
		l.pkgDiag(model.Place{File: rel, Pointer: is.Pointer, Line: jsontext.Line(data, is.Off)}.ComponentType(kind+"-file-"+strings.TrimPrefix(is.Code, "json-"), sev,
			fmt.Sprintf("In %s, %s.", rel, is.Msg), specRef("1.5")))
	}
	if doc.Kind != jsontext.Object {
		l.pkgDiag(model.Place{File: rel, Line: jsontext.Line(data, doc.Off)}.ComponentType(kind+"-file-not-object", model.SeverityError,
			fmt.Sprintf("%s holds a JSON %s; it must be an object, so its servers are not loaded.", rel, doc.Kind), specRef("1.5")))
		return nil
	}
	src := &serverSource{file: rel, data: data, servers: doc}
	key := "mcpServers"
	if kind == "lsp" {
		key = "lspServers"
	}
	if w := doc.Get(key); wrapped && w != nil && w.Val.Kind == jsontext.Object {
		src.servers, src.base = w.Val, []string{key}
	}
	return src
}

func (l *loader) mcpServers(src *serverSource) {
	for _, m := range src.servers.Firsts() {
		mm := src.servers.Get(m.Key)
		l.pkg.Components = append(l.pkg.Components, l.mcpServer(src, *mm))
	}
}

// uniqueID gives a server its name, or name~N when another source used the name already.
func (l *loader) uniqueID(names map[string]int, name string) (string, int) {
	names[name]++
	n := names[name]
	if n == 1 {
		return name, 1
	}
	return fmt.Sprintf("%s~%d", name, n), n
}

// serverBuild is one MCP server's component while its fields are read.
type serverBuild struct {
	l    *loader
	src  *serverSource
	name string
	v    *jsontext.Value // the server object
	ptr  string
	line int
	c    *model.Component

	flowIn   []string           // environment variables its configuration reads
	runs     []string           // what runs on this machine: the command and args, or the headersHelper
	nc       []model.NotCovered // what the process (or the headersHelper) depends on that no approval binds
	contract model.Fields
	// claudeDrops: Claude Code drops the server at load while Codex reads it.
	claudeDrops bool
}

func (b *serverBuild) bad(code, msg string) {
	b.c.Diagnostics = append(b.c.Diagnostics, model.Place{File: b.src.file, Pointer: b.ptr, Line: b.line}.Component(code, model.SeverityError, msg, specRef("1.5")))
}

func (b *serverBuild) warn(code, msg string) {
	b.c.Diagnostics = append(b.c.Diagnostics, model.Place{File: b.src.file, Pointer: b.ptr, Line: b.line}.Component(code, model.SeverityWarning, msg, specRef("1.5")))
}

// mcpServer builds the component of one server of an MCP server map: an invalid one as
// soon as its shape or type is wrong, else a local process or a remote connection with
// its contract, and the files a process binds.
func (l *loader) mcpServer(src *serverSource, m jsontext.Member) *model.Component {
	name := m.Key
	id, _ := l.uniqueID(l.mcpNames, name)
	b := &serverBuild{l: l, src: src, name: name, v: m.Val, c: &model.Component{Kind: model.KindMCPServer, ID: id}}
	b.ptr = jsontext.Pointer(append(append([]string(nil), src.base...), name)...)
	b.line = l.line(src.data, m.KeyOff)
	l.mcpPlaced = append(l.mcpPlaced, placedServer{c: b.c, name: name, rank: src.rank, file: src.file, ptr: b.ptr, line: b.line})
	b.c.Details = model.Fields{{Key: "name", Value: name}, {Key: "file", Value: displayFile(src.file)}}
	typ, ok := b.serverType()
	if !ok {
		return l.serverInvalid(b.c)
	}
	b.c.Details = append(b.c.Details, model.Field{Key: "type", Value: typ})
	if typ == "stdio" {
		b.stdio()
	} else {
		b.remote(typ)
	}
	return b.finish(typ)
}

// serverType is the transport Claude reads the server as: stdio when "type" is absent,
// http for streamable-http. False when the server cannot load for its type.
func (b *serverBuild) serverType() (string, bool) {
	v, name := b.v, clip(b.name)
	if v.Kind != jsontext.Object {
		b.bad("mcp-server-not-object", fmt.Sprintf("Server %q is a JSON %s, not an object, so it is not loaded.", name, v.Kind))
		return "", false
	}
	typ, hasType := strVal(v, "type")
	if tm := v.Get("type"); tm != nil && !hasType {
		b.bad("mcp-server-type", fmt.Sprintf("Server %q has a %s \"type\"; it must be stdio, http, sse or ws.", name, tm.Val.Kind))
		return "", false
	}
	if !hasType {
		if v.Get("url") != nil {
			// The clients part here: Claude Code reads a server without a type as stdio and
			// drops it for lacking a command, while Codex picks the transport from the
			// fields and connects over streamable HTTP (recorded: plugin/read lists it).
			b.claudeDrops = true
			b.c.Details = append(b.c.Details, model.Field{Key: "type (as Codex reads it)", Value: "http"})
			b.warn("mcp-server-url-without-type", fmt.Sprintf("Server %q has a url but no type. "+claudeSeen+" reads it as a stdio server, which fails for lacking a command, and silently drops it at load (`claude plugin validate` fails the whole plugin for it; the plugin's other servers and components load). %s connect to it over streamable HTTP. Add \"type\": \"http\" (or sse, ws).", name, model.Releases(model.ClientCodex, model.Codex169)))
			return "http", true
		}
		return "stdio", true
	}
	switch typ {
	case "stdio", "http", "sse", "ws":
		return typ, true
	case "streamable-http":
		b.c.Details = append(b.c.Details, model.Field{Key: "type (as written)", Value: "streamable-http"})
		return "http", true
	}
	b.bad("mcp-server-type", fmt.Sprintf("Server %q has the type %q; it must be stdio, http (streamable-http), sse or ws, so it is not loaded.", name, clip(typ)))
	return "", false
}

// strs reads an array of strings; another shape is an error and reads as absent.
func (b *serverBuild) strs(k string) ([]string, bool) {
	am := b.v.Get(k)
	if am == nil {
		return nil, false
	}
	if am.Val.Kind != jsontext.Array {
		b.bad("mcp-server-field-type", fmt.Sprintf("%q of server %q is a %s; it must be an array of strings.", k, clip(b.name), am.Val.Kind))
		return nil, false
	}
	out := []string{}
	for _, a := range am.Val.Arr {
		if a.Kind != jsontext.String {
			b.bad("mcp-server-field-type", fmt.Sprintf("%q of server %q holds a %s; it must hold strings.", k, clip(b.name), a.Kind))
			return nil, false
		}
		out = append(out, a.Str)
	}
	return out, true
}

// strMap reads an object of strings: the values, the entries as written, and whether the
// field is an object; an entry that is not a string is an error and left out.
func (b *serverBuild) strMap(k string) (map[string]string, model.Fields, bool) {
	mm := b.v.Get(k)
	if mm == nil {
		return map[string]string{}, nil, false
	}
	if mm.Val.Kind != jsontext.Object {
		b.bad("mcp-server-field-type", fmt.Sprintf("%q of server %q is a %s; it must be an object of strings.", k, clip(b.name), mm.Val.Kind))
		return map[string]string{}, nil, false
	}
	out, lit := map[string]string{}, model.Fields{}
	for _, e := range mm.Val.Obj {
		if e.Val.Kind != jsontext.String {
			b.bad("mcp-server-field-type", fmt.Sprintf("%s.%s of server %q is a %s; it must be a string.", k, clip(e.Key), clip(b.name), e.Val.Kind))
			continue
		}
		out[e.Key] = e.Val.Str
		lit = append(lit, model.Field{Key: e.Key, Value: e.Val.Str})
	}
	return out, lit, true
}

// stdio reads a local server: the process Claude starts, its environment and folder.
func (b *serverBuild) stdio() {
	c, l := b.c, b.l
	cmd, hasCmd := strVal(b.v, "command")
	if !hasCmd {
		b.bad("mcp-server-missing-command", fmt.Sprintf("Stdio server %q has no string \"command\", so it is not loaded.", clip(b.name)))
	}
	args, _ := b.strs("args")
	env, envLit, hasEnv := b.strMap("env")
	cwd, hasCwd := strVal(b.v, "cwd")
	c.Details = append(c.Details, model.Field{Key: "command", Value: cmd})
	if x, ok := l.expandedField(cmd); ok {
		c.Details = append(c.Details, model.Field{Key: "command (expanded)", Value: x})
	}
	if args != nil {
		c.Details = append(c.Details, model.Field{Key: "args", Value: args})
		if exp, changed := l.expandAll(args); changed {
			c.Details = append(c.Details, model.Field{Key: "args (expanded)", Value: exp})
		}
	} else {
		args = []string{}
	}
	if hasEnv {
		c.Details = append(c.Details, model.Field{Key: "env", Value: envLit})
	}
	if hasCwd {
		c.Details = append(c.Details, model.Field{Key: "cwd", Value: cwd})
	}
	b.flowIn = envFlow(append(append([]string{cmd, cwd}, args...), mapValues(env)...)...)
	b.runs = append(append(b.runs, cmd), args...)
	b.contract = model.Fields{{Key: "type", Value: "stdio"}, {Key: "command", Value: cmd}, {Key: "args", Value: args}, {Key: "env", Value: env}, {Key: "cwd", Value: cwd}}
	launch := strings.TrimSpace(strings.Join(append([]string{cmd}, args...), " "))
	c.Summary = append(c.Summary, fmt.Sprintf("Starts `%s` as a local process when %s loads the plugin.", launch, claudeSeen))
	c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapServerLaunch, Scope: []string{cmd}, Detail: fmt.Sprintf("Starts `%s` as a local MCP server process.", launch)})
	b.nc = l.stdioNotCovered(cmd, args, env, cwd)
	if len(env) > 0 {
		names := slices.Sorted(maps.Keys(env))
		c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapEnv, Scope: names, Detail: "Sets " + strings.Join(names, ", ") + " for the process."})
	}
}

// remote reads an http, sse or ws server: where Claude connects, with which headers.
func (b *serverBuild) remote(typ string) {
	c, l := b.c, b.l
	u, hasURL := strVal(b.v, "url")
	if !hasURL {
		b.bad("mcp-server-missing-url", fmt.Sprintf("Remote server %q (%s) has no string \"url\", so it is not loaded.", clip(b.name), typ))
	}
	headers, hdrLit, hasHdr := b.strMap("headers")
	helper, hasHelper := strVal(b.v, "headersHelper")
	c.Details = append(c.Details, model.Field{Key: "url", Value: u})
	if x, ok := l.expandedField(u); ok {
		c.Details = append(c.Details, model.Field{Key: "url (expanded)", Value: x})
	}
	if hasHdr {
		c.Details = append(c.Details, model.Field{Key: "headers", Value: hdrLit})
	}
	host := ""
	if hasURL {
		host = b.urlHost(u)
	}
	b.flowIn = envFlow(append([]string{u, helper}, mapValues(headers)...)...)
	b.contract = model.Fields{{Key: "type", Value: typ}, {Key: "url", Value: u}, {Key: "headers", Value: headers}, {Key: "headersHelper", Value: helper}}
	c.Summary = append(c.Summary, fmt.Sprintf("Connects to %s (%s)%s.", u, typ, headerPhrase(slices.Sorted(maps.Keys(headers)))))
	c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapRemoteConnect, Scope: append([]string{host}, slices.Sorted(maps.Keys(headers))...), Detail: fmt.Sprintf("Connects to the MCP server at %s.", u)},
		model.Capability{Kind: model.CapNetwork, Scope: []string{host}, Detail: fmt.Sprintf("Opens network connections to %s.", host)})
	if hasHelper {
		b.headersHelper(helper)
	}
}

// urlHost is the host of the url as Claude expands it; a url that is not absolute (and
// holds no variable that could make it so) is an error.
func (b *serverBuild) urlHost(u string) string {
	pu, err := url.Parse(b.l.expand(u))
	if err == nil && pu.Scheme != "" && pu.Host != "" {
		return pu.Hostname()
	}
	if !strings.Contains(u, "${") {
		b.bad("mcp-server-url-invalid", fmt.Sprintf("Server %q has the url %q, which is not absolute, so it is not loaded.", clip(b.name), clip(u)))
	}
	return ""
}

// headersHelper records the shell command Claude runs to compute a remote server's headers.
func (b *serverBuild) headersHelper(helper string) {
	c := b.c
	c.Details = append(c.Details, model.Field{Key: "headersHelper", Value: helper})
	c.Summary = append(c.Summary, fmt.Sprintf("headersHelper runs the shell command `%s` on this machine to compute request headers.", helper))
	c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapSubprocess, Scope: []string{helper}, Detail: "Runs its headersHelper shell command to compute headers."})
	b.runs = append(b.runs, helper)
	for _, n := range b.l.shellNotCovered(helper, "Claude computes the headers", true) {
		n.Detail = "headersHelper: " + n.Detail
		b.nc = append(b.nc, n)
	}
	if userConfigVar.MatchString(helper) {
		b.bad("mcp-headers-helper-user-config", fmt.Sprintf("Server %q uses ${user_config.…} in headersHelper; Claude rejects that since 2.1.207.", clip(b.name)))
	}
}

// finish states the environment the configuration reads, and turns the gathered answers
// into the component: invalid when any error was found, else valid with its contract,
// what each client does with it, and the closure of what runs on this machine.
func (b *serverBuild) finish(typ string) *model.Component {
	c, l := b.c, b.l
	if len(b.flowIn) > 0 {
		flow := strings.Join(b.flowIn, ", ")
		c.Summary = append(c.Summary, "Environment variables flow into the server from the user's environment (Claude expands ${VAR} and ${VAR:-default} in .mcp.json): "+flow+".")
		c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapEnv, Scope: b.flowIn, Detail: "Reads " + flow + " from the user's environment into its configuration."})
		c.Details = append(c.Details, model.Field{Key: "environment read", Value: flow})
	}
	markNotCovered(c, b.nc)
	if hasErrors(c.Diagnostics) {
		return l.serverInvalid(c)
	}
	c.Validity = model.Valid
	contract := append(b.contract, model.Field{Key: "name", Value: b.name}, model.Field{Key: "file", Value: displayFile(b.src.file)})
	c.Contract = &model.Contract{Kind: model.KindMCPServer, Fields: contract}
	c.Support = l.mcpSupport(b.src, typ)
	if b.claudeDrops {
		c.Support[0] = model.Support{Provider: clientClaude, Version: ClaudeVersion, Status: model.NotSupported, Detail: "Claude Code reads a server without a type as stdio and drops it for lacking a command."}
	}
	if typ == "stdio" {
		codexLiteralRoot(c, b.warn)
	}
	if typ == "stdio" || b.v.Get("headersHelper") != nil {
		l.bindClosure(c, "server")
		l.namedFiles(c, strings.Join(b.runs, " "), b.src.file, b.ptr)
	}
	return c
}

func (l *loader) mcpSupport(src *serverSource, typ string) []model.Support {
	cl := model.Support{Provider: clientClaude, Version: ClaudeVersion, Status: model.Supported, Detail: "Claude Code starts or connects to it whenever the plugin is enabled."}
	cx := model.Support{Provider: clientCodex, Version: CodexVersion, Status: model.Supported, Detail: "Codex loads a Claude plugin's .mcp.json."}
	same := l.otherManifest != "" && src.file == mcpFile && l.codexLoadsDefault("mcpServers")
	if same {
		cx.Detail = l.codexAlsoLoads(mcpFile)
	}
	switch {
	case l.otherManifest != "" && !same:
		cx = model.Support{Provider: clientCodex, Version: CodexVersion, Status: model.NotSupported, Detail: l.codexReadsOther(".")}
	case src.codex != "":
		cx = model.Support{Provider: clientCodex, Version: CodexVersion, Status: model.NotSupported, Detail: src.codex}
	case src.file == manifestFile || src.file == "":
		cx.Detail = "Codex reads inline mcpServers from the manifest."
	case typ == "ws":
		cx = model.Support{Provider: clientCodex, Version: CodexVersion, Status: model.NotSupported, Detail: "Codex has no WebSocket transport."}
	}
	return []model.Support{cl, cx}
}

// mcpBundle lists a .mcpb/.dxt bundle the manifest names as an MCP server.
func (l *loader) mcpBundle(p string) {
	id, _ := l.uniqueID(l.mcpNames, path.Base(p))
	c := &model.Component{Kind: model.KindMCPServer, ID: id, Validity: model.Valid}
	c.Details = model.Fields{{Key: "bundle", Value: p}}
	c.Summary = []string{fmt.Sprintf("Installs the MCP Bundle %s: %s unpacks it into .mcpb-cache and runs the server its manifest.json declares.", p, claudeSeen),
		"vouch binds the bundle's bytes here; review the bundle itself as an MCP Bundle to see the server it starts."}
	c.Capabilities = []model.Capability{{Kind: model.CapServerLaunch, Scope: []string{p}, Detail: "Starts the server declared inside the bundle."}}
	c.Contract = &model.Contract{Kind: model.KindMCPServer, Fields: model.Fields{{Key: "bundle", Value: p}}}
	c.Support = []model.Support{
		{Provider: clientClaude, Version: ClaudeVersion, Status: model.Supported, Detail: "Claude Code unpacks .mcpb/.dxt bundles named in mcpServers."},
		{Provider: clientCodex, Version: CodexVersion, Status: model.NotSupported, Detail: "Codex does not read MCP Bundles from a plugin manifest."},
	}
	l.bindClosure(c, "server")
	l.pkg.Components = append(l.pkg.Components, c)
}

// mcpRemoteBundle lists a .mcpb/.dxt URL: Claude downloads and unpacks it; vouch never
// fetches it, so what it runs cannot be reviewed or bound here.
func (l *loader) mcpRemoteBundle(u string) {
	id, _ := l.uniqueID(l.mcpNames, path.Base(u))
	c := &model.Component{Kind: model.KindMCPServer, ID: id, Validity: model.Valid, Details: model.Fields{{Key: "bundle url", Value: u}}}
	c.Summary = []string{fmt.Sprintf("Downloads the MCP Bundle %s when the plugin loads and runs the server inside it; vouch never fetches it, so its code is not reviewed here.", u)}
	markNotCovered(c, []model.NotCovered{{Kind: model.NotCoveredFetch, Subject: u, Detail: claudeSeen + " downloads this bundle when the plugin loads and runs the server inside it: its code is not part of this plugin, and it can change at every download."}})
	c.Capabilities = []model.Capability{{Kind: model.CapNetwork, Scope: []string{u}, Detail: "Downloads the bundle."}, {Kind: model.CapServerLaunch, Scope: []string{u}, Detail: "Starts the server declared inside the bundle."}}
	c.Contract = &model.Contract{Kind: model.KindMCPServer, Fields: model.Fields{{Key: "bundle_url", Value: u}}}
	c.Support = []model.Support{
		{Provider: clientClaude, Version: ClaudeVersion, Status: model.Supported, Detail: "Claude Code downloads and unpacks .mcpb/.dxt URLs named in mcpServers."},
		{Provider: clientCodex, Version: CodexVersion, Status: model.NotSupported, Detail: "Codex does not read MCP Bundles from a plugin manifest."},
	}
	l.pkg.Components = append(l.pkg.Components, c)
}

func (l *loader) serverInvalid(c *model.Component) *model.Component {
	return notLoaded(c, "Not loaded: this server entry is invalid (see its diagnostics).",
		"The entry is invalid, so Claude Code skips it.", "The entry is invalid.")
}

func mapValues(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, m[k])
	}
	return out
}

func headerPhrase(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return " sending headers " + strings.Join(names, ", ")
}
