package claudecode

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"vouch/internal/lazyre"
	"vouch/model"
	"vouch/review/fsguard"
	"vouch/review/jsontext"
)

// entry is a marketplace entry merged into the plugin it names, as Claude Code does.
type entry struct {
	name   string
	obj    *jsontext.Value
	strict bool
}

var shaRE = lazyre.New(`^[0-9a-f]{40}$`)

// LoadMarketplace reviews .claude-plugin/marketplace.json in dir. It returns the
// marketplace package, one claude-code package per relative-path entry (loaded with the
// entry merged), and whether one of those entries is dir itself. Remote sources are
// listed, never fetched.
func LoadMarketplace(dir string, opts Options) (*model.Package, []*model.Package, bool) {
	opts = opts.withDefaults()
	pkg := &model.Package{Format: model.FormatClaudeCodeMarketplace, Name: filepath.Base(dir)}
	if abs, err := filepath.Abs(dir); err == nil {
		pkg.Root, pkg.Name = abs, filepath.Base(abs)
	}
	l := &loader{opts: opts, pkg: pkg}
	root, err := fsguard.Open(dir, opts.Limits)
	if err != nil {
		l.pkgErr("package-unreadable", "", "", 0, fmt.Sprintf("The marketplace root could not be opened (%v).", err), "1.8")
		pkg.Rejected = true
		return pkg, nil, false
	}
	defer root.Close()
	l.root = root
	pkg.Root = root.Path()
	pkg.Reader = &fsguard.DirReader{Dir: root.Path(), Limits: opts.Limits}
	doc, data, issues, _, ok := l.parseJSON(marketplaceFile, "marketplace", model.BoundaryPackage, "Claude Code cannot add the marketplace")
	if !ok {
		pkg.Rejected = true
		return pkg, nil, false
	}
	for _, is := range issues {
		sev := model.SeverityError
		if is.Code == jsontext.CodeDuplicateKey {
			sev = model.SeverityWarning
		}
		l.pkgDiag(model.Place{File: marketplaceFile, Pointer: is.Pointer, Line: jsontext.Line(data, is.Off)}.Package("marketplace-"+strings.TrimPrefix(is.Code, "json-"), sev, fmt.Sprintf("In marketplace.json, %s.", is.Msg), specRef("1.8")))
	}
	if hasErrors(pkg.Diagnostics) {
		pkg.Rejected = true
		return pkg, nil, false
	}
	fail := func(code, ptr string, off int, msg string) (*model.Package, []*model.Package, bool) {
		l.pkgErr(code, marketplaceFile, ptr, jsontext.Line(data, off), msg, "1.8")
		pkg.Rejected = true
		return pkg, nil, false
	}
	if doc.Kind != jsontext.Object {
		return fail("marketplace-not-object", "", doc.Off, "marketplace.json must hold an object.")
	}
	if !l.marketplaceHead(doc, data) {
		return fail("marketplace-missing-name", "/name", doc.Off, "marketplace.json has no string \"name\", so Claude Code cannot add it.")
	}
	opts.Marketplace = pkg.Name
	pluginRoot := ""
	if md := doc.Get("metadata"); md != nil {
		if pr, ok := strVal(md.Val, "pluginRoot"); ok {
			pluginRoot = strings.TrimSuffix(strings.TrimPrefix(pr, "./"), "/")
		}
	}
	pl := doc.Get("plugins")
	if pl == nil || pl.Val.Kind != jsontext.Array {
		return fail("marketplace-plugins-type", "/plugins", doc.Off, "marketplace.json has no \"plugins\" array, so it lists nothing.")
	}
	plugins, self := l.marketPlugins(pl.Val, data, pluginRoot, opts)
	pkg.SortComponents()
	return pkg, plugins, self
}

// marketplaceHead reads the marketplace's name, owner and descriptive fields into the
// package; false when it has no string name, without which Claude Code cannot add it.
func (l *loader) marketplaceHead(doc *jsontext.Value, data []byte) bool {
	pkg := l.pkg
	nm := doc.Get("name")
	switch {
	case nm == nil || nm.Val.Kind != jsontext.String:
		return false
	case strings.ContainsAny(nm.Val.Str, " \t"):
		l.pkgErr("marketplace-name-space", marketplaceFile, "/name", jsontext.Line(data, nm.KeyOff), fmt.Sprintf("The marketplace name %q contains a space; Claude rejects it.", clip(nm.Val.Str)), "1.8")
	case nm.Val.Str != "" && !strings.Contains(nm.Val.Str, "#"):
		pkg.Name = nm.Val.Str
	}
	pkg.Manifest = model.Fields{{Key: "name", Value: pkg.Name}}
	if ow := doc.Get("owner"); ow != nil {
		if ow.Val.Kind != jsontext.Object {
			l.pkgErr("marketplace-owner-type", marketplaceFile, "/owner", jsontext.Line(data, ow.KeyOff), fmt.Sprintf("owner is a %s; it must be an object {name, email?, url?}, so Claude rejects the marketplace.", ow.Val.Kind), "1.8")
		} else {
			pkg.Manifest = append(pkg.Manifest, model.Field{Key: "owner", Value: jsontext.Display(ow.Val)})
		}
	} else {
		l.pkgErr("marketplace-missing-owner", marketplaceFile, "/owner", jsontext.Line(data, doc.Off), "marketplace.json has no owner {name}; Claude's validator requires it.", "1.8")
	}
	for _, k := range []string{"description", "version", "metadata", "renames", "allowCrossMarketplaceDependenciesOn"} {
		if m := doc.Get(k); m != nil {
			pkg.Manifest = append(pkg.Manifest, model.Field{Key: k, Value: jsontext.Display(m.Val)})
		}
	}
	if v, ok := strVal(doc, "description"); ok {
		pkg.Description = v
	}
	if v, ok := strVal(doc, "version"); ok {
		pkg.Version = v
	}
	return true
}

// marketPlugins lists one component per entry and loads, with its entry merged, each
// plugin a valid entry places in a folder of the marketplace; self says whether one of
// them is the marketplace folder itself.
func (l *loader) marketPlugins(entries *jsontext.Value, data []byte, pluginRoot string, opts Options) (plugins []*model.Package, self bool) {
	names := map[string]int{}
	for i, ev := range entries.Arr {
		ptr := fmt.Sprintf("/plugins/%d", i)
		c, rel := l.marketEntry(ev, ptr, data, names, pluginRoot)
		l.pkg.Components = append(l.pkg.Components, c)
		if rel == "" || c.Validity != model.Valid {
			continue
		}
		name, _ := strVal(ev, "name")
		strict := true
		if s := ev.Get("strict"); s != nil && s.Val.Kind == jsontext.Bool {
			strict = s.Val.Bool
		}
		p := loadPlugin(filepath.Join(l.root.Path(), filepath.FromSlash(rel)), opts, &entry{name: name, obj: ev, strict: strict})
		if p.Name != name {
			p.Diagnostics = append(p.Diagnostics, model.Diagnostic{Code: "marketplace-name-mismatch", Severity: model.SeverityWarning, Boundary: model.BoundaryPackage,
				File: manifestFile, Pointer: "/name", Message: fmt.Sprintf("plugin.json names the plugin %q but the marketplace entry is %q; "+claudeSeen+" installs it as %q, and "+codexSeen+" refuses to add it.", clip(p.Name), clip(name), clip(name)), Spec: specRef("1.8, 2.2")})
		}
		if rel == "." {
			self = true
		}
		if len(p.Components) == 0 && !p.Rejected {
			c.Summary = append(c.Summary, "The folder this entry installs has no components "+claudeSeen+" would load.")
		}
		plugins = append(plugins, p)
	}
	return plugins, self
}

// entryBuild is one marketplace entry's component while its source is read.
type entryBuild struct {
	l        *loader
	c        *model.Component
	name     string
	ptr      string
	line     int
	kind     string // the source kind ("relative path" for a string source)
	pin      string // what the source is pinned to
	rel      string // the plugin folder relative to the marketplace, for a valid path source
	contract model.Fields
}

func (b *entryBuild) bad(code, msg string) {
	b.c.Diagnostics = append(b.c.Diagnostics, model.Place{File: marketplaceFile, Pointer: b.ptr, Line: b.line}.Component(code, model.SeverityError, msg, specRef("1.8")))
}

// marketEntry builds the plugin component of one entry, and returns the plugin's path
// relative to the marketplace root for a valid relative-path source ("" otherwise).
func (l *loader) marketEntry(ev *jsontext.Value, ptr string, data []byte, names map[string]int, pluginRoot string) (*model.Component, string) {
	b := &entryBuild{l: l, c: &model.Component{Kind: model.KindPlugin}, ptr: ptr, line: jsontext.Line(data, ev.Off), pin: "unpinned"}
	c := b.c
	name, _ := strVal(ev, "name")
	if name == "" {
		name = strings.TrimPrefix(ptr, "/plugins/")
		b.bad("marketplace-entry-missing-name", "The entry has no string \"name\"; name and source are required.")
	}
	b.name = name
	c.ID, _ = l.uniqueID(names, name)
	if c.ID != name {
		b.bad("marketplace-entry-duplicate-name", fmt.Sprintf("Two entries are named %q.", clip(name)))
	}
	c.Details = model.Fields{{Key: "name", Value: name}}
	if ev.Kind != jsontext.Object {
		b.bad("marketplace-entry-not-object", "The entry is not an object.")
		return l.entryInvalid(c), ""
	}
	b.contract = model.Fields{{Key: "name", Value: name}}
	switch src := ev.Get("source"); {
	case src == nil:
		b.bad("marketplace-entry-missing-source", fmt.Sprintf("Entry %q has no source.", clip(name)))
	case src.Val.Kind == jsontext.String:
		b.pathSource(src.Val.Str, pluginRoot)
	case src.Val.Kind == jsontext.Object:
		b.remoteSource(src.Val)
	default:
		b.bad("marketplace-source-type", fmt.Sprintf("Entry %q has a %s source; it must be a ./path or an object.", clip(name), src.Val.Kind))
	}
	b.entryDetails(ev)
	if hasErrors(c.Diagnostics) {
		return l.entryInvalid(c), ""
	}
	b.contract = append(b.contract, model.Field{Key: "source_kind", Value: b.kind}, model.Field{Key: "pin", Value: b.pin}, model.Field{Key: "entry", Value: fmt.Sprint(jsontext.Display(ev))})
	c.Validity = model.Valid
	c.Contract = &model.Contract{Kind: model.KindPlugin, Fields: b.contract}
	c.Support = []model.Support{
		{Provider: clientClaude, Version: ClaudeVersion, Status: model.Supported, Detail: "Claude Code offers this plugin from the marketplace."},
		{Provider: clientCodex, Version: CodexVersion, Status: model.Supported, Detail: "Codex also reads .claude-plugin/marketplace.json."},
	}
	if b.kind == "github" {
		// Observed offline with the Codex releases vouch models: a Claude marketplace's github
		// entries are not offered.
		c.Support[1] = model.Support{Provider: clientCodex, Version: CodexVersion, Status: model.NotSupported, Detail: "Codex reads .claude-plugin/marketplace.json but does not offer its github entries."}
	}
	return c, b.rel
}

// pathSource reads a string source: a folder of this marketplace, named ./path or (with
// metadata.pluginRoot) by a bare name, that must exist and stay inside it.
func (b *entryBuild) pathSource(p, pluginRoot string) {
	name, c := b.name, b.c
	b.kind = "relative path"
	switch {
	case strings.Contains(p, "://") || strings.HasPrefix(p, "git@"):
		b.bad("marketplace-source-url-string", fmt.Sprintf("Entry %q gives a URL as a string source; use {\"source\": \"url\", \"url\": …}.", clip(name)))
	case hasDotDot(p):
		b.bad("marketplace-source-traversal", fmt.Sprintf("Entry %q has the source %q, which contains \"..\".", clip(name), clip(p)))
	case strings.HasPrefix(p, "./") || p == ".":
		b.rel = path.Clean(strings.TrimPrefix(p, "./"))
	case pluginRoot != "":
		b.rel = path.Join(pluginRoot, p)
	default:
		b.bad("marketplace-source-prefix", fmt.Sprintf("Entry %q has the source %q; a relative source must start with ./ (a bare name works only with metadata.pluginRoot).", clip(name), clip(p)))
	}
	rel := b.rel
	if rel == manifestDir || strings.HasSuffix(rel, "/"+manifestDir) {
		c.Diagnostics = append(c.Diagnostics, model.Place{File: marketplaceFile, Pointer: b.ptr, Line: b.line}.Component("marketplace-source-manifest-dir", model.SeverityWarning,
			fmt.Sprintf("Entry %q points to %q, a .claude-plugin folder: Claude installs that folder as the plugin, and its components sit beside it, not in it (did you mean %q?).", clip(name), clip(p), "./"+strings.TrimSuffix(strings.TrimSuffix(rel, manifestDir), "/")), specRef("1.8")))
	}
	if rel != "" {
		if st, err := b.l.root.Stat(rel); err != nil || st.Type != fsguard.TypeDir {
			b.bad("marketplace-source-missing", fmt.Sprintf("Entry %q points to %q, which is not a folder in the marketplace.", clip(name), clip(p)))
			b.rel = ""
		}
	}
	b.pin = "the marketplace's own revision"
	b.contract = append(b.contract, model.Field{Key: "source", Value: p})
	c.Summary = append(c.Summary, fmt.Sprintf("Plugin %q comes from the folder %s of this marketplace; it is reviewed as its own claude-code package.", name, p))
}

// remoteSource reads an object source: where Claude fetches the plugin from and what it
// is pinned to. vouch lists it and never fetches it.
func (b *entryBuild) remoteSource(s *jsontext.Value) {
	c := b.c
	b.kind, _ = strVal(s, "source")
	f := func(k string) string { v, _ := strVal(s, k); return v }
	if sha := f("sha"); sha != "" && !shaRE.MatchString(sha) {
		b.bad("marketplace-source-sha", fmt.Sprintf("Entry %q has sha %q; it must be 40 lowercase hex characters.", clip(b.name), clip(sha)))
	}
	b.pin = sourcePin(f)
	where := b.remoteWhere(f)
	b.contract = append(b.contract, model.Field{Key: "source", Value: fmt.Sprint(jsontext.Display(s))})
	c.Summary = append([]string{fmt.Sprintf("Plugin %q is fetched from %s, pinned to %s; vouch lists remote sources and never fetches them, so its contents are not reviewed here.", b.name, where, b.pin)}, c.Summary...)
	if b.kind != "command" {
		c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapNetwork, Scope: []string{where}, Detail: "Claude downloads the plugin from here on install and update."})
	}
	if b.pin == "unpinned" {
		c.Summary = append(c.Summary, "Unpinned: every update may bring different code.")
	}
}

// sourcePin is what a remote source is pinned to, the strongest pin first.
func sourcePin(f func(string) string) string {
	switch {
	case f("sha") != "":
		return "sha " + f("sha")
	case f("sha256") != "":
		return "sha256 " + f("sha256")
	case f("version") != "":
		return "version " + f("version")
	case f("ref") != "":
		return "ref " + f("ref") + " (a branch or tag can move)"
	}
	return "unpinned"
}

// remoteWhere says where a remote source of this kind fetches from, and checks the fields
// the kind requires.
func (b *entryBuild) remoteWhere(f func(string) string) string {
	c := b.c
	switch b.kind {
	case "github":
		if f("repo") == "" {
			b.bad("marketplace-source-field", fmt.Sprintf("Entry %q (github) has no repo.", clip(b.name)))
		}
		return "GitHub repository " + f("repo")
	case "url":
		return "git repository " + f("url")
	case "git-subdir":
		return "the folder " + f("path") + " of git repository " + f("url")
	case "npm":
		c.Summary = append(c.Summary, "npm runs the package's lifecycle scripts when Claude fetches the plugin: code runs at install, before any review.")
		return "npm package " + f("package")
	case "archive":
		if !strings.HasPrefix(f("url"), "https://") {
			b.bad("marketplace-source-archive-url", fmt.Sprintf("Entry %q (archive) must use an https URL.", clip(b.name)))
		}
		return "the archive " + f("url")
	case "command":
		c.Summary = append(c.Summary, "A command source runs a shell command once per session to produce the plugin; the user accepts the exact string.")
		c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapSubprocess, Scope: []string{f("command")}, Detail: "Runs this shell command to fetch the plugin."})
		return "the output of the shell command `" + f("command") + "`"
	}
	b.bad("marketplace-source-kind", fmt.Sprintf("Entry %q has the source kind %q; Claude knows github, url, git-subdir, npm, archive and command.", clip(b.name), clip(b.kind)))
	return ""
}

// entryDetails lists the entry's source kind, pin, strict: false and descriptive fields.
func (b *entryBuild) entryDetails(ev *jsontext.Value) {
	c := b.c
	c.Details = append(c.Details, model.Field{Key: "source kind", Value: b.kind}, model.Field{Key: "pin", Value: b.pin})
	if s := ev.Get("strict"); s != nil && s.Val.Kind == jsontext.Bool && !s.Val.Bool {
		c.Details = append(c.Details, model.Field{Key: "strict", Value: false})
		c.Summary = append(c.Summary, "strict: false: this entry is the plugin's whole definition (its components, LSP servers included, come from the entry).")
	}
	for _, k := range []string{"version", "description", "category"} {
		if v, ok := strVal(ev, k); ok {
			c.Details = append(c.Details, model.Field{Key: k, Value: v})
		}
	}
}

func (l *loader) entryInvalid(c *model.Component) *model.Component {
	c.Validity = model.Invalid
	c.Summary = append([]string{"Invalid entry: Claude rejects it (see its diagnostics)."}, c.Summary...)
	c.Support = unsupportedBoth("The entry is invalid.")
	return c
}

func hasDotDot(p string) bool {
	for _, s := range strings.Split(strings.ReplaceAll(p, "\\", "/"), "/") {
		if s == ".." {
			return true
		}
	}
	return false
}
