package codex

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"vouch/review/jsontext"
)

// PathRule is Codex's rule for a manifest path (resolve_manifest_path in its source, the
// releases vouch models): it must start with ./, must not name the plugin root itself, and
// must have no .. part, backslash or NUL. rel is the path relative to the plugin root,
// cleaned; why says why Codex ignores the path ("" when it reads it). Another format's
// loader that says what Codex does with a manifest asks this rule rather than restating it.
func PathRule(s string) (rel, why string) {
	switch {
	case !strings.HasPrefix(s, "./"):
		return "", "it does not start with ./"
	case s == "./" || strings.Trim(s[2:], "/") == "":
		return "", "it names the plugin root itself"
	}
	for _, seg := range strings.Split(s[2:], "/") {
		if seg == ".." {
			return "", "it contains .."
		}
	}
	if strings.ContainsRune(s, 0) || strings.Contains(s, "\\") {
		return "", "it contains a backslash or NUL"
	}
	return path.Clean(s[2:]), ""
}

// InlineHooksRead reports whether Codex reads an inline manifest hooks object as a hooks
// document: it takes the form of a hooks file ({"description"?, "hooks": {...}}), or is
// {} (no hooks at all). An event map without that wrapper, the form Claude Code's inline
// hooks take, loads no hooks in Codex (observed on the releases vouch models).
func InlineHooksRead(v *jsontext.Value) bool {
	return v.Kind == jsontext.Object && (len(v.Obj) == 0 || v.Get("hooks") != nil || v.Get("description") != nil)
}

// ManifestRefusal says why Codex refuses to install a plugin whose manifest object is doc
// ("" when it reads it), ending with Codex's own words. Codex reads the manifest into
// typed fields and fails the whole read when one holds another type: "missing or invalid
// plugin.json" (observed for a keywords string on the releases vouch models; its source
// types name, version, description, apps and interface the same way); and it refuses a
// name with a character other than ASCII letters, digits, ., _ and - (observed). The component fields (skills,
// mcpServers, hooks) and interface.defaultPrompt take any value, a wrong one being
// ignored, and unknown fields are ignored. An array manifest is read positionally and is
// not judged here.
func ManifestRefusal(doc *jsontext.Value) string {
	if doc == nil || doc.Kind != jsontext.Object {
		return ""
	}
	const invalid = ` ("missing or invalid plugin.json")`
	if why := typedFields(doc, "", map[string]string{"name": "string", "version": "string?", "description": "string?", "apps": "string?", "keywords": "strings", "interface": "object?"}); why != "" {
		return why + invalid
	}
	if n := doc.Get("name"); n != nil && strings.TrimSpace(n.Val.Str) != "" && !pluginName.MatchString(n.Val.Str) {
		return fmt.Sprintf("the name %q has a character other than ASCII letters, digits, ., _ and - (\"invalid plugin name: only ASCII letters, digits, `.`, `_`, and `-` are allowed\")", clip(n.Val.Str))
	}
	iface := doc.Get("interface")
	if iface == nil || iface.Val.Kind != jsontext.Object {
		return ""
	}
	want := map[string]string{"capabilities": "strings", "screenshots": "strings"}
	for _, k := range []string{"displayName", "shortDescription", "longDescription", "developerName", "category", "websiteUrl", "websiteURL", "privacyPolicyUrl", "privacyPolicyURL", "termsOfServiceUrl", "termsOfServiceURL", "brandColor", "composerIcon", "logo", "logoDark"} {
		want[k] = "string?"
	}
	if why := typedFields(iface.Val, "interface.", want); why != "" {
		return why + invalid
	}
	return ""
}

// pluginName is the name Codex installs a plugin under (observed on the releases vouch
// models: a space or a control character in it refuses the install).
var pluginName = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

// typedFields checks the members of obj that want names against their types: "string",
// "string?" (a string or null), "strings" (an array of strings), "object?".
func typedFields(obj *jsontext.Value, prefix string, want map[string]string) string {
	for _, m := range obj.Obj {
		t, ok := want[m.Key]
		if !ok {
			continue
		}
		v := m.Val
		good := false
		switch t {
		case "string":
			good = v.Kind == jsontext.String
		case "string?":
			good = v.Kind == jsontext.String || v.Kind == jsontext.Null
		case "object?":
			good = v.Kind == jsontext.Object || v.Kind == jsontext.Null
		case "strings":
			good = v.Kind == jsontext.Array
			for _, e := range v.Arr {
				good = good && e.Kind == jsontext.String
			}
		}
		switch {
		case good:
		case t == "strings" && v.Kind == jsontext.Array:
			return fmt.Sprintf("%s%s holds an entry that is not a string, where Codex reads an array of strings", prefix, m.Key)
		default:
			return fmt.Sprintf("%s%s is a JSON %s, where Codex reads %s", prefix, m.Key, v.Kind, map[string]string{"string": "a string", "string?": "a string", "object?": "an object", "strings": "an array of strings"}[t])
		}
	}
	return ""
}
