package skills

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// plainFrontmatter builds, without the YAML library, the document yaml.v3 decodes from
// fm when fm is in a narrow subset that almost every SKILL.md uses:
//
//	key: value
//	key:
//	  key: value
//
// Keys and values are plain scalars of printable ASCII that start with a letter and
// cannot read as anything but a string (no true/false/null/yes/no/on/off words, no
// ':' or '#', no trailing spaces). Every other input, comments, blank lines and tabs
// included, reports false and goes to yaml.v3. The differential test and
// FuzzPlainFrontmatter hold it to yaml.v3's exact node tree.
func plainFrontmatter(fm string) (*yaml.Node, bool) {
	if fm == "" {
		return nil, false
	}
	top := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: 1, Column: 1}
	// One allocation for the scalars of a typical frontmatter.
	pool := make([]yaml.Node, 0, 2*strings.Count(fm, "\n")+2)
	scalar := func(v string, line, col int) *yaml.Node {
		pool = append(pool, yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v, Line: line, Column: col})
		return &pool[len(pool)-1]
	}
	var nested *yaml.Node // the mapping under a "key:" line, while its lines last
	indent := 0
	line := 0
	for rest := fm; rest != ""; {
		l, tail, _ := strings.Cut(rest, "\n")
		rest = tail
		line++
		sp := 0
		for sp < len(l) && l[sp] == ' ' {
			sp++
		}
		if sp > 0 {
			if nested == nil || (indent != 0 && sp != indent) {
				return nil, false
			}
			indent = sp
		} else {
			if nested != nil && len(nested.Content) == 0 {
				return nil, false // "key:" with no value is null, not a mapping
			}
			nested = nil
			indent = 0
		}
		colon := strings.IndexByte(l, ':')
		if colon < 0 {
			return nil, false
		}
		key := l[sp:colon]
		// YAML allows an implicit key of at most 1024 characters; field names are short.
		if len(key) > 128 || !plainWord(key) {
			return nil, false
		}
		after := l[colon+1:]
		target := top
		if sp > 0 {
			target = nested
		}
		if after == "" {
			if sp > 0 {
				return nil, false // only one level of nesting
			}
			nested = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: line + 1, Column: 0}
			target.Content = append(target.Content, scalar(key, line, 1), nested)
			continue
		}
		n := 0
		for n < len(after) && after[n] == ' ' {
			n++
		}
		if n == 0 || !plainWord(after[n:]) {
			return nil, false
		}
		col := colon + 1 + n + 1
		target.Content = append(target.Content, scalar(key, line, sp+1), scalar(after[n:], line, col))
	}
	if nested != nil && len(nested.Content) == 0 {
		return nil, false
	}
	// A nested mapping starts at its first key.
	for i := 1; i < len(top.Content); i += 2 {
		if m := top.Content[i]; m.Kind == yaml.MappingNode {
			m.Line, m.Column = m.Content[0].Line, m.Content[0].Column
		}
	}
	if len(top.Content) == 0 {
		return nil, false
	}
	return &yaml.Node{Kind: yaml.DocumentNode, Line: 1, Column: 1, Content: []*yaml.Node{top}}, true
}

// plainWord reports whether s is a plain scalar yaml.v3 reads as exactly s, tagged !!str.
func plainWord(s string) bool {
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e {
			return false
		}
		// The flow indicators ,[]{} end a plain scalar only inside a flow collection, so
		// after the first letter they are text (descriptions list things with commas).
		// ':' and '#' can end one anywhere; the rest are left to yaml.v3.
		switch c {
		case ':', '#', '&', '*', '!', '|', '>', '%', '@', '`', '\\':
			return false
		}
	}
	if len(s) <= 5 {
		for _, w := range [...]string{"y", "n", "yes", "no", "on", "off", "true", "false", "null"} {
			if strings.EqualFold(s, w) {
				return false
			}
		}
	}
	return true
}

// DecodeFrontmatter decodes a frontmatter's YAML into doc exactly as yaml.Unmarshal
// does, building the tree directly when the text is in plainFrontmatter's shape: for a
// reader that parses SKILL.md's frontmatter in its own way as well.
func DecodeFrontmatter(fm string, doc *yaml.Node) error {
	if n, ok := plainFrontmatter(fm); ok {
		*doc = *n
		return nil
	}
	return yaml.Unmarshal([]byte(fm), doc)
}
