package main

import (
	"fmt"
	"path"
	"strings"
)

// excludeHelp says what an --exclude pattern matches; the config file's exclude key
// takes the same patterns.
const excludeHelp = "leave out of the search below each SOURCE what `GLOB` matches (repeatable): a GLOB without / matches a folder or file name at any depth (node_modules, *.tar.gz), one with / the path from the SOURCE (vendor/*, **/testdata); an excluded folder is not entered, and the report notes what was left out. Replaces the config file's exclude (--exclude '' for none)"

// excludeMatcher is the search's Exclude for patterns: whether a path relative to the
// SOURCE, in slash form, is left out. nil when there are no patterns.
func excludeMatcher(patterns []string) func(rel string) bool {
	if len(patterns) == 0 {
		return nil
	}
	type pat struct {
		elems    []string
		anywhere bool // no slash: matches the last element at any depth
	}
	pats := make([]pat, 0, len(patterns))
	for _, p := range patterns {
		elems, anywhere := parsePattern(p)
		pats = append(pats, pat{elems, anywhere})
	}
	return func(rel string) bool {
		elems := strings.Split(rel, "/")
		for _, p := range pats {
			if p.anywhere {
				if ok, _ := path.Match(p.elems[0], elems[len(elems)-1]); ok {
					return true
				}
			} else if matchElems(p.elems, elems) {
				return true
			}
		}
		return false
	}
}

// parsePattern splits a pattern into path elements. A pattern with no slash but a
// trailing one matches a name anywhere; any other slash anchors it at the SOURCE, a
// leading / or ./ included ("/vendor" is vendor at the top only).
func parsePattern(p string) (elems []string, anywhere bool) {
	p = strings.TrimSuffix(p, "/")
	anywhere = !strings.Contains(p, "/")
	p = strings.TrimPrefix(strings.TrimPrefix(p, "./"), "/")
	return strings.Split(p, "/"), anywhere
}

// matchElems matches path elements against pattern elements, "**" standing for any
// number of elements, none included.
func matchElems(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(name); i++ {
				if matchElems(pat[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

// checkPattern says why a pattern cannot be used, or nil.
func checkPattern(p string) error {
	elems, _ := parsePattern(p)
	for _, e := range elems {
		if strings.TrimSpace(e) == "" {
			return fmt.Errorf("pattern %q has an empty part; give a folder or file name or a path such as vendor/*", p)
		}
		if _, err := path.Match(e, ""); err != nil {
			return fmt.Errorf("pattern %q is not a glob: %v", p, err)
		}
	}
	return nil
}
