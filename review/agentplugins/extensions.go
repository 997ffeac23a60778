package agentplugins

import (
	"fmt"
	"slices"

	"vouch/internal/lazyre"
	"vouch/model"
	"vouch/review/fsguard"
	"vouch/review/internal/prose"
	"vouch/review/jsontext"
)

// reverseDomain is the shape of an extension namespace: at least two dot-separated DNS labels.
var reverseDomain = lazyre.New(`^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$`)

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
		c.Details = append(c.Details, model.Field{Key: "manifest data", Value: jsontext.Display(m.Val)})
		c.Diagnostics = append(c.Diagnostics, l.extIssues[m.Key]...)
		if !reverseDomain.MatchString(m.Key) {
			c.Diagnostics = append(c.Diagnostics, model.Place{File: manifestFile, Pointer: jsontext.Pointer("extensions", m.Key), Line: jsontext.Line(l.manifestData, m.KeyOff)}.Component("extension-namespace-not-reverse-domain", model.SeverityWarning,
				fmt.Sprintf("The extension namespace %q is not a reverse-domain name such as com.example.client.", clip(m.Key)), specRef("8")))
		}
	}
	// Only names that can be namespaces are described: a Stat of every top-level entry
	// would cost a syscall each for nothing.
	names, err := l.root.ReadDirNames(".")
	if err != nil {
		l.pkgDiag(model.Place{}.Package("root-unlistable", model.SeverityWarning,
			fmt.Sprintf("The plugin root could not be listed (%s), so extension directories are not shown.", fsguard.Reason(err)), specRef("8.2")))
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
				c.Details = append(c.Details, model.Field{Key: "directory", Value: e.Name + "/ (" + fsguard.Reason(err) + ")"})
				if escape {
					c.Diagnostics = append(c.Diagnostics, model.Place{File: e.Name}.Component("extension-directory-escape", model.SeverityWarning,
						fmt.Sprintf("The extension directory %s resolves outside the plugin root; a client must deny access to it.", e.Name), specRef("4.1")))
				}
				continue
			}
			if escape {
				l.pkgDiag(model.Place{File: e.Name}.Package("extension-directory-escape", model.SeverityWarning,
					fmt.Sprintf("%s resolves outside the plugin root, so it is not an extension directory; a client must deny access to it.", e.Name), specRef("4.1")))
			} else {
				l.pkgDiag(model.Place{File: e.Name}.Package("extension-entry-not-directory", model.SeverityInfo,
					fmt.Sprintf("%s is not an extension directory (%s).", e.Name, fsguard.Reason(err)), specRef("8.2")))
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
		keys := l.extKeys(ns)
		c.Support = codexNamespace(ns, keys, extensionSupport(ns, readers, hasData))
		if _, ok := c.Details.Get("directory"); ok {
			where = append(where, "the top-level directory "+ns+"/")
		}
		c.Summary = append([]string{fmt.Sprintf("Client-specific data for %s (%s).", owner, prose.List(where, "and", "declared"))}, readSentences(ns, readers, hasData)...)
		if ns == codexNamespaceName && hasData && slices.Contains(keys, "hooks") {
			c.Diagnostics = append(c.Diagnostics, model.Place{File: manifestFile, Pointer: jsontext.Pointer("extensions", ns, "hooks")}.Component("extension-codex-hooks-not-run", model.SeverityWarning,
				"extensions[\"com.openai\"].hooks is not run by Codex "+codexVersion+": it runs no hooks from a folder with a root Agent Plugins plugin.json (observed), whatever form they take.", specRef("8")))
		}
		l.pkg.Components = append(l.pkg.Components, c)
	}
}

// codexNamespaceName is the namespace Codex reads from an Agent Plugins manifest.
const codexNamespaceName = "com.openai"

// extKeys lists the member names of the manifest data under ns (nil when it is not an
// object or absent).
func (l *loader) extKeys(ns string) []string {
	var out []string
	for _, m := range l.extData {
		if m.Key == ns && m.Val.Kind == jsontext.Object {
			for _, f := range m.Val.Obj {
				out = append(out, f.Key)
			}
		}
	}
	return out
}

// readSentences say who reads the namespace, naming each client and what it reads, as
// observed: a namespace a known client reads is never called inert. Codex reads
// only onboardingSkill under com.openai and runs no hooks from a folder with a root
// Agent Plugins plugin.json (review/codex/testdata/agent-plugins-view); Lola reads
// commands, agents and instructions paths from its namespaces; Pi reads dev.pi.agent;
// Pi and Lola read only what the manifest's extensions object declares.
func readSentences(ns string, readers []string, hasData bool) []string {
	var out []string
	for _, id := range readers {
		r := model.ClientName(id)
		switch {
		case !hasData:
			out = append(out, fmt.Sprintf("%s reads %s only from the manifest's extensions object; plugin.json declares nothing there, so %s does not read the %s/ directory.", r, ns, r, ns))
		case id == clientLola:
			out = append(out, fmt.Sprintf("Lola reads commands, agents and instructions from %s: the paths declared here become part of what Lola installs.", ns))
		default:
			out = append(out, fmt.Sprintf("%s reads %s.", r, ns))
		}
	}
	if ns == codexNamespaceName {
		out = append(out, "Codex "+codexVersion+" reads only onboardingSkill from com.openai, and runs no hooks from a folder with a root Agent Plugins plugin.json: not hooks/hooks.json, not extensions[\"com.openai\"].hooks in any form.")
	}
	if len(readers) == 0 && ns != codexNamespaceName {
		out = append(out, "No client vouch knows reads this namespace, and Agent Plugins gives it no meaning: for those clients it is inert. vouch does not validate it.")
	} else {
		out = append(out, "vouch does not validate what is declared here, and no approval covers it: review it as the client that reads it will use it.")
	}
	return out
}

// codexNamespace replaces the Codex entry of a com.openai namespace with what Codex
// the Codex releases vouch models were observed to read there: onboardingSkill only.
func codexNamespace(ns string, keys []string, sup []model.Support) []model.Support {
	if ns != codexNamespaceName {
		return sup
	}
	sup = slices.Clone(sup) // extensionSupport's slice is shared
	for i, s := range sup {
		if s.Provider != clientCodex {
			continue
		}
		if slices.Contains(keys, "onboardingSkill") {
			sup[i] = support(clientCodex, model.Supported, "Codex "+codexVersion+" reads onboardingSkill from com.openai; it reads nothing else there and runs no hooks from this folder.")
		} else {
			sup[i] = support(clientCodex, model.NotApplicable, "Codex "+codexVersion+" reads only onboardingSkill from com.openai, which plugin.json does not declare; it runs no hooks from this folder, extensions[\"com.openai\"].hooks included.")
		}
	}
	return sup
}
