package claudecode

import (
	"fmt"
	"path"
	"strings"

	"vouch/model"
	"vouch/review/codex"
	"vouch/review/jsontext"
)

// Codex support of a Claude Code plugin follows Codex's own rules for the manifest Codex
// reads, asked of the Codex loader (review/codex) where it has them: this plugin's own
// plugin.json when the folder has no other (Codex reads it by its typed fields, its path
// rule, its hooks-document form for inline hooks, and its one-path-or-one-object rule
// for mcpServers), even when Claude Code rejects it.
//
// When a folder also has .codex-plugin/plugin.json, Codex reads that manifest instead of
// .claude-plugin/plugin.json, but it still finds the folder's default files through it:
// skills/, hooks/hooks.json and .mcp.json unless that manifest's own skills, hooks or
// mcpServers paths replace them (the Codex releases vouch models). A Claude hook, server or skill
// from such a default file is then one Codex loads too, through its own package of the
// folder, and its answer must say so rather than that Codex does not load it.

// codexManifest is the .codex-plugin/plugin.json Codex reads here, parsed once with exact
// keys; nil when there is none or it does not parse (then Codex loads nothing of it).
func (l *loader) codexManifest() *jsontext.Value {
	if l.codexDoc != nil {
		return l.codexDoc
	}
	l.codexDoc = &jsontext.Value{} // not an object: nothing is read from it
	if l.otherManifest != ".codex-plugin/plugin.json" {
		return l.codexDoc
	}
	data, err := l.root.ReadFile(".codex-plugin/plugin.json", l.opts.Limits.MaxManifestSize)
	if err != nil {
		return l.codexDoc
	}
	if doc, _, jerr := jsontext.Parse(data, jsontext.Limits); jerr == nil && doc.Kind == jsontext.Object {
		l.codexDoc = doc
	}
	return l.codexDoc
}

// codexReads is the manifest Codex reads in this folder, as an object: .codex-plugin's
// when there is one, else this plugin's own plugin.json (Codex reads a Claude Code
// manifest by its own rules). Not an object when Codex reads neither (a root Agent
// Plugins manifest wins, or the file does not parse).
func (l *loader) codexReads() *jsontext.Value {
	switch {
	case l.otherManifest != "":
		return l.codexManifest()
	case l.manifest != nil:
		return l.manifest
	}
	return &jsontext.Value{}
}

// codexLoadsDefault reports whether Codex, reading the manifest codexReads names, loads
// the default file for field ("hooks": hooks/hooks.json, "mcpServers": .mcp.json,
// "skills": skills/). A field of a kind Codex does not take, or whose paths its rule
// refuses, is ignored as absent, so the default loads.
func (l *loader) codexLoadsDefault(field string) bool {
	doc := l.codexReads()
	if doc.Kind != jsontext.Object {
		return false
	}
	def := map[string]string{"hooks": hooksFile, "mcpServers": mcpFile, "skills": "skills"}[field]
	m := doc.Get(field)
	if m == nil || m.Val.Kind == jsontext.Null {
		return true
	}
	var paths []*jsontext.Value
	switch m.Val.Kind {
	case jsontext.String:
		paths = []*jsontext.Value{m.Val}
	case jsontext.Array:
		if field == "mcpServers" {
			return true // mcpServers is a path or an object
		}
		paths = m.Val.Arr
	case jsontext.Object:
		if field == "skills" {
			return true // skills is a path or a list of paths: an object is ignored
		}
		// Inline servers replace the default; inline hooks do when Codex reads them as a
		// hooks document ({} is none at all).
		return field == "hooks" && !codex.InlineHooksRead(m.Val)
	default:
		return true
	}
	accepted := false
	for _, p := range paths {
		if field == "hooks" && codex.InlineHooksRead(p) {
			accepted = true // an inline hooks document in the list
			continue
		}
		if p.Kind != jsontext.String || !codexPathOK(p.Str) {
			continue
		}
		accepted = true
		if path.Clean(p.Str) == def {
			return true
		}
	}
	return !accepted
}

// codexSkillRoots are the folders Codex scans for skills, reading the manifest codexReads
// names: the manifest's skills paths that Codex's path rule accepts, which replace skills/,
// else skills/ alone. A folder holding SKILL.md is a skill itself; otherwise each folder
// directly in it that holds one is.
func (l *loader) codexSkillRoots() []string {
	doc := l.codexReads()
	var vals []*jsontext.Value
	if m := doc.Get("skills"); doc.Kind == jsontext.Object && m != nil {
		switch m.Val.Kind {
		case jsontext.String:
			vals = []*jsontext.Value{m.Val}
		case jsontext.Array:
			vals = m.Val.Arr
		}
	}
	var roots []string
	for _, v := range vals {
		if v.Kind != jsontext.String {
			continue
		}
		if rel, why := codex.PathRule(v.Str); why == "" {
			roots = append(roots, rel)
		}
	}
	if len(roots) == 0 {
		return []string{"skills"}
	}
	return roots
}

// codexReadsSkill reports whether Codex lists the skill in folder dir ("." for a SKILL.md
// at the plugin's top, which none of Codex's roots reaches).
func (l *loader) codexReadsSkill(dir string) bool {
	for _, r := range l.codexSkillRoots() {
		if dir == r || path.Dir(dir) == r {
			return true
		}
	}
	return false
}

// codexPathOK is Codex's rule for a manifest path, asked of the Codex loader.
func codexPathOK(p string) bool {
	_, why := codex.PathRule(p)
	return why == ""
}

// codexSameHooks reports whether Codex loads src, this plugin's hooks/hooks.json, through
// .codex-plugin/plugin.json: then what the Claude manifest says about hooks does not
// decide what Codex runs.
func (l *loader) codexSameHooks(src *hookSource) bool {
	return l.otherManifest == ".codex-plugin/plugin.json" && src.file == hooksFile && !src.inline && l.codexLoadsDefault("hooks")
}

// codexAlsoLoads is the Codex answer for a component of a default file that Codex loads
// through its own manifest here.
func (l *loader) codexAlsoLoads(file string) string {
	return fmt.Sprintf("Codex %s reads this folder through %s, which loads this same %s: the Codex package of this folder lists it with Codex's own answer.", l.opts.CodexVersion, l.otherManifest, file)
}

// codexSkipsSkill says why Codex, reading this plugin's manifest, lists no skill from
// folder dir: a SKILL.md at the top is no skill to Codex, and a manifest skills path that
// Codex accepts replaces skills/ (observed on the releases named).
func (l *loader) codexSkipsSkill(dir string) string {
	releases := model.Releases(model.ClientCodex, model.Codex169)
	if dir == "." {
		return releases + " list no skill for a SKILL.md at the plugin's top: they read skills only from skills/ or the folders the manifest's skills paths name."
	}
	return fmt.Sprintf("%s read only the skills folders the manifest names (%s), which replace skills/ there ("+claudeSeen+" reads both), so they do not list this skill.", releases, strings.Join(l.codexSkillRoots(), ", "))
}

// codexServerSkip says why Codex, reading this plugin's own manifest, starts none of the
// servers its mcpServers field declares in file (a path it names, or the manifest itself
// for inline servers), or "" when it does: Codex takes that field as one path or one
// object and ignores a list of either as absent (observed on the releases named).
func (l *loader) codexServerSkip(file string) string {
	if l.manifest == nil || l.otherManifest != "" {
		return "" // another manifest's rule answers (mcpSupport)
	}
	m := l.manifest.Get("mcpServers")
	if m == nil || m.Val.Kind != jsontext.Array {
		return ""
	}
	return fmt.Sprintf("%s read mcpServers only as one path or one object and ignore a list of them (here %s is one of its entries), so they start none of its servers.", model.Releases(model.ClientCodex, model.Codex169), displayFile(file))
}

// codexRefusal applies Codex's manifest rule to this plugin's own plugin.json, which
// Codex reads when the folder has no manifest of its own for it: a typed field holding
// another type makes Codex refuse to install the plugin, so it runs none of it, whatever
// Claude Code makes of the field (Claude ignores a keywords string, for one).
func (l *loader) codexRefusal() {
	if l.manifest == nil || l.otherManifest != "" {
		return
	}
	why := codex.ManifestRefusal(l.manifest)
	if why == "" {
		return
	}
	msg := fmt.Sprintf("In plugin.json, %s, so %s refuse to install the plugin and run none of it.", why, model.Releases(model.ClientCodex, model.Codex169))
	l.pkgDiag(model.Place{File: manifestFile}.Package("codex-refuses-manifest", model.SeverityWarning, msg, specRef("2.1")))
	for _, c := range l.pkg.Components {
		setSupport(c, model.Support{Provider: clientCodex, Version: CodexVersion, Status: model.NotSupported, Detail: msg})
	}
}

// codexReadsRejected is what Codex loads from this folder when Claude Code rejects its
// plugin.json: Codex reads the same file by its own rules (it ignores commands and
// agents, names a plugin without a name after its folder, and applies its own path rule),
// so it may install the plugin and run its hooks, servers and skills all the same
// (observed on the releases named). Those components are the Codex loader's, each with
// Codex's answer and Claude's refusal; nil when Codex reads another manifest here, or
// refuses this one too.
func (l *loader) codexReadsRejected() []*model.Component {
	if l.otherManifest != "" || l.entry != nil {
		return nil
	}
	cp := codex.Load(l.root.Path(), codex.Options{Limits: l.opts.Limits, Skills: l.opts.Skills})
	if cp.Rejected || len(cp.Components) == 0 {
		return nil
	}
	l.pkgDiag(model.Place{File: manifestFile}.Package("codex-reads-rejected-manifest", model.SeverityInfo,
		fmt.Sprintf(claudeSeen+" rejects this plugin.json, but %s read it by their own rules (they ignore commands and agents, name a plugin without a name after its folder, and apply their own path rule) and install the plugin: the components listed are what Codex loads, with Codex's answers.", model.Releases(model.ClientCodex, model.Codex169)), specRef("2.1")))
	claude := model.Support{Provider: clientClaude, Version: ClaudeVersion, Status: model.NotSupported, Detail: "Claude Code rejects this plugin's manifest (see the package's diagnostics), so it loads none of the plugin."}
	for _, c := range cp.Components {
		for i := range c.Support {
			if c.Support[i].Detail == "" {
				c.Support[i].Detail = "Codex loads it through this plugin.json, read by its own rules."
			}
		}
		c.Support = append([]model.Support{claude}, c.Support...)
	}
	return cp.Components
}

// codexReadsOther says that Codex reads this folder through its other manifest, which
// does not load the component at hand. Beside a .claude-plugin/plugin.json it is read
// instead of that manifest; in a folder without one (a Codex plugin that Claude Code reads
// by its default layout) the folder's Codex package lists what Codex does load.
// tail ends the first sentence ("." for none).
func (l *loader) codexReadsOther(tail string) string {
	if l.rootHas(manifestFile) {
		return fmt.Sprintf("Codex reads %s instead of .claude-plugin/plugin.json%s", l.otherManifest, tail)
	}
	return fmt.Sprintf("Codex reads this folder through %s, which does not load this file here; the folder's Codex package lists what Codex loads.", l.otherManifest)
}
