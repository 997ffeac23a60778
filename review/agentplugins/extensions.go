package agentplugins

import (
	"fmt"
	"regexp"

	"vouch/model"
	"vouch/review/fsguard"
	"vouch/review/jsontext"
)

// reverseDomain is the shape of an extension namespace: at least two dot-separated DNS labels.
var reverseDomain = regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$`)

// extensions lists client extension namespaces, from the manifest's extensions object and
// from top-level directories named like a namespace (agent-plugins §8). They are inert
// data: never validated, never approved (Contract nil), labelled with their owner where
// a known client reads them.
func (l *loader) extensions() {
	byNS := map[string]*model.Component{}
	var order []string
	get := func(ns string) *model.Component {
		if c, ok := byNS[ns]; ok {
			return c
		}
		owner, _ := namespaceInfo(ns)
		c := &model.Component{Kind: model.KindExtension, ID: ns, Validity: model.Valid}
		if owner == "" {
			owner = "unknown client"
		}
		c.Details = model.Fields{{Key: "namespace", Value: ns}, {Key: "owner", Value: owner}}
		byNS[ns] = c
		order = append(order, ns)
		return c
	}
	seen := map[string]bool{}
	for _, m := range l.extData {
		if seen[m.Key] {
			continue // a repeated namespace was reported while parsing
		}
		seen[m.Key] = true
		c := get(m.Key)
		c.Details = append(c.Details, model.Field{Key: "manifest data", Value: toDisplay(m.Val)})
		c.Diagnostics = append(c.Diagnostics, l.extIssues[m.Key]...)
		if !reverseDomain.MatchString(m.Key) {
			c.Diagnostics = append(c.Diagnostics, l.diag("extension-namespace-not-reverse-domain", model.SeverityWarning, model.BoundaryComponent,
				manifestFile, jsontext.Pointer("extensions", m.Key), jsontext.Line(l.manifestData, m.KeyOff),
				fmt.Sprintf("The extension namespace %q is not a reverse-domain name such as com.example.client.", clip(m.Key)), "8"))
		}
	}
	// Only names that can be namespaces are described: a Stat of every top-level entry
	// would cost a syscall each for nothing.
	names, err := l.root.ReadDirNames(".")
	if err != nil {
		l.pkgDiag(l.diag("root-unlistable", model.SeverityWarning, model.BoundaryPackage, "", "", 0,
			fmt.Sprintf("The plugin root could not be listed (%s), so extension directories are not shown.", fsReason(err)), "8.2"))
	}
	for _, name := range names {
		// The fixed locations are never namespaces, whatever they are on disk: mcp.json
		// reads like a two-label reverse domain.
		if name == manifestFile || name == mcpFile || name == skillsDir {
			continue
		}
		_, declared := byNS[name]
		owner, _ := namespaceInfo(name)
		if !declared && owner == "" && !reverseDomain.MatchString(name) {
			continue
		}
		e, err := l.root.Stat(name)
		e.Name = name
		if err != nil {
			// Only a directory is a namespace directory (§8.2). A link that dangles, loops
			// or leaves the root is not one: it is named here so it is not silently
			// dropped, and joins a namespace the manifest declares.
			escape := fsguard.CodeOf(err) == fsguard.CodeEscape
			if declared {
				c := get(e.Name)
				c.Details = append(c.Details, model.Field{Key: "directory", Value: e.Name + "/ (" + fsReason(err) + ")"})
				if escape {
					c.Diagnostics = append(c.Diagnostics, l.diag("extension-directory-escape", model.SeverityWarning, model.BoundaryComponent, e.Name, "", 0,
						fmt.Sprintf("The extension directory %s resolves outside the plugin root; a client must deny access to it.", e.Name), "4.1"))
				}
				continue
			}
			if escape {
				l.pkgDiag(l.diag("extension-directory-escape", model.SeverityWarning, model.BoundaryPackage, e.Name, "", 0,
					fmt.Sprintf("%s resolves outside the plugin root, so it is not an extension directory; a client must deny access to it.", e.Name), "4.1"))
			} else {
				l.pkgDiag(l.diag("extension-entry-not-directory", model.SeverityInfo, model.BoundaryPackage, e.Name, "", 0,
					fmt.Sprintf("%s is not an extension directory (%s).", e.Name, fsReason(err)), "8.2"))
			}
			continue
		}
		if e.Type != fsguard.TypeDir {
			continue // a regular file is never a namespace directory
		}
		c := get(e.Name)
		c.Details = append(c.Details, model.Field{Key: "directory", Value: e.Name + "/"})
	}
	for _, ns := range order {
		c := byNS[ns]
		owner, _ := c.Details.Get("owner")
		where := []string{}
		_, hasData := c.Details.Get("manifest data")
		if hasData {
			where = append(where, "manifest data under extensions")
		}
		_, readers := namespaceInfo(ns)
		c.Support = extensionSupport(ns, readers, hasData)
		if _, ok := c.Details.Get("directory"); ok {
			where = append(where, "the top-level directory "+ns+"/")
		}
		c.Summary = []string{
			fmt.Sprintf("Client-specific data for %s (%s).", owner, joinAnd(where)),
			"Agent Plugins gives it no meaning; vouch shows it as inert data and does not validate it. What it does depends on the client that owns the namespace.",
		}
		l.pkg.Components = append(l.pkg.Components, c)
	}
}

func joinAnd(ss []string) string {
	switch len(ss) {
	case 0:
		return "declared"
	case 1:
		return ss[0]
	}
	return ss[0] + " and " + ss[1]
}
