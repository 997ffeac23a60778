package agentplugins

import (
	"fmt"
	"strings"
	"unicode"

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
		sec, msg := "6.2", fmt.Sprintf("skills %s, so no skill of this plugin is loaded.", fsReason(err))
		if fsguard.CodeOf(err) == fsguard.CodeEscape {
			sec, msg = "4.1", "skills resolves outside the plugin root, so no skill of this plugin is loaded."
		}
		l.pkgDiag(l.diag("skills-location-"+fsSuffix(err), model.SeverityError, model.BoundaryComponentType, skillsDir, "", 0, msg, sec))
		return
	}
	if e.Type != fsguard.TypeDir {
		l.pkgDiag(l.diag("skills-not-directory", model.SeverityError, model.BoundaryComponentType, skillsDir, "", 0,
			fmt.Sprintf("skills is a %s, not a directory, so no skill of this plugin is loaded.", e.Type), "6.2"))
		return
	}
	entries, errs, err := l.root.ReadDir(skillsDir)
	if err != nil {
		l.pkgDiag(l.diag("skills-location-"+fsSuffix(err), model.SeverityError, model.BoundaryComponentType, skillsDir, "", 0,
			fmt.Sprintf("skills/ could not be listed (%s), so no skill of this plugin is loaded.", fsReason(err)), "6.2"))
		return
	}
	for _, ent := range entries {
		rel := skillsDir + "/" + ent.Name
		if err := errs[ent.Name]; err != nil {
			if fsguard.CodeOf(err) == fsguard.CodeEscape {
				l.skippedSkill(ent.Name, rel, "skill-escape", fmt.Sprintf("%s resolves outside the plugin root, so this skill is skipped.", rel), "4.1")
				continue
			}
			l.pkgDiag(l.diag("skills-entry-unresolvable", model.SeverityWarning, model.BoundaryComponent, rel, "", 0,
				fmt.Sprintf("%s %s; it is not a skill.", rel, fsReason(err)), "7.1"))
			continue
		}
		if ent.Type != fsguard.TypeDir {
			if ent.Name == "SKILL.md" {
				l.pkgDiag(l.diag("skill-md-not-in-directory", model.SeverityWarning, model.BoundaryComponent, rel, "", 0,
					"skills/SKILL.md is ignored: a skill is a subdirectory of skills/ holding its own SKILL.md.", "7.1"))
			}
			continue
		}
		md := rel + "/SKILL.md"
		se, err := l.root.Stat(md)
		if err != nil {
			switch fsguard.CodeOf(err) {
			case fsguard.CodeNotFound:
				l.pkgDiag(l.diag("skill-md-missing", model.SeverityInfo, model.BoundaryComponent, rel, "", 0,
					fmt.Sprintf("%s has no SKILL.md, so it is not a skill (skills are discovered one level deep only).", rel), "7.1"))
			case fsguard.CodeEscape:
				l.skippedSkill(ent.Name, md, "skill-escape", fmt.Sprintf("%s resolves outside the plugin root, so this skill is skipped.", md), "4.1")
			default:
				l.pkgDiag(l.diag("skill-md-unresolvable", model.SeverityWarning, model.BoundaryComponent, md, "", 0,
					fmt.Sprintf("%s %s, so %s is not a skill.", md, fsReason(err), rel), "7.1"))
			}
			continue
		}
		if se.Type != fsguard.TypeFile {
			l.pkgDiag(l.diag("skill-md-not-regular-file", model.SeverityWarning, model.BoundaryComponent, md, "", 0,
				fmt.Sprintf("%s is a %s, not a regular file, so %s is not a skill.", md, se.Type, rel), "7.1"))
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
		if c.Validity == model.Invalid || c.Validity == model.Skipped {
			c.Validity = model.Skipped
			c.Contract = nil
			c.Summary = append([]string{"Skipped: this skill does not conform to the Agent Skills specification, so clients do not load it (see its diagnostics)."}, c.Summary...)
			c.Support = unsupportedEverywhere("skipped: the skill is invalid")
		} else {
			name, _ := c.Details.Get("name")
			fm, _ := name.(string)
			c.Support = skillSupport(fm, ent.Name)
		}
		l.pkg.Components = append(l.pkg.Components, c)
	}
}

// skippedSkill lists a skill that cannot be loaded, with the reason, so a reviewer sees it.
func (l *loader) skippedSkill(id, file, code, msg, section string) {
	l.pkg.Components = append(l.pkg.Components, &model.Component{
		Kind: model.KindSkill, ID: id, Validity: model.Skipped,
		Summary:     []string{"Skipped: " + msg},
		Support:     unsupportedEverywhere("skipped: " + msg),
		Diagnostics: []model.Diagnostic{l.diag(code, model.SeverityError, model.BoundaryComponent, file, "", 0, msg, section)},
	})
}

// skillSupport: all three clients load valid skills. Pi follows the published name text
// (a-z, 0-9, hyphen, equal to the directory name) and reports as unsupported the skills
// that skills-ref accepts only leniently (seed 004, limitation 6): a frontmatter name with
// non-ASCII characters, with surrounding whitespace, or equal to the directory name only
// after NFKC normalization. It is the frontmatter name that is judged: the directory name
// alone says nothing about what Pi reads.
func skillSupport(name, dir string) []model.Support {
	pi := model.Support{Provider: clientPi, Status: model.Supported}
	const rule = "Pi follows the published name rule (a-z, 0-9 and hyphens, equal to the directory name) and reports this skill as unsupported: "
	switch {
	case strings.TrimSpace(name) != name:
		pi = model.Support{Provider: clientPi, Status: model.NotSupported, Detail: rule + "its name has leading or trailing whitespace."}
	case strings.IndexFunc(name, func(r rune) bool { return r > unicode.MaxASCII }) >= 0:
		pi = model.Support{Provider: clientPi, Status: model.NotSupported, Detail: rule + "its name has non-ASCII characters."}
	case !skills.ValidName(name) || name != dir:
		pi = model.Support{Provider: clientPi, Status: model.NotSupported, Detail: rule + "its name matches the directory name only after NFKC normalization."}
	}
	return []model.Support{
		{Provider: clientDSH, Status: model.Supported},
		{Provider: clientLola, Status: model.Supported},
		pi,
	}
}
