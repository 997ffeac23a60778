// Package rootmanifest says whose a folder's root plugin.json is. Several formats name
// their manifest plugin.json at a folder's top, and catalogues put metadata of their own
// there; the Codex releases vouch models take a root plugin.json for an Agent Plugins manifest
// only when its top-level "$schema" names the Agent Plugins schema, and Claude Code
// (every release vouch models) never reads it at all. Any other root plugin.json is foreign: it must
// not take the folder away from the clients whose own markers are there.
package rootmanifest

import (
	"strings"

	"vouch/review/fsguard"
	"vouch/review/jsontext"
)

// File is the root manifest's name.
const File = "plugin.json"

// maxRead bounds what is read to decide: a real manifest is a few KiB, and a larger file
// is judged by the same rule from the same bounded read (fsguard refuses what is too big).
const maxRead = 1 << 20

// schemaPrefix is what an Agent Plugins $schema starts with; the loader itself says
// whether the revision it names is one vouch supports.
const schemaPrefix = "https://agent-plugins.org/schemas/"

// IsAgentPlugins reports whether dir has a root plugin.json that declares the Agent
// Plugins schema. A missing, unreadable or non-JSON file is not one.
func IsAgentPlugins(dir string) bool {
	root, err := fsguard.Open(dir, fsguard.DefaultLimits())
	if err != nil {
		return false
	}
	defer root.Close()
	data, err := root.ReadFile(File, maxRead)
	if err != nil {
		return false
	}
	return DeclaresSchema(data)
}

// DeclaresSchema reports whether data, a plugin.json, has a top-level "$schema" string
// (the exact key, as the clients read it) naming the Agent Plugins schema.
func DeclaresSchema(data []byte) bool {
	doc, _, perr := jsontext.Parse(data, jsontext.Options{MaxDepth: 64})
	if perr != nil || doc == nil || doc.Kind != jsontext.Object {
		return false
	}
	m := doc.Get("$schema")
	return m != nil && m.Val.Kind == jsontext.String && strings.HasPrefix(m.Val.Str, schemaPrefix)
}
