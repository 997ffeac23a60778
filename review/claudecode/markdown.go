package claudecode

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"vouch/model"
	"vouch/review/fsguard"
	"vouch/review/skills"
)

// maxMarkdown bounds a command, agent or output-style file.
const maxMarkdown = 1 << 20

// frontmatter is the YAML header of a command, skill, agent or output style, read the way
// Claude reads it: keys in order, values kept as YAML nodes.
type frontmatter struct {
	keys []string
	vals map[string]*yaml.Node
	ok   bool // a (terminated) frontmatter block was found and parsed
	err  string
	// lenient holds the YAML error of a header read line by line instead: Claude Code
	// (every release vouch models) loads such a command or agent with every field.
	lenient string
	body    string
	bline   int
}

// splitFrontmatter separates the YAML header. A YAML error leaves ok false with err set:
// Claude Code's validator reports it, and at runtime every field is dropped.
func splitFrontmatter(text string) (fm frontmatter) {
	fm.body, fm.bline = text, 1
	t := strings.TrimPrefix(text, "\uFEFF")
	if !strings.HasPrefix(t, "---\n") && !strings.HasPrefix(t, "---\r\n") {
		return fm
	}
	rest := t[strings.IndexByte(t, '\n')+1:]
	end := -1
	for off := 0; off <= len(rest); {
		nl := strings.IndexByte(rest[off:], '\n')
		line := rest[off:]
		if nl >= 0 {
			line = rest[off : off+nl]
		}
		if strings.TrimRight(line, "\r") == "---" {
			end = off
			break
		}
		if nl < 0 {
			break
		}
		off += nl + 1
	}
	if end < 0 {
		fm.err = "the frontmatter has no closing --- line"
		return fm
	}
	head := rest[:end]
	after := rest[end:]
	if nl := strings.IndexByte(after, '\n'); nl >= 0 {
		after = after[nl+1:]
	} else {
		after = ""
	}
	fm.body = after
	fm.bline = strings.Count(text[:len(text)-len(after)], "\n") + 1
	if len(head) > skills.MaxFrontmatter {
		fm.err = "the frontmatter is too large"
		return fm
	}
	defer func() {
		if r := recover(); r != nil {
			fm.ok, fm.err = false, fmt.Sprintf("the YAML parser failed (%v)", r)
		}
	}()
	var doc yaml.Node
	if err := skills.DecodeFrontmatter(head, &doc); err != nil {
		fm.err = strings.TrimPrefix(err.Error(), "yaml: ")
		if lenientFields(head, &fm) {
			fm.lenient, fm.err, fm.ok = fm.err, "", true
		}
		return fm
	}
	fm.vals = map[string]*yaml.Node{}
	if len(doc.Content) == 0 {
		fm.ok = true
		return fm
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		fm.err = "the frontmatter is not a mapping"
		return fm
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k := root.Content[i].Value
		if _, dup := fm.vals[k]; !dup {
			fm.keys = append(fm.keys, k)
		}
		fm.vals[k] = root.Content[i+1]
	}
	fm.ok = true
	return fm
}

// lenientFields reads a header that is not YAML the way Claude Code does for command and
// agent files: each unindented "key: value" line is a field whose value is the rest of
// the line as written (`argument-hint: [issue-id] [reason]` keeps its brackets). It
// reports false when no line has that shape, so the YAML error stands.
func lenientFields(head string, fm *frontmatter) bool {
	fm.vals, fm.keys = map[string]*yaml.Node{}, nil
	for _, line := range strings.Split(head, "\n") {
		line = strings.TrimRight(line, "\r")
		if line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == '#' {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok || k == "" || strings.ContainsAny(k, " \t\"'") {
			continue
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
			v = v[1 : len(v)-1]
		}
		if _, dup := fm.vals[k]; !dup {
			fm.keys = append(fm.keys, k)
		}
		fm.vals[k] = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v}
	}
	if len(fm.keys) == 0 {
		fm.vals = nil
		return false
	}
	return true
}

func (fm *frontmatter) has(k string) bool { _, ok := fm.vals[k]; return ok }

// str is a scalar value as text ("" when absent or not a scalar).
func (fm *frontmatter) str(k string) string {
	n := fm.vals[k]
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}

// list is a space/comma string or a YAML list, as allowed-tools and tools are written.
func (fm *frontmatter) list(k string) []string {
	n := fm.vals[k]
	if n == nil {
		return nil
	}
	var out []string
	switch n.Kind {
	case yaml.ScalarNode:
		out = append(out, skills.SplitAllowedTools(strings.ReplaceAll(n.Value, ",", " "))...)
	case yaml.SequenceNode:
		for _, e := range n.Content {
			if e.Kind == yaml.ScalarNode && strings.TrimSpace(e.Value) != "" {
				out = append(out, strings.TrimSpace(e.Value))
			}
		}
	}
	return out
}

// truthy reads a boolean as Claude does: yes/no/on/off/1/0/true/false in any case.
func (fm *frontmatter) truthy(k string) bool {
	switch strings.ToLower(fm.str(k)) {
	case "true", "yes", "on", "1":
		return true
	}
	return false
}

// display lists every frontmatter field for the Details pane.
func (fm *frontmatter) display() model.Fields {
	out := model.Fields{}
	for _, k := range fm.keys {
		n := fm.vals[k]
		if n.Kind == yaml.ScalarNode {
			out = append(out, model.Field{Key: k, Value: n.Value})
			continue
		}
		b, _ := yaml.Marshal(n)
		out = append(out, model.Field{Key: k, Value: strings.TrimSpace(string(b))})
	}
	return out
}

// contractMap is every frontmatter field as text, for the contract.
func (fm *frontmatter) contractMap() map[string]string {
	out := map[string]string{}
	for _, f := range fm.display() {
		out[f.Key] = fmt.Sprint(f.Value)
	}
	return out
}

// shellInjections lists the `!`cmd“ snippets and ```! blocks of a command or skill body:
// Claude runs them in a shell before the model sees the text.
func shellInjections(body string) []string { return skills.ShellInjections(body) }

// injectionsNotCovered classifies each injection as the shell line it is (one with an
// unbalanced quote must not swallow the next).
func (l *loader) injectionsNotCovered(inj []string) []model.NotCovered {
	var out []model.NotCovered
	for _, cmd := range inj {
		out = append(out, l.shellNotCovered(cmd, "it is invoked", true)...)
	}
	return out
}

// mdFiles lists the .md files of a component directory (recursively: subfolders are
// namespaces), or the single file a manifest path names.
func (l *loader) mdFiles(rel string) []string {
	st, err := l.root.Stat(rel)
	if err != nil {
		return nil
	}
	if st.Type == fsguard.TypeFile {
		if strings.HasSuffix(strings.ToLower(rel), ".md") {
			return []string{rel}
		}
		return nil
	}
	var out []string
	_ = l.root.Walk(rel, func(e fsguard.Entry, err error) error {
		if err == nil && e.Type == fsguard.TypeFile && strings.HasSuffix(strings.ToLower(e.Name), ".md") {
			out = append(out, e.Rel)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// markdownStep lists commands, agents and output styles. A manifest path replaces the
// default folder (Claude Code).
func (l *loader) markdownStep() {
	for _, k := range []struct {
		field, dir string
		kind       model.Kind
	}{{"commands", "commands", model.KindCommand}, {"agents", "agents", model.KindAgent}, {"outputStyles", "output-styles", model.KindOutputStyle}} {
		dirs := []string{k.dir}
		if ps := l.paths[k.field]; ps != nil {
			dirs = ps
		}
		seen := map[string]bool{}
		for _, d := range dirs {
			for _, f := range l.mdFiles(d) {
				if seen[f] {
					continue
				}
				seen[f] = true
				id := strings.TrimSuffix(strings.TrimPrefix(f, d+"/"), path.Ext(f))
				if f == d {
					id = strings.TrimSuffix(path.Base(f), path.Ext(f))
				}
				id = strings.ReplaceAll(id, "/", ":")
				if l.pkg.Component(k.kind, id) != nil {
					id = f
				}
				l.pkg.Components = append(l.pkg.Components, l.markdown(k.kind, id, f))
			}
		}
	}
}

// markdown builds a command, agent or output-style component.
func (l *loader) markdown(kind model.Kind, id, file string) *model.Component {
	c := &model.Component{Kind: kind, ID: id, BodyFile: file}
	warn := func(code, msg string) {
		c.Diagnostics = append(c.Diagnostics, model.Place{File: file}.Component(code, model.SeverityWarning, msg, specRef("1.7")))
	}
	data, err := l.root.ReadFile(file, maxMarkdown)
	if err != nil {
		c.Diagnostics = append(c.Diagnostics, model.Place{File: file}.Component(string(kind)+"-"+fsguard.CodeSuffix(err), model.SeverityError,
			fmt.Sprintf("%s %s, so it cannot be reviewed.", file, fsguard.Reason(err)), specRef("1.7")))
		c.Validity = model.Invalid
		c.Support = unsupportedBoth("The file cannot be read.")
		return c
	}
	if l.read == nil {
		l.read = map[string][]byte{}
	}
	l.read[file] = data
	text := strings.ToValidUTF8(string(data), "\uFFFD")
	fm := splitFrontmatter(text)
	c.Body = fm.body
	if utf8.Valid(data) {
		// The text is the file's bytes (nothing replaced), and the body is its end.
		c.BodyStart, c.BodyEnd = len(text)-len(fm.body), len(text)
	}
	c.Hidden = skills.ScanHidden(fm.body, fm.bline)
	if fm.err != "" {
		c.Diagnostics = append(c.Diagnostics, model.Place{File: file, Line: 1}.Component("frontmatter-invalid-yaml", model.SeverityError,
			fmt.Sprintf("The frontmatter of %s cannot be parsed (%s); Claude's validator rejects it, and at runtime every field is dropped.", file, clip(fm.err)), specRef("1.7")))
	}
	if fm.lenient != "" {
		c.Diagnostics = append(c.Diagnostics, model.Place{File: file, Line: 1}.Component("frontmatter-lenient", model.SeverityInfo,
			fmt.Sprintf("The frontmatter of %s is not valid YAML (%s), but %s read it line by line as key: value: every field below loads, and neither validator reports it.", file, clip(fm.lenient), model.Releases(model.ClientClaudeCode, model.ClaudeCode328)), specRef("1.7")))
	}
	c.Details = append(model.Fields{{Key: "file", Value: file}}, fm.display()...)
	sum := sha256.Sum256(data)
	st, _ := l.root.Stat(file)
	own := model.File{Path: file, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:]), Exec: st.Exec}
	name := id
	if n := fm.str("name"); n != "" && kind != model.KindCommand {
		name = n
		if n != id && (kind == model.KindAgent || kind == model.KindOutputStyle) {
			// Claude lists agents and output styles by their frontmatter name.
			c.DisplayNames = map[string]string{clientClaude: n}
		}
	}
	qualified := l.pkg.Name + ":" + name
	desc := strings.Join(strings.Fields(fm.str("description")), " ")
	switch kind {
	case model.KindCommand:
		c.Summary = append(c.Summary, fmt.Sprintf("Adds the slash command /%s: its text is sent to Claude when the user (or Claude, unless disable-model-invocation) invokes it.", qualified))
		if fm.has("name") {
			warn("command-name-ignored", fmt.Sprintf("%s sets name: %q; Claude ignores name in commands/*.md (the file name is the command).", file, clip(fm.str("name"))))
		}
	case model.KindAgent:
		c.Summary = append(c.Summary, fmt.Sprintf("Adds the subagent %s: Claude can hand it a task, and it works with its own prompt and tools.", qualified))
		if !fm.has("description") {
			warn("agent-description-missing", fmt.Sprintf("%s has no description; Claude's validator warns, and Claude cannot tell when to use the agent.", file))
		}
		if strings.Contains(fm.str("name"), ":") {
			c.Diagnostics = append(c.Diagnostics, model.Place{File: file, Pointer: "/name"}.Component("agent-name-colon", model.SeverityError,
				fmt.Sprintf("The agent name %q contains \":\", so Claude skips the file.", clip(fm.str("name"))), specRef("1.7")))
		}
	case model.KindOutputStyle:
		c.Summary = append(c.Summary, fmt.Sprintf("Adds the output style %s: its text replaces or extends Claude's system prompt while selected.", qualified))
		if fm.truthy("force-for-plugin") {
			c.Summary = append(c.Summary, "force-for-plugin: it is applied automatically while the plugin is enabled and overrides the user's own outputStyle.")
		}
		if fm.truthy("keep-coding-instructions") {
			c.Summary = append(c.Summary, "keep-coding-instructions: Claude's coding instructions stay in the system prompt.")
		}
	}
	if desc != "" {
		c.Summary = append(c.Summary, "Description: "+strings.TrimSuffix(desc, ".")+".")
	}
	c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapModelContext, Scope: []string{file}, Detail: "Its text enters the model's context when it is used."})
	runsShell := l.frontmatterCaps(c, kind, &fm, file)
	if kind != model.KindAgent {
		if inj := shellInjections(fm.body); len(inj) > 0 {
			runsShell = true
			c.Summary = append(c.Summary, fmt.Sprintf("Runs %d shell %s before Claude sees the text (!`…` or ```! blocks): %s.", len(inj), plural(len(inj), "command", "commands"), clip(strings.Join(inj, "; "))))
			c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapSubprocess, Scope: inj, Detail: "Runs these shell commands when invoked, before the model reads the result."})
			markNotCovered(c, l.injectionsNotCovered(inj))
		}
	}
	if hasErrors(c.Diagnostics) {
		c.Validity = model.Invalid
		c.Support = unsupportedBoth("Claude's validator rejects the file.")
		return c
	}
	c.Validity = model.Valid
	c.Contract = &model.Contract{Kind: kind, Fields: model.Fields{{Key: "file", Value: file}, {Key: "frontmatter", Value: fm.contractMap()}}, Files: []model.File{own}}
	c.Files = []model.File{own}
	c.Support = []model.Support{
		{Provider: clientClaude, Version: ClaudeVersion, Status: model.Supported, Detail: fmt.Sprintf("Claude Code loads it as %s while the plugin is enabled.", qualified)},
		{Provider: clientCodex, Version: CodexVersion, Status: model.NotSupported, Detail: fmt.Sprintf("Codex does not load a Claude plugin's %ss.", strings.ReplaceAll(string(kind), "-", " "))},
	}
	if runsShell {
		l.bindClosure(c, string(kind))
	}
	return c
}

// frontmatterCaps turns the fields that grant or run something into capabilities and
// summary lines. It reports whether the component runs shell commands.
func (l *loader) frontmatterCaps(c *model.Component, kind model.Kind, fm *frontmatter, file string) bool {
	runs := false
	warn := func(code, msg string) {
		c.Diagnostics = append(c.Diagnostics, model.Place{File: file}.Component(code, model.SeverityWarning, msg, specRef("1.7")))
	}
	if kind != model.KindAgent {
		if tools := fm.list("allowed-tools"); len(tools) > 0 {
			if kind != model.KindSkill {
				c.Summary = append(c.Summary, "allowed-tools: while it runs, these tools are approved without asking the user: "+strings.Join(tools, ", ")+".")
			}
			c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapHook, Scope: tools, Detail: "Pre-approves these tools (no permission prompt) while it runs."})
			for _, t := range tools {
				if t == "Bash" || strings.HasPrefix(t, "Bash(") {
					runs = true
				}
			}
		}
		if tools := fm.list("disallowed-tools"); len(tools) > 0 {
			c.Summary = append(c.Summary, "disallowed-tools: removes "+strings.Join(tools, ", ")+" while it runs.")
		}
		if fm.str("context") == "fork" {
			c.Summary = append(c.Summary, "context: fork: it runs in a forked subagent"+agentPhrase(fm.str("agent"))+".")
		}
		if sh := fm.str("shell"); sh != "" && sh != "bash" && sh != "powershell" {
			c.Diagnostics = append(c.Diagnostics, model.Place{File: file, Pointer: "/shell"}.Component("frontmatter-shell-invalid", model.SeverityError,
				fmt.Sprintf("shell: %q is not bash or powershell; Claude's validator rejects it.", clip(sh)), specRef("1.7")))
		}
		if fm.truthy("disable-model-invocation") {
			c.Summary = append(c.Summary, "disable-model-invocation: only the user can invoke it.")
		}
		if fm.has("hooks") {
			c.Summary = append(c.Summary, "Declares hooks in its frontmatter: once invoked, they are registered for the rest of the session.")
			c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapHook, Scope: []string{"frontmatter hooks"}, Detail: "Registers its frontmatter hooks for the rest of the session once invoked."})
			runs = true
		}
	} else {
		if tools := fm.list("tools"); len(tools) > 0 {
			c.Summary = append(c.Summary, "tools: the agent may use only "+strings.Join(tools, ", ")+".")
		} else {
			c.Summary = append(c.Summary, "tools: not set, so the agent inherits every tool of the session.")
		}
		if tools := fm.list("disallowedTools"); len(tools) > 0 {
			c.Summary = append(c.Summary, "disallowedTools: "+strings.Join(tools, ", ")+".")
		}
		var ignored []string
		for _, k := range []string{"hooks", "mcpServers", "permissionMode", "initialPrompt", "observer", "observerMessage", "observeSubagents"} {
			if fm.has(k) {
				ignored = append(ignored, k)
			}
		}
		if len(ignored) > 0 {
			warn("agent-field-ignored", fmt.Sprintf("%s sets %s, which "+claudeSeen+" ignores for plugin agents (debug-log warning only).", file, strings.Join(ignored, ", ")))
			c.Summary = append(c.Summary, "Ignored for plugin agents: "+strings.Join(ignored, ", ")+".")
		}
	}
	if m := fm.str("model"); m != "" {
		c.Summary = append(c.Summary, fmt.Sprintf("model: runs with the model %q.", m))
	}
	return runs
}

func agentPhrase(a string) string {
	if a == "" {
		return ""
	}
	return " (" + a + ")"
}

func unsupportedBoth(why string) []model.Support {
	return []model.Support{
		{Provider: clientClaude, Version: ClaudeVersion, Status: model.NotSupported, Detail: why},
		{Provider: clientCodex, Version: CodexVersion, Status: model.NotSupported, Detail: why},
	}
}

// claudeSkillFields are the skill frontmatter fields Claude Code defines.
var claudeSkillFields = map[string]bool{
	"name": true, "description": true, "when_to_use": true, "argument-hint": true, "arguments": true,
	"disable-model-invocation": true, "user-invocable": true, "allowed-tools": true, "disallowed-tools": true,
	"model": true, "effort": true, "context": true, "agent": true, "background": true, "hooks": true,
	"paths": true, "shell": true, "metadata": true, "license": true, "compatibility": true,
}

// claudeLenient are Agent Skills rules Claude Code does not enforce on plugin skills
// (Claude Code: the validator did not flag an uppercase or mismatched name or unknown
// keys): they become warnings that name the difference.
func claudeLenient(code string) bool {
	for _, p := range []string{"skill-name-", "skill-unknown-field", "skill-allowed-tools-list", "skill-description-", "skill-metadata-", "skill-compatibility-", "skill-frontmatter-missing", "skill-field-"} {
		if strings.HasPrefix(code, p) {
			return true
		}
	}
	return false
}

// skillsStep lists skills/<name>/SKILL.md, the manifest's skills paths (which add to the
// default), and a root SKILL.md when there is neither.
func (l *loader) skillsStep() {
	var dirs []string
	add := func(d string) {
		for _, x := range dirs {
			if x == d {
				return
			}
		}
		dirs = append(dirs, d)
	}
	collect := func(base string) {
		if _, err := l.root.Lstat(path.Join(base, "SKILL.md")); err == nil {
			add(base)
			return
		}
		names, err := l.root.ReadDirNames(base)
		if err != nil {
			return
		}
		for _, n := range names {
			d := path.Join(base, n)
			if st, err := l.root.Stat(d); err == nil && st.Type == fsguard.TypeDir {
				if _, err := l.root.Lstat(path.Join(d, "SKILL.md")); err == nil {
					add(d)
				}
			}
		}
	}
	if l.rootHas("skills") {
		collect("skills")
	}
	for _, p := range l.paths["skills"] {
		if p == "." {
			if l.rootHas("SKILL.md") {
				add(".")
			}
			continue
		}
		collect(p)
	}
	if !l.rootHas("skills") && l.paths["skills"] == nil && l.rootHas("SKILL.md") {
		add(".")
	}
	l.opts.Skills.Prepare(l.root, dirs)
	for _, d := range dirs {
		c, data := l.opts.Skills.LoadText(l.root, d, nil, "")
		if d == "." {
			c.ID = l.pkg.Name
		}
		if l.pkg.Component(model.KindSkill, c.ID) != nil {
			c.ID = d
		}
		l.claudeSkill(c, data)
		l.pkg.Components = append(l.pkg.Components, c)
	}
}

// claudeSkill adapts an Agent Skills component to Claude's reading of it.
func (l *loader) claudeSkill(c *model.Component, data []byte) {
	// skills.Load leaves a valid skill without a contract when a link or special file in
	// it leads where no approval reaches: it stays blocked here too, never re-bound.
	blocked := c.Validity == model.Valid && c.Contract == nil
	kept := c.Diagnostics[:0]
	for _, d := range c.Diagnostics {
		if d.Code == "skill-unknown-field" && claudeSkillFields[strings.TrimPrefix(d.Pointer, "/")] {
			continue // an Agent Skills stranger, but a field Claude Code defines
		}
		kept = append(kept, d)
	}
	c.Diagnostics = kept
	for i, d := range c.Diagnostics {
		if d.IsError() && claudeLenient(d.Code) {
			c.Diagnostics[i].Severity = model.SeverityWarning
			c.Diagnostics[i].Message = strings.TrimSuffix(d.Message, ".") + " (Agent Skills rule; " + claudeSeen + " does not enforce it on plugin skills)."
		}
	}
	text := c.Body
	var fm frontmatter
	if data != nil {
		// SKILL.md as the skill reader read it: parsed again the way Claude parses it,
		// not read again.
		fm = splitFrontmatter(strings.ToValidUTF8(string(data), "\uFFFD"))
		text = fm.body
	}
	l.frontmatterCaps(c, model.KindSkill, &fm, c.BodyFile)
	if inj := shellInjections(text); len(inj) > 0 {
		c.Summary = append(c.Summary, fmt.Sprintf("Runs %d shell %s before Claude sees the text (!`…` or ```! blocks): %s.", len(inj), plural(len(inj), "command", "commands"), clip(strings.Join(inj, "; "))))
		c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapSubprocess, Scope: inj, Detail: "Runs these shell commands when invoked, before the model reads the result."})
		markNotCovered(c, l.injectionsNotCovered(inj))
	}
	if hasErrors(c.Diagnostics) && !blocked {
		c.Validity = model.Invalid
		c.Contract = nil
		c.Support = unsupportedBoth("The skill is invalid.")
		return
	}
	c.Validity = model.Valid
	if !blocked {
		c.Contract = &model.Contract{Kind: model.KindSkill, Fields: model.Fields{{Key: "file", Value: c.BodyFile}, {Key: "frontmatter", Value: fm.contractMap()}}, Files: append([]model.File(nil), c.Files...)}
	}
	cx := model.Support{Provider: clientCodex, Version: CodexVersion, Status: model.Supported, Detail: "Codex loads a Claude plugin's skills."}
	switch {
	case l.otherManifest != "" && strings.HasPrefix(c.BodyFile, "skills/") && l.codexLoadsDefault("skills"):
		cx.Detail = l.codexAlsoLoads("skills/ folder")
	case l.otherManifest != "":
		cx = model.Support{Provider: clientCodex, Version: CodexVersion, Status: model.NotSupported, Detail: l.codexReadsOther(".")}
	case l.manifest != nil && !l.codexReadsSkill(path.Dir(c.BodyFile)):
		cx = model.Support{Provider: clientCodex, Version: CodexVersion, Status: model.NotSupported, Detail: l.codexSkipsSkill(path.Dir(c.BodyFile))}
	}
	c.Support = []model.Support{{Provider: clientClaude, Version: ClaudeVersion, Status: model.Supported, Detail: fmt.Sprintf("Claude Code loads it as %s:%s.", l.pkg.Name, c.ID)}, cx}
}
