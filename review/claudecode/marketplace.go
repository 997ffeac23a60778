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
		l.pkgDiag(l.diag("marketplace-"+strings.TrimPrefix(is.Code, "json-"), sev, model.BoundaryPackage, marketplaceFile, is.Pointer, jsontext.Line(data, is.Off), fmt.Sprintf("In marketplace.json, %s.", is.Msg), "1.8"))
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
	nm := doc.Get("name")
	switch {
	case nm == nil || nm.Val.Kind != jsontext.String:
		return fail("marketplace-missing-name", "/name", doc.Off, "marketplace.json has no string \"name\", so Claude Code cannot add it.")
	case strings.ContainsAny(nm.Val.Str, " \t"):
		l.pkgErr("marketplace-name-space", marketplaceFile, "/name", jsontext.Line(data, nm.KeyOff), fmt.Sprintf("The marketplace name %q contains a space; Claude rejects it.", clip(nm.Val.Str)), "1.8")
	case nm.Val.Str != "" && !strings.Contains(nm.Val.Str, "#"):
		pkg.Name = nm.Val.Str
	}
	opts.Marketplace = pkg.Name
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
	var plugins []*model.Package
	self := false
	names := map[string]int{}
	for i, ev := range pl.Val.Arr {
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
		p := loadPlugin(filepath.Join(root.Path(), filepath.FromSlash(rel)), opts, &entry{name: name, obj: ev, strict: strict})
		if p.Name != name {
			p.Diagnostics = append(p.Diagnostics, model.Diagnostic{Code: "marketplace-name-mismatch", Severity: model.SeverityWarning, Boundary: model.BoundaryPackage,
				File: manifestFile, Pointer: "/name", Message: fmt.Sprintf("plugin.json names the plugin %q but the marketplace entry is %q; Claude installs it as %q, and Codex refuses to add it.", clip(p.Name), clip(name), clip(name)), Spec: specRef("1.8, 2.2")})
		}
		if rel == "." {
			self = true
		}
		if len(p.Components) == 0 && !p.Rejected {
			c.Summary = append(c.Summary, "The folder this entry installs has no components Claude Code would load.")
		}
		plugins = append(plugins, p)
	}
	pkg.SortComponents()
	return pkg, plugins, self
}

// marketEntry builds the plugin component of one entry, and returns the plugin's path
// relative to the marketplace root for a valid relative-path source ("" otherwise).
func (l *loader) marketEntry(ev *jsontext.Value, ptr string, data []byte, names map[string]int, pluginRoot string) (*model.Component, string) {
	c := &model.Component{Kind: model.KindPlugin}
	line := jsontext.Line(data, ev.Off)
	bad := func(code, msg string) {
		c.Diagnostics = append(c.Diagnostics, l.diag(code, model.SeverityError, model.BoundaryComponent, marketplaceFile, ptr, line, msg, "1.8"))
	}
	name, _ := strVal(ev, "name")
	if name == "" {
		name = strings.TrimPrefix(ptr, "/plugins/")
		bad("marketplace-entry-missing-name", "The entry has no string \"name\"; name and source are required.")
	}
	c.ID, _ = l.uniqueID(names, name)
	if c.ID != name {
		bad("marketplace-entry-duplicate-name", fmt.Sprintf("Two entries are named %q.", clip(name)))
	}
	c.Details = model.Fields{{Key: "name", Value: name}}
	if ev.Kind != jsontext.Object {
		bad("marketplace-entry-not-object", "The entry is not an object.")
		return l.entryInvalid(c), ""
	}
	src := ev.Get("source")
	kind, pin, rel := "", "unpinned", ""
	contract := model.Fields{{Key: "name", Value: name}}
	switch {
	case src == nil:
		bad("marketplace-entry-missing-source", fmt.Sprintf("Entry %q has no source.", clip(name)))
	case src.Val.Kind == jsontext.String:
		kind = "relative path"
		p := src.Val.Str
		switch {
		case strings.Contains(p, "://") || strings.HasPrefix(p, "git@"):
			bad("marketplace-source-url-string", fmt.Sprintf("Entry %q gives a URL as a string source; use {\"source\": \"url\", \"url\": …}.", clip(name)))
		case hasDotDot(p):
			bad("marketplace-source-traversal", fmt.Sprintf("Entry %q has the source %q, which contains \"..\".", clip(name), clip(p)))
		case strings.HasPrefix(p, "./") || p == ".":
			rel = path.Clean(strings.TrimPrefix(p, "./"))
		case pluginRoot != "":
			rel = path.Join(pluginRoot, p)
		default:
			bad("marketplace-source-prefix", fmt.Sprintf("Entry %q has the source %q; a relative source must start with ./ (a bare name works only with metadata.pluginRoot).", clip(name), clip(p)))
		}
		if rel == manifestDir || strings.HasSuffix(rel, "/"+manifestDir) {
			c.Diagnostics = append(c.Diagnostics, l.diag("marketplace-source-manifest-dir", model.SeverityWarning, model.BoundaryComponent, marketplaceFile, ptr, line,
				fmt.Sprintf("Entry %q points to %q, a .claude-plugin folder: Claude installs that folder as the plugin, and its components sit beside it, not in it (did you mean %q?).", clip(name), clip(p), "./"+strings.TrimSuffix(strings.TrimSuffix(rel, manifestDir), "/")), "1.8"))
		}
		if rel != "" {
			if st, err := l.root.Stat(rel); err != nil || st.Type != fsguard.TypeDir {
				bad("marketplace-source-missing", fmt.Sprintf("Entry %q points to %q, which is not a folder in the marketplace.", clip(name), clip(p)))
				rel = ""
			}
		}
		pin = "the marketplace's own revision"
		contract = append(contract, model.Field{Key: "source", Value: p})
		c.Summary = append(c.Summary, fmt.Sprintf("Plugin %q comes from the folder %s of this marketplace; it is reviewed as its own claude-code package.", name, p))
	case src.Val.Kind == jsontext.Object:
		s := src.Val
		kind, _ = strVal(s, "source")
		f := func(k string) string { v, _ := strVal(s, k); return v }
		sha, ref, ver := f("sha"), f("ref"), f("version")
		if sha != "" && !shaRE.MatchString(sha) {
			bad("marketplace-source-sha", fmt.Sprintf("Entry %q has sha %q; it must be 40 lowercase hex characters.", clip(name), clip(sha)))
		}
		switch {
		case sha != "":
			pin = "sha " + sha
		case f("sha256") != "":
			pin = "sha256 " + f("sha256")
		case ver != "":
			pin = "version " + ver
		case ref != "":
			pin = "ref " + ref + " (a branch or tag can move)"
		}
		where := ""
		switch kind {
		case "github":
			where = "GitHub repository " + f("repo")
			if f("repo") == "" {
				bad("marketplace-source-field", fmt.Sprintf("Entry %q (github) has no repo.", clip(name)))
			}
		case "url":
			where = "git repository " + f("url")
		case "git-subdir":
			where = "the folder " + f("path") + " of git repository " + f("url")
		case "npm":
			where = "npm package " + f("package")
			c.Summary = append(c.Summary, "npm runs the package's lifecycle scripts when Claude fetches the plugin: code runs at install, before any review.")
		case "archive":
			where = "the archive " + f("url")
			if !strings.HasPrefix(f("url"), "https://") {
				bad("marketplace-source-archive-url", fmt.Sprintf("Entry %q (archive) must use an https URL.", clip(name)))
			}
		case "command":
			where = "the output of the shell command `" + f("command") + "`"
			c.Summary = append(c.Summary, "A command source runs a shell command once per session to produce the plugin; the user accepts the exact string.")
			c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapSubprocess, Scope: []string{f("command")}, Detail: "Runs this shell command to fetch the plugin."})
		default:
			bad("marketplace-source-kind", fmt.Sprintf("Entry %q has the source kind %q; Claude knows github, url, git-subdir, npm, archive and command.", clip(name), clip(kind)))
		}
		contract = append(contract, model.Field{Key: "source", Value: fmt.Sprint(jsontext.Display(s))})
		c.Summary = append([]string{fmt.Sprintf("Plugin %q is fetched from %s, pinned to %s; vouch lists remote sources and never fetches them, so its contents are not reviewed here.", name, where, pin)}, c.Summary...)
		if kind != "command" {
			c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapNetwork, Scope: []string{where}, Detail: "Claude downloads the plugin from here on install and update."})
		}
		if pin == "unpinned" {
			c.Summary = append(c.Summary, "Unpinned: every update may bring different code.")
		}
	default:
		bad("marketplace-source-type", fmt.Sprintf("Entry %q has a %s source; it must be a ./path or an object.", clip(name), src.Val.Kind))
	}
	c.Details = append(c.Details, model.Field{Key: "source kind", Value: kind}, model.Field{Key: "pin", Value: pin})
	if s := ev.Get("strict"); s != nil && s.Val.Kind == jsontext.Bool && !s.Val.Bool {
		c.Details = append(c.Details, model.Field{Key: "strict", Value: false})
		c.Summary = append(c.Summary, "strict: false: this entry is the plugin's whole definition (its components, LSP servers included, come from the entry).")
	}
	for _, k := range []string{"version", "description", "category"} {
		if v, ok := strVal(ev, k); ok {
			c.Details = append(c.Details, model.Field{Key: k, Value: v})
		}
	}
	if hasErrors(c.Diagnostics) {
		return l.entryInvalid(c), ""
	}
	contract = append(contract, model.Field{Key: "source_kind", Value: kind}, model.Field{Key: "pin", Value: pin}, model.Field{Key: "entry", Value: fmt.Sprint(jsontext.Display(ev))})
	c.Validity = model.Valid
	c.Contract = &model.Contract{Kind: model.KindPlugin, Fields: contract}
	c.Support = []model.Support{
		{Provider: clientClaude, Version: ClaudeVersion, Status: model.Supported, Detail: "Claude Code offers this plugin from the marketplace."},
		{Provider: clientCodex, Version: CodexVersion, Status: model.Supported, Detail: "Codex also reads .claude-plugin/marketplace.json."},
	}
	if kind == "github" {
		// Observed offline with the Codex releases vouch models: a Claude marketplace's github
		// entries are not offered.
		c.Support[1] = model.Support{Provider: clientCodex, Version: CodexVersion, Status: model.NotSupported, Detail: "Codex reads .claude-plugin/marketplace.json but does not offer its github entries."}
	}
	return c, rel
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
