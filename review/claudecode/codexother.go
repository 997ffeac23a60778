package claudecode

import (
	"fmt"
	"path"
	"strings"

	"vouch/review/jsontext"
)

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

// codexLoadsDefault reports whether Codex, reading .codex-plugin/plugin.json here, loads
// the default file for field ("hooks": hooks/hooks.json, "mcpServers": .mcp.json,
// "skills": skills/). A field of a kind Codex does not take, or whose paths its rule
// refuses, is ignored as absent, so the default loads.
func (l *loader) codexLoadsDefault(field string) bool {
	doc := l.codexManifest()
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
		return false // inline: it replaces the default ({} is none at all)
	default:
		return true
	}
	accepted := false
	for _, p := range paths {
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

// codexPathOK is Codex's rule for a manifest path: it starts with ./, is not ./ alone, and
// has no .. part.
func codexPathOK(p string) bool {
	if !strings.HasPrefix(p, "./") || p == "./" {
		return false
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return false
		}
	}
	return true
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
