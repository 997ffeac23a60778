package codex

import (
	"path"

	"vouch/model"
	"vouch/review/fsguard"
	"vouch/review/jsontext"
)

// skills loads the skills Codex reads. A manifest skills path (a string or an array)
// replaces skills/: the Codex releases vouch models, run on a folder with both, list only the
// named folder's skills. Without a usable path skills/ is scanned. A skill is a directory
// holding SKILL.md, directly in the scanned directory or the directory itself. Codex names
// it <plugin>:<skill>.
func (l *loader) skills() {
	var dirs []string
	if v := l.field("skills"); v != nil {
		vals := []*jsontext.Value{v}
		if v.Kind == jsontext.Array {
			vals = v.Arr
		}
		for i, e := range vals {
			ptr := jsontext.Pointer("skills")
			if v.Kind == jsontext.Array {
				ptr = jsontext.Pointer("skills", itoa(i))
			}
			if e.Kind != jsontext.String {
				l.pkgDiag(model.Place{File: l.mf, Pointer: ptr, Line: jsontext.Line(l.data, e.Off)}.ComponentType("manifest-path-ignored", model.SeverityWarning,
					errorf(codexSeen+" ignores a skills entry that is a %s, not a path.", e.Kind), specManifest))
				continue
			}
			if rel, ok := l.manifestPath("skills", ptr, e); ok {
				dirs = append(dirs, rel)
			}
		}
	}
	if len(dirs) == 0 {
		dirs = []string{defaultSkillsDir}
	}
	seen := map[string]bool{}
	var all []string
	for _, d := range dirs {
		for _, sd := range l.skillDirs(d) {
			if !seen[sd] {
				seen[sd] = true
				all = append(all, sd)
			}
		}
	}
	l.opts.Skills.Prepare(l.root, all)
	for _, sd := range all {
		l.skill(sd)
	}
}

// skillDirs lists the skill directories in dir: dir itself when it holds SKILL.md, else
// each immediate subdirectory that does. A missing directory is no error.
func (l *loader) skillDirs(dir string) []string {
	if st, err := l.root.Stat(path.Join(dir, "SKILL.md")); err == nil && st.Type == fsguard.TypeFile {
		return []string{dir}
	}
	entries, _, err := l.root.ReadDir(dir)
	if err != nil {
		if !fsguard.IsNotFound(err) && fsguard.CodeOf(err) != fsguard.CodeNotDir {
			l.pkgDiag(model.Place{File: dir}.ComponentType("skills-unreadable", model.SeverityWarning,
				errorf("%s cannot be listed (%s), so its skills are not reviewed.", dir, fsguard.Reason(err)), specManifest))
		}
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.Type != fsguard.TypeDir {
			continue
		}
		sd := path.Join(dir, e.Name)
		if st, err := l.root.Stat(path.Join(sd, "SKILL.md")); err == nil && st.Type == fsguard.TypeFile {
			out = append(out, sd)
		}
	}
	return out
}

// codexTolerated: the Codex releases vouch models load a skill whose frontmatter has keys
// outside the Agent Skills spec and ignore them (observed offline); the spec finding stays
// as a warning.
func codexTolerated(code string) bool { return code == "skill-unknown-field" }

func (l *loader) skill(dir string) {
	c := l.opts.Skills.Load(l.root, dir, codexTolerated, "an Agent Skills rule Codex does not enforce: "+model.Releases(model.ClientCodex, model.Codex169)+" load the skill")
	if c == nil {
		return
	}
	c.Kind = model.KindSkill
	c.ID = path.Base(dir)
	if dir != path.Join(defaultSkillsDir, c.ID) {
		c.ID = dir
	}
	if l.pkg.Component(model.KindSkill, c.ID) != nil {
		c.ID = dir
	}
	name := c.ID
	if v, ok := c.Details.Get("name"); ok {
		if s, ok := v.(string); ok && s != "" {
			name = s
		}
	}
	if name != c.ID {
		// Codex lists a skill by its frontmatter name, not its folder.
		c.DisplayNames = map[string]string{ClientCodex: name}
	}
	if c.Validity == "" {
		c.Validity = model.Valid
	}
	if c.Validity == model.Invalid {
		c.Support = codexSupport(model.NotSupported, "The skill does not follow the Agent Skills format (see its diagnostics); Codex may skip it.")
	} else {
		c.Support = codexSupport(model.Supported, "Codex lists it as "+l.pkg.Name+":"+name+".")
	}
	l.pkg.Components = append(l.pkg.Components, c)
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}
