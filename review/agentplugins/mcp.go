package agentplugins

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/netip"
	"net/url"
	"path"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"vouch/internal/lazyre"
	"vouch/model"
	"vouch/review/closure"
	"vouch/review/fsguard"
	"vouch/review/jsontext"
	"vouch/schemas"
)

const mcpFile = "mcp.json"

var otherVersionMCP = lazyre.New(`^https://agent-plugins\.org/schemas/([^/]+)/mcp\.schema\.json$`)

// variantFields names the fields of each closed server variant (agent-plugins §7.2.1).
var variantFields = map[string][]string{
	"stdio":           {"type", "command", "args", "env", "cwd"},
	"streamable-http": {"type", "url", "headers"},
	"sse":             {"type", "url", "headers"},
}

// mcp loads mcp.json. A file that is absent is fine; one that is unreadable, not JSON,
// of another version or with a bad top level disables MCP for the plugin only
// (agent-plugins §6.2, §7.2.2 rule 2); each server is then validated alone (rule 3).
func (l *loader) mcp() {
	// One read, no separate Stat: fsguard opens without blocking and refuses anything that
	// is not a regular file, so a FIFO or directory named mcp.json is reported the same way.
	data, err := l.root.ReadFile(mcpFile, l.opts.Limits.MaxManifestSize)
	l.mcpData = data
	if err != nil {
		code, sec, msg := "mcp-location-"+fsguard.CodeSuffix(err), "6.2", fmt.Sprintf("mcp.json %s, so MCP is disabled for this plugin.", fsguard.Reason(err))
		switch fsguard.CodeOf(err) {
		case fsguard.CodeNotFound:
			return // §6.2: a missing location is not an error
		case fsguard.CodeEscape:
			sec, msg = "4.1", "mcp.json resolves outside the plugin root, so MCP is disabled for this plugin."
		case fsguard.CodeNotRegular:
			code = "mcp-not-regular-file"
		case fsguard.CodeTooLarge:
			code = "mcp-too-large"
		}
		l.mcpDisabled(code, "", 0, msg, sec)
		return
	}
	doc, issues, jerr := jsontext.Parse(data, l.opts.jsonOptions())
	if jerr != nil {
		code := map[string]string{jsontext.CodeSyntax: "mcp-invalid-json", jsontext.CodeInvalidUTF8: "mcp-invalid-utf8", jsontext.CodeTooDeep: "mcp-too-deep"}[jerr.Code]
		l.mcpDisabled(code, "", jsontext.Line(data, jerr.Off), fmt.Sprintf("mcp.json %s, so MCP is disabled for this plugin.", jerr.Msg), "7.2.2")
		return
	}
	// Parse findings inside one server belong to that server; any other disables MCP.
	serverIssues := map[string][]model.Diagnostic{}
	disabled := false
	for _, is := range issues {
		toks := jsontext.SplitPointer(is.Pointer)
		if len(toks) >= 2 && toks[0] == "mcpServers" {
			code := "mcp-server-" + strings.TrimPrefix(is.Code, "json-")
			if len(toks) == 2 && is.Code == jsontext.CodeDuplicateKey {
				code = "mcp-server-duplicate-name"
			}
			serverIssues[toks[1]] = append(serverIssues[toks[1]], model.Place{File: mcpFile, Pointer: is.Pointer, Line: jsontext.Line(data, is.Off)}.Component(code, model.SeverityError,
				fmt.Sprintf("In mcp.json, %s, so this server is skipped.", is.Msg), specRef("7.2.2")))
			continue
		}
		disabled = true
		l.mcpDisabled("mcp-"+strings.TrimPrefix(is.Code, "json-"), is.Pointer, jsontext.Line(data, is.Off), fmt.Sprintf("In mcp.json, %s, so MCP is disabled for this plugin.", is.Msg), "7.2.2")
	}
	if doc.Kind != jsontext.Object {
		l.mcpDisabled("mcp-not-object", "", jsontext.Line(data, doc.Off), fmt.Sprintf("mcp.json holds a JSON %s; it must hold an object, so MCP is disabled for this plugin.", doc.Kind), "7.2.1")
		return
	}
	sm := doc.Get("$schema")
	switch {
	case sm == nil:
		disabled = true
		l.mcpDisabled("mcp-missing-schema", "/$schema", jsontext.Line(data, doc.Off), fmt.Sprintf("mcp.json has no $schema; add \"$schema\": %q. MCP is disabled for this plugin.", schemas.AgentPluginsMCPID), "7.2.1")
	case sm.Val.Kind != jsontext.String:
		disabled = true
		l.mcpDisabled("mcp-schema-type", "/$schema", jsontext.Line(data, sm.KeyOff), fmt.Sprintf("$schema in mcp.json is a %s; it must be %q. MCP is disabled for this plugin.", sm.Val.Kind, schemas.AgentPluginsMCPID), "7.2.1")
	case sm.Val.Str != schemas.AgentPluginsMCPID:
		disabled = true
		if m := otherVersionMCP.FindStringSubmatch(sm.Val.Str); m != nil {
			l.mcpDisabled("mcp-version-mismatch", "/$schema", jsontext.Line(data, sm.KeyOff),
				fmt.Sprintf("mcp.json targets Agent Plugins %s but plugin.json targets 1.0.0; the versions must match, so MCP is disabled for this plugin.", clip(m[1])), "10.1")
		} else {
			l.mcpDisabled("mcp-unsupported-schema", "/$schema", jsontext.Line(data, sm.KeyOff),
				fmt.Sprintf("mcp.json declares $schema %q, which is not the Agent Plugins 1.0.0 MCP schema, so MCP is disabled for this plugin.", clip(sm.Val.Str)), "7.2.1")
		}
	}
	for _, m := range doc.Obj {
		if m.Key != "$schema" && m.Key != "mcpServers" {
			disabled = true
			l.mcpDisabled("mcp-unknown-field", jsontext.Pointer(m.Key), jsontext.Line(data, m.KeyOff),
				fmt.Sprintf("mcp.json has the top-level field %q; only $schema and mcpServers are allowed, so MCP is disabled for this plugin.", clip(m.Key)), "7.2.1")
		}
	}
	servers := doc.Get("mcpServers")
	switch {
	case servers == nil:
		l.mcpDisabled("mcp-missing-servers", "/mcpServers", jsontext.Line(data, doc.Off), "mcp.json has no mcpServers object, so MCP is disabled for this plugin.", "7.2.1")
		return
	case servers.Val.Kind != jsontext.Object:
		l.mcpDisabled("mcp-servers-not-object", "/mcpServers", jsontext.Line(data, servers.KeyOff),
			fmt.Sprintf("mcpServers in mcp.json is a %s; it must be an object, so MCP is disabled for this plugin.", servers.Val.Kind), "7.2.1")
		return
	}
	if !disabled {
		// The official schema, applied in two parts that together are exactly the whole
		// document's validation: the top level with the servers emptied here, and each
		// server in server() against the variant its "type" selects. #/$defs/server is a
		// oneOf of three variants whose "type" consts differ, so a server matches the
		// union exactly when it matches that one variant. Checking servers one by one
		// keeps one bad server from hiding the others (§7.2.1), and skips the two
		// variants that cannot match, which is most of the cost of the union.
		if err := l.schemas.mcp.Validate(map[string]any{"$schema": sm.Val.Str, "mcpServers": map[string]any{}}); err != nil {
			disabled = true
			l.mcpDisabled("mcp-schema-violation", "", jsontext.Line(data, doc.Off),
				"mcp.json does not match the Agent Plugins 1.0.0 MCP schema at its top level, so MCP is disabled for this plugin.", "7.2.1")
		}
	}
	seen := map[string]bool{}
	for _, m := range servers.Val.Obj {
		if seen[m.Ident()] {
			continue // a duplicate name is reported on the entry that is listed
		}
		seen[m.Ident()] = true
		if m.Ident() != m.Key {
			// A lone surrogate escape: JSON.parse keeps the name, but it is not Unicode
			// text, so vouch can neither show it apart from U+FFFD nor give the server a
			// ref of its own. It is named here instead of becoming a component.
			ptr := jsontext.Pointer("mcpServers", m.Key)
			l.pkgDiag(model.Place{File: mcpFile, Pointer: ptr, Line: jsontext.Line(data, m.KeyOff)}.Component("mcp-server-name-not-unicode", model.SeverityError,
				fmt.Sprintf("In mcp.json, the server name %s holds a lone UTF-16 surrogate escape, which is not Unicode text; vouch cannot show or approve it apart from other names, so it is not reviewed (JavaScript clients such as Pi load it under that name).", clip(jsontext.Literal(data, m.KeyOff))), specRef("7.2.2")))
			continue
		}
		last := servers.Val.Get(m.Key)
		if disabled {
			l.pkg.Components = append(l.pkg.Components, &model.Component{
				Kind: model.KindMCPServer, ID: m.Key, Validity: model.Skipped,
				Summary: []string{"Skipped: MCP is disabled for this plugin because mcp.json is invalid (see the package diagnostics); " + whoLoads(unsupportedEverywhere("")) + "."},
				Support: unsupportedEverywhere("skipped: MCP is disabled for this plugin"),
			})
			continue
		}
		l.pkg.Components = append(l.pkg.Components, l.server(data, *last, serverIssues[m.Key]))
	}
}

func (l *loader) mcpDisabled(code, ptr string, line int, msg, section string) {
	l.pkgDiag(model.Place{File: mcpFile, Pointer: ptr, Line: line}.ComponentType(code, model.SeverityError, msg, specRef(section)))
}

// server validates one entry alone against the closed variant its type selects, then the
// rules the schema cannot express, and builds its component.
func (l *loader) server(data []byte, m jsontext.Member, issues []model.Diagnostic) *model.Component {
	name := m.Key
	c := &model.Component{Kind: model.KindMCPServer, ID: name, Diagnostics: issues}
	base := []string{"mcpServers", name}
	at := func(toks ...string) (string, int) {
		off := m.KeyOff
		if len(toks) > 0 {
			off = m.Val.Offset(toks)
		}
		return jsontext.Pointer(append(append([]string(nil), base...), toks...)...), jsontext.Line(data, off)
	}
	bad := func(code, msg, section string, toks ...string) {
		ptr, line := at(toks...)
		c.Diagnostics = append(c.Diagnostics, model.Place{File: mcpFile, Pointer: ptr, Line: line}.Component(code, model.SeverityError, msg, specRef(section)))
	}
	warn := func(code, msg, section string, toks ...string) {
		ptr, line := at(toks...)
		c.Diagnostics = append(c.Diagnostics, model.Place{File: mcpFile, Pointer: ptr, Line: line}.Component(code, model.SeverityWarning, msg, specRef(section)))
	}
	v := m.Val
	if v.Kind != jsontext.Object {
		bad("mcp-server-not-object", fmt.Sprintf("Server %q is a JSON %s, not an object, so it is skipped.", clip(name), v.Kind), "7.2.1")
		return l.finishInvalid(c)
	}
	tm := v.Get("type")
	typ := ""
	switch {
	case tm == nil:
		bad("mcp-server-missing-type", fmt.Sprintf("Server %q has no \"type\"; set stdio, streamable-http or sse. It is skipped.", clip(name)), "7.2.1")
		return l.finishInvalid(c)
	case tm.Val.Kind != jsontext.String:
		bad("mcp-server-unknown-type", fmt.Sprintf("Server %q has a %s \"type\"; it must be stdio, streamable-http or sse, so it is skipped.", clip(name), tm.Val.Kind), "7.2.1", "type")
		return l.finishInvalid(c)
	default:
		typ = tm.Val.Str
	}
	variant := l.schemas.variants[typ]
	if variant == nil {
		bad("mcp-server-unknown-type", fmt.Sprintf("Server %q has the unknown type %q; it must be stdio, streamable-http or sse, so it is skipped.", clip(name), clip(typ)), "7.2.1", "type")
		return l.finishInvalid(c)
	}
	// Which fields passed the schema, so semantic checks run only on well-typed values.
	badField := map[string]bool{}
	if verr := variant.Validate(v.Any()); verr != nil {
		for _, lf := range leaves(verr) {
			if _, isNot := lf.Kind.(*kind.Not); isNot {
				continue // propertyNames on env: the reserved-name check below reports it
			}
			loc := lf.Loc
			field := ""
			if len(loc) > 0 {
				field = loc[0]
			}
			badField[field] = true
			switch k := lf.Kind.(type) {
			case *kind.AdditionalProperties:
				for _, p := range k.Properties {
					if owner := fieldOwner(p, typ); owner != "" {
						bad("mcp-server-foreign-field", fmt.Sprintf("Server %q (%s) has %q, which belongs to the %s variant(s), so it is skipped.", clip(name), typ, clip(p), owner), "7.2.1", p)
					} else {
						bad("mcp-server-unknown-field", fmt.Sprintf("Server %q (%s) has the unknown field %q, so it is skipped.", clip(name), typ, clip(p)), "7.2.1", p)
					}
				}
			case *kind.Required:
				bad("mcp-server-missing-field", fmt.Sprintf("Server %q (%s) is missing the required field(s) %s, so it is skipped.", clip(name), typ, quoteList(k.Missing)), "7.2.1")
			case *kind.Type:
				bad("mcp-server-field-type", fmt.Sprintf("In server %q, %s is a %s but must be %s, so the server is skipped.", clip(name), jsontext.Pointer(loc...), k.Got, strings.Join(k.Want, " or ")), "7.2.1", loc...)
			case *kind.MinLength:
				bad("mcp-server-empty-field", fmt.Sprintf("In server %q, %q must not be empty, so the server is skipped.", clip(name), field), "7.2.1", loc...)
			case *kind.Pattern:
				if field == "cwd" {
					badField["cwd"] = false // the semantic check below explains the form
					continue
				}
				bad("mcp-server-schema-violation", fmt.Sprintf("In server %q, %s does not match the schema, so the server is skipped.", clip(name), jsontext.Pointer(loc...)), "7.2.1", loc...)
			default:
				if field == "env" {
					continue // reserved names: the semantic check below reports them
				}
				bad("mcp-server-schema-violation", fmt.Sprintf("In server %q, %s does not match the Agent Plugins 1.0.0 server schema, so the server is skipped.", clip(name), jsontext.Pointer(loc...)), "7.2.1", loc...)
			}
		}
	}
	str := func(key string) (string, bool) {
		if badField[key] {
			return "", false
		}
		if f := v.Get(key); f != nil && f.Val.Kind == jsontext.String {
			return f.Val.Str, true
		}
		return "", false
	}
	strMap := func(key string) []jsontext.Member {
		if badField[key] {
			return nil
		}
		if f := v.Get(key); f != nil && f.Val.Kind == jsontext.Object {
			return f.Val.Obj
		}
		return nil
	}
	c.Details = model.Fields{{Key: "type", Value: typ}}
	if typ == "stdio" {
		return l.stdio(c, v, str, strMap, bad, warn, badField)
	}
	return l.remote(c, typ, str, strMap, bad, warn)
}

type problemFn func(code, msg, section string, toks ...string)

func fieldOwner(field, typ string) string {
	for _, t := range []string{"stdio", "streamable-http", "sse"} {
		if t == typ {
			continue
		}
		for _, f := range variantFields[t] {
			if f == field {
				if t == "sse" && typ == "streamable-http" || t == "streamable-http" && typ == "sse" {
					continue
				}
				if t == "streamable-http" {
					return "streamable-http and sse"
				}
				return t
			}
		}
	}
	return ""
}

func (l *loader) finishInvalid(c *model.Component) *model.Component {
	c.Validity = model.Invalid
	c.Contract = nil
	c.Support = unsupportedEverywhere("skipped: the server entry is invalid")
	for i := range c.Support {
		if c.Support[i].Provider == clientCodex {
			c.Support[i].Detail = "vouch predicts Codex " + codexVersion + " does not start it either: the entry breaks Agent Plugins 1.0.0, and Codex was not observed with this fault."
		}
	}
	c.Summary = append([]string{"Skipped: this server entry is invalid (see its diagnostics); " + whoLoads(c.Support) + "."}, c.Summary...)
	return c
}

// expand applies the single, non-recursive ${PLUGIN_ROOT}/${PLUGIN_DATA} pass of
// agent-plugins §9.2: every exact occurrence, left to right, replacement text never rescanned.
func (l *loader) expand(s string) string {
	return expandPlaceholders(s, l.root.Path(), l.dataDir)
}

// expandPlaceholders replaces every "${PLUGIN_ROOT}" and "${PLUGIN_DATA}" in s, left to
// right, never rescanning replacement text. Neither token is a prefix of the other, so
// there is one way to match; a strings.Replacer does the same but costs more to build
// than a plugin's few values cost to scan.
func expandPlaceholders(s, root, data string) string {
	const prefix, rootTok, dataTok = "${PLUGIN_", "${PLUGIN_ROOT}", "${PLUGIN_DATA}"
	i := strings.Index(s, prefix)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(root))
	for i >= 0 {
		b.WriteString(s[:i])
		switch rest := s[i:]; {
		case strings.HasPrefix(rest, rootTok):
			b.WriteString(root)
			s = rest[len(rootTok):]
		case strings.HasPrefix(rest, dataTok):
			b.WriteString(data)
			s = rest[len(dataTok):]
		default:
			b.WriteString(prefix)
			s = rest[len(prefix):]
		}
		i = strings.Index(s, prefix)
	}
	b.WriteString(s)
	return b.String()
}

// shellMeta marks text that reads as a shell command string: a client still runs it as one
// token (agent-plugins §7.2.1: "MUST preserve command as one token"), so it is only worth
// a warning that the program it names is probably not the one the author meant.
var shellMeta = lazyre.New("[;&|<>`]|\\$\\(")

// commandControl returns the byte offset of the first control character in a command
// (C0, DEL or C1, NUL included), or -1. Only those make a command not one token: every
// other character, spaces included, can be part of a file name (agent-plugins §7.2.1).
func commandControl(s string) int {
	return strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || r >= 0x7f && r <= 0x9f })
}

// controlName names the first control character of s for a message, as U+XXXX (NUL by name).
func controlName(s string) string {
	r, _ := utf8.DecodeRuneInString(s[commandControl(s):])
	if r == 0 {
		return "NUL (U+0000)"
	}
	return fmt.Sprintf("U+%04X", r)
}

// stdioDecl is what a stdio server entry declares, as its checks read it.
type stdioDecl struct {
	name        string
	command     string
	hasCmd      bool
	args        []string // nil when absent or not an array of strings
	env         []jsontext.Member
	envMap      map[string]string // the last value of each name
	envNames    []string          // each name once, in declaration order
	cwd         string
	hasCwd      bool
	resolvedCmd string      // the plugin file a ./ command names ("" otherwise)
	cmdFile     *model.File // that file, bound
}

// stdio checks a stdio server's command, args, env and cwd, and builds its component:
// invalid with its diagnostics, blocked when the plugin's files cannot all be bound, else
// valid with the closure it runs with.
func (l *loader) stdio(c *model.Component, v *jsontext.Value, str func(string) (string, bool), strMap func(string) []jsontext.Member, bad, warn problemFn, badField map[string]bool) *model.Component {
	d := &stdioDecl{name: c.ID}
	d.command, d.hasCmd = str("command")
	if a := v.Get("args"); a != nil && a.Val.Kind == jsontext.Array && !badField["args"] {
		d.args = make([]string, 0, len(a.Val.Arr))
		for _, e := range a.Val.Arr {
			d.args = append(d.args, e.Str)
		}
	}
	d.env = strMap("env")
	d.cwd, d.hasCwd = str("cwd")
	if d.hasCmd {
		c.Details = append(c.Details, model.Field{Key: "command", Value: d.command})
		d.resolvedCmd, d.cmdFile = l.checkCommand(d.name, d.command, bad, warn)
	}
	if d.args != nil {
		c.Details = append(c.Details, model.Field{Key: "args", Value: d.args})
		if exp, changed := l.expandAll(d.args); changed {
			c.Details = append(c.Details, model.Field{Key: "args (expanded)", Value: exp})
		}
	}
	l.stdioEnv(c, d, bad, warn)
	if d.hasCwd {
		c.Details = append(c.Details, model.Field{Key: "cwd", Value: d.cwd})
		exp := l.expand(d.cwd)
		c.Details = append(c.Details, model.Field{Key: "cwd (expanded)", Value: exp})
		l.checkCwd(d.name, d.cwd, exp, bad, warn)
	} else if !badField["cwd"] {
		c.Details = append(c.Details, model.Field{Key: "cwd (expanded)", Value: l.defaultCwd()})
	}
	if slices.ContainsFunc(c.Diagnostics, model.Diagnostic.IsError) {
		return l.finishInvalid(c)
	}
	c.Validity = model.Valid
	c.Support = serverSupport("stdio", 0, "")
	if link := l.stdioLink(d.command, d.resolvedCmd, d.args, d.cwd); link != "" {
		c.Support = slices.Clone(c.Support) // serverSupport's slice is shared
		for i := range c.Support {
			if c.Support[i].Provider == clientCodex {
				c.Support[i] = support(clientCodex, model.NotSupported, codexCache(link))
			}
		}
	}
	if !l.stdioBind(c, d) {
		return c
	}
	l.stdioAccount(c, d)
	return c
}

// checkCommand holds a command to one executable token: a bare program name found on
// PATH, or a ./ path to a plugin file, which it returns resolved and bound.
func (l *loader) checkCommand(name, command string, bad, warn problemFn) (string, *model.File) {
	switch {
	case strings.TrimSpace(command) == "":
		bad("mcp-command-not-single-token", fmt.Sprintf("Server %q has a command made only of whitespace, which names no program; command must be one executable token. It is skipped.", clip(name)), "7.2.1", "command")
	case commandControl(command) >= 0:
		bad("mcp-command-not-single-token", fmt.Sprintf("Server %q has command %q, which contains the control character %s; no program name or file name passed as one token can carry it, so the server is skipped.", clip(name), clip(command), controlName(command)), "7.2.1", "command")
	case strings.HasPrefix(command, "./"):
		return l.commandFile(name, command, bad, warn)
	case strings.Contains(command, "${"):
		bad("mcp-command-form", fmt.Sprintf("Server %q has command %q: placeholders are not expanded in command; use a path starting with ./ for a bundled executable. It is skipped.", clip(name), clip(command)), "7.2.1", "command")
	case strings.ContainsAny(command, "/\\") || command == "." || command == "..":
		bad("mcp-command-form", fmt.Sprintf("Server %q has command %q; it must be a bare executable name or a plugin-relative path starting with ./, so it is skipped.", clip(name), clip(command)), "7.2.1", "command")
	case strings.ContainsAny(command, " \t") || shellMeta.MatchString(command):
		warn("mcp-command-looks-like-shell-string", fmt.Sprintf("Server %q has command %q: clients run it as one token, the program named exactly that on the user's PATH, and no shell splits it; if you meant a program with arguments, put the arguments in \"args\".", clip(name), clip(command)), "7.2.1", "command")
	}
	return "", nil
}

// expandAll expands each argument, and says whether any of them changed.
func (l *loader) expandAll(args []string) ([]string, bool) {
	exp, changed := make([]string, len(args)), false
	for i, a := range args {
		exp[i] = l.expand(a)
		changed = changed || exp[i] != a
	}
	return exp, changed
}

// stdioEnv lists env as written and expanded, and checks each name and value.
func (l *loader) stdioEnv(c *model.Component, d *stdioDecl, bad, warn problemFn) {
	d.envMap = map[string]string{}
	if d.env == nil {
		return
	}
	lit, exp := model.Fields{}, model.Fields{}
	changed := false
	for _, e := range d.env {
		k := e.Key
		if _, dup := d.envMap[k]; !dup {
			d.envNames = append(d.envNames, k)
		}
		d.envMap[k] = e.Val.Str
		lit = append(lit, model.Field{Key: k, Value: e.Val.Str})
		x := l.expand(e.Val.Str)
		changed = changed || x != e.Val.Str
		exp = append(exp, model.Field{Key: k, Value: x})
		checkEnvEntry(d.name, k, e.Val.Str, bad, warn)
	}
	c.Details = append(c.Details, model.Field{Key: "env", Value: lit})
	if changed {
		c.Details = append(c.Details, model.Field{Key: "env (expanded)", Value: exp})
	}
}

// checkEnvEntry refuses the reserved names the client supplies, and warns of names no
// platform can set and of literal values that look like credentials.
func checkEnvEntry(name, k, val string, bad, warn problemFn) {
	switch up := strings.ToUpper(k); {
	case k == "PLUGIN_ROOT" || k == "PLUGIN_DATA":
		bad("mcp-env-reserved", fmt.Sprintf("Server %q sets the reserved variable %s in env; the client supplies it, so the server is skipped.", clip(name), k), "9.2", "env", k)
	case up == "PLUGIN_ROOT" || up == "PLUGIN_DATA":
		warn("mcp-env-reserved-case", fmt.Sprintf("Server %q sets %s in env, which names the reserved %s on platforms with case-insensitive environment names (Windows).", clip(name), clip(k), up), "9.1", "env", k)
	case k == "" || strings.ContainsAny(k, "=\x00"):
		warn("mcp-env-name-unusable", fmt.Sprintf("Server %q has the env name %q, which no platform can set.", clip(name), clip(k)), "9.1", "env", k)
	}
	if looksSecret(k) && val != "" && !strings.HasPrefix(val, "${PLUGIN_") {
		warn("mcp-possible-secret", fmt.Sprintf("Server %q sets %s to a literal value in env; env values are visible package data and must not hold credentials.", clip(name), clip(k)), "9.2", "env", k)
	}
}

// stdioBind binds the server's closure (every file of the plugin, and a ./ command
// outside it) into its contract; false when a file could not be read, so the server
// cannot be approved.
func (l *loader) stdioBind(c *model.Component, d *stdioDecl) bool {
	cl := l.closure()
	c.Diagnostics = append(c.Diagnostics, cl.diags...)
	if !cl.complete {
		// The entry is valid and a client would run it, but vouch cannot say what it runs:
		// no contract, so it can never be approved.
		c.Summary = append(c.Summary, "Blocked: vouch could not read every file of the plugin within its limits (see the diagnostics), so an approval could not cover everything this server may run; it cannot be approved.")
		return false
	}
	files := cl.files
	if d.cmdFile != nil {
		if _, in := cl.byPath[d.cmdFile.Path]; !in {
			// A command under skills/ (or plugin.json itself): outside the closure but run.
			files = append(append(make([]model.File, 0, len(files)+1), files...), *d.cmdFile)
			sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
		}
	}
	c.Files = files
	contract := make(model.Fields, 0, 6) // its size: a console keeps one per server
	contract = append(contract, model.Field{Key: "type", Value: "stdio"}, model.Field{Key: "command", Value: d.command})
	if d.resolvedCmd != "" {
		contract = append(contract, model.Field{Key: "command_file", Value: d.resolvedCmd})
	}
	if d.args == nil {
		d.args = []string{}
	}
	contract = append(contract,
		model.Field{Key: "args", Value: d.args},
		model.Field{Key: "env", Value: model.FieldsOf(d.envMap)},
		model.Field{Key: "cwd", Value: d.cwd},
	)
	c.Contract = &model.Contract{Kind: model.KindMCPServer, Fields: contract, Files: files}
	return true
}

// stdioAccount says in plain language what starts, with which environment, where, and
// from which program, and lists what no approval binds.
func (l *loader) stdioAccount(c *model.Component, d *stdioDecl) {
	command := d.command
	launch := strings.Join(append([]string{command}, d.args...), " ")
	c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapServerLaunch, Scope: []string{command},
		Detail: fmt.Sprintf("Starts `%s` as a local process when the client loads the plugin.", launch)})
	summary := fmt.Sprintf("Starts `%s` as a local process when the client loads the plugin", launch)
	if names := d.envNames; len(names) > 0 {
		sort.Strings(names)
		c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapEnv, Scope: names,
			Detail: "Passes environment variables " + strings.Join(names, ", ") + " to the process."})
		summary += "; passes environment variables " + strings.Join(names, ", ")
	}
	c.Summary = append(c.Summary, summary+".")
	if d.hasCwd {
		c.Summary = append(c.Summary, fmt.Sprintf("Runs in %s.", l.expand(d.cwd)))
	}
	if d.cmdFile != nil {
		c.Summary = append(c.Summary, fmt.Sprintf("Runs the bundled file %s (sha256 %s).", d.resolvedCmd, d.cmdFile.SHA256[:12]))
	} else if d.resolvedCmd == "" {
		c.Summary = append(c.Summary, fmt.Sprintf("%s is found on the user's PATH, so that program is outside this package.", command))
	}
	c.Summary = append(c.Summary, "Runs with the plugin's files: every file of the plugin, its skills, plugin.json and mcp.json included, is part of what you approve, and symlinks are bound as links; editing or retargeting any of them needs a new approval.")
	c.NotCovered = l.notCovered(command, d.resolvedCmd, d.args, d.env, d.cwd, d.hasCwd)
}

// stdioLink returns the first path a stdio server names that goes through a symlink in
// the plugin (its ./ command, its cwd, or a ${PLUGIN_ROOT}/ argument), "" when none:
// Codex copies the plugin without its symlinks, so the server would not find it there.
func (l *loader) stdioLink(command, resolvedCmd string, args []string, cwd string) string {
	if resolvedCmd != "" && path.Clean(strings.TrimPrefix(command, "./")) != resolvedCmd {
		return command
	}
	const root = "${PLUGIN_ROOT}/"
	// A ./ cwd is plugin-relative (§7.2.1); a ./ argument is relative to the cwd, so only
	// ${PLUGIN_ROOT}/ arguments name a plugin path for certain.
	for i, p := range append([]string{cwd}, args...) {
		rel, ok := strings.CutPrefix(p, root)
		if !ok && i == 0 {
			rel, ok = strings.CutPrefix(p, "./")
		}
		if ok && rel != "" && fsguard.WithinLexical(rel) && l.viaSymlink(rel) {
			return p
		}
	}
	return ""
}

// notCovered lists what the server depends on that its approval cannot bind, after the
// single expansion pass a client applies (closure.NotCoveredBy). Agent Plugins treats
// args as opaque strings, so none of it changes validity.
func (l *loader) notCovered(command, resolvedCmd string, args []string, env []jsontext.Member, cwd string, hasCwd bool) []model.NotCovered {
	p := closure.Process{Command: command, Bundled: resolvedCmd != "" || strings.HasPrefix(command, "./"), Root: l.root.Path(), Data: l.dataDir,
		DataName: "${PLUGIN_DATA}", Starts: "the server starts", Interpreter: l.closure().interp[resolvedCmd]}
	for _, a := range args {
		p.Args = append(p.Args, l.expand(a))
	}
	for _, e := range env {
		p.Env = append(p.Env, closure.EnvVar{Name: e.Key, Value: l.expand(e.Val.Str)})
	}
	if hasCwd {
		exp := l.expand(cwd)
		if !strings.HasPrefix(exp, "/") {
			exp = path.Join(l.root.Path(), exp)
		}
		p.Cwd = exp
	}
	return closure.NotCoveredBy(p)
}

func looksSecret(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"token", "secret", "password", "passwd", "apikey", "api_key", "api-key", "private_key", "credential", "authorization", "cookie"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// commandFile checks a ./ command: contained after every symlink is followed
// (agent-plugins §4.1, §7.2.1). Its bytes come from the plugin closure, which holds every
// file of the plugin; only a command the closure could not take in is read here.
func (l *loader) commandFile(name, command string, bad, warn problemFn) (string, *model.File) {
	rel := strings.TrimPrefix(command, "./")
	if rel == "" || strings.HasSuffix(rel, "/") {
		bad("mcp-command-form", fmt.Sprintf("Server %q has command %q, which names a directory, not an executable; it is skipped.", clip(name), clip(command)), "7.2.1", "command")
		return "", nil
	}
	if !fsguard.WithinLexical(rel) {
		// ./bin/../../x leaves the root once cleaned, whether or not bin exists (a bin
		// created later makes it run what lies outside), as the cwd check already says.
		bad("mcp-command-escape", fmt.Sprintf("Server %q runs %s, which resolves outside the plugin root, so the server is skipped.", clip(name), clip(command)), "4.1", "command")
		return "", nil
	}
	real, err := l.root.Resolve(rel)
	if err != nil {
		switch fsguard.CodeOf(err) {
		case fsguard.CodeNotFound, fsguard.CodeDangling:
			warn("mcp-command-missing", fmt.Sprintf("Server %q runs %s, which is not in the package; the server will fail to start.", clip(name), clip(command)), "7.2.1", "command")
			return "", nil
		case fsguard.CodeEscape:
			bad("mcp-command-escape", fmt.Sprintf("Server %q runs %s, which resolves outside the plugin root, so the server is skipped.", clip(name), clip(command)), "4.1", "command")
		default:
			bad("mcp-command-unresolvable", fmt.Sprintf("Server %q runs %s, which cannot be resolved (%s), so containment cannot be checked and the server is skipped.", clip(name), clip(command), fsguard.Reason(err)), "4.1", "command")
		}
		return "", nil
	}
	st, err := l.root.Stat(real)
	if err == nil && st.Type != fsguard.TypeFile {
		warn("mcp-command-not-file", fmt.Sprintf("Server %q runs %s, which is a %s, not a file; the server will fail to start.", clip(name), clip(command), st.Type), "7.2.1", "command")
		return real, nil
	}
	notExec := func() {
		warn("mcp-command-not-executable", fmt.Sprintf("Server %q runs %s, which has no execute permission; the server may fail to start.", clip(name), clip(command)), "7.2.1", "command")
	}
	cl := l.closure()
	if i, ok := cl.byPath[real]; ok {
		f := cl.files[i]
		if !f.Exec {
			notExec()
		}
		return real, &f
	}
	if !cl.complete {
		return real, nil // the server is blocked for that below; nothing more is read
	}
	cached, ok := l.files[real]
	if !ok {
		var data []byte
		switch {
		case real == manifestFile && l.manifestData != nil:
			data = l.manifestData
		default:
			data, err = l.root.ReadFile(real, 0)
		}
		if err != nil {
			cached = fileResult{err: err}
		} else {
			sum := sha256.Sum256(data)
			cached = fileResult{file: model.File{Path: real, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:]), Exec: st.Exec}}
		}
		l.files[real] = cached
	}
	if cached.err != nil {
		warn("mcp-command-unreadable", fmt.Sprintf("Server %q runs %s, which cannot be read (%s); its bytes are not part of the review.", clip(name), clip(command), fsguard.Reason(cached.err)), "7.2.1", "command")
		return real, nil
	}
	if !cached.file.Exec {
		notExec()
	}
	f := cached.file
	return real, &f
}

// checkCwd applies the three cwd forms and post-expansion containment (agent-plugins §7.2.1).
func (l *loader) checkCwd(name, cwd, exp string, bad, warn problemFn) {
	const root, data = "${PLUGIN_ROOT}", "${PLUGIN_DATA}"
	var rel string
	switch {
	case strings.HasPrefix(cwd, "./"):
		rel = strings.TrimLeft(strings.TrimPrefix(exp, "./"), "/")
	case cwd == root || strings.HasPrefix(cwd, root+"/"):
		rel = strings.TrimPrefix(strings.TrimPrefix(exp, l.root.Path()), "/")
	case cwd == data || strings.HasPrefix(cwd, data+"/"):
		inner := strings.TrimPrefix(strings.TrimPrefix(exp, l.dataDir), "/")
		if !fsguard.WithinLexical(inner) {
			bad("mcp-cwd-escape", fmt.Sprintf("Server %q has cwd %q, which leaves the plugin data directory after expansion, so it is skipped.", clip(name), clip(cwd)), "7.2.1", "cwd")
		}
		return // the data directory is the client's, created at launch: nothing on disk to resolve
	default:
		bad("mcp-cwd-form", fmt.Sprintf("Server %q has cwd %q; it must start with ./, ${PLUGIN_ROOT} or ${PLUGIN_DATA}, so it is skipped.", clip(name), clip(cwd)), "7.2.1", "cwd")
		return
	}
	if rel == "" {
		rel = "."
	}
	if !fsguard.WithinLexical(rel) {
		bad("mcp-cwd-escape", fmt.Sprintf("Server %q has cwd %q, which leaves the plugin root after expansion, so it is skipped.", clip(name), clip(cwd)), "4.1", "cwd")
		return
	}
	real, err := l.root.Resolve(rel)
	if err != nil {
		switch fsguard.CodeOf(err) {
		case fsguard.CodeNotFound, fsguard.CodeDangling:
			warn("mcp-cwd-missing", fmt.Sprintf("Server %q has cwd %q, which does not exist in the package; the server will fail to start.", clip(name), clip(cwd)), "7.2.1", "cwd")
		case fsguard.CodeEscape:
			bad("mcp-cwd-escape", fmt.Sprintf("Server %q has cwd %q, which resolves outside the plugin root, so it is skipped.", clip(name), clip(cwd)), "4.1", "cwd")
		default:
			bad("mcp-cwd-unresolvable", fmt.Sprintf("Server %q has cwd %q, which cannot be resolved (%s), so it is skipped.", clip(name), clip(cwd), fsguard.Reason(err)), "4.1", "cwd")
		}
		return
	}
	if st, err := l.root.Stat(real); err == nil && st.Type != fsguard.TypeDir {
		warn("mcp-cwd-not-directory", fmt.Sprintf("Server %q has cwd %q, which is a %s, not a directory; the server will fail to start.", clip(name), clip(cwd), st.Type), "7.2.1", "cwd")
	}
}

func (l *loader) remote(c *model.Component, typ string, str func(string) (string, bool), strMap func(string) []jsontext.Member, bad, warn problemFn) *model.Component {
	name := c.ID
	raw, hasURL := str("url")
	headers := strMap("headers")
	host := ""
	secure := true
	if hasURL {
		c.Details = append(c.Details, model.Field{Key: "url", Value: raw})
		host, secure = l.checkURL(name, raw, bad)
	}
	hdrMap := map[string]string{}
	var hdrNames []string
	if headers != nil {
		lit := model.Fields{}
		seen := map[string]string{}
		for _, h := range headers {
			lit = append(lit, model.Field{Key: h.Key, Value: h.Val.Str})
			if !validHeaderName(h.Key) {
				bad("mcp-header-name-invalid", fmt.Sprintf("Server %q has the header name %q, which is not a valid HTTP field name, so it is skipped.", clip(name), clip(h.Key)), "7.2.1", "headers", h.Key)
			}
			if !validHeaderValue(h.Val.Str) {
				bad("mcp-header-value-invalid", fmt.Sprintf("Server %q has an invalid value for header %q (control characters, or leading or trailing whitespace), so it is skipped.", clip(name), clip(h.Key)), "7.2.1", "headers", h.Key)
			}
			low := strings.ToLower(h.Key)
			if prev, dup := seen[low]; dup {
				bad("mcp-header-duplicate", fmt.Sprintf("Server %q sets header %q twice (as %q and %q); header names are case-insensitive, so it is skipped.", clip(name), clip(low), clip(prev), clip(h.Key)), "7.2.1", "headers", h.Key)
				continue
			}
			seen[low] = h.Key
			hdrNames = append(hdrNames, h.Key)
			hdrMap[h.Key] = h.Val.Str
			if (looksSecret(h.Key) || low == "x-api-key") && h.Val.Str != "" {
				warn("mcp-possible-secret", fmt.Sprintf("Server %q sends a literal %s header; header values are visible package data and must not hold credentials.", clip(name), clip(h.Key)), "7.2.1", "headers", h.Key)
			}
		}
		c.Details = append(c.Details, model.Field{Key: "headers", Value: lit})
	}
	if slices.ContainsFunc(c.Diagnostics, model.Diagnostic.IsError) {
		return l.finishInvalid(c)
	}
	c.Validity = model.Valid
	c.Contract = &model.Contract{Kind: model.KindMCPServer, Fields: model.Fields{
		{Key: "type", Value: typ},
		{Key: "url", Value: raw},
		{Key: "headers", Value: model.FieldsOf(hdrMap)},
	}}
	transport := "Streamable HTTP"
	if typ == "sse" {
		transport = "the legacy HTTP+SSE transport"
	}
	s := fmt.Sprintf("Connects to %s over %s", raw, transport)
	if len(hdrNames) > 0 {
		s += " sending headers " + strings.Join(hdrNames, ", ")
	}
	c.Summary = append(c.Summary, s+".")
	if !secure {
		c.Summary = append(c.Summary, "Uses unencrypted HTTP to a loopback address on this machine.")
	}
	scope := append([]string{host}, hdrNames...)
	c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapRemoteConnect, Scope: scope,
		Detail: fmt.Sprintf("Connects to the MCP server at %s%s.", host, headerPhrase(hdrNames))})
	c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapNetwork, Scope: []string{host}, Detail: fmt.Sprintf("Opens network connections to %s.", host)})
	c.Support = serverSupport(typ, len(hdrNames), raw)
	return c
}

func headerPhrase(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return " with headers " + strings.Join(names, ", ")
}

// checkURL applies agent-plugins §7.2.1: absolute http(s), no userinfo, no fragment,
// HTTPS unless the host is exactly localhost or a loopback IP literal.
func (l *loader) checkURL(name, raw string, bad problemFn) (host string, secure bool) {
	if strings.IndexFunc(raw, func(r rune) bool { return r <= ' ' || r == 0x7f }) >= 0 {
		bad("mcp-url-invalid", fmt.Sprintf("Server %q has a url with whitespace or control characters, so it is skipped.", clip(name)), "7.2.1", "url")
		return "", true
	}
	u, err := url.Parse(raw)
	if err != nil {
		bad("mcp-url-invalid", fmt.Sprintf("Server %q has the url %q, which is not a valid URL, so it is skipped.", clip(name), clip(raw)), "7.2.1", "url")
		return "", true
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Opaque != "" || u.Host == "" {
		bad("mcp-url-scheme", fmt.Sprintf("Server %q has the url %q; it must be an absolute http or https URL, so it is skipped.", clip(name), clip(raw)), "7.2.1", "url")
		return u.Host, true
	}
	if u.User != nil {
		bad("mcp-url-userinfo", fmt.Sprintf("Server %q has a url with user information (user@ or user:password@), so it is skipped.", clip(name)), "7.2.1", "url")
	}
	if strings.Contains(raw, "#") {
		bad("mcp-url-fragment", fmt.Sprintf("Server %q has a url with a #fragment, so it is skipped.", clip(name)), "7.2.1", "url")
	}
	host = u.Hostname()
	if !validPort(u.Port()) {
		bad("mcp-url-invalid", fmt.Sprintf("Server %q has the url %q, whose port is not a number from 0 to 65535, so it is skipped.", clip(name), clip(raw)), "7.2.1", "url")
		return host, u.Scheme == "https"
	}
	if u.Scheme == "http" {
		if !isLoopback(host) {
			note := ""
			if a, err := netip.ParseAddr(host); err == nil && a.IsUnspecified() {
				note = " (" + host + " means every interface, not loopback)"
			}
			bad("mcp-url-insecure", fmt.Sprintf("Server %q uses plain http to %s%s; endpoints other than localhost or a loopback IP must use https, so it is skipped.", clip(name), clip(host), note), "7.2.1", "url")
		}
		return host, false
	}
	return host, true
}

// validPort: url.Parse checks that a port is digits but not its range; a URL parser
// (WHATWG) rejects one above 65535. Leading zeros are allowed, as there.
func validPort(p string) bool {
	p = strings.TrimLeft(p, "0")
	if len(p) > 5 {
		return false
	}
	n := 0
	for i := 0; i < len(p); i++ {
		n = n*10 + int(p[i]-'0')
	}
	return n <= 65535
}

// isLoopback: host names are case-insensitive, so LOCALHOST is localhost.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return false
	}
	return a.Unmap().IsLoopback()
}

// validHeaderName: RFC 9110 field-name = token.
func validHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0 {
			continue
		}
		return false
	}
	return true
}

// validHeaderValue: RFC 9110 field-value, visible characters (and obs-text) with inner
// spaces or tabs, no leading or trailing whitespace, no CR, LF or NUL.
func validHeaderValue(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			if i == 0 || i == len(s)-1 {
				return false
			}
		case c < 0x21 || c == 0x7f:
			return false
		}
	}
	return true
}

// defaultCwd is the expanded cwd of a stdio server that names none, one string for
// every such server of the plugin.
func (l *loader) defaultCwd() string {
	if l.defaultCwdText == "" {
		l.defaultCwdText = l.root.Path() + " (default: the plugin root)"
	}
	return l.defaultCwdText
}
