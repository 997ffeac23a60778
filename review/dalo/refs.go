package dalo

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"vouch/model"
	"vouch/review/fsguard"
	"vouch/review/skills"
)

// parsedRef is <kind>:<selector> or <kind>:<source>:<selector>.
type parsedRef struct {
	raw, kind, source, selector string
}

// local reports whether the reference names the source being validated.
func (r parsedRef) local(sourceID string) bool { return r.source == "" || r.source == sourceID }

// canonical is the form duplicates are compared in: an explicit same-source reference is
// the same reference as the implicit one.
func (r parsedRef) canonical(sourceID string) string {
	if r.local(sourceID) {
		return r.kind + ":" + r.selector
	}
	return r.kind + ":" + r.source + ":" + r.selector
}

// parseRef applies the reference grammar: two or three atoms, each 1 byte to 16 KiB,
// none containing : # / or \.
func parseRef(s string) (parsedRef, string) {
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return parsedRef{}, "must have the form <kind>:<selector> or <kind>:<source>:<selector>"
	}
	for _, a := range parts {
		if a == "" {
			return parsedRef{}, "has an empty atom"
		}
		if len(a) > maxStringBytes {
			return parsedRef{}, "has an atom longer than 16 KiB"
		}
		if strings.ContainsAny(a, "#/\\") {
			return parsedRef{}, "has an atom containing #, / or \\"
		}
	}
	r := parsedRef{raw: s, kind: parts[0], selector: parts[len(parts)-1]}
	if len(parts) == 3 {
		r.source = parts[1]
	}
	return r, ""
}

// checkReferences applies the manifest rules on members and requires that the schema
// cannot express: grammar, duplicates, recommended, inline fallbacks.
func (s *source) checkReferences(p *loaded, manifestFile string) {
	sid := s.opts.SourceID
	bad := func(code, ptr, format string, args ...any) {
		d := manifestDiag(manifestFile, code, ptr, 0, format, args...)
		d.Spec = "dalo §references"
		p.pkg.Diagnostics = append(p.pkg.Diagnostics, d)
	}
	// validRef parses raw, the reference at ptr in the list named, and reports it when it
	// is malformed or names a kind the list does not take (must says which it takes).
	validRef := func(raw, ptr, list, must string, kinds ...string) (parsedRef, bool) {
		r, why := parseRef(raw)
		if why == "" && !slices.Contains(kinds, r.kind) {
			why = must
		}
		if why != "" {
			bad("reference-invalid", ptr, "%s reference %q %s", list, raw, why)
			return r, false
		}
		return r, true
	}
	required := map[string]bool{}
	seen := map[string]bool{}
	for i, m := range p.man.Plugin.Members {
		r, ok := validRef(m.Ref, fmt.Sprintf("/plugin/members/%d/ref", i), "member", "must be a skill, agent or instruction reference", "skill", "agent", "instruction")
		if !ok {
			continue
		}
		c := r.canonical(sid)
		if seen[c] {
			bad("reference-duplicate", fmt.Sprintf("/plugin/members/%d/ref", i), "member reference %q is listed twice", m.Ref)
		}
		seen[c] = true
		if m.Requirement == "required" {
			required[c] = true
		}
		if m.Requirement == "recommended" && r.kind != "instruction" {
			bad("member-recommended-not-instruction", fmt.Sprintf("/plugin/members/%d/requirement", i),
				"member %q is recommended, but only instruction members may be recommended", m.Ref)
		}
	}
	for i, m := range p.man.Plugin.Members {
		if m.Fallback == nil {
			continue
		}
		r, _ := parseRef(m.Ref)
		if r.kind != "agent" {
			bad("member-fallback-not-agent", fmt.Sprintf("/plugin/members/%d/fallback", i),
				"member %q has an inline fallback, which only agent members may have", m.Ref)
			continue
		}
		fr, why := parseRef(m.Fallback.Skill)
		if why != "" || fr.kind != "skill" {
			bad("reference-invalid", fmt.Sprintf("/plugin/members/%d/fallback/skill", i), "fallback skill %q is not a valid skill reference", m.Fallback.Skill)
			continue
		}
		if !required[fr.canonical(sid)] {
			bad("member-fallback-skill-not-required", fmt.Sprintf("/plugin/members/%d/fallback/skill", i),
				"the inline fallback of %q names %q, which must also be a required member", m.Ref, m.Fallback.Skill)
		}
	}
	seenDep := map[string]bool{}
	for i, d := range p.man.Plugin.Requires {
		r, ok := validRef(d.Ref, fmt.Sprintf("/plugin/requires/%d/ref", i), "requires", "must be a plugin reference", "plugin")
		if !ok {
			continue
		}
		c := r.canonical(sid)
		if seenDep[c] {
			bad("reference-duplicate", fmt.Sprintf("/plugin/requires/%d/ref", i), "requires reference %q is listed twice", d.Ref)
			continue
		}
		seenDep[c] = true
		p.deps = append(p.deps, depState{ref: r, req: d.Requirement, index: len(p.pkg.Dependencies)})
		p.pkg.Dependencies = append(p.pkg.Dependencies, model.Reference{Ref: d.Ref, Requirement: d.Requirement})
	}
}

// unresolved records a member or dependency that did not resolve, as an error when it is
// required (it blocks the package) and a warning otherwise (the omission stays visible).
func unresolvedDiag(code, phase, req, file, format string, args ...any) model.Diagnostic {
	sev := model.SeverityWarning
	if req == "required" {
		sev = model.SeverityError
	}
	return model.Diagnostic{Code: code, Severity: sev, Boundary: model.BoundaryPackage, File: file,
		Phase: phase, Spec: "dalo §references", Message: sentence(fmt.Sprintf(format, args...))}
}

// resolveMembers looks every member up in the source and loads the skills and
// instructions it finds as components of the package.
func (s *source) resolveMembers(p *loaded, manifestFile string) {
	sid := s.opts.SourceID
	seen := map[string]bool{}
	for i, m := range p.man.Plugin.Members {
		r, why := parseRef(m.Ref)
		if why != "" || seen[r.canonical(sid)] {
			continue
		}
		seen[r.canonical(sid)] = true
		ref := model.Reference{Ref: m.Ref, Requirement: m.Requirement}
		ptr := fmt.Sprintf("/plugin/members/%d", i)
		switch {
		case !r.local(sid):
			ref.Status = "unavailable_external"
			ref.Detail = fmt.Sprintf("names the source %q; validation never consults a source registry", r.source)
		case r.kind == "skill":
			s.resolveSkill(p, r, m, &ref)
		case r.kind == "instruction":
			s.resolveInstruction(p, r, m, &ref)
		case r.kind == "agent":
			s.resolveAgent(r, m, &ref)
		}
		p.pkg.Members = append(p.pkg.Members, ref)
		if ref.Status != "resolved" {
			d := unresolvedDiag("unresolved_member", phaseMembers, m.Requirement, manifestFile,
				"%s member %s is %s: %s", m.Requirement, m.Ref, ref.Status, ref.Detail)
			d.Pointer = ptr
			if m.Requirement != "required" {
				d.Message = sentence(fmt.Sprintf("%s member %s is %s and will be omitted: %s", m.Requirement, m.Ref, ref.Status, ref.Detail))
			}
			p.pkg.Diagnostics = append(p.pkg.Diagnostics, d)
		}
	}
}

func (s *source) resolveSkill(p *loaded, r parsedRef, m memberDesc, ref *model.Reference) {
	dir := "skills/" + r.selector
	e, err := s.root.Lstat(dir)
	switch {
	case err != nil:
		ref.Status, ref.Detail = "missing", fmt.Sprintf("%s/SKILL.md does not exist in the source", dir)
		return
	case e.Symlink:
		ref.Status, ref.Detail = "missing", fmt.Sprintf("%s is a symlink; skill directories must be real directories", dir)
		return
	case e.Type != fsguard.TypeDir:
		ref.Status, ref.Detail = "missing", fmt.Sprintf("%s is not a directory", dir)
		return
	}
	f, err := s.root.Lstat(dir + "/SKILL.md")
	if err != nil || f.Symlink || f.Type != fsguard.TypeFile {
		ref.Status, ref.Detail = "missing", fmt.Sprintf("%s/SKILL.md is not a regular file", dir)
		return
	}
	c := skills.Load(s.root, dir)
	if c == nil {
		ref.Status, ref.Detail = "missing", fmt.Sprintf("%s could not be loaded", dir)
		return
	}
	if c.ID == "" {
		c.ID = r.selector
	}
	noLinks(c, dir)
	c.Requirement = m.Requirement
	p.pkg.Components = append(p.pkg.Components, c)
	p.reader.allowDir(dir, true)
	ref.Status, ref.Detail = "resolved", dir+"/SKILL.md"
	if c.Validity == model.Invalid {
		ref.Detail += " (the skill is invalid)"
		if m.Requirement == "required" {
			p.pkg.Diagnostics = append(p.pkg.Diagnostics, model.Diagnostic{
				Code: "required_member_blocked", Severity: model.SeverityError, Boundary: model.BoundaryPackage,
				File: dir + "/SKILL.md", Phase: phaseDependency, Spec: "dalo §references",
				Message: fmt.Sprintf("The required member %s is invalid, which blocks the package; fix the skill's diagnostics.", m.Ref),
			})
		}
	}
}

// readMemberFile reads an instruction or agent file: a real, regular, UTF-8 file of at
// most 1 MiB at a fixed location. Anything else leaves the member missing.
func (s *source) readMemberFile(rel string) (string, string) {
	e, err := s.root.Lstat(rel)
	switch {
	case err != nil:
		return "", rel + " does not exist in the source"
	case e.Symlink:
		return "", rel + " is a symlink"
	case e.Type != fsguard.TypeFile:
		return "", rel + " is not a regular file"
	case e.Size > maxManifestBytes:
		return "", fmt.Sprintf("%s is %d bytes, over the 1 MiB limit", rel, e.Size)
	}
	if err := noSymlinkPrefix(s.root, rel); err != nil {
		return "", rel + " lies under a symlinked directory"
	}
	data, err := s.root.ReadFileNoFollow(rel, maxManifestBytes)
	if err != nil {
		return "", fmt.Sprintf("%s cannot be read: %v", rel, err)
	}
	if !utf8.Valid(data) {
		return "", rel + " is not valid UTF-8"
	}
	return string(data), ""
}

func (s *source) resolveInstruction(p *loaded, r parsedRef, m memberDesc, ref *model.Reference) {
	rel := "instructions/" + r.selector + ".md"
	body, why := s.readMemberFile(rel)
	if why != "" {
		ref.Status, ref.Detail = "missing", why
		return
	}
	ref.Status, ref.Detail = "resolved", rel
	p.reader.allowFile(rel)
	file := model.File{Path: rel, Size: int64(len(body)), SHA256: sha256Hex([]byte(body))}
	c := &model.Component{
		Kind: model.KindInstruction, ID: r.selector, Validity: model.Valid,
		Body: body, BodyFile: rel, BodyEnd: len(body), Requirement: m.Requirement, Inactive: m.Requirement == "recommended",
		Files:  []model.File{file},
		Hidden: skills.ScanHidden(body, 1),
		Contract: &model.Contract{
			Kind:   model.KindInstruction,
			Fields: model.Fields{{Key: "selector", Value: r.selector}, {Key: "requirement", Value: m.Requirement}},
			Files:  []model.File{file},
		},
		Capabilities: []model.Capability{
			{Kind: model.CapInstructionWrite, Scope: []string{"AGENTS.md", "CLAUDE.md"},
				Detail: "Once you enable it, vouch writes this text as a managed block into the instruction file you choose (AGENTS.md or CLAUDE.md); it never overwrites your own text."},
			{Kind: model.CapModelContext, Detail: "The agent reads this text as standing guidance in every session that loads the target file."},
		},
		Details: model.Fields{{Key: "file", Value: rel}, {Key: "requirement", Value: m.Requirement}, {Key: "size", Value: int64(len(body))}},
	}
	switch m.Requirement {
	case "recommended":
		c.Summary = []string{
			fmt.Sprintf("Standing instruction %q, recommended: it stays inactive until you enable it and choose the file it goes into.", r.selector),
		}
	case "optional":
		c.Summary = []string{fmt.Sprintf("Standing instruction %q, optional: written into the instruction file you choose only when you activate it.", r.selector)}
	default:
		c.Summary = []string{fmt.Sprintf("Standing instruction %q, required by the package: written into the instruction file you choose when you activate it.", r.selector)}
	}
	if len(c.Hidden) > 0 {
		c.Summary = append(c.Summary, fmt.Sprintf("It contains %d piece(s) of content a markdown view hides but the agent reads.", len(c.Hidden)))
	}
	p.pkg.Components = append(p.pkg.Components, c)
}

// resolveAgent checks agents/<selector>.md. The draft names agent members but defines no
// source location for them; vouch assumes the convention of instructions/ and reports the
// path it looked at, so an author sees what was expected.
func (s *source) resolveAgent(r parsedRef, m memberDesc, ref *model.Reference) {
	rel := "agents/" + r.selector + ".md"
	if _, why := s.readMemberFile(rel); why != "" {
		ref.Status, ref.Detail = "missing", why
		if m.Fallback != nil {
			ref.Detail += fmt.Sprintf("; its inline fallback %s keeps the authored guidance but not the agent's isolation or permissions", m.Fallback.Skill)
		}
		return
	}
	ref.Status, ref.Detail = "resolved", rel
}

// resolveSource does what needs every package of the source: duplicate stable ids,
// requires, cycles, and blocking by an invalid required dependency.
func (s *source) resolveSource() {
	for _, p := range s.pkgs {
		if p.man == nil {
			continue
		}
		s.bySlot[p.slot] = p
		if p.man.Plugin.ID != "" {
			s.byID[p.man.Plugin.ID] = append(s.byID[p.man.Plugin.ID], p)
		}
	}
	for id, ps := range s.byID {
		if len(ps) < 2 {
			continue
		}
		for _, p := range ps {
			p.pkg.Diagnostics = append(p.pkg.Diagnostics, manifestDiag("plugins/"+p.slot+"/PLUGIN.toml", "duplicate_plugin_stable_id", "/plugin/id", 0,
				"the stable id %q is used by %d packages of this source; ids must be unique, so every one of them is rejected", id, len(ps)))
		}
	}
	sid := s.opts.SourceID
	for _, p := range s.pkgs {
		file := "plugins/" + p.slot + "/PLUGIN.toml"
		for i := range p.deps {
			d := &p.deps[i]
			ref := &p.pkg.Dependencies[d.index]
			if !d.ref.local(sid) {
				ref.Status = "unavailable_external"
				ref.Detail = fmt.Sprintf("names the source %q; validation never consults a source registry", d.ref.source)
				p.pkg.Diagnostics = append(p.pkg.Diagnostics, unresolvedDiag("unresolved_dependency", phaseDependency, d.req, file,
					"%s dependency %s is unavailable: %s", d.req, d.ref.raw, ref.Detail))
				continue
			}
			bySlot := s.bySlot[d.ref.selector]
			byID := s.byID[d.ref.selector]
			switch {
			case bySlot != nil && len(byID) > 0 && (len(byID) > 1 || byID[0] != bySlot):
				ref.Status = "ambiguous"
				ref.Detail = fmt.Sprintf("%q is the directory of one package and the stable id of another", d.ref.selector)
				p.pkg.Diagnostics = append(p.pkg.Diagnostics, unresolvedDiag("ambiguous_plugin_reference", phaseDependency, "required", file,
					"dependency %s is ambiguous: %s", d.ref.raw, ref.Detail))
			case len(byID) > 1:
				ref.Status = "ambiguous"
				ref.Detail = fmt.Sprintf("%d packages use the stable id %q", len(byID), d.ref.selector)
				p.pkg.Diagnostics = append(p.pkg.Diagnostics, unresolvedDiag("ambiguous_plugin_reference", phaseDependency, "required", file,
					"dependency %s is ambiguous: %s", d.ref.raw, ref.Detail))
			case bySlot != nil:
				d.target = bySlot
			case len(byID) == 1:
				d.target = byID[0]
			default:
				ref.Status = "missing"
				ref.Detail = fmt.Sprintf("no package of this source has the directory or stable id %q", d.ref.selector)
				p.pkg.Diagnostics = append(p.pkg.Diagnostics, unresolvedDiag("missing_plugin", phaseDependency, d.req, file,
					"%s dependency %s is missing: %s", d.req, d.ref.raw, ref.Detail))
			}
			if d.target != nil {
				ref.Status = "resolved"
				ref.Detail = "plugins/" + d.target.slot
			}
		}
	}
	s.markCycles()
	// An invalid package blocks every package that requires it, transitively.
	blocked := map[*loaded]bool{}
	for changed, rounds := true, 0; changed && rounds <= len(s.pkgs); rounds++ {
		changed = false
		for _, p := range s.pkgs {
			for i := range p.deps {
				d := &p.deps[i]
				if d.target == nil || d.req != "required" || blocked[p] {
					continue
				}
				ref := &p.pkg.Dependencies[d.index]
				if ref.Status != "resolved" || d.target.pkg.Valid() {
					continue
				}
				blocked[p] = true
				changed = true
				ref.Detail += " (invalid: it blocks this package)"
				p.pkg.Diagnostics = append(p.pkg.Diagnostics, model.Diagnostic{
					Code: "required_member_blocked", Severity: model.SeverityError, Boundary: model.BoundaryPackage,
					File: "plugins/" + p.slot + "/PLUGIN.toml", Phase: phaseDependency, Spec: "dalo §references",
					Message: fmt.Sprintf("The required dependency %s is invalid, which blocks this package; fix that package first.", d.ref.raw),
				})
			}
		}
	}
}

// markCycles finds cycles among required dependencies (Tarjan's algorithm, iterative
// enough for 4096 packages) and marks every reference on one.
func (s *source) markCycles() {
	index := map[*loaded]int{}
	low := map[*loaded]int{}
	on := map[*loaded]bool{}
	var stack []*loaded
	next := 0
	comp := map[*loaded]int{}
	nComp := 0
	var strong func(v *loaded)
	strong = func(v *loaded) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		on[v] = true
		for _, d := range v.deps {
			w := d.target
			if w == nil || d.req != "required" {
				continue
			}
			if _, seen := index[w]; !seen {
				strong(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				comp[w] = nComp
				if w == v {
					break
				}
			}
			nComp++
		}
	}
	for _, p := range s.pkgs {
		if _, seen := index[p]; !seen {
			strong(p)
		}
	}
	for _, p := range s.pkgs {
		for i := range p.deps {
			d := &p.deps[i]
			if d.target == nil || d.req != "required" || comp[d.target] != comp[p] {
				continue
			}
			ref := &p.pkg.Dependencies[d.index]
			ref.Status = "required_dependency_cycle"
			ref.Detail = fmt.Sprintf("plugins/%s requires this package back through required dependencies", d.target.slot)
			d.target = nil
			p.pkg.Diagnostics = append(p.pkg.Diagnostics, model.Diagnostic{
				Code: "required_dependency_cycle", Severity: model.SeverityError, Boundary: model.BoundaryPackage,
				File: "plugins/" + p.slot + "/PLUGIN.toml", Phase: phaseDependency, Spec: "dalo §references",
				Message: fmt.Sprintf("The required dependency %s forms a cycle; break it by making one edge optional or removing it.", d.ref.raw),
			})
		}
	}
}

// noLinks applies the draft's "no symlinks or special files" to a skill directory: the
// skill loader binds a contained link as a link, but in a Dalo source any link or special
// file makes the skill invalid, with a diagnostic naming it (and its target).
func noLinks(c *model.Component, dir string) {
	var bad []model.Diagnostic
	for _, f := range c.Files {
		if f.IsLink() {
			bad = append(bad, model.Diagnostic{Code: "unsafe_skill_entry", Severity: model.SeverityError, Boundary: model.BoundaryComponent,
				File: f.Path, Phase: phaseContract, Spec: "dalo §package",
				Message: fmt.Sprintf("%s is a symlink to %s; Dalo sources may not contain symlinks or special files, so the skill %s is invalid until it is replaced with the file.", f.Path, f.Link, dir)})
		}
	}
	for _, d := range c.Diagnostics {
		switch strings.TrimPrefix(d.Code, "skill") {
		case "-file-special", "-file-escape", "-file-dangling", "-file-loop", "-file-absolute-link":
			if d.Code == "skill-file-special" || !linked(c.Files, d.File) {
				bad = append(bad, model.Diagnostic{Code: "unsafe_skill_entry", Severity: model.SeverityError, Boundary: model.BoundaryComponent,
					File: d.File, Phase: phaseContract, Spec: "dalo §package",
					Message: fmt.Sprintf("%s is a symlink or special file; Dalo sources may not contain either, so the skill %s is invalid.", d.File, dir)})
			}
		}
	}
	if len(bad) > 0 {
		c.Diagnostics = append(c.Diagnostics, bad...)
		c.Validity = model.Invalid
		c.Contract = nil
	}
}

func linked(files []model.File, p string) bool {
	for _, f := range files {
		if f.Path == p && f.IsLink() {
			return true
		}
	}
	return false
}
