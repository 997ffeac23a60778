// Package skills parses and validates Agent Skills SKILL.md files (frontmatter fields,
// name rules, limits) and lists the content a markdown renderer would hide from a reviewer.
// Every package format vouch reviews carries skills, so every loader uses this package.
package skills

import (
	"vouch/model"
	"vouch/review/fsguard"
)

// Frontmatter is the parsed YAML frontmatter of a SKILL.md.
type Frontmatter struct {
	Name          string
	Description   string
	License       string
	Compatibility string
	AllowedTools  string
	Metadata      map[string]string
	// Present lists the keys that appeared, in order (unknown ones included).
	Present []string
}

// Skill is a parsed SKILL.md.
type Skill struct {
	Frontmatter Frontmatter
	Body        string // markdown after the frontmatter
	BodyLine    int    // 1-based line of the body's first line in the file
	Hidden      []model.HiddenContent
}

// Parse parses SKILL.md bytes. dirName is the skill's parent directory name, which the
// name must equal. file is the slash path used in diagnostics. It never panics.
func Parse(data []byte, dirName, file string) (*Skill, []model.Diagnostic) {
	return &Skill{}, nil
}

// ScanHidden lists HTML comments, raw HTML tags, link reference definitions and invisible
// or bidi characters in markdown, with 1-based line numbers offset by firstLine-1.
func ScanHidden(markdown string, firstLine int) []model.HiddenContent { return nil }

// Load reads dir/SKILL.md through root and returns the skill component: kind skill, id the
// directory's base name, validity, body, hidden content, diagnostics, and a contract over
// every file of the skill directory (bounded by the root's limits).
func Load(root *fsguard.Root, dir string) *model.Component {
	return &model.Component{Kind: model.KindSkill}
}
