package codex

import (
	"fmt"
	"path"
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
// ("" when it reads it). Codex reads the manifest into typed fields and fails the whole
// read when one holds another type: "missing or invalid plugin.json" (observed for a
// keywords string on the releases vouch models; its source types name, version,
// description, apps and interface the same way). The component fields (skills,
// mcpServers, hooks) and interface.defaultPrompt take any value, a wrong one being
// ignored, and unknown fields are ignored. An array manifest is read positionally and is
// not judged here.
func ManifestRefusal(doc *jsontext.Value) string {
	if doc == nil || doc.Kind != jsontext.Object {
		return ""
	}
	if why := typedFields(doc, "", map[string]string{"name": "string", "version": "string?", "description": "string?", "apps": "string?", "keywords": "strings", "interface": "object?"}); why != "" {
		return why
	}
	iface := doc.Get("interface")
	if iface == nil || iface.Val.Kind != jsontext.Object {
		return ""
	}
	want := map[string]string{"capabilities": "strings", "screenshots": "strings"}
	for _, k := range []string{"displayName", "shortDescription", "longDescription", "developerName", "category", "websiteUrl", "websiteURL", "privacyPolicyUrl", "privacyPolicyURL", "termsOfServiceUrl", "termsOfServiceURL", "brandColor", "composerIcon", "logo", "logoDark"} {
		want[k] = "string?"
	}
	return typedFields(iface.Val, "interface.", want)
}

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
