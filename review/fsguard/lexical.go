package fsguard

import "strings"

// WithinLexical reports whether a relative slash path stays below its base when "." and
// ".." are applied to the text alone, before any link is followed. A manifest path that
// climbs out this way is refused whatever the disk holds; one that stays inside still has
// to be resolved (Root.Resolve) before anything is read through it.
func WithinLexical(rel string) bool {
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
