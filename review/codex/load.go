package codex

import (
	"path/filepath"
	"strings"

	"vouch/model"
	"vouch/review/closure"
	"vouch/review/fsguard"
	"vouch/review/jsontext"
	"vouch/review/rootmanifest"
)

// loader holds the state of one Load call.
type loader struct {
	opts     Options
	root     *fsguard.Root
	pkg      *model.Package
	manifest *jsontext.Value
	data     []byte          // the manifest bytes
	ignored  map[string]bool // known manifest fields of the wrong type, which Codex ignores
	mf       string          // the manifest Codex reads: .codex-plugin/plugin.json, or .claude-plugin/plugin.json without it
	cl       *closure.Result
	// shadowed is set when a root Agent Plugins plugin.json makes Codex read that file
	// instead of .codex-plugin/plugin.json.
	shadowed bool
	// cut names the JSON files that hold more entries than vouch reads, with why.
	cut closure.Cut
}

// Load reviews the Codex plugin rooted at dir. It never fails: problems become diagnostics.
func Load(dir string, opts Options) *model.Package {
	if opts.Limits == (fsguard.Limits{}) {
		opts.Limits = fsguard.DefaultLimits()
	}
	pkg := &model.Package{Format: model.FormatCodex, Name: filepath.Base(dir)}
	if abs, err := filepath.Abs(dir); err == nil {
		pkg.Root = abs
		pkg.Name = filepath.Base(abs)
	}
	l := &loader{opts: opts, pkg: pkg, mf: manifestFile}
	root, err := fsguard.Open(dir, opts.Limits)
	if err != nil {
		l.reject("package-unreadable", "", "", 0, errorf("The plugin folder could not be opened (%v).", err))
		return pkg
	}
	defer root.Close()
	l.root = root
	pkg.Root = root.Path()
	pkg.Reader = &fsguard.DirReader{Dir: root.Path(), Limits: opts.Limits}

	l.precedence()
	if l.mf == claudeManifest {
		// Without .codex-plugin/, Codex reads a Claude Code plugin's manifest the same way
		// ([obs] probe cc: its skills, hooks/hooks.json and .mcp.json loaded; commands
		// and agents are not read by Codex).
		l.pkgDiag(model.Place{File: claudeManifest}.Package("codex-reads-claude-manifest", model.SeverityInfo,
			"There is no .codex-plugin/plugin.json: "+codexSeen+" reads .claude-plugin/plugin.json and loads the plugin's skills, hooks and MCP servers, but not its commands or agents.", specManifest))
	}
	if !l.readManifest() {
		pkg.Rejected = true
		return pkg
	}
	l.skills()
	l.mcp()
	l.apps()
	l.hooks()
	l.blockCut()
	if l.shadowed {
		for _, c := range pkg.Components {
			c.Support = codexSupport(model.NotSupported, "Codex reads the root plugin.json (Agent Plugins) in this folder, not .codex-plugin/plugin.json, so it does not load this package's view.")
		}
	}
	pkg.SortComponents()
	return pkg
}

func (l *loader) pkgDiag(d model.Diagnostic) { l.pkg.Diagnostics = append(l.pkg.Diagnostics, d) }

func (l *loader) reject(code, file, ptr string, line int, msg string) {
	l.pkgDiag(model.Place{File: file, Pointer: ptr, Line: line}.Package(code, model.SeverityError, msg, specManifest))
	l.pkg.Rejected = true
}

// precedence records which manifest Codex reads in this folder (observed on Codex: a root
// Agent Plugins plugin.json wins over .codex-plugin/plugin.json, which wins over
// .claude-plugin/plugin.json). The package is still shown, so nothing in the folder is
// hidden, but it says that Codex does not read it.
func (l *loader) precedence() {
	if _, err := l.root.Lstat(rootManifestFile); err == nil && !rootmanifest.IsAgentPlugins(l.root.Path()) {
		l.pkgDiag(model.Place{File: rootManifestFile}.Package("root-manifest-foreign", model.SeverityWarning,
			"plugin.json at the top of this folder is not an Agent Plugins manifest (its $schema does not name the Agent Plugins schema), so "+model.Releases(model.ClientCodex, model.Codex169)+" ignore it and read "+l.mf+".", specManifest))
	} else if err == nil {
		l.shadowed = true
		l.pkgDiag(model.Place{File: l.mf}.Package("codex-manifest-shadowed", model.SeverityWarning,
			"This folder also has a root plugin.json (Agent Plugins); "+codexSeen+" prefers it over .codex-plugin/plugin.json, so Codex does not read this package: see the Agent Plugins package for what Codex loads.", specManifest))
	}
	if _, err := l.root.Lstat(manifestFile); err != nil {
		if _, err := l.root.Lstat(claudeManifest); err == nil {
			l.mf = claudeManifest
			return
		}
	}
	if _, err := l.root.Lstat(claudeManifest); err == nil && !l.shadowed {
		l.pkgDiag(model.Place{File: l.mf}.Package("codex-manifest-preferred", model.SeverityInfo,
			"This folder also has .claude-plugin/plugin.json; "+codexSeen+" reads .codex-plugin/plugin.json instead, "+claudeSeen+" reads its own manifest.", specManifest))
	}
}

// readManifest parses the manifest Codex reads. Codex ignores unknown fields and, as
// observed, component fields (skills, mcpServers, hooks) of the wrong type; a typed field
// of the wrong type (ManifestRefusal) or a file that is not JSON makes the plugin fail to
// install ("missing or invalid plugin.json", "failed to parse plugin.json").
func (l *loader) readManifest() bool {
	data, err := l.root.ReadFile(l.mf, l.opts.Limits.MaxManifestSize)
	if err != nil {
		l.reject("manifest-unreadable", l.mf, "", 0, errorf("%s %s; "+codexSeen+" fails to load the plugin (missing or invalid plugin.json).", l.mf, fsguard.Reason(err)))
		return false
	}
	l.data = data
	doc, issues, jerr := jsontext.Parse(data, jsontext.Limits)
	if jerr != nil {
		code := map[string]string{jsontext.CodeSyntax: "manifest-invalid-json", jsontext.CodeInvalidUTF8: "manifest-invalid-utf8", jsontext.CodeTooDeep: "manifest-too-deep"}[jerr.Code]
		l.reject(code, l.mf, "", jsontext.Line(data, jerr.Off), errorf("%s %s; "+codexSeen+" fails to load the plugin (missing or invalid plugin.json).", l.mf, jerr.Msg))
		return false
	}
	l.cut.Note(l.mf, issues)
	for _, is := range issues {
		sev := model.SeverityWarning
		if is.Code != jsontext.CodeDuplicateKey {
			sev = model.SeverityError
		}
		l.pkgDiag(model.Place{File: l.mf, Pointer: is.Pointer, Line: jsontext.Line(data, is.Off)}.Package("manifest-"+strings.TrimPrefix(is.Code, "json-"), sev,
			errorf("In %s, %s.", l.mf, is.Msg), specManifest))
	}
	if doc.Kind == jsontext.Array {
		// [obs] Codex deserializes a manifest struct from a JSON array positionally
		// (serde's sequence form): ["x"] is a plugin named x. vouch reads the name only.
		l.pkgDiag(model.Place{File: l.mf, Line: jsontext.Line(data, doc.Off)}.Package("manifest-not-object", model.SeverityWarning,
			l.mf+" holds a JSON array; "+codexSeen+" reads it positionally (its first element is the name), and vouch reads nothing else from it.", specManifest))
		name := &jsontext.Value{Kind: jsontext.Object}
		if len(doc.Arr) > 0 && doc.Arr[0].Kind == jsontext.String {
			name.Obj = []jsontext.Member{{Key: "name", KeyOff: doc.Arr[0].Off, Val: doc.Arr[0]}}
		}
		doc = name
	}
	if doc.Kind != jsontext.Object {
		l.reject("manifest-not-object", l.mf, "", jsontext.Line(data, doc.Off), errorf("%s holds a JSON %s, not an object; "+codexSeen+" fails to load the plugin.", l.mf, doc.Kind))
		return false
	}
	if why := ManifestRefusal(doc); why != "" {
		l.reject("manifest-refused", l.mf, "", jsontext.Line(data, doc.Off), errorf("In %s, %s, so %s refuse to install the plugin.", l.mf, why, model.Releases(model.ClientCodex, model.Codex169)))
		return false
	}
	l.manifest = doc
	l.ignored = map[string]bool{}
	// [obs] A known field of the wrong type is ignored as if absent: "hooks": 5 loads
	// hooks/hooks.json, "mcpServers": 7 loads .mcp.json, and the plugin installs.
	want := func(key string, kinds ...jsontext.Kind) *jsontext.Value {
		m := doc.Get(key)
		if m == nil {
			return nil
		}
		for _, k := range kinds {
			if m.Val.Kind == k {
				return m.Val
			}
		}
		l.ignored[key] = true
		l.pkgDiag(model.Place{File: l.mf, Pointer: jsontext.Pointer(key), Line: jsontext.Line(data, m.KeyOff)}.ComponentType("manifest-field-ignored", model.SeverityWarning,
			errorf("%q in %s is a %s; "+codexSeen+" ignores it as if it were absent.", key, l.mf, m.Val.Kind), specManifest))
		return nil
	}
	name := want("name", jsontext.String)
	version := want("version", jsontext.String, jsontext.Null)
	desc := want("description", jsontext.String, jsontext.Null)
	kw := want("keywords", jsontext.Array, jsontext.Null)
	want("skills", jsontext.String, jsontext.Array, jsontext.Null)
	want("mcpServers", jsontext.String, jsontext.Object, jsontext.Null)
	want("apps", jsontext.String, jsontext.Null)
	want("hooks", jsontext.String, jsontext.Array, jsontext.Object, jsontext.Null)
	iface := want("interface", jsontext.Object, jsontext.Null)
	if name != nil && name.Str != "" {
		l.pkg.Name = name.Str
	} else {
		l.pkgDiag(model.Place{File: l.mf, Pointer: "/name"}.Package("manifest-name-empty", model.SeverityInfo,
			errorf("The manifest has no name; "+codexSeen+" uses the folder name %q.", clip(l.pkg.Name)), specManifest))
	}
	if version != nil && version.Kind == jsontext.String {
		l.pkg.Version = version.Str
	}
	if desc != nil && desc.Kind == jsontext.String {
		l.pkg.Description = desc.Str
	}
	l.pkg.Manifest = model.Fields{{Key: "name", Value: l.pkg.Name}}
	if l.pkg.Version != "" {
		l.pkg.Manifest = append(l.pkg.Manifest, model.Field{Key: "version", Value: l.pkg.Version})
	}
	if l.pkg.Description != "" {
		l.pkg.Manifest = append(l.pkg.Manifest, model.Field{Key: "description", Value: l.pkg.Description})
	}
	if kw != nil && kw.Kind == jsontext.Array {
		var ks []string
		for _, k := range kw.Arr {
			if k.Kind == jsontext.String {
				ks = append(ks, k.Str)
			}
		}
		l.pkg.Manifest = append(l.pkg.Manifest, model.Field{Key: "keywords", Value: ks})
	}
	for _, m := range doc.Obj {
		// The component fields as written, "hooks": {} included: an empty object there
		// means no hooks at all in Codex, which a reviewer must see beside hooks/hooks.json.
		if componentField[m.Key] {
			l.pkg.Manifest = append(l.pkg.Manifest, model.Field{Key: m.Key, Value: jsontext.Display(m.Val)})
		}
	}
	if iface != nil && iface.Kind == jsontext.Object {
		l.iface(iface)
	}
	clients := model.Releases(model.ClientCodex, model.Codex169) + " read " + l.mf + " here"
	if l.shadowed {
		clients = model.Releases(model.ClientCodex, model.Codex169) + " read the root plugin.json here instead (Agent Plugins wins over .codex-plugin/)"
	}
	l.pkg.Manifest = append(l.pkg.Manifest, model.Field{Key: "read by", Value: clients})
	return true
}

// componentField are the manifest fields that say where Codex finds components.
var componentField = map[string]bool{"skills": true, "mcpServers": true, "apps": true, "hooks": true}

// iface shows the interface block; defaultPrompt keeps at most three entries of at most
// 128 characters, the rest dropped with a warning, as Codex does.
func (l *loader) iface(v *jsontext.Value) {
	var fs model.Fields
	for _, m := range v.Obj {
		if m.Key == "defaultPrompt" {
			var prompts []string
			add := func(p *jsontext.Value, i int) {
				if p.Kind != jsontext.String {
					return
				}
				switch {
				case len(prompts) >= maxDefaultPrompts:
					l.pkgDiag(model.Place{File: l.mf, Pointer: jsontext.Pointer("interface", "defaultPrompt"), Line: jsontext.Line(l.data, p.Off)}.Entry("manifest-default-prompt-dropped", model.SeverityWarning,
						codexSeen+" keeps at most 3 default prompts; this one is dropped.", specManifest))
				case len([]rune(p.Str)) > maxDefaultPrompt:
					l.pkgDiag(model.Place{File: l.mf, Pointer: jsontext.Pointer("interface", "defaultPrompt"), Line: jsontext.Line(l.data, p.Off)}.Entry("manifest-default-prompt-dropped", model.SeverityWarning,
						codexSeen+" drops a default prompt longer than 128 characters.", specManifest))
				default:
					prompts = append(prompts, p.Str)
				}
			}
			if m.Val.Kind == jsontext.Array {
				for i, p := range m.Val.Arr {
					add(p, i)
				}
			} else {
				add(m.Val, 0)
			}
			fs = append(fs, model.Field{Key: "defaultPrompt", Value: prompts})
			continue
		}
		fs = append(fs, model.Field{Key: m.Key, Value: jsontext.Display(m.Val)})
	}
	l.pkg.Manifest = append(l.pkg.Manifest, model.Field{Key: "interface", Value: []model.Field(fs)})
}

// manifestPath applies Codex's path rule to one manifest path (Codex,
// resolve_manifest_path in its source): it must start with ./, must not be exactly ./, and
// must have no .. or absolute part. Otherwise the field is ignored with a warning and the
// plugin still loads, as if the field were absent.
func (l *loader) manifestPath(field string, ptr string, v *jsontext.Value) (string, bool) {
	rel, bad := PathRule(v.Str)
	if bad != "" {
		l.pkgDiag(model.Place{File: l.mf, Pointer: ptr, Line: jsontext.Line(l.data, v.Off)}.ComponentType("manifest-path-ignored", model.SeverityWarning,
			errorf(codexSeen+" ignores %s %q because %s (paths must start with ./ and stay inside the plugin); the plugin still loads without it.", field, clip(v.Str), bad), specManifest))
		return "", false
	}
	return rel, true
}

// field returns a manifest member's value, or nil.
func (l *loader) field(key string) *jsontext.Value {
	if m := l.manifest.Get(key); m != nil && m.Val.Kind != jsontext.Null && !l.ignored[key] {
		return m.Val
	}
	return nil
}

// readNamed reads a file of entries (hooks, servers, apps) that the manifest names, or def
// when it names none. A missing default is no finding: the plugin simply has none. Any
// other failure is the warning code, whose sentence is unreadable with the file and the
// reason filled in; ok is false then.
func (l *loader) readNamed(file, def, code, unreadable, spec string) (data []byte, ok bool) {
	data, err := l.root.ReadFile(file, l.opts.Limits.MaxManifestSize)
	if err == nil {
		return data, true
	}
	if !(fsguard.IsNotFound(err) && file == def) {
		l.pkgDiag(model.Place{File: file}.ComponentType(code, model.SeverityWarning, errorf(unreadable, file, fsguard.Reason(err)), spec))
	}
	return nil, false
}

// blockCut makes every component defined in a cut file unapprovable: Codex reads every
// entry, so approving what vouch read would approve less than what runs.
func (l *loader) blockCut() {
	l.cut.Block(l.pkg.Components, "source", codexSeen, specManifest)
}
