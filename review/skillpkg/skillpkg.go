// Package skillpkg loads standalone Agent Skills: a folder with SKILL.md at its root, the
// thing people copy into ~/.claude/skills or ~/.codex/skills. Each skill is one package
// of format agent-skills holding one skill component, validated by review/skills (the
// Agent Skills rules, the hidden-content scan) with a contract over every file of the
// folder, its bundled scripts included, so a script edit needs a new approval.
//
// A collection (a skills/ directory, ~/.claude/skills) gives one package per skill, not
// one package with many skills: a skill's ref is then <skill>#skill:<skill> whether
// vouch is pointed at the skill or at any folder above it, and approvals survive moving
// a skill between collections. A collection-named package ("skills") would make the ref
// depend on which folder was reviewed and collide between ~/.claude/skills and
// ~/.codex/skills.
package skillpkg

import (
	"fmt"
	"path/filepath"
	"strings"

	"vouch/model"
	"vouch/review/closure"
	"vouch/review/fsguard"
	"vouch/review/probe"
	"vouch/review/skills"
)

// Options configure the loader.
type Options struct {
	Limits fsguard.Limits
	// Skills, when set, is shared with the other formats' loaders of the same folder (a
	// root SKILL.md that a Claude Code plugin there also loads), so the skill is read once.
	Skills *skills.Shared
	// Versions names, by client id, the release to answer for (the one the user has
	// installed, when known); a client not named is answered for the release its skills
	// folders were first observed on.
	Versions map[string]string
}

// IsRoot reports whether dir holds a SKILL.md (or the skill.md that skills-ref accepts as
// a fallback, so the strict loader can say why it is not a skill).
func IsRoot(dir string) bool { return IsRootIn(probe.New(dir)) }

// IsRootIn is IsRoot asked of a probe, which answers from one listing of the folder.
func IsRootIn(p *probe.Dir) bool { return p.Exists("SKILL.md") || p.Exists("skill.md") }

// claudeSeen names Claude Code with the releases its dynamic context injection was
// observed on: the first release the plugin rules were recorded with and every modelled
// release after it.
var claudeSeen = model.ClientAt(model.ClientClaudeCode, model.ClaudeCode328)

// Clients that read standalone skill folders, each with the version its paths were
// observed on.
var clients = []struct{ id, version, where string }{
	{model.ClientClaudeCode, model.ClaudeCode328, "~/.claude/skills/<name>/ and .claude/skills/<name>/"},
	{model.ClientCodex, model.Codex169, "~/.codex/skills/<name>/ and .agents/skills/<name>/"},
}

// release is the release of client id to answer for: the one the caller names, if vouch
// models it, else first.
func (o Options) release(id, first string) string {
	if c, ok := model.LookupClient(id); ok && o.Versions[id] != "" && c.Models(o.Versions[id]) {
		return o.Versions[id]
	}
	return first
}

// Load reviews the skill folder dir. It never fails: problems become diagnostics.
func Load(dir string, opts Options) *model.Package {
	if opts.Limits == (fsguard.Limits{}) {
		opts.Limits = fsguard.DefaultLimits()
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	// The name is the folder's as the user sees it: a linked skill (~/.claude/skills/x ->
	// ~/src/x) is called x, which is how clients list it.
	pkg := &model.Package{Format: model.FormatAgentSkills, Name: filepath.Base(abs), Root: abs}
	root, err := fsguard.Open(dir, opts.Limits)
	if err != nil {
		pkg.Rejected = true
		pkg.Diagnostics = append(pkg.Diagnostics, model.Diagnostic{Code: "package-unreadable", Severity: model.SeverityError, Boundary: model.BoundaryPackage,
			Message: fmt.Sprintf("The skill folder could not be opened (%v).", err), Spec: "agent-skills directory structure"})
		return pkg
	}
	defer root.Close()
	pkg.Root = root.Path()
	pkg.Reader = &fsguard.DirReader{Dir: root.Path(), Limits: opts.Limits}
	c := opts.Skills.Load(root, ".", clientTolerated, toleratedNote)
	c.Kind, c.ID = model.KindSkill, pkg.Name
	if d, ok := c.Details.Get("description"); ok {
		pkg.Description, _ = d.(string)
	}
	runs := claudeShell(c.Body)
	if len(runs) > 0 {
		c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapSubprocess, Scope: runs,
			Detail: claudeSeen + " runs these shell commands when the skill is invoked, before the model sees the text (dynamic context injection)."})
		c.Summary = append(c.Summary, fmt.Sprintf("Runs %d shell command(s) in %s when invoked, before the model reads the skill: %s.", len(runs), claudeSeen, listShort(runs, 4)))
		if nc := injectionsNotCovered(runs); len(nc) > 0 {
			c.NotCovered = append(c.NotCovered, nc...)
			c.Summary = append(c.Summary, closure.SummaryLine(len(c.NotCovered)))
		}
	}
	if n := len(c.Hidden); n > 0 {
		kinds := map[string]bool{}
		var ks []string
		for _, h := range c.Hidden {
			if !kinds[h.Kind] {
				kinds[h.Kind] = true
				ks = append(ks, h.Kind)
			}
		}
		c.Summary = append(c.Summary, fmt.Sprintf("SKILL.md holds %d piece(s) of text a rendered view hides (%s); the agent reads them: see the Content tab's hidden list.", n, strings.Join(ks, ", ")))
	}
	if c.Validity == model.Valid {
		for _, cl := range clients {
			v := opts.release(cl.id, cl.version)
			c.Support = append(c.Support, model.Support{Provider: cl.id, Version: v, Status: model.Supported,
				Detail: fmt.Sprintf("%s loads skill folders from %s.", model.ClientLabel(cl.id, v), cl.where)})
		}
	} else {
		// The package is its one skill: nothing of it is left to accept at a narrower
		// boundary, so an invalid skill rejects the package.
		pkg.Rejected = c.Validity == model.Invalid
		for _, cl := range clients {
			c.Support = append(c.Support, model.Support{Provider: cl.id, Version: opts.release(cl.id, cl.version), Status: model.NotSupported,
				Detail: "The skill does not conform to the Agent Skills specification (see its diagnostics); vouch cannot say what a lenient loader would make of it, so it cannot be approved."})
		}
	}
	pkg.Components = []*model.Component{c}
	pkg.Manifest = c.Details
	return pkg
}

// clientTolerated: Codex (every release vouch models) and Claude Code (every release vouch models) load a
// skill whose frontmatter has keys outside the Agent Skills spec and ignore those keys;
// support follows the clients, and the spec finding stays as a warning.
func clientTolerated(code string) bool { return code == "skill-unknown-field" }

const toleratedNote = "an Agent Skills rule the clients do not enforce: the skill is valid for them"

// claudeShell lists the commands a skill body makes Claude Code run (its dynamic context
// injection), every one of them.
func claudeShell(body string) []string { return skills.ShellInjections(body) }

// While classifying, the skill folder and the project stand as marker paths: Claude runs
// a skill's injections in the project, so a relative path names a project file.
const (
	skillMark   = "/__SKILL_DIR__"
	projectMark = "/__CLAUDE_PROJECT_DIR__"
)

var unmark = strings.NewReplacer(skillMark, "<skill folder>", projectMark, "${CLAUDE_PROJECT_DIR}")

// injectionsNotCovered classifies each injection with the rule hooks and plugin skills
// use: programs from PATH, fetches, paths outside the skill folder, words the shell
// decides at run time.
func injectionsNotCovered(runs []string) []model.NotCovered {
	p := closure.Process{Root: skillMark, Cwd: projectMark, Starts: "the skill is invoked",
		Vars: map[string]string{"CLAUDE_PROJECT_DIR": projectMark, "HOME": "~"}}
	var out []model.NotCovered
	seen := map[string]bool{}
	for _, cmd := range runs {
		for _, n := range closure.NotCoveredByShell(cmd, p, nil) {
			n.Subject, n.Detail = unmark.Replace(n.Subject), unmark.Replace(n.Detail)
			if k := n.Kind + "\x00" + n.Subject; !seen[k] {
				seen[k] = true
				out = append(out, n)
			}
		}
	}
	return out
}

func listShort(xs []string, n int) string {
	q := make([]string, 0, n)
	for i, x := range xs {
		if i == n {
			return strings.Join(q, ", ") + fmt.Sprintf(" and %d more", len(xs)-n)
		}
		q = append(q, "`"+x+"`")
	}
	return strings.Join(q, ", ")
}
