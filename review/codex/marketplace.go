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
	d := func(code string, sev model.Severity, b model.Boundary, ptr string, line int, msg string) model.Diagnostic {
		return diag(code, sev, b, marketplaceFile, ptr, line, msg, specMarketplace)
	}
	root, err := fsguard.Open(dir, opts.Limits)
	if err != nil {
		mp.Rejected = true
		mp.Diagnostics = append(mp.Diagnostics, d("marketplace-unreadable", model.SeverityError, model.BoundaryPackage, "", 0, errorf("The marketplace folder could not be opened (%v).", err)))
		return []*model.Package{mp}
	}
	defer root.Close()
	mp.Root = root.Path()
	mp.Reader = &fsguard.DirReader{Dir: root.Path(), Limits: opts.Limits}
	data, err := root.ReadFile(marketplaceFile, opts.Limits.MaxManifestSize)
	if err != nil {
		mp.Rejected = true
		mp.Diagnostics = append(mp.Diagnostics, d("marketplace-unreadable", model.SeverityError, model.BoundaryPackage, "", 0, errorf("%s %s.", marketplaceFile, fsguard.Reason(err))))
		return []*model.Package{mp}
	}
	doc, _, jerr := jsontext.Parse(data, jsontext.Limits)
	if jerr != nil || doc.Kind != jsontext.Object {
		msg := "it is not a JSON object"
		line := 0
		if jerr != nil {
			msg, line = jerr.Msg, jsontext.Line(data, jerr.Off)
		}
		mp.Rejected = true
		mp.Diagnostics = append(mp.Diagnostics, d("marketplace-invalid-json", model.SeverityError, model.BoundaryPackage, "", line, errorf("%s cannot be read (%s); Codex cannot add this marketplace.", marketplaceFile, msg)))
		return []*model.Package{mp}
	}
	if n := doc.Get("name"); n != nil && n.Val.Kind == jsontext.String && n.Val.Str != "" {
		mp.Name = n.Val.Str
	} else {
		mp.Diagnostics = append(mp.Diagnostics, d("marketplace-name-missing", model.SeverityError, model.BoundaryPackage, "/name", 0, "The marketplace has no name; Codex keys its plugins by <plugin>@<marketplace>, so it needs one."))
	}
	mp.Manifest = model.Fields{{Key: "name", Value: mp.Name}}
	if i := doc.Get("interface"); i != nil {
		mp.Manifest = append(mp.Manifest, model.Field{Key: "interface", Value: jsontext.Display(i.Val)})
	}
	out := []*model.Package{mp}
	plugins := doc.Get("plugins")
	if plugins == nil || plugins.Val.Kind != jsontext.Array {
		mp.Diagnostics = append(mp.Diagnostics, d("marketplace-plugins-missing", model.SeverityError, model.BoundaryPackage, "/plugins", 0, "The marketplace has no plugins array."))
		return out
	}
	popts := opts
	popts.Marketplace = mp.Name
	badAuth := ""
	for i, e := range plugins.Val.Arr {
		ptr := jsontext.Pointer("plugins", strconv.Itoa(i))
		line := jsontext.Line(data, e.Off)
		c := &model.Component{Kind: model.KindPlugin, ID: strconv.Itoa(i), Validity: model.Valid}
		mp.Components = append(mp.Components, c)
		bad := func(code, msg string) {
			c.Validity = model.Invalid
			c.Diagnostics = append(c.Diagnostics, d(code, model.SeverityError, model.BoundaryComponent, ptr, line, msg))
			c.Support = codexSupport(model.NotSupported, msg)
		}
		if e.Kind != jsontext.Object {
			bad("marketplace-entry-not-object", errorf("Entry %d is a JSON %s, not an object.", i, e.Kind))
			continue
		}
		str := func(v *jsontext.Value, k string) string {
			if m := v.Get(k); m != nil && m.Val.Kind == jsontext.String {
				return m.Val.Str
			}
			return ""
		}
		name := str(e, "name")
		if name == "" {
			bad("marketplace-entry-name-missing", errorf("Entry %d has no name.", i))
			continue
		}
		c.ID = name
		c.Details = model.Fields{{Key: "name", Value: name}}
		if cat := str(e, "category"); cat != "" {
			c.Details = append(c.Details, model.Field{Key: "category", Value: cat})
		}
		var summary []string
		if pol := e.Get("policy"); pol != nil && pol.Val.Kind == jsontext.Object {
			inst, auth := str(pol.Val, "installation"), str(pol.Val, "authentication")
			c.Details = append(c.Details, model.Field{Key: "policy", Value: jsontext.Display(pol.Val)})
			if w, ok := installPolicies[inst]; ok {
				summary = append(summary, "Installation: "+inst+" ("+w+").")
			} else if inst != "" {
				c.Diagnostics = append(c.Diagnostics, d("marketplace-policy-unknown", model.SeverityWarning, model.BoundaryComponent, ptr+"/policy/installation", line, errorf("Codex does not know the installation policy %q.", clip(inst))))
			}
			if w, ok := authPolicies[auth]; ok {
				summary = append(summary, "Authentication: "+auth+" ("+w+").")
			} else if auth != "" {
				c.Diagnostics = append(c.Diagnostics, d("marketplace-policy-unknown", model.SeverityWarning, model.BoundaryComponent, ptr+"/policy/authentication", line, errorf("Codex does not know the authentication policy %q.", clip(auth))))
				if badAuth == "" {
					badAuth = auth
				}
			}
			if inst == "INSTALLED_BY_DEFAULT" {
				summary = append(summary, "Codex installs this plugin for every user of the marketplace unless they remove it: review it as if it were installed.")
			}
		}
		src := e.Get("source")
		local := ""
		switch {
		case src == nil:
			bad("marketplace-entry-source-missing", errorf("Entry %q has no source.", clip(name)))
			continue
		case src.Val.Kind == jsontext.String:
			local = src.Val.Str
		case src.Val.Kind == jsontext.Object:
			kind := str(src.Val, "source")
			c.Details = append(c.Details, model.Field{Key: "source", Value: jsontext.Display(src.Val)})
			if kind == "local" {
				local = str(src.Val, "path")
			} else {
				summary = append(summary, "Fetched from a "+kind+" source when installed; vouch reviews only local plugin folders, so its files are not reviewed here.")
				c.Support = codexSupport(model.Supported, "Codex fetches it from its "+kind+" source.")
			}
		default:
			bad("marketplace-entry-source-type", errorf("Entry %q has a %s source.", clip(name), src.Val.Kind))
			continue
		}
		c.Summary = summary
		if local == "" {
			continue
		}
		rel := strings.TrimPrefix(local, "./")
		if !strings.HasPrefix(local, "./") || rel == "" || !withinLexical(rel) {
			bad("marketplace-entry-path", errorf("Entry %q has the local path %q; it must start with ./ and stay inside the marketplace.", clip(name), clip(local)))
			continue
		}
		rel = path.Clean(rel)
		c.Details = append(c.Details, model.Field{Key: "path", Value: rel})
		real, err := root.Resolve(rel)
		if err != nil {
			bad("marketplace-entry-path", errorf("Entry %q points to %s, which %s.", clip(name), rel, fsguard.Reason(err)))
			continue
		}
		pdir := filepath.Join(root.Path(), filepath.FromSlash(real))
		if !IsRoot(pdir) {
			// the Codex releases vouch models install a marketplace entry only from a folder with
			// .codex-plugin/plugin.json: any other fails with "missing plugin.json".
			bad("marketplace-entry-no-codex-manifest", errorf("Entry %q points to %s, which has no .codex-plugin/plugin.json: %s fail to install it (\"missing plugin.json\"), whatever other manifest the folder holds.", clip(name), rel, model.Releases(model.ClientCodex, model.Codex169)))
			c.Support = codexSupport(model.NotSupported, "Codex fails to install an entry whose folder has no .codex-plugin/plugin.json.")
			continue
		}
		pkg := Load(pdir, popts)
		out = append(out, pkg)
		if !pkg.Rejected && pkg.Name != name {
			bad("marketplace-name-mismatch", errorf("plugin.json name %q does not match marketplace plugin name %q: `codex plugin add` refuses to install it.", clip(pkg.Name), clip(name)))
			pkg.Diagnostics = append(pkg.Diagnostics, diag("marketplace-name-mismatch", model.SeverityError, model.BoundaryPackage, manifestFile, "/name", 0,
				errorf("The marketplace %q lists this plugin as %q, but its name is %q; Codex refuses to install it.", clip(mp.Name), clip(name), clip(pkg.Name)), specMarketplace))
			continue
		}
		c.Summary = append(c.Summary, "Installs the plugin in "+rel+" (reviewed as its own package, "+pkg.Name+").")
		c.Support = codexSupport(model.Supported, "")
	}
	if badAuth != "" {
		// An authentication policy Codex does not know makes it reject the whole file.
		mp.Diagnostics = append(mp.Diagnostics, d("marketplace-policy-invalid", model.SeverityError, model.BoundaryPackage, "", 0,
			errorf("An entry has the authentication policy %q, which is neither ON_INSTALL nor ON_USE: %s reject the whole marketplace file for it, so none of its plugins installs.", clip(badAuth), model.Releases(model.ClientCodex, model.Codex169))))
		for _, c := range mp.Components {
			c.Support = codexSupport(model.NotSupported, "Codex rejects the whole marketplace file (an unknown authentication policy), so it installs nothing from it.")
		}
	}
	return out
}

// withinLexical reports whether a relative slash path stays below its base.
func withinLexical(rel string) bool {
	depth := 0
	for _, seg := range strings.Split(rel, "/") {
		switch seg {
		case "", ".":
		case "..":
			depth--
			if depth < 0 {
				return false
			}
		default:
			depth++
		}
	}
	return true
}
