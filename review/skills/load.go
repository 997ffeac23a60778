package skills

import (
	"fmt"
	"path"
	"strings"
	"sync/atomic"

	"vouch/model"
	"vouch/review/closure"
	"vouch/review/fsguard"
)

const specDir = "agent-skills directory structure"

// Load reads dir/SKILL.md through root and returns the skill component: kind skill, id the
// directory's base name, validity, body, hidden content, diagnostics, and a contract over
// every file of the skill directory (bounded by the root's limits).
//
// The component is Invalid when SKILL.md is missing, not a regular file, outside the root,
// too large, or breaks the specification, and when the file list is incomplete (a limit
// was hit): a contract that does not cover every file must never be approvable. Loaders
// may turn Invalid into Skipped where their format says so (Agent Plugins §7.1).
func Load(root *fsguard.Root, dir string) *model.Component { return LoadTolerant(root, dir, nil, "") }

// LoadTolerant is Load for a reader whose clients load a skill despite some Agent Skills
// findings: each finding tolerated reports true for becomes a warning with note added,
// so the spec's word stays on record while validity follows what the clients do.
func LoadTolerant(root *fsguard.Root, dir string, tolerated func(code string) bool, note string) *model.Component {
	r := read(root, dir)
	r.finish(tolerated, note)
	return r.c
}

// readSkill is a skill as read and parsed, before a reader's tolerance decides its
// validity (finish): what the formats of one folder share (Shared).
type readSkill struct {
	c *model.Component
	// parsed: SKILL.md was read and parsed; otherwise c is final (Invalid, with the
	// reason) and finish leaves it as it is.
	parsed bool
	fm     Frontmatter
	// npd is how many of c.Diagnostics the parse gave; the closure's follow them.
	npd int
	// data is SKILL.md as read.
	data []byte
}

// reads counts the skills read (read calls); only tests look at it, to tell a skill read
// once for a folder from one read by every format.
var reads atomic.Int64

// read reads dir/SKILL.md and the skill's files through root (LoadTolerant before finish).
func read(root *fsguard.Root, dir string) *readSkill {
	reads.Add(1)
	dir = path.Clean(strings.TrimPrefix(dir, "./"))
	if dir == "" {
		dir = "."
	}
	base := path.Base(dir)
	if dir == "." {
		base = path.Base(strings.ReplaceAll(root.Path(), "\\", "/"))
	}
	file := path.Join(dir, "SKILL.md")
	c := &model.Component{Kind: model.KindSkill, ID: base, BodyFile: file, Validity: model.Invalid}
	diag := func(sev model.Severity, b model.Boundary, code, f, spec, format string, args ...any) {
		msg := fmt.Sprintf(format, args...)
		if !strings.HasSuffix(msg, ".") {
			msg += "."
		}
		c.Diagnostics = append(c.Diagnostics, model.Diagnostic{Code: code, Severity: sev, Boundary: b, File: f, Message: msg, Spec: spec})
	}
	fail := func(code, format string, args ...any) *readSkill {
		diag(model.SeverityError, model.BoundaryComponent, code, file, specDir, format, args...)
		return &readSkill{c: c}
	}

	// The path must be named exactly SKILL.md and must resolve, inside the root, to a
	// regular file. The name is checked against the directory listing, because on a
	// case-insensitive file system a lookup of SKILL.md also finds skill.md.
	entries, _, err := root.ReadDirTypes(dir)
	if err != nil {
		switch fsguard.CodeOf(err) {
		case fsguard.CodeNotFound, fsguard.CodeNotDir:
			return fail("skill-dir-missing", "The skill directory %s does not exist or is not a directory", dir)
		case fsguard.CodeEscape, fsguard.CodeDangling, fsguard.CodeLoop:
			return fail("skill-md-escape", "The directory %s does not resolve inside the package root (%v); the skill is not read", dir, err)
		case fsguard.CodeTooMany, fsguard.CodeTooDeep:
			return fail("skill-files-limit", "The skill directory %s cannot be listed within vouch's limits (%v)", dir, err)
		default:
			return fail("skill-md-unreadable", "The skill directory %s cannot be listed: %v", dir, err)
		}
	}
	exact, other := false, ""
	for _, e := range entries {
		if e.Name == "SKILL.md" {
			exact = true
		} else if strings.EqualFold(e.Name, "SKILL.md") {
			other = e.Name
		}
	}
	if !exact {
		if other != "" {
			return fail("skill-md-missing", "%s has no SKILL.md (it has %s; the specification and Agent Plugins require the exact name SKILL.md)", dir, other)
		}
		return fail("skill-md-missing", "%s has no SKILL.md; a skill directory must contain one", dir)
	}
	if _, err := root.Lstat(file); err != nil {
		switch fsguard.CodeOf(err) {
		case fsguard.CodeNotFound:
			return fail("skill-md-missing", "%s has no SKILL.md; a skill directory must contain one", dir)
		case fsguard.CodeEscape:
			return fail("skill-md-escape", "The directory %s resolves outside the package root; the skill is not read", dir)
		default:
			return fail("skill-md-unreadable", "SKILL.md cannot be read: %v", err)
		}
	}
	if e, err := root.Stat(file); err != nil {
		switch fsguard.CodeOf(err) {
		case fsguard.CodeEscape:
			return fail("skill-md-escape", "SKILL.md is a symlink that resolves outside the package root; the skill is not read")
		case fsguard.CodeDangling:
			return fail("skill-md-dangling", "SKILL.md is a symlink to a path that does not exist")
		case fsguard.CodeLoop:
			return fail("skill-md-loop", "SKILL.md is a symlink loop")
		default:
			return fail("skill-md-unreadable", "SKILL.md cannot be read: %v", err)
		}
	} else if e.Type != fsguard.TypeFile {
		return fail("skill-md-not-regular", "SKILL.md is a %s, not a regular file", e.Type)
	}
	data, err := root.ReadFile(file, MaxSkillFile)
	if err != nil {
		switch fsguard.CodeOf(err) {
		case fsguard.CodeTooLarge:
			return fail("skill-md-too-large", "SKILL.md is over vouch's %d-byte limit for SKILL.md", MaxSkillFile)
		case fsguard.CodeNotRegular:
			return fail("skill-md-not-regular", "SKILL.md is not a regular file")
		case fsguard.CodeTotalExceeded:
			return fail("skill-files-limit", "Reading SKILL.md would pass the package's total-bytes limit")
		default:
			return fail("skill-md-unreadable", "SKILL.md cannot be read: %v", err)
		}
	}

	sk, pd := Parse(data, base, file)
	c.Diagnostics = append(c.Diagnostics, pd...)
	c.Body, c.BodyStart, c.BodyEnd = sk.Body, sk.BodyStart, sk.BodyEnd
	c.Hidden = sk.Hidden
	fm := sk.Frontmatter
	c.Details = details(&fm)
	c.Summary = summary(&fm)

	files, fd := collectFiles(root, dir, file, data)
	c.Diagnostics = append(c.Diagnostics, fd...)
	c.Files = files
	c.Capabilities = capabilities(file, files)
	if exec := execFiles(files); len(exec) > 0 {
		c.Summary = append(c.Summary, fmt.Sprintf("Bundles %d executable file(s) the instructions may ask the agent to run: %s.", len(exec), listShort(exec, 8)))
	}

	return &readSkill{c: c, parsed: true, fm: fm, npd: len(pd), data: data}
}

// finish turns each parse finding tolerated reports true for into a warning with note
// added, then decides the skill's validity and, when valid, its contract.
func (r *readSkill) finish(tolerated func(code string) bool, note string) {
	if !r.parsed {
		return
	}
	c := r.c
	pd, fd := c.Diagnostics[:r.npd], c.Diagnostics[r.npd:]
	for i, d := range pd {
		if d.IsError() && tolerated != nil && tolerated(d.Code) {
			pd[i].Severity = model.SeverityWarning
			pd[i].Message = strings.TrimSuffix(d.Message, ".") + " (" + note + ")."
		}
	}
	for _, d := range c.Diagnostics {
		if d.IsError() {
			if !anyError(pd) && blocksOnly(fd) {
				// Valid, and a client loads it, but a link in it leads where no approval
				// reaches: no contract, so it is blocked rather than invalid.
				c.Validity = model.Valid
				c.Summary = append(c.Summary, "Blocked: a symlink or special file in the skill leads to bytes vouch cannot bind (see the diagnostics); it cannot be approved until that is removed.")
			}
			return
		}
	}
	c.Validity = model.Valid
	c.Contract = &model.Contract{
		Kind:   model.KindSkill,
		Fields: contractFields(&r.fm),
		Files:  c.Files, // one list, never changed (its capacity is its length)
	}
}

func anyError(ds []model.Diagnostic) bool {
	for _, d := range ds {
		if d.IsError() {
			return true
		}
	}
	return false
}

func details(fm *Frontmatter) model.Fields {
	d := make(model.Fields, 0, 6) // the most it holds: a console keeps one per skill
	d = append(d, model.Field{Key: "name", Value: fm.Name}, model.Field{Key: "description", Value: fm.Description})
	if fm.Has("license") {
		d = append(d, model.Field{Key: "license", Value: fm.License})
	}
	if fm.Has("compatibility") {
		d = append(d, model.Field{Key: "compatibility", Value: fm.Compatibility})
	}
	if fm.Has("allowed-tools") {
		d = append(d, model.Field{Key: "allowed-tools", Value: fm.AllowedTools})
	}
	if len(fm.MetadataKeys) > 0 {
		md := make(model.Fields, 0, len(fm.MetadataKeys))
		for _, k := range fm.MetadataKeys {
			md = append(md, model.Field{Key: k, Value: fm.Metadata[k]})
		}
		d = append(d, model.Field{Key: "metadata", Value: md})
	}
	return d
}

// contractFields are what an approval binds besides the bytes: the text that enters the
// model's context at startup (name, description), what the skill asks to pre-approve
// (allowed-tools), and the declared environment and metadata. license is not
// security-relevant and stays out. Every key is always present so that adding a field
// changes the digest the same way as changing it.
func contractFields(fm *Frontmatter) model.Fields {
	// The metadata as fields rather than a map (model.FieldsOf): the same canonical JSON,
	// at a fraction of a small map's size.
	md := model.FieldsOf(fm.Metadata)
	return model.Fields{
		{Key: "name", Value: fm.Name},
		{Key: "description", Value: fm.Description},
		{Key: "allowed-tools", Value: SplitAllowedTools(fm.AllowedTools)},
		{Key: "compatibility", Value: fm.Compatibility},
		{Key: "metadata", Value: md},
	}
}

// SplitAllowedTools splits the space-separated allowed-tools string into tool patterns,
// keeping spaces inside parentheses ("Bash(git status:*)" is one pattern).
func SplitAllowedTools(s string) []string {
	out := []string{}
	var cur strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0 && (r == ' ' || r == '\t' || r == '\n' || r == '\r'):
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
			continue
		}
		cur.WriteRune(r)
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

func summary(fm *Frontmatter) []string {
	desc := strings.Join(strings.Fields(fm.Description), " ")
	var s []string
	if desc != "" {
		s = append(s, "Adds instructions the agent loads when a task matches: "+strings.TrimSuffix(desc, ".")+".")
	} else {
		s = append(s, "Adds instructions the agent loads when a task matches (the skill has no usable description).")
	}
	if tools := SplitAllowedTools(fm.AllowedTools); len(tools) > 0 {
		s = append(s, "Asks the client to pre-approve these tools: "+strings.Join(tools, ", ")+".")
	}
	return s
}

func capabilities(skillFile string, files []model.File) []model.Capability {
	caps := []model.Capability{{
		Kind:   model.CapModelContext,
		Scope:  []string{skillFile},
		Detail: "Its name and description enter the model's context at startup, and the SKILL.md body when a task activates the skill.",
	}}
	var other []string
	for _, f := range files {
		if f.Path != skillFile {
			other = append(other, f.Path)
		}
	}
	if len(other) > 0 {
		caps = append(caps, model.Capability{
			Kind:   model.CapModelContext,
			Scope:  other,
			Detail: fmt.Sprintf("The agent may read or run the %d bundled file(s) on demand when the instructions point to them.", len(other)),
		})
	}
	return caps
}

func execFiles(files []model.File) []string {
	var out []string
	for _, f := range files {
		if f.Exec {
			out = append(out, f.Path)
		}
	}
	return out
}

func listShort(xs []string, n int) string {
	if len(xs) <= n {
		return strings.Join(xs, ", ")
	}
	return strings.Join(xs[:n], ", ") + fmt.Sprintf(" and %d more", len(xs)-n)
}

// collectFiles hashes every regular file of a skill directory (see CollectFiles). known
// (the path skillFile) was already read by the caller and is hashed from those bytes.
func collectFiles(root *fsguard.Root, dir, skillFile string, known []byte) ([]model.File, []model.Diagnostic) {
	return CollectFiles(root, dir, CollectOptions{
		Code: "skill", Owner: "the skill", Spec: specDir,
		LimitMsg: "The skill's files could not all be read (%v), so its contract would not cover every file",
		Known:    map[string][]byte{skillFile: known},
	})
}

// CollectOptions adapt CollectFiles to its caller's component (see closure.Options).
type CollectOptions struct {
	// Code is the stem of the diagnostic codes: "skill" gives skill-file-escape,
	// skill-file-dangling, skill-file-loop, skill-file-absolute-link, skill-file-special,
	// skill-file-unreadable and skill-files-limit.
	Code string
	// Owner names what the files belong to in messages ("the skill").
	Owner string
	// Spec is the Spec of every diagnostic.
	Spec string
	// LimitMsg is the message (one %v: the refusal) of the error reported once when a
	// limit leaves the list incomplete.
	LimitMsg string
	// Known holds bytes the caller already read, by slash path.
	Known map[string][]byte
	// LinksBlock makes special files errors too, for owners that run code. Links that
	// leave the package or dangle always block (closure.Collect).
	LinksBlock bool
	// Skip leaves paths out (see closure.Options.Skip).
	Skip func(rel string) bool
}

// CollectFiles is closure.Collect with the skill loader's options: every regular file
// below dir, hashed, and every symlink bound as a link with the contained files it leads
// to. A link that leaves the root, dangles or loops, a limit or an unreadable file is an
// error, so a caller knows the list is complete exactly when no diagnostic is an error.
func CollectFiles(root *fsguard.Root, dir string, o CollectOptions) ([]model.File, []model.Diagnostic) {
	r := closure.Collect(root, dir, closure.Options{Code: o.Code, Owner: o.Owner, Spec: o.Spec, LimitMsg: o.LimitMsg,
		Known: o.Known, Skip: o.Skip, Runnable: o.LinksBlock})
	return r.Files, r.Diagnostics
}

// blocksOnly reports whether every error among diags is a link the closure refused: the
// skill follows its specification, but no approval can bind what the link leads to.
func blocksOnly(diags []model.Diagnostic) bool {
	found := false
	for _, d := range diags {
		if !d.IsError() {
			continue
		}
		switch strings.TrimPrefix(d.Code, "skill") {
		case "-file-escape", "-file-dangling", "-file-loop", "-file-absolute-link", "-file-special":
			found = true
		default:
			return false
		}
	}
	return found
}
