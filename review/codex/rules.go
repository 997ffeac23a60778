package codex

import (
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
