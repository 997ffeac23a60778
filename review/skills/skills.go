// Package skills parses and validates Agent Skills SKILL.md files (frontmatter fields,
// name rules, limits) and lists the content a markdown renderer would hide from a reviewer.
// Every package format vouch reviews carries skills, so every loader uses this package.
//
// The specification text is normative. Where the reference validator skills-ref is more
// lenient (Unicode names after NFKC, a stripped name, an empty compatibility, YAML
// scalars that are not strings), the skill is accepted with a warning that names the
// difference, so that nothing skills-ref accepts is silently treated as invalid and
// nothing the specification forbids passes without a word.
package skills

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
	"golang.org/x/text/unicode/norm"

	"vouch/internal/lazyre"
	"vouch/internal/textclip"
	"vouch/model"
)

// Limits of this package. The caller bounds SKILL.md itself (Load reads at most MaxSkillFile).
const (
	MaxFrontmatter     = 64 << 10 // bytes of YAML between the --- lines
	MaxSkillFile       = 1 << 20  // bytes of SKILL.md read by Load
	MaxNameChars       = 64
	MaxDescriptionChar = 1024
	MaxCompatChars     = 500
	// RecommendedBodyLines is the specification's advice for the SKILL.md body.
	RecommendedBodyLines = 500
)

// FieldNames lists the frontmatter keys the specification defines, in its order.
var FieldNames = []string{"name", "description", "license", "compatibility", "metadata", "allowed-tools"}

// Frontmatter is the parsed YAML frontmatter of a SKILL.md.
type Frontmatter struct {
	Name          string
	Description   string
	License       string
	Compatibility string
	AllowedTools  string
	Metadata      map[string]string
	// MetadataKeys lists the metadata keys in declaration order (for display).
	MetadataKeys []string
	// Present lists the keys that appeared, in order (unknown ones included).
	Present []string
}

// Has reports whether key appeared in the frontmatter.
func (f *Frontmatter) Has(key string) bool {
	for _, k := range f.Present {
		if k == key {
			return true
		}
	}
	return false
}

// Skill is a parsed SKILL.md.
type Skill struct {
	Frontmatter Frontmatter
	Body        string // markdown after the frontmatter
	BodyLine    int    // 1-based line of the body's first line in the file
	// BodyStart and BodyEnd are Body's byte offsets in the parsed data: Body is always
	// exactly data[BodyStart:BodyEnd], so a reader can find it again in the file.
	BodyStart, BodyEnd int
	Hidden             []model.HiddenContent
	// HasFrontmatter is false when the file has no (terminated) frontmatter; Body is
	// then the whole file so a reviewer still sees it.
	HasFrontmatter bool
}

// ValidName reports whether name follows the specification's grammar: 1–64 characters,
// lowercase a-z, digits and hyphens, no leading or trailing hyphen, no "--".
func ValidName(name string) bool {
	if len(name) == 0 || len(name) > MaxNameChars {
		return false
	}
	if name[0] == '-' || name[len(name)-1] == '-' || strings.Contains(name, "--") {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

const specFM = "agent-skills frontmatter"

type parseState struct {
	file  string
	diags []model.Diagnostic
	// lineOff converts a frontmatter line (1-based) to a file line.
	lineOff int
}

func (p *parseState) add(sev model.Severity, code, pointer string, line int, spec, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	b := model.BoundaryComponent
	p.diags = append(p.diags, model.Diagnostic{
		Code: code, Severity: sev, Boundary: b, File: p.file, Pointer: pointer,
		Line: line, Message: msg, Spec: spec,
	})
}

func (p *parseState) errorf(code, pointer string, line int, spec, format string, args ...any) {
	p.add(model.SeverityError, code, pointer, line, spec, format, args...)
}

func (p *parseState) warnf(code, pointer string, line int, spec, format string, args ...any) {
	p.add(model.SeverityWarning, code, pointer, line, spec, format, args...)
}

func (p *parseState) nodeLine(n *yaml.Node) int {
	if n == nil || n.Line == 0 {
		return 0
	}
	return n.Line + p.lineOff
}

// lineOf returns the 1-based line of byte offset off in data.
func lineOf(data []byte, off int) int {
	if off > len(data) {
		off = len(data)
	}
	return bytes.Count(data[:off], []byte{'\n'}) + 1
}

// detach copies every string the skill keeps, but its body, out of the file's text. A
// caller that lets go of Body (a console reads it back when it is shown) then frees the
// whole file, where a 20-byte name would keep each of its bytes alive.
func (sk *Skill) detach() {
	f := &sk.Frontmatter
	for _, s := range []*string{&f.Name, &f.Description, &f.License, &f.Compatibility, &f.AllowedTools} {
		*s = strings.Clone(*s)
	}
	if f.Metadata != nil {
		md := make(map[string]string, len(f.Metadata))
		for k, v := range f.Metadata {
			md[strings.Clone(k)] = strings.Clone(v)
		}
		f.Metadata = md
	}
	for i := range f.MetadataKeys {
		f.MetadataKeys[i] = strings.Clone(f.MetadataKeys[i])
	}
	for i := range f.Present {
		f.Present[i] = strings.Clone(f.Present[i])
	}
	for i := range sk.Hidden {
		sk.Hidden[i].Kind, sk.Hidden[i].Text = strings.Clone(sk.Hidden[i].Kind), strings.Clone(sk.Hidden[i].Text)
	}
}

// Parse parses SKILL.md bytes. dirName is the skill's parent directory name, which the
// name must equal ("" skips that check). file is the slash path used in diagnostics.
// It never panics; the caller bounds len(data).
func Parse(data []byte, dirName, file string) (sk *Skill, diags []model.Diagnostic) {
	p := &parseState{file: file}
	sk = &Skill{BodyLine: 1}
	defer sk.detach() // runs last, after the recovery below
	defer func() {
		// The YAML library is third-party code fed hostile input: a panic there must
		// become a diagnostic, never a crash of the review.
		if r := recover(); r != nil {
			p.errorf("skill-frontmatter-invalid-yaml", "", 0, specFM, "The frontmatter could not be parsed (internal parser failure: %v)", r)
			diags = p.diags
		}
	}()

	if !utf8.Valid(data) {
		off := firstInvalidUTF8(data)
		p.errorf("skill-invalid-utf8", "", lineOf(data, off), "agent-skills SKILL.md format", "SKILL.md is not valid UTF-8 (first bad byte at offset %d); save it as UTF-8 text", off)
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		p.errorf("skill-nul-byte", "", lineOf(data, i), "agent-skills SKILL.md format", "SKILL.md contains a NUL byte (offset %d); a text file must not contain NUL bytes", i)
	}
	s := string(data)

	if strings.HasPrefix(s, "\uFEFF") {
		p.errorf("skill-bom", "", 1, specFM, "SKILL.md starts with a byte order mark; it must start with the --- line of its YAML frontmatter (skills-ref rejects it too), so save it without a BOM")
		sk.Body, sk.BodyStart, sk.BodyEnd = s, 0, len(s)
		sk.Hidden = p.scan(s, 1)
		return sk, p.diags
	}

	fm, body, bodyLine, ok := splitFrontmatter(s, p)
	if !ok {
		sk.Body, sk.BodyStart, sk.BodyEnd = s, 0, len(s)
		sk.Hidden = p.scan(s, 1)
		return sk, p.diags
	}
	sk.HasFrontmatter = true
	// The body is the rest of the file after the closing --- line.
	sk.Body, sk.BodyStart, sk.BodyEnd = body, len(s)-len(body), len(s)
	sk.BodyLine = bodyLine
	// The frontmatter's values reach the model as the skill's name and description, so
	// invisible characters there matter as much as in the body.
	sk.Hidden = append(scanInvisible(fm, newLineIndex(fm, 2)), p.scan(body, bodyLine)...)
	p.lineOff = 1

	if n := strings.Count(body, "\n") + 1; n > RecommendedBodyLines && strings.TrimSpace(body) != "" {
		p.add(model.SeverityInfo, "skill-body-long", "", bodyLine, "agent-skills progressive disclosure", "The SKILL.md body has %d lines; the specification recommends under %d and moving detail to referenced files", n, RecommendedBodyLines)
	}

	if len(fm) > MaxFrontmatter {
		p.errorf("skill-frontmatter-too-large", "", 2, specFM, "The frontmatter is %d bytes, over vouch's %d-byte limit; keep only the metadata fields in it", len(fm), MaxFrontmatter)
		return sk, p.diags
	}
	if i := strings.Index(fm, "---"); i >= 0 {
		p.warnf("skill-frontmatter-dashes", "", 1+lineOf([]byte(fm), i), "skills-ref", "The frontmatter contains '---' inside a value; skills-ref ends the frontmatter at the first '---' anywhere, so it reads this file differently: avoid '---' in values")
	}

	// Parse sanitized text: YAML rejects NUL and invalid UTF-8, which are reported above.
	// The common shape is built directly (plainFrontmatter returns yaml.v3's exact tree).
	doc, plain := plainFrontmatter(fm)
	if !plain {
		clean := strings.ToValidUTF8(strings.ReplaceAll(fm, "\x00", "\uFFFD"), "\uFFFD")
		doc = &yaml.Node{}
		if err := yaml.Unmarshal([]byte(clean), doc); err != nil {
			msg, line := yamlError(err)
			if line > 0 {
				line += p.lineOff
			}
			p.errorf("skill-frontmatter-invalid-yaml", "", line, specFM, "Invalid YAML in frontmatter: %s", msg)
			return sk, p.diags
		}
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		what := "empty"
		line := 2
		if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
			what = "a " + nodeKind(doc.Content[0])
			line = p.nodeLine(doc.Content[0])
		}
		p.errorf("skill-frontmatter-not-mapping", "", line, specFM, "The frontmatter must be a YAML mapping of fields, but it is %s", what)
		return sk, p.diags
	}
	// Anchors and aliases: skills-ref (strictyaml) rejects them, and refusing them here
	// means no alias is ever expanded, so a "billion laughs" document costs nothing.
	if n := findAlias(doc, 0); n != nil {
		p.errorf("skill-frontmatter-yaml-alias", "", p.nodeLine(n), specFM, "The frontmatter uses YAML anchors or aliases (&name / *name); write each value out in full")
		return sk, p.diags
	}
	if n := findStyle(doc, yaml.TaggedStyle, 0); n != nil {
		p.warnf("skill-frontmatter-yaml-tag", "", p.nodeLine(n), "skills-ref", "The frontmatter uses an explicit YAML tag (%s); skills-ref rejects tags, so remove it", n.Tag)
	}
	if n := findStyle(doc, yaml.FlowStyle, 0); n != nil {
		p.warnf("skill-frontmatter-flow-style", "", p.nodeLine(n), "skills-ref", "The frontmatter uses YAML flow style ({…} or […]); skills-ref rejects it, so use block style")
	}

	parseFields(p, doc.Content[0], &sk.Frontmatter, dirName)
	return sk, p.diags
}

// scan lists hidden content and warns when the markdown is shaped to make parsers slow.
func (p *parseState) scan(md string, first int) []model.HiddenContent {
	out, degraded := memoScan(md, first)
	if degraded {
		p.warnf("skill-markdown-pathological", "", first, "agent-skills body", "The markdown is nested more than %d levels deep, has more than %d link definitions, a table row with more than %d cells or more than %d HTML comments, which makes markdown renderers very slow; vouch listed everything that looks like hidden content, inside code or not, and the rendered view may be incomplete", maxNesting, maxLinkDefs, maxPipes, maxOpeners)
	}
	return out
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return len(b)
}

// splitFrontmatter finds the frontmatter between a first line "---" and the next line
// "---" (trailing spaces and CR allowed). It returns the YAML text, the body and the
// body's first line.
func splitFrontmatter(s string, p *parseState) (fm, body string, bodyLine int, ok bool) {
	first, rest, hasNL := strings.Cut(s, "\n")
	if !isDelim(first) {
		p.errorf("skill-frontmatter-missing", "", 1, specFM, "SKILL.md must start with YAML frontmatter: a first line '---', the fields name and description, then a closing '---' line")
		return "", "", 0, false
	}
	if !hasNL {
		p.errorf("skill-frontmatter-unterminated", "", 1, specFM, "The frontmatter is not closed: add a '---' line after the fields")
		return "", "", 0, false
	}
	off := 0
	line := 2
	for off <= len(rest) {
		end := strings.IndexByte(rest[off:], '\n')
		var l string
		next := len(rest) + 1
		if end < 0 {
			l = rest[off:]
		} else {
			l = rest[off : off+end]
			next = off + end + 1
		}
		if isDelim(l) {
			fm = rest[:off]
			if next <= len(rest) {
				body = rest[next:]
			}
			return fm, body, line + 1, true
		}
		off = next
		line++
	}
	p.errorf("skill-frontmatter-unterminated", "", 1, specFM, "The frontmatter is not closed: add a '---' line after the fields")
	return "", "", 0, false
}

func isDelim(l string) bool {
	return strings.TrimRight(l, " \t\r") == "---"
}

var yamlLineRE = lazyre.New(`^yaml: line (\d+): `)

// yamlError strips the library's prefix and extracts its (frontmatter-relative) line.
func yamlError(err error) (string, int) {
	msg := err.Error()
	line := 0
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = msg[len(m[0]):]
	} else {
		msg = strings.TrimPrefix(msg, "yaml: ")
	}
	msg = strings.ReplaceAll(msg, "\n", " ")
	msg = textclip.Clip(msg, 301, "…")
	return msg, line
}

func nodeKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "YAML list"
	case yaml.MappingNode:
		return "YAML mapping"
	case yaml.AliasNode:
		return "YAML alias"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return "null value"
		case "!!int", "!!float":
			return "number"
		case "!!bool":
			return "boolean"
		}
		return "string"
	}
	return "YAML document"
}

// maxWalkDepth bounds the recursive checks; the YAML parser itself stops at 10000.
const maxWalkDepth = 10001

func findAlias(n *yaml.Node, depth int) *yaml.Node {
	if n == nil || depth > maxWalkDepth {
		return nil
	}
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		return n
	}
	for _, c := range n.Content {
		if a := findAlias(c, depth+1); a != nil {
			return a
		}
	}
	return nil
}

func findStyle(n *yaml.Node, st yaml.Style, depth int) *yaml.Node {
	if n == nil || depth > maxWalkDepth {
		return nil
	}
	if n.Style&st != 0 {
		return n
	}
	for _, c := range n.Content {
		if a := findStyle(c, st, depth+1); a != nil {
			return a
		}
	}
	return nil
}

func isKnown(k string) bool {
	for _, f := range FieldNames {
		if f == k {
			return true
		}
	}
	return false
}

func parseFields(p *parseState, m *yaml.Node, fm *Frontmatter, dirName string) {
	values := map[string]*yaml.Node{}
	keys := map[string]*yaml.Node{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			p.errorf("skill-frontmatter-invalid-key", "", p.nodeLine(k), specFM, "A frontmatter key is a %s; keys must be plain field names", nodeKind(k))
			continue
		}
		key := k.Value
		if _, dup := values[key]; dup {
			p.errorf("skill-frontmatter-duplicate-key", "/"+pointerEscape(key), p.nodeLine(k), specFM, "The field '%s' appears twice (first on line %d); YAML parsers disagree on which value wins, so keep one", key, p.nodeLine(keys[key]))
			continue
		}
		values[key] = v
		keys[key] = k
		fm.Present = append(fm.Present, key)
		if !isKnown(key) {
			p.errorf("skill-unknown-field", "/"+pointerEscape(key), p.nodeLine(k), specFM, "Unexpected field '%s' in frontmatter; the specification defines only name, description, license, compatibility, metadata and allowed-tools. skills-ref and Pi reject the skill for it; "+model.ClientAt(model.ClientCodex, model.Codex169)+" and "+model.ClientAt(model.ClientClaudeCode, model.ClaudeCode328)+" load the skill and ignore the field", key)
		}
	}

	// name
	if v, ok := values["name"]; !ok {
		p.errorf("skill-name-missing", "/name", 2, "agent-skills name", "Missing required field 'name' in frontmatter; set it to the directory name")
	} else if s, ok := stringField(p, "name", v); ok {
		fm.Name = s
		checkName(p, s, dirName, p.nodeLine(v))
	}

	// description
	if v, ok := values["description"]; !ok {
		p.errorf("skill-description-missing", "/description", 2, "agent-skills description", "Missing required field 'description' in frontmatter; say what the skill does and when to use it")
	} else if s, ok := stringField(p, "description", v); ok {
		fm.Description = s
		line := p.nodeLine(v)
		if strings.TrimSpace(s) == "" {
			p.errorf("skill-description-empty", "/description", line, "agent-skills description", "Field 'description' must be a non-empty string")
		} else if n := utf8.RuneCountInString(s); n > MaxDescriptionChar {
			p.errorf("skill-description-too-long", "/description", line, "agent-skills description", "Description exceeds the %d-character limit (%d characters)", MaxDescriptionChar, n)
		} else if u := UTF16Len(s); u > MaxDescriptionChar {
			p.warnf("skill-description-utf16-long", "/description", line, "agent-skills description", "Description has %d characters but %d UTF-16 code units; clients written in JavaScript (Pi) count .length and skip a skill over %d, so shorten it", n, u, MaxDescriptionChar)
		}
	}

	if v, ok := values["license"]; ok {
		if s, ok := stringField(p, "license", v); ok {
			fm.License = s
		}
	}

	if v, ok := values["compatibility"]; ok {
		if s, ok := stringField(p, "compatibility", v); ok {
			fm.Compatibility = s
			line := p.nodeLine(v)
			if n := utf8.RuneCountInString(s); n > MaxCompatChars {
				p.errorf("skill-compatibility-too-long", "/compatibility", line, "agent-skills compatibility", "Compatibility exceeds the %d-character limit (%d characters)", MaxCompatChars, n)
			} else if n == 0 {
				p.warnf("skill-compatibility-empty", "/compatibility", line, "agent-skills compatibility", "Field 'compatibility' is empty; it is accepted by skills-ref but the specification requires 1-500 characters, so remove the field or fill it in")
			}
		}
	}

	if v, ok := values["allowed-tools"]; ok {
		if v.Kind == yaml.SequenceNode && allScalars(v) {
			var parts []string
			for _, c := range v.Content {
				parts = append(parts, c.Value)
			}
			fm.AllowedTools = strings.Join(parts, " ")
			p.warnf("skill-allowed-tools-list", "/allowed-tools", p.nodeLine(v), "agent-skills allowed-tools", "Field 'allowed-tools' is a YAML list; it is accepted by skills-ref but the specification requires one space-separated string, such as 'Bash(git:*) Read'")
		} else if s, ok := stringField(p, "allowed-tools", v); ok {
			fm.AllowedTools = s
		}
	}

	if v, ok := values["metadata"]; ok {
		parseMetadata(p, v, fm)
	}
}

func allScalars(n *yaml.Node) bool {
	for _, c := range n.Content {
		if c.Kind != yaml.ScalarNode {
			return false
		}
	}
	return true
}

// stringField returns the text of a scalar. A plain scalar YAML reads as a number,
// boolean or null is accepted by its literal text with a warning (skills-ref reads every
// scalar as a string; other YAML parsers do not). Lists and mappings are errors.
func stringField(p *parseState, key string, v *yaml.Node) (string, bool) {
	ptr := "/" + pointerEscape(key)
	spec := "agent-skills " + key
	if v.Kind != yaml.ScalarNode {
		p.errorf("skill-field-type", ptr, p.nodeLine(v), spec, "Field '%s' must be a string, not a %s", key, nodeKind(v))
		return "", false
	}
	if t := v.ShortTag(); t != "!!str" && v.Value != "" {
		p.warnf("skill-field-not-string", ptr, p.nodeLine(v), spec, "Field '%s' is written as a YAML %s (%s); skills-ref reads it as text but other YAML parsers do not, so quote it", key, nodeKind(v), v.Value)
	}
	return v.Value, true
}

func parseMetadata(p *parseState, v *yaml.Node, fm *Frontmatter) {
	const spec = "agent-skills metadata"
	if v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null" && v.Value == "" {
		p.warnf("skill-metadata-empty", "/metadata", p.nodeLine(v), spec, "Field 'metadata' has no value; remove it or give it key: value pairs")
		return
	}
	if v.Kind != yaml.MappingNode {
		p.errorf("skill-metadata-type", "/metadata", p.nodeLine(v), spec, "Field 'metadata' must be a mapping from string keys to string values, not a %s", nodeKind(v))
		return
	}
	fm.Metadata = map[string]string{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			p.errorf("skill-metadata-key-type", "/metadata", p.nodeLine(k), spec, "A metadata key is a %s; keys must be strings", nodeKind(k))
			continue
		}
		ptr := "/metadata/" + pointerEscape(k.Value)
		if _, dup := fm.Metadata[k.Value]; dup {
			p.errorf("skill-frontmatter-duplicate-key", ptr, p.nodeLine(k), spec, "The metadata key '%s' appears twice; keep one", k.Value)
			continue
		}
		if val.Kind != yaml.ScalarNode {
			p.errorf("skill-metadata-value-type", ptr, p.nodeLine(val), spec, "Metadata value '%s' must be a string, not a %s", k.Value, nodeKind(val))
			continue
		}
		if t := val.ShortTag(); t != "!!str" {
			p.warnf("skill-metadata-value-not-string", ptr, p.nodeLine(val), spec, "Metadata value '%s' is written as a YAML %s (%s); the specification requires string values and skills-ref reads it as text, so quote it", k.Value, nodeKind(val), val.Value)
		}
		fm.Metadata[k.Value] = val.Value
		fm.MetadataKeys = append(fm.MetadataKeys, k.Value)
	}
}

// UTF16Len is the length of s in UTF-16 code units, what JavaScript's .length counts: a
// character outside the Basic Multilingual Plane (an emoji) counts 2.
func UTF16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

func pointerEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// checkName applies the specification's name rules. A name that breaks them but that
// skills-ref accepts (after strip() and NFKC, any Unicode lowercase letters and digits)
// is accepted with a warning naming the difference.
func checkName(p *parseState, raw, dirName string, line int) {
	const spec = "agent-skills name"
	if ValidName(raw) {
		if dirName == "" || raw == dirName {
			return
		}
		if norm.NFKC.String(strings.TrimSpace(dirName)) == raw {
			p.warnf("skill-name-unicode", "/name", line, spec, "Skill name '%s' matches directory '%s' only after NFKC normalization; it is accepted by skills-ref but the specification requires the name to equal the directory name", raw, dirName)
			return
		}
		p.errorf("skill-name-mismatch", "/name", line, spec, "Skill name '%s' must match its directory name '%s'; rename one of them", raw, dirName)
		return
	}
	name := norm.NFKC.String(strings.TrimSpace(raw))
	if name == "" {
		p.errorf("skill-name-empty", "/name", line, spec, "Field 'name' must be a non-empty string")
		return
	}
	bad := false
	if n := utf8.RuneCountInString(name); n > MaxNameChars {
		p.errorf("skill-name-too-long", "/name", line, spec, "Skill name '%s' exceeds the %d-character limit (%d characters)", name, MaxNameChars, n)
		bad = true
	}
	if name != strings.ToLower(name) {
		p.errorf("skill-name-uppercase", "/name", line, spec, "Skill name '%s' must be lowercase", name)
		bad = true
	}
	if strings.HasPrefix(name, "-") || strings.HasSuffix(name, "-") {
		p.errorf("skill-name-hyphen", "/name", line, spec, "Skill name '%s' must not start or end with a hyphen", name)
		bad = true
	}
	if strings.Contains(name, "--") {
		p.errorf("skill-name-consecutive-hyphens", "/name", line, spec, "Skill name '%s' must not contain consecutive hyphens", name)
		bad = true
	}
	for _, r := range name {
		if r != '-' && !unicode.IsLetter(r) && !unicode.IsNumber(r) {
			p.errorf("skill-name-invalid-characters", "/name", line, spec, "Skill name '%s' contains %s; only lowercase letters a-z, digits 0-9 and hyphens are allowed", name, describeNameRune(r))
			bad = true
			break
		}
	}
	if dirName != "" && norm.NFKC.String(strings.TrimSpace(dirName)) != name {
		p.errorf("skill-name-mismatch", "/name", line, spec, "Skill name '%s' must match its directory name '%s'; rename one of them", name, dirName)
		bad = true
	}
	if bad {
		return
	}
	// Surrounding whitespace is its own finding: the characters are fine, the padding is not.
	trimmed := strings.TrimSpace(raw)
	if trimmed != raw {
		p.warnf("skill-name-whitespace", "/name", line, spec, "Skill name '%s' has leading or trailing whitespace; skills-ref strips it and accepts '%s', but the specification requires the name exactly, so remove the whitespace", raw, trimmed)
		if ValidName(trimmed) && (dirName == "" || dirName == trimmed) {
			return
		}
	}
	how := ""
	if name != trimmed {
		how = fmt.Sprintf(" (skills-ref compares it as '%s' after NFKC normalization)", name)
	}
	p.warnf("skill-name-unicode", "/name", line, spec, "Skill name '%s'%s is accepted by skills-ref but the specification allows only a-z, 0-9 and hyphens", raw, how)
}

func describeNameRune(r rune) string {
	if r > 0x20 && r < 0x7f {
		return fmt.Sprintf("'%c'", r)
	}
	return DescribeRune(r)
}
