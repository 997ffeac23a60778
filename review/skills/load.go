package skills

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"strings"

	"vouch/model"
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
func Load(root *fsguard.Root, dir string) *model.Component {
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
	fail := func(code, format string, args ...any) *model.Component {
		diag(model.SeverityError, model.BoundaryComponent, code, file, specDir, format, args...)
		return c
	}

	// The path must be named exactly SKILL.md and must resolve, inside the root, to a
	// regular file. The name is checked against the directory listing, because on a
	// case-insensitive file system a lookup of SKILL.md also finds skill.md.
	entries, _, err := root.ReadDir(dir)
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
	c.Body = sk.Body
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

	for _, d := range c.Diagnostics {
		if d.IsError() {
			return c
		}
	}
	c.Validity = model.Valid
	c.Contract = &model.Contract{
		Kind:   model.KindSkill,
		Fields: contractFields(&fm),
		Files:  append([]model.File(nil), files...),
	}
	return c
}

func details(fm *Frontmatter) model.Fields {
	d := model.Fields{{Key: "name", Value: fm.Name}, {Key: "description", Value: fm.Description}}
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
	md := map[string]string{}
	for k, v := range fm.Metadata {
		md[k] = v
	}
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

// CollectOptions adapt CollectFiles to its caller's component.
type CollectOptions struct {
	// Code is the stem of the diagnostic codes: "skill" gives skill-file-escape,
	// skill-file-dangling, skill-file-loop, skill-file-special, skill-file-unreadable
	// and skill-files-limit.
	Code string
	// Owner names what the files belong to in messages ("the skill").
	Owner string
	// Spec is the Spec of every diagnostic.
	Spec string
	// LimitMsg is the message (one %v: the refusal) of the error reported once when a
	// limit leaves the list incomplete.
	LimitMsg string
	// Known holds bytes the caller already read, by slash path: they are hashed from
	// there, never read again. A nil value means "not read".
	Known map[string][]byte
	// LinksBlock makes a symlink that escapes the root, dangles or loops an error that
	// leaves the list incomplete, for owners that run code: a process follows links that
	// a client's containment check would refuse, into bytes no approval covers.
	LinksBlock bool
	// Skip leaves paths out. It is asked about root-relative paths: each entry directly
	// below dir (a skipped directory is not listed at all) and the target of each
	// symlinked directory (a skipped target is not walked), so it must answer for a
	// whole subtree ("skills" and "skills/x"). Nil skips nothing.
	Skip func(rel string) bool
}

// CollectFiles hashes every regular file below dir. Symlinked files that resolve inside
// the root are hashed by their target's bytes under the link's path (what a reader sees
// there); symlinked directories inside the root are walked once, unless their target is
// already included or skipped. Links that escape, dangle or loop are reported and left
// out: they must be denied (Agent Plugins §4.1). A limit, or a file that cannot be read,
// makes the list incomplete: that is reported as an error (severity error), so a caller
// knows the list is complete exactly when no diagnostic returned is an error.
func CollectFiles(root *fsguard.Root, dir string, o CollectOptions) ([]model.File, []model.Diagnostic) {
	var files []model.File
	var diags []model.Diagnostic
	add := func(sev model.Severity, b model.Boundary, code, file, format string, args ...any) {
		msg := fmt.Sprintf(format, args...)
		if !strings.HasSuffix(msg, ".") {
			msg += "."
		}
		diags = append(diags, model.Diagnostic{Code: o.Code + code, Severity: sev, Boundary: b, File: file, Message: msg, Spec: o.Spec})
	}
	limited := false
	limit := func(rel string, err error) {
		if limited {
			return
		}
		limited = true
		add(model.SeverityError, model.BoundaryComponent, "-files-limit", rel, o.LimitMsg, err)
	}
	skip := func(rel string) bool { return o.Skip != nil && o.Skip(rel) }
	skillReal, err := root.Resolve(dir)
	if err != nil {
		limit(dir, err)
		return nil, diags
	}
	visited := map[string]bool{skillReal: true}
	var visit fsguard.WalkFunc
	var walk func(rel string) error
	visit = func(e fsguard.Entry, err error) error {
		if err != nil {
			switch fsguard.CodeOf(err) {
			case fsguard.CodeEscape, fsguard.CodeDangling, fsguard.CodeLoop:
				what := map[fsguard.Code]string{
					fsguard.CodeEscape:   "a symlink that leads outside the package root",
					fsguard.CodeDangling: "a symlink to a path that does not exist",
					fsguard.CodeLoop:     "a symlink loop",
				}[fsguard.CodeOf(err)]
				code := map[fsguard.Code]string{fsguard.CodeEscape: "-file-escape", fsguard.CodeDangling: "-file-dangling", fsguard.CodeLoop: "-file-loop"}[fsguard.CodeOf(err)]
				if o.LinksBlock {
					add(model.SeverityError, model.BoundaryComponent, code, e.Rel, "%s is %s; a process would follow it to bytes %s cannot bind, so no approval can be given until it is removed", e.Rel, what, o.Owner)
				} else {
					add(model.SeverityWarning, model.BoundaryEntry, code, e.Rel, "%s is %s; it is left out of %s and must not be read", e.Rel, what, o.Owner)
				}
			case fsguard.CodeTooDeep, fsguard.CodeTooMany, fsguard.CodeTotalExceeded:
				limit(e.Rel, err)
			default:
				add(model.SeverityError, model.BoundaryComponent, "-file-unreadable", e.Rel, "%s cannot be read (%v), so %s cannot cover it", e.Rel, err, o.Owner)
			}
			return nil
		}
		switch e.Type {
		case fsguard.TypeFile:
			data, known := o.Known[e.Rel]
			var err error
			if !known || data == nil {
				data, err = root.ReadFile(e.Rel, 0)
			}
			if err != nil {
				switch fsguard.CodeOf(err) {
				case fsguard.CodeTooLarge, fsguard.CodeTotalExceeded:
					limit(e.Rel, err)
					if fsguard.CodeOf(err) == fsguard.CodeTotalExceeded {
						return err
					}
				case fsguard.CodeNotRegular:
					add(model.SeverityWarning, model.BoundaryEntry, "-file-special", e.Rel, "%s is not a regular file; it is left out of %s", e.Rel, o.Owner)
				default:
					add(model.SeverityError, model.BoundaryComponent, "-file-unreadable", e.Rel, "%s cannot be read (%v), so %s cannot cover it", e.Rel, err, o.Owner)
				}
				return nil
			}
			sum := sha256.Sum256(data)
			files = append(files, model.File{Path: e.Rel, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:]), Exec: e.Exec})
		case fsguard.TypeOther:
			add(model.SeverityWarning, model.BoundaryEntry, "-file-special", e.Rel, "%s is a special file (FIFO, socket or device); it is left out of %s", e.Rel, o.Owner)
		case fsguard.TypeDir:
			if !e.Symlink {
				return nil // the walk descends into it
			}
			real, err := root.Resolve(e.Rel)
			if err != nil {
				add(model.SeverityWarning, model.BoundaryEntry, "-file-escape", e.Rel, "%s cannot be followed (%v); it is left out of %s", e.Rel, err, o.Owner)
				return nil
			}
			if skip(real) {
				add(model.SeverityInfo, model.BoundaryEntry, "-file-link-skipped", e.Rel, "%s is a symlink to %s, which %s covers by other means or leaves out; it is not walked again", e.Rel, real, o.Owner)
				return nil
			}
			inside := skillReal == "." || strings.HasPrefix(real, skillReal+"/")
			if visited[real] || inside || real == "." || strings.HasPrefix(skillReal+"/", real+"/") {
				add(model.SeverityInfo, model.BoundaryEntry, "-file-loop", e.Rel, "%s is a symlink to a directory whose files are already included (%s); it is not walked again", e.Rel, real)
				return nil
			}
			visited[real] = true
			if err := walk(e.Rel); err != nil {
				code := fsguard.CodeOf(err)
				if code == fsguard.CodeTooMany || code == fsguard.CodeTooDeep || code == fsguard.CodeTotalExceeded {
					limit(e.Rel, err)
					return err
				}
				add(model.SeverityWarning, model.BoundaryEntry, "-file-escape", e.Rel, "%s cannot be walked (%v); it is left out of %s", e.Rel, err, o.Owner)
			}
		}
		return nil
	}
	walk = func(rel string) error { return root.Walk(rel, visit) }
	top := walk
	if o.Skip != nil {
		// fsguard.Walk has no way to prune a subtree, so with Skip every level is listed
		// here and each kept directory walked the same way: a skipped one is never listed.
		var pruned func(rel string) error
		top = func(rel string) error { return pruned(rel) }
		pruned = func(rel string) error {
			entries, errs, err := root.ReadDir(rel)
			if err != nil {
				return err
			}
			maxDepth := root.Limits().MaxDepth
			for _, e := range entries {
				if skip(e.Rel) {
					continue
				}
				if err := visit(e, errs[e.Name]); err != nil {
					return err
				}
				if e.Type != fsguard.TypeDir || e.Symlink || errs[e.Name] != nil {
					continue
				}
				if strings.Count(e.Rel, "/")+1 >= maxDepth {
					if err := visit(e, &fsguard.Error{Code: fsguard.CodeTooDeep, Path: e.Rel, Msg: fmt.Sprintf("more than %d directory levels", maxDepth)}); err != nil {
						return err
					}
					continue
				}
				if err := pruned(e.Rel); err != nil {
					return err
				}
			}
			return nil
		}
	}
	if err := top(dir); err != nil {
		limit(dir, err)
	}
	return files, diags
}
