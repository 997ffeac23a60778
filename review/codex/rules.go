package codex

import (
	"path"
	"strings"
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
