package claudecode

import (
	"fmt"
	"net/url"
	"path"
	"sort"
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
			l.mcpServers(src)
		}
	}
	for _, u := range l.remoteBundles {
		l.mcpRemoteBundle(u)
	}
	for _, iv := range l.inline["mcpServers"] {
		file, data := l.inlineSrc(iv)
		src := &serverSource{file: file, data: data, base: jsontext.SplitPointer(iv.ptr), servers: iv.v, rank: 1 + iv.order}
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
			l.mcpServers(src)
		}
	}
	l.markHiddenServers()
}

// markHiddenServers answers, for each name several servers share, which one Claude Code
// runs: it merges .mcp.json first and then the manifest's mcpServers in list order, a
// later server replacing an earlier one of the same name (observed with 2.1.328: `claude
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
		msg := fmt.Sprintf("%d MCP servers are named %q; `claude plugin validate` lists them all, but Claude Code keeps one server per name, the last in its merge order (.mcp.json first, then the manifest's mcpServers in order; observed with `claude --plugin-dir P mcp list`)", count[p.name], clip(p.name))
		switch {
		case w == p:
			msg += ": this one, which replaces the others."
		case w != nil:
			msg += fmt.Sprintf(": %s in %s, so this one never starts there.", w.c.ID, displayFile(w.file))
		default:
			msg += "."
		}
		p.c.Diagnostics = append(p.c.Diagnostics, l.diag("mcp-server-duplicate-name", model.SeverityWarning, model.BoundaryComponent, p.file, p.ptr, p.line, msg, "1.5"))
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
		l.pkgDiag(l.diag(kind+"-file-"+strings.TrimPrefix(is.Code, "json-"), sev, model.BoundaryComponentType, rel, is.Pointer, jsontext.Line(data, is.Off),
			fmt.Sprintf("In %s, %s.", rel, is.Msg), "1.5"))
	}
	if doc.Kind != jsontext.Object {
		l.pkgDiag(l.diag(kind+"-file-not-object", model.SeverityError, model.BoundaryComponentType, rel, "", jsontext.Line(data, doc.Off),
			fmt.Sprintf("%s holds a JSON %s; it must be an object, so its servers are not loaded.", rel, doc.Kind), "1.5"))
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
	seen := map[string]bool{}
	for _, m := range src.servers.Obj {
		if seen[m.Key] {
			continue
		}
		seen[m.Key] = true
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

func (l *loader) mcpServer(src *serverSource, m jsontext.Member) *model.Component {
	name := m.Key
	id, _ := l.uniqueID(l.mcpNames, name)
	c := &model.Component{Kind: model.KindMCPServer, ID: id}
	ptr := jsontext.Pointer(append(append([]string(nil), src.base...), name)...)
	line := l.line(src.data, m.KeyOff)
	l.mcpPlaced = append(l.mcpPlaced, placedServer{c: c, name: name, rank: src.rank, file: src.file, ptr: ptr, line: line})
	bad := func(code, msg string) {
		c.Diagnostics = append(c.Diagnostics, l.diag(code, model.SeverityError, model.BoundaryComponent, src.file, ptr, line, msg, "1.5"))
	}
	c.Details = model.Fields{{Key: "name", Value: name}, {Key: "file", Value: displayFile(src.file)}}
	v := m.Val
	if v.Kind != jsontext.Object {
		bad("mcp-server-not-object", fmt.Sprintf("Server %q is a JSON %s, not an object, so it is not loaded.", clip(name), v.Kind))
		return l.serverInvalid(c)
	}
	typ, hasType := strVal(v, "type")
	if tm := v.Get("type"); tm != nil && !hasType {
		bad("mcp-server-type", fmt.Sprintf("Server %q has a %s \"type\"; it must be stdio, http, sse or ws.", clip(name), tm.Val.Kind))
		return l.serverInvalid(c)
	}
	if !hasType {
		if v.Get("url") != nil {
			bad("mcp-server-url-without-type", fmt.Sprintf("Server %q has a url but no type; Claude reads it as a stdio server, which fails for lacking a command, and silently drops it at load. Add \"type\": \"http\" (or sse, ws). `claude plugin validate` fails the whole plugin for it; Claude Code loads the plugin's other servers and components (observed), so they are listed.", clip(name)))
			return l.serverInvalid(c)
		}
		typ = "stdio"
	}
	switch typ {
	case "stdio", "http", "sse", "ws":
	case "streamable-http":
		typ = "http"
		c.Details = append(c.Details, model.Field{Key: "type (as written)", Value: "streamable-http"})
	default:
		bad("mcp-server-type", fmt.Sprintf("Server %q has the type %q; it must be stdio, http (streamable-http), sse or ws, so it is not loaded.", clip(name), clip(typ)))
		return l.serverInvalid(c)
	}
	c.Details = append(c.Details, model.Field{Key: "type", Value: typ})
	strs := func(k string) ([]string, bool) {
		am := v.Get(k)
		if am == nil {
			return nil, false
		}
		if am.Val.Kind != jsontext.Array {
			bad("mcp-server-field-type", fmt.Sprintf("%q of server %q is a %s; it must be an array of strings.", k, clip(name), am.Val.Kind))
			return nil, false
		}
		out := []string{}
		for _, a := range am.Val.Arr {
			if a.Kind != jsontext.String {
				bad("mcp-server-field-type", fmt.Sprintf("%q of server %q holds a %s; it must hold strings.", k, clip(name), a.Kind))
				return nil, false
			}
			out = append(out, a.Str)
		}
		return out, true
	}
	strMap := func(k string) (map[string]string, model.Fields, bool) {
		mm := v.Get(k)
		if mm == nil {
			return map[string]string{}, nil, false
		}
		if mm.Val.Kind != jsontext.Object {
			bad("mcp-server-field-type", fmt.Sprintf("%q of server %q is a %s; it must be an object of strings.", k, clip(name), mm.Val.Kind))
			return map[string]string{}, nil, false
		}
		out, lit := map[string]string{}, model.Fields{}
		for _, e := range mm.Val.Obj {
			if e.Val.Kind != jsontext.String {
				bad("mcp-server-field-type", fmt.Sprintf("%s.%s of server %q is a %s; it must be a string.", k, clip(e.Key), clip(name), e.Val.Kind))
				continue
			}
			out[e.Key] = e.Val.Str
			lit = append(lit, model.Field{Key: e.Key, Value: e.Val.Str})
		}
		return out, lit, true
	}
	var flowIn []string
	var runs []string
	var stdioNC []model.NotCovered // what the process (or the headersHelper) depends on that no approval binds
	var contract model.Fields
	if typ == "stdio" {
		cmd, hasCmd := strVal(v, "command")
		if !hasCmd {
			bad("mcp-server-missing-command", fmt.Sprintf("Stdio server %q has no string \"command\", so it is not loaded.", clip(name)))
		}
		args, _ := strs("args")
		env, envLit, hasEnv := strMap("env")
		cwd, hasCwd := strVal(v, "cwd")
		c.Details = append(c.Details, model.Field{Key: "command", Value: cmd})
		if x, ok := l.expandedField(cmd); ok {
			c.Details = append(c.Details, model.Field{Key: "command (expanded)", Value: x})
		}
		if args != nil {
			c.Details = append(c.Details, model.Field{Key: "args", Value: args})
			exp, changed := make([]string, len(args)), false
			for i, a := range args {
				exp[i] = l.expand(a)
				changed = changed || exp[i] != a
			}
			if changed {
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
		vals := append(append([]string{cmd, cwd}, args...), mapValues(env)...)
		flowIn = envFlow(vals...)
		runs = append(append(runs, cmd), args...)
		contract = model.Fields{{Key: "type", Value: "stdio"}, {Key: "command", Value: cmd}, {Key: "args", Value: args}, {Key: "env", Value: env}, {Key: "cwd", Value: cwd}}
		launch := strings.TrimSpace(strings.Join(append([]string{cmd}, args...), " "))
		c.Summary = append(c.Summary, fmt.Sprintf("Starts `%s` as a local process when Claude Code loads the plugin.", launch))
		c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapServerLaunch, Scope: []string{cmd}, Detail: fmt.Sprintf("Starts `%s` as a local MCP server process.", launch)})
		stdioNC = l.stdioNotCovered(cmd, args, env, cwd)
		if len(env) > 0 {
			names := sortedKeys(env)
			c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapEnv, Scope: names, Detail: "Sets " + strings.Join(names, ", ") + " for the process."})
		}
	} else {
		u, hasURL := strVal(v, "url")
		if !hasURL {
			bad("mcp-server-missing-url", fmt.Sprintf("Remote server %q (%s) has no string \"url\", so it is not loaded.", clip(name), typ))
		}
		headers, hdrLit, hasHdr := strMap("headers")
		helper, hasHelper := strVal(v, "headersHelper")
		c.Details = append(c.Details, model.Field{Key: "url", Value: u})
		if x, ok := l.expandedField(u); ok {
			c.Details = append(c.Details, model.Field{Key: "url (expanded)", Value: x})
		}
		if hasHdr {
			c.Details = append(c.Details, model.Field{Key: "headers", Value: hdrLit})
		}
		host := ""
		if hasURL {
			pu, err := url.Parse(l.expand(u))
			if err != nil || pu.Scheme == "" || pu.Host == "" {
				if !strings.Contains(u, "${") {
					bad("mcp-server-url-invalid", fmt.Sprintf("Server %q has the url %q, which is not absolute, so it is not loaded.", clip(name), clip(u)))
				}
			} else {
				host = pu.Hostname()
			}
		}
		vals := append([]string{u, helper}, mapValues(headers)...)
		flowIn = envFlow(vals...)
		contract = model.Fields{{Key: "type", Value: typ}, {Key: "url", Value: u}, {Key: "headers", Value: headers}, {Key: "headersHelper", Value: helper}}
		c.Summary = append(c.Summary, fmt.Sprintf("Connects to %s (%s)%s.", u, typ, headerPhrase(sortedKeys(headers))))
		c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapRemoteConnect, Scope: append([]string{host}, sortedKeys(headers)...), Detail: fmt.Sprintf("Connects to the MCP server at %s.", u)},
			model.Capability{Kind: model.CapNetwork, Scope: []string{host}, Detail: fmt.Sprintf("Opens network connections to %s.", host)})
		if hasHelper {
			c.Details = append(c.Details, model.Field{Key: "headersHelper", Value: helper})
			c.Summary = append(c.Summary, fmt.Sprintf("headersHelper runs the shell command `%s` on this machine to compute request headers.", helper))
			c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapSubprocess, Scope: []string{helper}, Detail: "Runs its headersHelper shell command to compute headers."})
			runs = append(runs, helper)
			for _, n := range l.shellNotCovered(helper, "Claude computes the headers", true) {
				n.Detail = "headersHelper: " + n.Detail
				stdioNC = append(stdioNC, n)
			}
			if userConfigVar.MatchString(helper) {
				bad("mcp-headers-helper-user-config", fmt.Sprintf("Server %q uses ${user_config.…} in headersHelper; Claude rejects that since 2.1.207.", clip(name)))
			}
		}
	}
	if len(flowIn) > 0 {
		c.Summary = append(c.Summary, "Environment variables flow into the server from the user's environment (Claude expands ${VAR} and ${VAR:-default} in .mcp.json): "+strings.Join(flowIn, ", ")+".")
		c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapEnv, Scope: flowIn, Detail: "Reads " + strings.Join(flowIn, ", ") + " from the user's environment into its configuration."})
		c.Details = append(c.Details, model.Field{Key: "environment read", Value: strings.Join(flowIn, ", ")})
	}
	markNotCovered(c, stdioNC)
	if hasErrors(c.Diagnostics) {
		return l.serverInvalid(c)
	}
	c.Validity = model.Valid
	contract = append(contract, model.Field{Key: "name", Value: name}, model.Field{Key: "file", Value: displayFile(src.file)})
	c.Contract = &model.Contract{Kind: model.KindMCPServer, Fields: contract}
	c.Support = l.mcpSupport(src, typ)
	if typ == "stdio" {
		codexLiteralRoot(c)
	}
	if typ == "stdio" || v.Get("headersHelper") != nil {
		l.bindClosure(c, "server")
		l.namedFiles(c, strings.Join(runs, " "), src.file, ptr)
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
		cx = model.Support{Provider: clientCodex, Version: CodexVersion, Status: model.NotSupported, Detail: fmt.Sprintf("Codex reads %s instead of .claude-plugin/plugin.json.", l.otherManifest)}
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
	c.Summary = []string{fmt.Sprintf("Installs the MCP Bundle %s: Claude Code unpacks it into .mcpb-cache and runs the server its manifest.json declares.", p),
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
	markNotCovered(c, []model.NotCovered{{Kind: model.NotCoveredFetch, Subject: u, Detail: "Claude Code downloads this bundle when the plugin loads and runs the server inside it: its code is not part of this plugin, and it can change at every download."}})
	c.Capabilities = []model.Capability{{Kind: model.CapNetwork, Scope: []string{u}, Detail: "Downloads the bundle."}, {Kind: model.CapServerLaunch, Scope: []string{u}, Detail: "Starts the server declared inside the bundle."}}
	c.Contract = &model.Contract{Kind: model.KindMCPServer, Fields: model.Fields{{Key: "bundle_url", Value: u}}}
	c.Support = []model.Support{
		{Provider: clientClaude, Version: ClaudeVersion, Status: model.Supported, Detail: "Claude Code downloads and unpacks .mcpb/.dxt URLs named in mcpServers."},
		{Provider: clientCodex, Version: CodexVersion, Status: model.NotSupported, Detail: "Codex does not read MCP Bundles from a plugin manifest."},
	}
	l.pkg.Components = append(l.pkg.Components, c)
}

func (l *loader) serverInvalid(c *model.Component) *model.Component {
	c.Validity = model.Invalid
	c.Contract = nil
	c.Summary = append([]string{"Not loaded: this server entry is invalid (see its diagnostics)."}, c.Summary...)
	c.Support = []model.Support{
		{Provider: clientClaude, Version: ClaudeVersion, Status: model.NotSupported, Detail: "The entry is invalid, so Claude Code skips it."},
		{Provider: clientCodex, Version: CodexVersion, Status: model.NotSupported, Detail: "The entry is invalid."},
	}
	return c
}

func mapValues(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for _, k := range sortedKeys(m) {
		out = append(out, m[k])
	}
	return out
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func headerPhrase(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return " sending headers " + strings.Join(names, ", ")
}
