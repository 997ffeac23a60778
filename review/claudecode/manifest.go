package claudecode

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode"

	"vouch/model"
	"vouch/review/fsguard"
	"vouch/review/jsontext"
)

// fieldType is the JSON shape a manifest field must have (Claude Code).
type fieldType int

const (
	tAny fieldType = iota
	tString
	tBool
	tObject
	tArray
	tPaths      // string or array of strings
	tPathsOrObj // string, array (of strings or objects), or object
)

func (t fieldType) String() string {
	return [...]string{"any value", "a string", "a boolean", "an object", "an array", "a path string or an array of paths", "a path, an array of paths or an inline object"}[t]
}

// manifestFields are the fields Claude Code recognises in plugin.json, in display
// order, with their types. A recognised field of the wrong type fails the plugin, except
// metadata and experimental, which are ignored with a warning.
var manifestFields = []struct {
	Key  string
	Type fieldType
}{
	{"$schema", tAny}, {"name", tString}, {"displayName", tString}, {"version", tString}, {"description", tString},
	{"author", tObject}, {"homepage", tString}, {"repository", tString}, {"license", tString}, {"keywords", tArray},
	{"icon", tString}, {"metadata", tObject}, {"defaultEnabled", tBool},
	{"skills", tPaths}, {"commands", tPaths}, {"agents", tPaths}, {"workflows", tPaths}, {"outputStyles", tPaths},
	{"hooks", tPathsOrObj}, {"mcpServers", tPathsOrObj}, {"lspServers", tPathsOrObj},
	{"userConfig", tObject}, {"channels", tArray}, {"dependencies", tArray}, {"experimental", tObject},
	{"monitors", tPathsOrObj}, {"themes", tAny},
	// Known to every Claude Code release vouch models, except optionalDependencies, which
	// fieldSince keys: settings is a type-checked record, engines an object such as
	// {"claude-code": ">=2.1.0"}, network is shown and limits nothing.
	{"settings", tObject}, {"engines", tObject}, {"network", tAny}, {"optionalDependencies", tArray},
}

// fieldSince is the first Claude Code release that reads a manifest field; an older one
// treats it as unknown.
var fieldSince = map[string]string{"optionalDependencies": model.ClaudeCode331}

// displayOnlyFields are recognised fields Claude Code does not hold to their type
// at load: a plugin whose author is a string, or whose description, keywords, homepage,
// repository, license, icon or displayName has the wrong type, loads and runs (observed
// with --plugin-dir; its validator rejects the same manifests). Every other recognised
// field of the wrong type fails the plugin there.
var displayOnlyFields = map[string]bool{"displayName": true, "description": true, "author": true, "homepage": true,
	"repository": true, "license": true, "keywords": true, "icon": true}

// entryOnlyFields are marketplace-entry fields that are not plugin.json fields.
var entryOnlyFields = map[string]bool{"source": true, "category": true, "tags": true, "strict": true, "relevance": true}

func manifestType(key string) (fieldType, bool) {
	for _, f := range manifestFields {
		if f.Key == key {
			return f.Type, true
		}
	}
	return 0, false
}

// componentFields are the manifest fields that declare component paths.
var componentFields = []string{"skills", "commands", "agents", "workflows", "outputStyles", "hooks", "mcpServers", "lspServers"}

// manifestStep reads .claude-plugin/plugin.json (when present) and applies Claude's rules.
// It returns false when the plugin fails to load: then no component is listed.
func (l *loader) manifestStep() bool {
	doc, data, issues, missing, ok := l.parseJSON(manifestFile, "manifest", model.BoundaryPackage, claudeSeen+" cannot load the plugin")
	if missing {
		if l.entry != nil && l.entry.obj != nil {
			return l.checkManifest(l.entry.obj, nil, "", true)
		}
		l.pkg.Manifest = model.Fields{{Key: "manifest", Value: "none: the default layout is read, and the name comes from the folder"}}
		return true
	}
	if !ok {
		return false
	}
	for _, is := range issues {
		sev := model.SeverityWarning
		if is.Code != jsontext.CodeDuplicateKey {
			sev = model.SeverityError
		}
		d := model.Place{File: manifestFile, Pointer: is.Pointer, Line: jsontext.Line(data, is.Off)}.Package("manifest-"+strings.TrimPrefix(is.Code, "json-"), sev,
			fmt.Sprintf("In plugin.json, %s.", is.Msg), specRef("1.1"))
		if is.Code == jsontext.CodeDuplicateKey {
			d.Message = fmt.Sprintf("In plugin.json, %s; "+claudeSeen+" keeps the last occurrence, other readers may keep the first.", is.Msg)
		}
		l.pkgDiag(d)
	}
	if hasErrors(l.pkg.Diagnostics) {
		return false
	}
	if doc.Kind != jsontext.Object {
		l.pkgErr("manifest-not-object", manifestFile, "", jsontext.Line(data, doc.Off),
			fmt.Sprintf("plugin.json holds a JSON %s; it must hold an object, so "+claudeSeen+" cannot load the plugin.", doc.Kind), "1.1")
		return false
	}
	l.manifest, l.mdata = doc, data
	if l.entry != nil && l.entry.obj != nil {
		if !l.entry.strict {
			// strict:false: the entry is the whole definition (Claude Code); components
			// that plugin.json also declares are a conflict.
			for _, f := range componentFields {
				if m := doc.Get(f); m != nil && l.entry.obj.Get(f) != nil {
					l.pkgWarn("marketplace-strict-conflict", manifestFile, jsontext.Pointer(f), jsontext.Line(data, m.KeyOff),
						fmt.Sprintf("The marketplace entry has strict: false and declares %q, which plugin.json declares too; the entry is the whole definition, so plugin.json's %q is not used.", f, f), "1.8")
				}
			}
			return l.checkManifest(l.entry.obj, nil, "", true)
		}
		return l.checkManifest(mergeEntry(doc, l.entry.obj), data, manifestFile, false)
	}
	return l.checkManifest(doc, data, manifestFile, false)
}

// mergeEntry is plugin.json with the marketplace entry's plugin fields added where
// plugin.json lacks them (strict: true, the default).
func mergeEntry(doc, entry *jsontext.Value) *jsontext.Value {
	out := &jsontext.Value{Kind: jsontext.Object, Off: doc.Off, Obj: append([]jsontext.Member(nil), doc.Obj...)}
	for _, m := range entry.Obj {
		if entryOnlyFields[m.Key] || doc.Get(m.Key) != nil {
			continue
		}
		out.Obj = append(out.Obj, jsontext.Member{Key: m.Key, KeyOff: -1, Val: m.Val})
	}
	return out
}

// manifestDoc is the effective manifest object and where its text is: data is the text
// offsets refer to (nil for a marketplace entry, whose text is in another package).
type manifestDoc struct {
	doc       *jsontext.Value
	data      []byte
	file      string // "" for a marketplace entry
	where     string // the manifest as messages name it
	fromEntry bool
}

func (md manifestDoc) line(off int) int {
	if md.data == nil || off < 0 {
		return 0
	}
	return jsontext.Line(md.data, off)
}

// checkManifest applies the field rules to the effective manifest object. data is the
// text offsets refer to (nil for a marketplace entry, whose text is in another package).
// It returns false when Claude Code fails to load the plugin.
func (l *loader) checkManifest(doc *jsontext.Value, data []byte, file string, fromEntry bool) bool {
	md := manifestDoc{doc: doc, data: data, file: file, where: "plugin.json", fromEntry: fromEntry}
	if fromEntry {
		md.where, md.file = "the marketplace entry", ""
	}
	shown, fatal := l.manifestFieldsShown(md)
	if !l.manifestName(md) || fatal {
		return false
	}
	if l.name != "" && !strings.ContainsAny(l.name, " \t#") {
		l.pkg.Name = l.name
	}
	if v, ok := strVal(doc, "version"); ok {
		l.pkg.Version = v
	}
	if v, ok := strVal(doc, "description"); ok {
		l.pkg.Description = v
	}
	l.pkg.Manifest = shown
	if !l.componentPaths(md) {
		return false
	}
	l.monitorsPath(md)
	if uc := doc.Get("userConfig"); uc != nil && uc.Val.Kind == jsontext.Object {
		l.userConfigStep(uc.Val, md.file, md.line)
	}
	return !l.pathFatal
}

// manifestFieldsShown checks each field's name and type (the first of a duplicated key
// only), and returns the fields shown as the manifest, and whether a field fails the plugin.
func (l *loader) manifestFieldsShown(md manifestDoc) (shown model.Fields, fatal bool) {
	for _, m := range md.doc.Firsts() {
		// Claude keeps the last occurrence's value; messages point at the first.
		last := md.doc.Get(m.Key)
		show, bad := l.manifestField(md, m.Key, m.KeyOff, last.Val)
		fatal = fatal || bad
		if show {
			shown = append(shown, model.Field{Key: m.Key, Value: jsontext.Display(last.Val)})
		}
	}
	return shown, fatal
}

// manifestField decides one field: whether the release reads it, whether it is known,
// and whether its type loads. It returns whether the field is shown and whether it fails
// the plugin.
func (l *loader) manifestField(md manifestDoc, key string, keyOff int, val *jsontext.Value) (show, fatal bool) {
	file, where, ptr, line := md.file, md.where, jsontext.Pointer(key), md.line(keyOff)
	t, known := manifestType(key)
	if since := fieldSince[key]; known && since != "" && !model.AtLeast(l.opts.ClaudeVersion, since) {
		l.pkgWarn("manifest-field-newer", file, ptr, line,
			fmt.Sprintf("%s has %q, which Claude Code reads from %s on; Claude Code %s rejects it as an unknown field, so nothing it names is installed there.", where, key, since, l.opts.ClaudeVersion), "1.1")
		return false, false
	}
	if !known {
		if md.fromEntry && entryOnlyFields[key] {
			return false, false
		}
		msg := fmt.Sprintf("%s has the unknown field %q; "+claudeSeen+" ignores unrecognized fields at load time, so it has no effect", where, clip(key))
		if s := suggest(key); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		l.pkgWarn("manifest-unknown-field", file, ptr, line, msg+".", "1.1")
		return false, false
	}
	if !typeOK(val, t) {
		return l.manifestFieldType(md, key, keyOff, val, t)
	}
	if key == "author" {
		for _, a := range val.Obj {
			if (a.Key == "name" || a.Key == "email" || a.Key == "url") && a.Val.Kind != jsontext.String {
				l.pkgWarn("manifest-field-type-loaded", file, jsontext.Pointer("author", a.Key), md.line(a.KeyOff),
					fmt.Sprintf("author.%s in %s is a %s; it must be a string. `claude plugin validate` rejects the plugin for it, but Claude Code %s still loads it and everything in it runs.", a.Key, where, a.Val.Kind, ClaudeVersion), "1.1")
			}
		}
	}
	return true, false
}

// manifestFieldType decides a known field of the wrong type: ignored (metadata,
// experimental), shown and loaded anyway (display-only fields), or fatal.
func (l *loader) manifestFieldType(md manifestDoc, key string, keyOff int, val *jsontext.Value, t fieldType) (show, fatal bool) {
	file, where, ptr, line := md.file, md.where, jsontext.Pointer(key), md.line(keyOff)
	switch {
	case key == "metadata" || key == "experimental":
		l.pkgWarn("manifest-field-ignored", file, ptr, line,
			fmt.Sprintf("%q in %s is a %s, not an object; "+claudeSeen+" ignores it.", key, where, val.Kind), "1.1")
		return false, false
	case displayOnlyFields[key]:
		l.pkgWarn("manifest-field-type-loaded", file, ptr, line,
			fmt.Sprintf("%q in %s is a %s; it must be %s. `claude plugin validate` rejects the plugin for it, but Claude Code %s still loads it and everything in it runs, so its components are listed.", key, where, val.Kind, t, ClaudeVersion), "1.1")
		return true, false
	}
	l.pkgErr("manifest-field-type", file, ptr, line,
		fmt.Sprintf("%q in %s is a %s; it must be %s, and a recognised field of the wrong type makes "+claudeSeen+" fail to load the plugin.", key, where, val.Kind, t), "1.1")
	return false, true
}

// manifestName checks "name", the only required field (a marketplace entry's name is its
// own); it returns false when the plugin cannot load for it.
func (l *loader) manifestName(md manifestDoc) bool {
	nm := md.doc.Get("name")
	switch {
	case nm == nil && md.fromEntry:
	case nm == nil:
		l.pkgErr("manifest-missing-name", md.file, "/name", md.line(md.doc.Off), fmt.Sprintf("%s has no \"name\"; it is the only required field, so "+claudeSeen+" cannot load the plugin.", md.where), "1.1")
		return false
	case nm.Val.Kind == jsontext.String:
		l.name = nm.Val.Str
		return l.checkName(nm.Val.Str, md.file, md.line(nm.KeyOff))
	}
	return true
}

// componentPaths reads the component fields: each path must start ./, hold no "..", and
// exist; an object is an inline definition (hooks and servers). It returns false when a
// path that is not a string fails the plugin.
func (l *loader) componentPaths(md manifestDoc) bool {
	l.paths = map[string][]string{}
	l.pathOrder = map[string][]int{}
	l.inline = map[string][]inlineVal{}
	for _, f := range componentFields {
		m := md.doc.Get(f)
		if m == nil {
			continue
		}
		var vals []*jsontext.Value
		switch m.Val.Kind {
		case jsontext.String:
			vals = []*jsontext.Value{m.Val}
		case jsontext.Array:
			vals = m.Val.Arr
		case jsontext.Object:
			l.inline[f] = append(l.inline[f], inlineVal{v: m.Val, ptr: jsontext.Pointer(f), entry: md.fromEntry || m.KeyOff < 0})
			l.paths[f] = []string{}
			continue
		}
		l.pathOrder[f] = nil
		l.paths[f] = []string{}
		for i, v := range vals {
			ptr := jsontext.Pointer(f)
			if m.Val.Kind == jsontext.Array {
				ptr = jsontext.Pointer(f, fmt.Sprint(i))
			}
			if !l.componentPath(md, m, f, i, v, ptr) {
				return false
			}
		}
	}
	return true
}

// componentPath reads entry i of component field f: an inline object, a remote bundle
// Claude downloads, or a path inside the plugin. It returns false when the entry fails the
// plugin.
func (l *loader) componentPath(md manifestDoc, m *jsontext.Member, f string, i int, v *jsontext.Value, ptr string) bool {
	if v.Kind == jsontext.Object && (f == "hooks" || f == "mcpServers" || f == "lspServers") {
		l.inline[f] = append(l.inline[f], inlineVal{v: v, ptr: ptr, entry: md.fromEntry || m.KeyOff < 0, order: i})
		return true
	}
	if v.Kind != jsontext.String {
		l.pkgErr("manifest-field-type", md.file, ptr, md.line(v.Off), fmt.Sprintf("%s in %s is a %s; paths must be strings, so "+claudeSeen+" fails to load the plugin.", ptr, md.where, v.Kind), "1.2")
		return false
	}
	if low := strings.ToLower(v.Str); f == "mcpServers" && strings.HasPrefix(low, "https://") && (strings.HasSuffix(low, ".mcpb") || strings.HasSuffix(low, ".dxt")) {
		l.remoteBundles = append(l.remoteBundles, v.Str) // a bundle Claude downloads
		return true
	}
	if p, ok := l.checkPath(f, v.Str, md.file, ptr, md.line(v.Off)); ok {
		l.paths[f] = append(l.paths[f], p)
		l.pathOrder[f] = append(l.pathOrder[f], i)
	}
	return true
}

// monitorsPath reads "monitors" (or, without it, experimental.monitors): a path, or an
// inline definition.
func (l *loader) monitorsPath(md manifestDoc) {
	mon := md.doc.Get("monitors")
	if exp := md.doc.Get("experimental"); mon == nil && exp != nil && exp.Val.Kind == jsontext.Object {
		mon = exp.Val.Get("monitors")
	}
	if mon == nil {
		return
	}
	switch mon.Val.Kind {
	case jsontext.String:
		if p, ok := l.checkPath("monitors", mon.Val.Str, md.file, "/monitors", md.line(mon.KeyOff)); ok {
			l.paths["monitors"] = []string{p}
		}
	case jsontext.Array, jsontext.Object:
		l.inline["monitors"] = []inlineVal{{v: mon.Val, ptr: "/monitors", entry: md.fromEntry || mon.KeyOff < 0}}
		l.paths["monitors"] = []string{}
	}
}

// inlineVal is an object given in the manifest instead of a path, with its pointer.
type inlineVal struct {
	v   *jsontext.Value
	ptr string
	// entry is set when the value came from a marketplace entry: its offsets point into
	// marketplace.json, another package's file, so no file or line is given for it.
	entry bool
	// order is the value's index in the field's list (0 for an object given alone):
	// Claude merges the list in order, a later server replacing an earlier one of its name.
	order int
}

// inlineSrc is the file and text an inline value's diagnostics refer to.
func (l *loader) inlineSrc(iv inlineVal) (string, []byte) {
	if iv.entry || l.mdata == nil {
		return "", nil
	}
	return manifestFile, l.mdata
}

func typeOK(v *jsontext.Value, t fieldType) bool {
	switch t {
	case tString:
		return v.Kind == jsontext.String
	case tBool:
		return v.Kind == jsontext.Bool
	case tObject:
		return v.Kind == jsontext.Object
	case tArray:
		return v.Kind == jsontext.Array
	case tPaths:
		if v.Kind == jsontext.String {
			return true
		}
		if v.Kind != jsontext.Array {
			return false
		}
		for _, e := range v.Arr {
			if e.Kind != jsontext.String {
				return false
			}
		}
		return true
	case tPathsOrObj:
		return v.Kind == jsontext.String || v.Kind == jsontext.Array || v.Kind == jsontext.Object
	}
	return true
}

// reservedExact and reservedPrefixes are the names Claude Code's validator refuses.
var (
	reservedExact    = map[string]bool{"claude": true, "anthropic": true, "anthropics": true, "claude-code": true, "claude-mods": true}
	reservedPrefixes = []string{"claude-", "anthropic-", "anthropics-", "cc-plugin-"}
)

// IsReservedName reports whether Claude's validator rejects name as reserved.
func IsReservedName(name string) bool {
	n := strings.ToLower(name)
	if reservedExact[n] {
		return true
	}
	for _, p := range reservedPrefixes {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return strings.Contains(n, "official") && (strings.Contains(n, "claude") || strings.Contains(n, "anthropic"))
}

// checkName applies Claude Code's name rules and reports whether the plugin still loads:
// an empty name, a space, or a control or bidirectional-formatting character makes Claude
// Code refuse the manifest (observed with --plugin-dir: "Plugin name cannot
// contain spaces"), so nothing of the plugin runs.
func (l *loader) checkName(name, file string, line int) bool {
	switch {
	case name == "":
		l.pkgErr("manifest-name-empty", file, "/name", line, "The plugin name is empty; "+claudeSeen+" refuses the manifest, so nothing of the plugin loads.", "1.1")
		return false
	case strings.ContainsAny(name, " "):
		l.pkgErr("manifest-name-space", file, "/name", line, fmt.Sprintf("The plugin name %q contains a space; "+claudeSeen+" refuses the manifest (\"use kebab-case\"), so nothing of the plugin loads.", clip(name)), "1.1")
		return false
	case strings.IndexFunc(name, nameControl) >= 0:
		l.pkgErr("manifest-name-control", file, "/name", line, fmt.Sprintf("The plugin name %q holds a control or bidirectional-formatting character; "+claudeSeen+" refuses the manifest, so nothing of the plugin loads.", clip(name)), "1.1")
		return false
	case IsReservedName(name):
		l.pkgWarn("manifest-name-reserved", file, "/name", line, fmt.Sprintf("The plugin name %q is reserved (claude-, anthropic-, cc-plugin-… and official-sounding names): `claude plugin validate` rejects it, but Claude Code %s loads such a plugin and runs it (observed with --plugin-dir), so every component is listed.", clip(name), ClaudeVersion), "1.1")
	case !kebab(name):
		l.pkgWarn("manifest-name-not-kebab", file, "/name", line, fmt.Sprintf("The plugin name %q is not kebab-case; "+claudeSeen+" accepts it, but the Claude.ai marketplace sync requires kebab-case.", clip(name)), "1.1")
	}
	return true
}

// nameControl is a character Claude Code refuses in a plugin name: a control character
// or a bidirectional mark, embedding, override or isolate.
func nameControl(r rune) bool {
	return unicode.IsControl(r) || r == 0x061C || r == 0x200E || r == 0x200F || (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069)
}

func kebab(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// checkPath applies Claude Code's path rules and returns the cleaned relative path.
func (l *loader) checkPath(field, p, file, ptr string, line int) (string, bool) {
	// A path that breaks the manifest schema (no ./, "..", absolute, an agents path that is
	// not .md) fails the manifest's validation, which makes Claude Code fail to load the
	// plugin (CC-bin: the plugin-json schema check throws); a path that does not exist is a
	// load failure of that component only.
	bad := func(code, msg string) (string, bool) {
		b := model.BoundaryPackage
		if code == "manifest-path-missing" {
			b = model.BoundaryComponentType
			msg += " `claude plugin validate` fails the whole plugin for it; Claude Code " + ClaudeVersion + " loads everything else (observed with --plugin-dir), so the other components are listed."
		} else {
			l.pathFatal = true
			msg = strings.TrimSuffix(msg, ", so it is not loaded.") + "; the manifest fails Claude's schema, so " + claudeSeen + " fails to load the plugin."
		}
		l.pkgDiag(model.Place{File: file, Pointer: ptr, Line: line}.Finding(b, code, model.SeverityError, msg, specRef("1.2")))
		return "", false
	}
	if field == "skills" && p == "." {
		return ".", true
	}
	if strings.HasPrefix(p, "/") || filepath.IsAbs(p) {
		return bad("manifest-path-absolute", fmt.Sprintf("%s is the absolute path %q; component paths must be relative to the plugin root and start with ./, so it is not loaded.", ptr, clip(p)))
	}
	for _, seg := range strings.Split(strings.ReplaceAll(p, "\\", "/"), "/") {
		if seg == ".." {
			return bad("manifest-path-traversal", fmt.Sprintf("%s is %q, which contains \"..\" (path traversal); it would not survive installation into the plugin cache, so it is not loaded.", ptr, clip(p)))
		}
	}
	if !strings.HasPrefix(p, "./") {
		return bad("manifest-path-prefix", fmt.Sprintf("%s is %q; component paths must start with ./ (write \"./%s\"), so it is not loaded.", ptr, clip(p), clip(p)))
	}
	if field == "agents" && !strings.HasSuffix(p, ".md") {
		return bad("manifest-path-not-md", fmt.Sprintf("%s is %q; agents paths must name .md files (Claude's validator: must end with \".md\"), so it is not loaded.", ptr, clip(p)))
	}
	rel := strings.TrimSuffix(strings.TrimPrefix(p, "./"), "/")
	if rel == "" {
		rel = "."
	}
	if _, err := l.root.Stat(rel); err != nil {
		if fsguard.CodeOf(err) == fsguard.CodeNotFound || fsguard.CodeOf(err) == fsguard.CodeDangling {
			extra := ""
			if field == "mcpServers" {
				extra = " (" + claudeSeen + " silently skips a missing MCP file at runtime)"
			}
			return bad("manifest-path-missing", fmt.Sprintf("%s names %q, which does not exist in the plugin%s.", ptr, clip(p), extra))
		}
		return bad("manifest-path-"+fsguard.CodeSuffix(err), fmt.Sprintf("%s names %q, which cannot be read (%s), so it is not loaded.", ptr, clip(p), fsguard.Reason(err)))
	}
	return rel, true
}

// suggest returns the known field closest to an unknown one ("did you mean").
func suggest(key string) string {
	best, bestD := "", 3
	for _, f := range manifestFields {
		if strings.EqualFold(f.Key, key) {
			return f.Key
		}
		if d := editDistance(strings.ToLower(key), strings.ToLower(f.Key)); d < bestD {
			best, bestD = f.Key, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 99
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// userConfigStep lists the userConfig options (sensitive ones named) for the overview.
func (l *loader) userConfigStep(uc *jsontext.Value, file string, line func(int) int) {
	l.userConfig = map[string]bool{}
	var sensitive, all []string
	for _, m := range uc.Obj {
		if !isIdent(m.Key) {
			l.pkgErr("userconfig-bad-key", file, jsontext.Pointer("userConfig", m.Key), line(m.KeyOff),
				fmt.Sprintf("The userConfig key %q is not an identifier; Claude's validator rejects it.", clip(m.Key)), "1.3")
			continue
		}
		if m.Val.Kind != jsontext.Object {
			l.pkgErr("userconfig-option-type", file, jsontext.Pointer("userConfig", m.Key), line(m.KeyOff),
				fmt.Sprintf("The userConfig option %q is a %s; it must be an object with type, title and description.", clip(m.Key), m.Val.Kind), "1.3")
			continue
		}
		for _, req := range []string{"type", "title", "description"} {
			if m.Val.Get(req) == nil {
				l.pkgErr("userconfig-missing-field", file, jsontext.Pointer("userConfig", m.Key), line(m.KeyOff),
					fmt.Sprintf("The userConfig option %q has no %q; type, title and description are required.", clip(m.Key), req), "1.3")
			}
		}
		if t, ok := strVal(m.Val, "type"); ok {
			switch t {
			case "string", "number", "boolean", "directory", "file":
			default:
				l.pkgErr("userconfig-bad-type", file, jsontext.Pointer("userConfig", m.Key, "type"), line(m.KeyOff),
					fmt.Sprintf("The userConfig option %q has type %q; it must be string, number, boolean, directory or file.", clip(m.Key), clip(t)), "1.3")
			}
		}
		sens := false
		if s := m.Val.Get("sensitive"); s != nil && s.Val.Kind == jsontext.Bool && s.Val.Bool {
			sens = true
			sensitive = append(sensitive, m.Key)
		}
		l.userConfig[m.Key] = sens
		all = append(all, m.Key)
	}
	if len(all) > 0 {
		l.pkg.Manifest = append(l.pkg.Manifest, model.Field{Key: "userConfig options", Value: strings.Join(all, ", ")})
	}
	if len(sensitive) > 0 {
		l.pkg.Manifest = append(l.pkg.Manifest, model.Field{Key: "userConfig sensitive options", Value: strings.Join(sensitive, ", ") + " (stored in the keychain or ~/.claude/.credentials.json)"})
	}
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
