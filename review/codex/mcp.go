package codex

import (
	"maps"
	"net/url"
	"slices"
	"strings"

	"vouch/model"
	"vouch/review/closure"
	"vouch/review/jsontext"
)

// mcp loads the MCP servers Codex starts: the manifest's mcpServers (a path, or an inline
// object) replaces .mcp.json; a file holds {"mcpServers": {...}} or a flat map of servers
// (Codex, loader.rs). A bad path is ignored, and then .mcp.json is read.
func (l *loader) mcp() {
	file := defaultMCPFile
	var servers *jsontext.Value
	var data []byte
	if v := l.field("mcpServers"); v != nil {
		switch v.Kind {
		case jsontext.String:
			if rel, ok := l.manifestPath("mcpServers", jsontext.Pointer("mcpServers"), v); ok {
				file = rel
			}
		case jsontext.Object:
			file, servers, data = l.mf, unwrapServers(v), l.data
		}
	}
	if servers == nil {
		b, ok := l.readNamed(file, defaultMCPFile, "mcp-file-unreadable", "The MCP file %s %s, so "+codexSeen+" starts no server from it.", specManifest)
		if !ok {
			return
		}
		doc, issues, jerr := jsontext.Parse(b, jsontext.Limits)
		l.cut.Note(file, issues)
		if jerr != nil {
			l.pkgDiag(model.Place{File: file, Line: jsontext.Line(b, jerr.Off)}.ComponentType("mcp-invalid-json", model.SeverityError,
				errorf("%s %s, so "+codexSeen+" starts no server from it.", file, jerr.Msg), specManifest))
			return
		}
		if doc.Kind != jsontext.Object {
			l.pkgDiag(model.Place{File: file}.ComponentType("mcp-not-object", model.SeverityError,
				errorf("%s holds a JSON %s, not an object, so "+codexSeen+" starts no server from it.", file, doc.Kind), specManifest))
			return
		}
		servers, data = unwrapServers(doc), b
	}
	if file != defaultMCPFile {
		if _, err := l.root.Lstat(defaultMCPFile); err == nil {
			l.pkgDiag(model.Place{File: defaultMCPFile}.ComponentType("mcp-default-replaced", model.SeverityInfo,
				codexSeen+" does not read .mcp.json here: the manifest's mcpServers replaces it.", specManifest))
		}
	}
	seen := map[string]bool{}
	for i := len(servers.Obj) - 1; i >= 0; i-- { // the last of repeated names wins, as in serde maps
		m := servers.Obj[i]
		if seen[m.Key] {
			continue
		}
		seen[m.Key] = true
		l.pkg.Components = append(l.pkg.Components, l.server(file, data, m))
	}
}

func unwrapServers(v *jsontext.Value) *jsontext.Value {
	if m := v.Get("mcpServers"); m != nil && m.Val.Kind == jsontext.Object {
		return m.Val
	}
	return v
}

// Codex-only server keys (Codex): shown as they are, several as capabilities.
var codexServerKeys = []string{"bearer_token_env_var", "env_vars", "http_headers", "env_http_headers", "startup_timeout_sec", "tool_timeout_sec", "enabled_tools", "disabled_tools", "default_tools_approval_mode", "oauth_resource", "enabled", "required"}

func (l *loader) server(file string, data []byte, m jsontext.Member) *model.Component {
	c := &model.Component{Kind: model.KindMCPServer, ID: m.Key}
	v := m.Val
	bad := func(msg string) *model.Component {
		c.Validity = model.Invalid
		c.Diagnostics = append(c.Diagnostics, model.Place{File: file, Pointer: jsontext.Pointer(m.Key), Line: jsontext.Line(data, m.KeyOff)}.Component("mcp-server-invalid", model.SeverityError, msg, specManifest))
		c.Support = codexSupport(model.NotSupported, "Codex cannot read this server entry.")
		c.Summary = []string{"Skipped: " + msg}
		return c
	}
	if v.Kind != jsontext.Object {
		return bad(errorf("Server %q is a JSON %s, not an object.", clip(m.Key), v.Kind))
	}
	str := func(k string) string {
		if f := v.Get(k); f != nil && f.Val.Kind == jsontext.String {
			return f.Val.Str
		}
		return ""
	}
	strs := func(k string) []string {
		f := v.Get(k)
		if f == nil || f.Val.Kind != jsontext.Array {
			return nil
		}
		out := []string{}
		for _, e := range f.Val.Arr {
			if e.Kind == jsontext.String {
				out = append(out, e.Str)
			}
		}
		return out
	}
	strMap := func(k string) map[string]string {
		f := v.Get(k)
		if f == nil || f.Val.Kind != jsontext.Object {
			return nil
		}
		out := map[string]string{}
		for _, e := range f.Val.Obj {
			if e.Val.Kind == jsontext.String {
				out[e.Key] = e.Val.Str
			}
		}
		return out
	}
	command, rawURL := str("command"), str("url")
	if command == "" && rawURL == "" {
		return bad(errorf("Server %q has neither command nor url, so Codex cannot start or reach it.", clip(m.Key)))
	}
	fields := model.Fields{{Key: "client", Value: ClientCodex}}
	c.Details = model.Fields{{Key: "source", Value: file}}
	for _, mm := range v.Obj {
		c.Details = append(c.Details, model.Field{Key: mm.Key, Value: jsontext.Display(mm.Val)})
	}
	c.Validity = model.Valid
	c.Support = codexSupport(model.Supported, "")
	if command != "" {
		args := strs("args")
		if args == nil {
			args = []string{}
		}
		env := strMap("env")
		if env == nil {
			env = map[string]string{}
		}
		fields = append(fields, model.Field{Key: "type", Value: "stdio"}, model.Field{Key: "command", Value: command},
			model.Field{Key: "args", Value: args}, model.Field{Key: "env", Value: env}, model.Field{Key: "cwd", Value: str("cwd")})
		launch := strings.Join(append([]string{command}, args...), " ")
		c.Summary = append(c.Summary, "Starts `"+launch+"` as a local process when "+codexSeen+" loads the plugin.")
		c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapServerLaunch, Scope: []string{command}, Detail: "Starts `" + launch + "` as a local process."})
		if names := slices.Sorted(maps.Keys(env)); len(names) > 0 {
			c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapEnv, Scope: names, Detail: "Sets environment variables " + strings.Join(names, ", ") + " for the process."})
		}
		if fw := strs("env_vars"); len(fw) > 0 {
			c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapEnv, Scope: fw,
				Detail: codexSeen + " forwards the user's environment variables " + strings.Join(fw, ", ") + " to the process (env_vars, a Codex-only field; reserved names such as PATH or HOME included)."})
			c.Summary = append(c.Summary, "Forwards your environment variables "+strings.Join(fw, ", ")+" to the server.")
		}
		if cwd := str("cwd"); cwd != "" {
			c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapFilesystemRead, Scope: []string{cwd}, Detail: "Runs in " + cwd + " (cwd)."})
			c.Summary = append(c.Summary, "Runs in "+cwd+".")
		}
		if c.NotCovered = l.serverNotCovered(command, args, env, strs("env_vars"), str("cwd")); len(c.NotCovered) > 0 {
			c.Summary = append(c.Summary, closure.SummaryLine(len(c.NotCovered)))
		}
		if !l.bindClosure(c, "Blocked: vouch could not read every file of the plugin, so an approval could not cover what this server runs.") {
			return c
		}
	} else {
		host := rawURL
		if u, err := url.Parse(rawURL); err == nil && u.Host != "" {
			host = u.Hostname()
		} else {
			c.Diagnostics = append(c.Diagnostics, model.Place{File: file, Pointer: jsontext.Pointer(m.Key, "url"), Line: jsontext.Line(data, m.KeyOff)}.Component("mcp-url-invalid", model.SeverityWarning,
				errorf("Server %q has the url %q, which is not an absolute URL.", clip(m.Key), clip(rawURL)), specManifest))
		}
		fields = append(fields, model.Field{Key: "type", Value: "http"}, model.Field{Key: "url", Value: rawURL})
		c.Summary = append(c.Summary, "Connects to "+rawURL+".")
		var hdrs []string
		hdrs = append(hdrs, slices.Sorted(maps.Keys(strMap("http_headers")))...)
		hdrs = append(hdrs, slices.Sorted(maps.Keys(strMap("env_http_headers")))...)
		c.Capabilities = append(c.Capabilities,
			model.Capability{Kind: model.CapRemoteConnect, Scope: append([]string{host}, hdrs...), Detail: "Connects to the MCP server at " + host + "."},
			model.Capability{Kind: model.CapNetwork, Scope: []string{host}, Detail: "Opens network connections to " + host + "."})
		if tok := str("bearer_token_env_var"); tok != "" {
			c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapEnv, Scope: []string{tok}, Detail: codexSeen + " sends the value of your environment variable " + tok + " as a bearer token (bearer_token_env_var, a Codex-only field)."})
			c.Summary = append(c.Summary, "Sends your "+tok+" environment variable to "+host+" as a bearer token.")
		}
		if eh := strMap("env_http_headers"); len(eh) > 0 {
			var vars []string
			for _, k := range slices.Sorted(maps.Keys(eh)) {
				vars = append(vars, eh[k])
			}
			c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapEnv, Scope: vars, Detail: codexSeen + " sends your environment variables " + strings.Join(vars, ", ") + " as HTTP headers (env_http_headers, a Codex-only field)."})
			c.Summary = append(c.Summary, "Sends your environment variables "+strings.Join(vars, ", ")+" to "+host+" as headers.")
		}
	}
	for _, k := range codexServerKeys {
		if f := v.Get(k); f != nil {
			fields = append(fields, model.Field{Key: k, Value: jsontext.Display(f.Val)})
		}
	}
	c.Contract = &model.Contract{Kind: model.KindMCPServer, Fields: fields, Files: c.Files}
	return c
}

// apps lists the connector apps Codex offers to enable: the manifest's apps path, else
// .app.json, holding {"apps": {name: {id}}} (Codex).
func (l *loader) apps() {
	file := defaultAppsFile
	if v := l.field("apps"); v != nil && v.Kind == jsontext.String {
		if rel, ok := l.manifestPath("apps", jsontext.Pointer("apps"), v); ok {
			file = rel
		}
	}
	b, ok := l.readNamed(file, defaultAppsFile, "apps-file-unreadable", "The apps file %s %s, so "+codexSeen+" offers no app from it.", specManifest)
	if !ok {
		return
	}
	doc, issues, jerr := jsontext.Parse(b, jsontext.Limits)
	l.cut.Note(file, issues)
	if jerr != nil || doc.Kind != jsontext.Object || doc.Get("apps") == nil || doc.Get("apps").Val.Kind != jsontext.Object {
		l.pkgDiag(model.Place{File: file}.ComponentType("apps-invalid", model.SeverityError,
			errorf("%s is not {\"apps\": {name: {\"id\": ...}}}, so "+codexSeen+" offers no app from it.", file), specManifest))
		return
	}
	for _, m := range doc.Get("apps").Val.Obj {
		id := ""
		if m.Val.Kind == jsontext.Object {
			if f := m.Val.Get("id"); f != nil && f.Val.Kind == jsontext.String {
				id = f.Val.Str
			}
		}
		c := &model.Component{Kind: model.KindApp, ID: m.Key, Validity: model.Valid, Details: model.Fields{{Key: "id", Value: id}, {Key: "source", Value: file}}}
		if id == "" {
			c.Validity = model.Invalid
			c.Support = codexSupport(model.NotSupported, "The app entry has no id.")
			c.Diagnostics = []model.Diagnostic{model.Place{File: file, Pointer: jsontext.Pointer("apps", m.Key), Line: jsontext.Line(b, m.KeyOff)}.Component("app-missing-id", model.SeverityError, errorf("App %q has no string id.", clip(m.Key)), specManifest)}
			l.pkg.Components = append(l.pkg.Components, c)
			continue
		}
		c.Support = codexSupport(model.Supported, "Codex offers to connect this app; it runs on the provider's side, with the account you connect.")
		c.Summary = []string{"Asks " + codexSeen + " to connect the app " + id + " (a connector run by the provider with your account, not code in this plugin)."}
		c.Capabilities = []model.Capability{{Kind: model.CapRemoteConnect, Scope: []string{id}, Detail: codexSeen + " connects the app " + id + " to your account."}}
		c.Contract = &model.Contract{Kind: model.KindApp, Fields: model.Fields{{Key: "client", Value: ClientCodex}, {Key: "name", Value: m.Key}, {Key: "id", Value: id}}}
		l.pkg.Components = append(l.pkg.Components, c)
	}
}
