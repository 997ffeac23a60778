package codex

import (
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"vouch/model"
	"vouch/review/fsguard"
	"vouch/review/jsontext"
)

// Policy values Codex knows (the variant names in the Codex binary).
var (
	installPolicies = map[string]string{
		"NOT_AVAILABLE":        "not offered for installation",
		"AVAILABLE":            "offered; the user installs it",
		"INSTALLED_BY_DEFAULT": "installed by default, without the user choosing it",
	}
	authPolicies = map[string]string{
		"ON_INSTALL": "asks for authentication when it is installed",
		"ON_USE":     "asks for authentication when it is first used",
	}
)

// LoadMarketplace reviews the Codex marketplace rooted at dir
// (.agents/plugins/marketplace.json). It returns the marketplace package, whose components
// are its plugin entries (inert data: the source, the installation and authentication
// policy), followed by one Codex package for each local plugin it lists, loaded with the
// marketplace's name so that hook trust keys are the ones Codex uses
// (<plugin>@<marketplace>:…).
func LoadMarketplace(dir string, opts Options) []*model.Package {
	if opts.Limits == (fsguard.Limits{}) {
		opts.Limits = fsguard.DefaultLimits()
	}
	mp := &model.Package{Format: model.FormatCodexMarketplace, Name: filepath.Base(dir)}
	if abs, err := filepath.Abs(dir); err == nil {
		mp.Root, mp.Name = abs, filepath.Base(abs)
	}
	root, err := fsguard.Open(dir, opts.Limits)
	if err != nil {
		mp.Rejected = true
		mp.Diagnostics = append(mp.Diagnostics, marketDiag("marketplace-unreadable", model.SeverityError, model.BoundaryPackage, "", 0, errorf("The marketplace folder could not be opened (%v).", err)))
		return []*model.Package{mp}
	}
	defer root.Close()
	mp.Root = root.Path()
	mp.Reader = &fsguard.DirReader{Dir: root.Path(), Limits: opts.Limits}
	doc, data, ok := readMarketplace(mp, root, opts)
	if !ok {
		return []*model.Package{mp}
	}
	if n := doc.Get("name"); n != nil && n.Val.Kind == jsontext.String && n.Val.Str != "" {
		mp.Name = n.Val.Str
	} else {
		mp.Diagnostics = append(mp.Diagnostics, marketDiag("marketplace-name-missing", model.SeverityError, model.BoundaryPackage, "/name", 0, "The marketplace has no name; "+codexSeen+" keys its plugins by <plugin>@<marketplace>, so it needs one."))
	}
	mp.Manifest = model.Fields{{Key: "name", Value: mp.Name}}
	if i := doc.Get("interface"); i != nil {
		mp.Manifest = append(mp.Manifest, model.Field{Key: "interface", Value: jsontext.Display(i.Val)})
	}
	out := []*model.Package{mp}
	plugins := doc.Get("plugins")
	if plugins == nil || plugins.Val.Kind != jsontext.Array {
		mp.Diagnostics = append(mp.Diagnostics, marketDiag("marketplace-plugins-missing", model.SeverityError, model.BoundaryPackage, "/plugins", 0, "The marketplace has no plugins array."))
		return out
	}
	popts := opts
	popts.Marketplace = mp.Name
	badAuth, noSource := "", ""
	for i, e := range plugins.Val.Arr {
		me := &marketEntry{mp: mp, root: root, opts: popts, i: i, e: e, ptr: jsontext.Pointer("plugins", strconv.Itoa(i)), line: jsontext.Line(data, e.Off)}
		pkg, auth := me.read()
		if pkg != nil {
			out = append(out, pkg)
		}
		if badAuth == "" {
			badAuth = auth
		}
		if noSource == "" && me.noSource {
			noSource = me.c.ID
		}
	}
	if badAuth != "" {
		// An authentication policy Codex does not know makes it reject the whole file.
		mp.Diagnostics = append(mp.Diagnostics, marketDiag("marketplace-policy-invalid", model.SeverityError, model.BoundaryPackage, "", 0,
			errorf("An entry has the authentication policy %q, which is neither ON_INSTALL nor ON_USE: %s reject the whole marketplace file for it, so none of its plugins installs.", clip(badAuth), model.Releases(model.ClientCodex, model.Codex169))))
		for _, c := range mp.Components {
			c.Support = codexSupport(model.NotSupported, "Codex rejects the whole marketplace file (an unknown authentication policy), so it installs nothing from it.")
		}
	}
	if noSource != "" {
		// Codex reads the marketplace file as one typed document: an entry without a
		// source fails the whole read, so no entry of the file installs.
		mp.Diagnostics = append(mp.Diagnostics, marketDiag("marketplace-source-missing", model.SeverityError, model.BoundaryPackage, "", 0,
			errorf("Entry %q has no source: %s reject the whole marketplace file for it (\"invalid marketplace file …: missing field `source`\"), so none of its plugins installs.", clip(noSource), model.Releases(model.ClientCodex, model.Codex169))))
		for _, c := range mp.Components {
			c.Support = codexSupport(model.NotSupported, "Codex rejects the whole marketplace file (an entry has no source), so it installs nothing from it.")
		}
	}
	return out
}

func marketDiag(code string, sev model.Severity, b model.Boundary, ptr string, line int, msg string) model.Diagnostic {
	return model.Place{File: marketplaceFile, Pointer: ptr, Line: line}.Finding(b, code, sev, msg, specMarketplace)
}

// readMarketplace reads and parses marketplace.json; false when Codex cannot add the
// marketplace, which rejects it.
func readMarketplace(mp *model.Package, root *fsguard.Root, opts Options) (*jsontext.Value, []byte, bool) {
	data, err := root.ReadFile(marketplaceFile, opts.Limits.MaxManifestSize)
	if err != nil {
		mp.Rejected = true
		mp.Diagnostics = append(mp.Diagnostics, marketDiag("marketplace-unreadable", model.SeverityError, model.BoundaryPackage, "", 0, errorf("%s %s.", marketplaceFile, fsguard.Reason(err))))
		return nil, nil, false
	}
	doc, _, jerr := jsontext.Parse(data, jsontext.Limits)
	if jerr != nil || doc.Kind != jsontext.Object {
		msg := "it is not a JSON object"
		line := 0
		if jerr != nil {
			msg, line = jerr.Msg, jsontext.Line(data, jerr.Off)
		}
		mp.Rejected = true
		mp.Diagnostics = append(mp.Diagnostics, marketDiag("marketplace-invalid-json", model.SeverityError, model.BoundaryPackage, "", line, errorf("%s cannot be read (%s); Codex cannot add this marketplace.", marketplaceFile, msg)))
		return nil, nil, false
	}
	return doc, data, true
}

// marketEntry is one entry of the plugins array while it is read.
type marketEntry struct {
	mp   *model.Package
	root *fsguard.Root
	opts Options // with the marketplace's name, for the plugins it lists
	i    int
	e    *jsontext.Value
	ptr  string
	line int
	c    *model.Component
	// noSource: the entry has no source, which makes Codex reject the whole file.
	noSource bool
}

func (me *marketEntry) bad(code, msg string) {
	me.c.Validity = model.Invalid
	me.c.Diagnostics = append(me.c.Diagnostics, marketDiag(code, model.SeverityError, model.BoundaryComponent, me.ptr, me.line, msg))
	me.c.Support = codexSupport(model.NotSupported, msg)
}

func strField(v *jsontext.Value, k string) string {
	if m := v.Get(k); m != nil && m.Val.Kind == jsontext.String {
		return m.Val.Str
	}
	return ""
}

// read lists the entry as a component and loads the local plugin it installs. It returns
// that plugin's package (nil for none) and an authentication policy Codex does not know
// ("" when the entry has none).
func (me *marketEntry) read() (pkg *model.Package, badAuth string) {
	i, e := me.i, me.e
	me.c = &model.Component{Kind: model.KindPlugin, ID: strconv.Itoa(i), Validity: model.Valid}
	c := me.c
	me.mp.Components = append(me.mp.Components, c)
	if e.Kind != jsontext.Object {
		me.bad("marketplace-entry-not-object", errorf("Entry %d is a JSON %s, not an object.", i, e.Kind))
		return nil, ""
	}
	name := strField(e, "name")
	if name == "" {
		me.bad("marketplace-entry-name-missing", errorf("Entry %d has no name.", i))
		return nil, ""
	}
	c.ID = name
	c.Details = model.Fields{{Key: "name", Value: name}}
	if cat := strField(e, "category"); cat != "" {
		c.Details = append(c.Details, model.Field{Key: "category", Value: cat})
	}
	summary, badAuth := me.policy()
	local, summary, ok := me.source(name, summary)
	if !ok {
		return nil, badAuth
	}
	c.Summary = summary
	if local == "" {
		return nil, badAuth
	}
	return me.local(name, local), badAuth
}

// policy reads the entry's installation and authentication policy: the summary lines
// they give, and an authentication policy Codex does not know.
func (me *marketEntry) policy() (summary []string, badAuth string) {
	c, ptr, line := me.c, me.ptr, me.line
	pol := me.e.Get("policy")
	if pol == nil || pol.Val.Kind != jsontext.Object {
		return nil, ""
	}
	inst, auth := strField(pol.Val, "installation"), strField(pol.Val, "authentication")
	c.Details = append(c.Details, model.Field{Key: "policy", Value: jsontext.Display(pol.Val)})
	if w, ok := installPolicies[inst]; ok {
		summary = append(summary, "Installation: "+inst+" ("+w+").")
	} else if inst != "" {
		c.Diagnostics = append(c.Diagnostics, marketDiag("marketplace-policy-unknown", model.SeverityWarning, model.BoundaryComponent, ptr+"/policy/installation", line, errorf(codexSeen+" does not know the installation policy %q.", clip(inst))))
	}
	if w, ok := authPolicies[auth]; ok {
		summary = append(summary, "Authentication: "+auth+" ("+w+").")
	} else if auth != "" {
		c.Diagnostics = append(c.Diagnostics, marketDiag("marketplace-policy-unknown", model.SeverityWarning, model.BoundaryComponent, ptr+"/policy/authentication", line, errorf(codexSeen+" does not know the authentication policy %q.", clip(auth))))
		badAuth = auth
	}
	if inst == "INSTALLED_BY_DEFAULT" {
		summary = append(summary, codexSeen+" installs this plugin for every user of the marketplace unless they remove it: review it as if it were installed.")
	}
	return summary, badAuth
}

// source reads the entry's source: the local path it names ("" for a remote source,
// which vouch does not fetch), the summary with it, and false when the source is missing
// or of the wrong type.
func (me *marketEntry) source(name string, summary []string) (string, []string, bool) {
	c := me.c
	src := me.e.Get("source")
	switch {
	case src == nil:
		me.noSource = true
		me.bad("marketplace-entry-source-missing", errorf("Entry %q has no source: %s refuse the whole marketplace file for it (\"missing field `source`\").", clip(name), model.Releases(model.ClientCodex, model.Codex169)))
		return "", summary, false
	case src.Val.Kind == jsontext.String:
		return src.Val.Str, summary, true
	case src.Val.Kind == jsontext.Object:
		kind := strField(src.Val, "source")
		c.Details = append(c.Details, model.Field{Key: "source", Value: jsontext.Display(src.Val)})
		if kind == "local" {
			return strField(src.Val, "path"), summary, true
		}
		summary = append(summary, "Fetched from a "+kind+" source when installed; vouch reviews only local plugin folders, so its files are not reviewed here.")
		c.Support = codexSupport(model.Supported, "Codex fetches it from its "+kind+" source.")
		return "", summary, true
	}
	me.bad("marketplace-entry-source-type", errorf("Entry %q has a %s source.", clip(name), src.Val.Kind))
	return "", summary, false
}

// local loads the plugin a local source names, which must be a folder inside the
// marketplace with .codex-plugin/plugin.json (or, without it, .claude-plugin/plugin.json)
// of the entry's name; nil when Codex cannot install it from there.
func (me *marketEntry) local(name, local string) *model.Package {
	c, root := me.c, me.root
	rel := strings.TrimPrefix(local, "./")
	if !strings.HasPrefix(local, "./") || rel == "" || !fsguard.WithinLexical(rel) {
		me.bad("marketplace-entry-path", errorf("Entry %q has the local path %q; it must start with ./ and stay inside the marketplace.", clip(name), clip(local)))
		return nil
	}
	rel = path.Clean(rel)
	c.Details = append(c.Details, model.Field{Key: "path", Value: rel})
	real, err := root.Resolve(rel)
	if err != nil {
		me.bad("marketplace-entry-path", errorf("Entry %q points to %s, which %s.", clip(name), rel, fsguard.Reason(err)))
		return nil
	}
	pdir := filepath.Join(root.Path(), filepath.FromSlash(real))
	claudeOnly := !IsRoot(pdir) && hasClaudeManifest(root, real)
	if !IsRoot(pdir) && !claudeOnly {
		// The Codex releases vouch models install a marketplace entry from a folder with
		// .codex-plugin/plugin.json or, without it, .claude-plugin/plugin.json.
		me.bad("marketplace-entry-no-codex-manifest", errorf("Entry %q points to %s, which has neither .codex-plugin/plugin.json nor .claude-plugin/plugin.json: %s fail to install it (\"missing plugin.json\").", clip(name), rel, model.Releases(model.ClientCodex, model.Codex169)))
		c.Support = codexSupport(model.NotSupported, "Codex fails to install an entry whose folder has no plugin manifest it reads.")
		return nil
	}
	pkg := Load(pdir, me.opts)
	if !pkg.Rejected && pkg.Name != name {
		me.bad("marketplace-name-mismatch", errorf("plugin.json name %q does not match marketplace plugin name %q: `codex plugin add` refuses to install it.", clip(pkg.Name), clip(name)))
		pkg.Diagnostics = append(pkg.Diagnostics, model.Place{File: manifestFile, Pointer: "/name"}.Package("marketplace-name-mismatch", model.SeverityError,
			errorf("The marketplace %q lists this plugin as %q, but its name is %q; "+codexSeen+" refuses to install it.", clip(me.mp.Name), clip(name), clip(pkg.Name)), specMarketplace))
		return pkg
	}
	c.Summary = append(c.Summary, "Installs the plugin in "+rel+" (reviewed as its own package, "+pkg.Name+").")
	c.Support = codexSupport(model.Supported, "")
	if claudeOnly {
		// Recorded: the entry installs and plugin/read answers the version of the Claude
		// Code manifest, so Codex read that file.
		c.Summary = append(c.Summary, "The folder has only .claude-plugin/plugin.json: "+model.Releases(model.ClientCodex, model.Codex169)+" install it all the same, reading that manifest (its skills, hooks and MCP servers; not its commands or agents).")
		c.Support = codexSupport(model.Supported, "Codex installs it from .claude-plugin/plugin.json, having no .codex-plugin/plugin.json to read.")
	}
	return pkg
}

// hasClaudeManifest reports whether the folder rel inside root holds
// .claude-plugin/plugin.json, the manifest Codex falls back to.
func hasClaudeManifest(root *fsguard.Root, rel string) bool {
	_, err := root.Lstat(path.Join(rel, claudeManifest))
	return err == nil
}
