package agentplugins

import (
	"fmt"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"vouch/model"
	"vouch/review/fsguard"
	"vouch/review/skills"
)

const skillsDir = "skills"

// skills discovers skills at the fixed location: each immediate child directory of skills/
// holding a path named exactly SKILL.md that resolves to a regular file (agent-plugins
// §7.1). Nothing deeper is searched. An invalid skill is skipped alone.
func (l *loader) skills() {
	e, err := l.root.Stat(skillsDir)
	if err != nil {
		if fsguard.IsNotFound(err) {
			return // §6.2: a missing location is not an error
		}
		sec, msg := "6.2", fmt.Sprintf("skills %s, so no skill of this plugin is loaded.", fsguard.Reason(err))
		if fsguard.CodeOf(err) == fsguard.CodeEscape {
			sec, msg = "4.1", "skills resolves outside the plugin root, so no skill of this plugin is loaded."
		}
		l.pkgDiag(model.Place{File: skillsDir}.ComponentType("skills-location-"+fsguard.CodeSuffix(err), model.SeverityError, msg, specRef(sec)))
		return
	}
	if e.Type != fsguard.TypeDir {
		l.pkgDiag(model.Place{File: skillsDir}.ComponentType("skills-not-directory", model.SeverityError,
			fmt.Sprintf("skills is a %s, not a directory, so no skill of this plugin is loaded.", e.Type), specRef("6.2")))
		return
	}
	entries, errs, err := l.root.ReadDirTypes(skillsDir)
	if err != nil {
		l.pkgDiag(model.Place{File: skillsDir}.ComponentType("skills-location-"+fsguard.CodeSuffix(err), model.SeverityError,
			fmt.Sprintf("skills/ could not be listed (%s), so no skill of this plugin is loaded.", fsguard.Reason(err)), specRef("6.2")))
		return
	}
	for _, ent := range entries {
		rel := skillsDir + "/" + ent.Name
		if err := errs[ent.Name]; err != nil {
			if fsguard.CodeOf(err) == fsguard.CodeEscape {
				l.skippedSkill(ent.Name, rel, "skill-escape", fmt.Sprintf("%s resolves outside the plugin root, so this skill is skipped.", rel), "4.1")
				continue
			}
			l.pkgDiag(model.Place{File: rel}.Component("skills-entry-unresolvable", model.SeverityWarning,
				fmt.Sprintf("%s %s; it is not a skill.", rel, fsguard.Reason(err)), specRef("7.1")))
			continue
		}
		if ent.Type != fsguard.TypeDir {
			if ent.Name == "SKILL.md" {
				l.pkgDiag(model.Place{File: rel}.Component("skill-md-not-in-directory", model.SeverityWarning,
					"skills/SKILL.md is ignored: a skill is a subdirectory of skills/ holding its own SKILL.md.", specRef("7.1")))
			}
			continue
		}
		md := rel + "/SKILL.md"
		se, err := l.root.Stat(md)
		if err != nil {
			switch fsguard.CodeOf(err) {
			case fsguard.CodeNotFound:
				l.pkgDiag(model.Place{File: rel}.Component("skill-md-missing", model.SeverityInfo,
					fmt.Sprintf("%s has no SKILL.md, so it is not a skill (skills are discovered one level deep only).", rel), specRef("7.1")))
			case fsguard.CodeEscape:
				l.skippedSkill(ent.Name, md, "skill-escape", fmt.Sprintf("%s resolves outside the plugin root, so this skill is skipped.", md), "4.1")
			default:
				l.pkgDiag(model.Place{File: md}.Component("skill-md-unresolvable", model.SeverityWarning,
					fmt.Sprintf("%s %s, so %s is not a skill.", md, fsguard.Reason(err), rel), specRef("7.1")))
			}
			continue
		}
		if se.Type != fsguard.TypeFile {
			l.pkgDiag(model.Place{File: md}.Component("skill-md-not-regular-file", model.SeverityWarning,
				fmt.Sprintf("%s is a %s, not a regular file, so %s is not a skill.", md, se.Type, rel), specRef("7.1")))
			continue
		}
		c := skills.Load(l.root, rel)
		if c == nil {
			c = &model.Component{}
		}
		c.Kind, c.ID = model.KindSkill, ent.Name
		if c.Validity == "" {
			c.Validity = model.Valid
		}
		link := l.skillLink(rel, ent.Symlink, c.Files)
		if c.Validity == model.Invalid || c.Validity == model.Skipped {
			c.Validity = model.Skipped
			c.Contract = nil
			c.Support = skippedSkillSupport(c.Diagnostics, link)
			c.Summary = append([]string{"Skipped: this skill does not conform to the Agent Skills specification (see its diagnostics); " + whoLoads(c.Support) + "."}, c.Summary...)
		} else {
			c.Support = skillSupport(c, ent.Name, link)
		}
		l.pkg.Components = append(l.pkg.Components, c)
	}
}

// skippedSkill lists a skill that cannot be loaded, with the reason, so a reviewer sees it.
func (l *loader) skippedSkill(id, file, code, msg, section string) {
	l.pkg.Components = append(l.pkg.Components, &model.Component{
		Kind: model.KindSkill, ID: id, Validity: model.Skipped,
		Summary:     []string{"Skipped: " + strings.TrimSuffix(msg, ".") + "; " + whoLoads(unsupportedEverywhere("")) + "."},
		Support:     unsupportedEverywhere("skipped: " + msg),
		Diagnostics: []model.Diagnostic{model.Place{File: file}.Component(code, model.SeverityError, msg, specRef(section))},
	})
}

// skillLink returns the first path of a skill that goes through a symlink (the skill
// directory itself, SKILL.md or a bundled file), "" when none. Codex drops symlinks when
// it caches a plugin, so such a skill is not what Codex loads. Resolve answers from the
// lstat cache the file walk filled, so this reads nothing new.
func (l *loader) skillLink(dir string, dirIsLink bool, files []model.File) string {
	if dirIsLink {
		return dir
	}
	for _, f := range files {
		if l.viaSymlink(f.Path) {
			return f.Path
		}
	}
	return ""
}

// viaSymlink reports whether a package path that resolves inside the root goes through a
// symlink on the way (its resolved path differs from the path itself).
func (l *loader) viaSymlink(rel string) bool {
	c := path.Clean(rel)
	real, err := l.root.Resolve(c)
	return err == nil && real != c
}

// skippedSkillSupport: a skill that breaks the Agent Skills rules is skipped by DSH, Lola
// and Pi, which validate against the specification (seeds 001, 003, 004). Codex
// was observed to load a skill whose only fault is unknown frontmatter keys; for any other
// fault vouch has no observation and predicts a skip.
func skippedSkillSupport(ds []model.Diagnostic, link string) []model.Support {
	onlyUnknown, seen := true, false
	var first string
	for _, d := range ds {
		if !d.IsError() {
			continue
		}
		if !seen {
			first = strings.TrimSuffix(d.Message, ".")
		}
		seen = true
		if d.Code != "skill-unknown-field" {
			onlyUnknown = false
		}
	}
	why := "the skill does not conform to the Agent Skills specification"
	if first != "" {
		why += " (" + first + ")"
	}
	out := []model.Support{
		support(clientDSH, model.NotSupported, "DSH reports and skips a skill that "+strings.TrimPrefix(why, "the skill ")+"."),
		support(clientLola, model.NotSupported, "Lola skips an invalid skill on its own: "+why+"."),
		support(clientPi, model.NotSupported, "Pi validates the frontmatter against Agent Skills and skips this skill: "+why+"."),
	}
	switch {
	case seen && onlyUnknown && link == "":
		out = append(out, support(clientCodex, model.Supported, "Codex "+codexVersion+" loads skills whose frontmatter has unknown keys and ignores those keys."))
	case seen && onlyUnknown:
		out = append(out, support(clientCodex, model.NotSupported, codexCache(link)))
	default:
		out = append(out, support(clientCodex, model.NotSupported, "vouch predicts Codex "+codexVersion+" skips it: "+why+", and Codex was observed to tolerate only unknown frontmatter keys."))
	}
	return out
}

// skillSupport: every client loads a valid skill, with these exceptions.
//   - Pi follows the published name text (a-z, 0-9, hyphen, equal to the directory name)
//     and reports as unsupported the skills that skills-ref accepts only leniently (seed
//     004, limitation 6): a frontmatter name with non-ASCII characters, with surrounding
//     whitespace, or equal to the directory name only after NFKC normalization. It is the
//     frontmatter name that is judged: the directory name alone says nothing about what
//     Pi reads. Pi's loader also skips a skill whose name is not a YAML string
//     (`name: 123`), whose compatibility is present but empty, whose metadata has a value
//     that is not a string (`version: 1.0`), or whose description is over 1024 UTF-16
//     code units (JavaScript's .length: an emoji counts 2).
//   - Codex drops symlinks when it caches a plugin: a skill that goes through one
//     is not what Codex loads.
func skillSupport(c *model.Component, dir, link string) []model.Support {
	nameV, _ := c.Details.Get("name")
	name, _ := nameV.(string)
	descV, _ := c.Details.Get("description")
	desc, _ := descV.(string)
	var pi []string
	const rule = "Pi follows the published name rule (a-z, 0-9 and hyphens, equal to the directory name) and reports this skill as unsupported: "
	switch {
	case strings.TrimSpace(name) != name:
		pi = append(pi, rule+"its name has leading or trailing whitespace")
	case strings.IndexFunc(name, func(r rune) bool { return r > unicode.MaxASCII }) >= 0:
		pi = append(pi, rule+"its name has non-ASCII characters")
	case !skills.ValidName(name) || name != dir:
		pi = append(pi, rule+"its name matches the directory name only after NFKC normalization")
	}
	for _, d := range c.Diagnostics {
		switch {
		case d.Code == "skill-field-not-string" && d.Pointer == "/name":
			pi = append(pi, fmt.Sprintf("Pi skips this skill: its name %q is not a YAML string (quote it)", name))
		case d.Code == "skill-compatibility-empty":
			pi = append(pi, "Pi skips this skill: its compatibility field is present but empty")
		case d.Code == "skill-metadata-value-not-string":
			key := strings.NewReplacer("~1", "/", "~0", "~").Replace(strings.TrimPrefix(d.Pointer, "/metadata/"))
			pi = append(pi, fmt.Sprintf("Pi skips this skill: the metadata value of %q is not a YAML string (quote it)", key))
		}
	}
	if n := skills.UTF16Len(desc); n > skills.MaxDescriptionChar {
		pi = append(pi, fmt.Sprintf("Pi skips this skill: its description is %d UTF-16 code units (JavaScript .length), over the limit of %d, although it has only %d characters", n, skills.MaxDescriptionChar, utf8.RuneCountInString(desc)))
	}
	if len(pi) == 0 && link == "" {
		return supportedSkill
	}
	piS := support(clientPi, model.Supported, "")
	if len(pi) > 0 {
		piS = support(clientPi, model.NotSupported, strings.Join(pi, "; ")+".")
	}
	codex := support(clientCodex, model.Supported, "")
	if link != "" {
		codex = support(clientCodex, model.NotSupported, codexCache(link))
	}
	return []model.Support{
		support(clientDSH, model.Supported, ""),
		support(clientLola, model.Supported, ""),
		piS,
		codex,
	}
}

// supportedSkill is the support list of a skill every client loads as it is, shared by
// all of them (a source of 10,000 plugins holds tens of thousands of skills): nothing
// changes an entry of it, and its capacity is its length, so an append copies.
var supportedSkill = func() []model.Support {
	s := []model.Support{
		support(clientDSH, model.Supported, ""),
		support(clientLola, model.Supported, ""),
		support(clientPi, model.Supported, ""),
		support(clientCodex, model.Supported, ""),
	}
	return s[:len(s):len(s)]
}()
