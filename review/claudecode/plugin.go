package claudecode

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"vouch/model"
	"vouch/review/fsguard"
	"vouch/review/jsontext"
	"vouch/review/rootmanifest"
)

// LoadPlugin reviews the Claude Code plugin rooted at dir.
func LoadPlugin(dir string, opts Options) *model.Package {
	p := loadPlugin(dir, opts, nil)
	stampVersions([]*model.Package{p}, opts.withDefaults())
	return p
}

// stampVersions names, in every support answer, the client release it was given for:
// the rules below write the default, and a caller that knows the installed release
// (status --claude) asks for that one.
func stampVersions(pkgs []*model.Package, opts Options) {
	for _, p := range pkgs {
		for _, c := range p.Components {
			for i := range c.Support {
				switch c.Support[i].Provider {
				case clientClaude:
					c.Support[i].Version = opts.ClaudeVersion
				case clientCodex:
					c.Support[i].Version = opts.CodexVersion
				}
			}
		}
	}
}

func loadPlugin(dir string, opts Options, e *entry) *model.Package {
	opts = opts.withDefaults()
	pkg := &model.Package{Format: model.FormatClaudeCode, Name: filepath.Base(dir)}
	if abs, err := filepath.Abs(dir); err == nil {
		pkg.Root = abs
		pkg.Name = filepath.Base(abs)
	}
	if e != nil && e.name != "" {
		pkg.Name = e.name
	}
	l := &loader{opts: opts, pkg: pkg, entry: e}
	root, err := fsguard.Open(dir, opts.Limits)
	if err != nil {
		l.pkgErr("package-unreadable", "", "", 0, fmt.Sprintf("The plugin root could not be opened (%v).", err), "1.1")
		pkg.Rejected = true
		return pkg
	}
	defer root.Close()
	l.root = root
	pkg.Root = root.Path()
	pkg.Reader = &fsguard.DirReader{Dir: root.Path(), Limits: opts.Limits}
	apRoot := l.rootHas(rootmanifest.File) && rootmanifest.IsAgentPlugins(root.Path())
	switch {
	case apRoot:
		l.otherManifest = "the root Agent Plugins plugin.json"
	case l.rootHas(".codex-plugin/plugin.json"):
		l.otherManifest = ".codex-plugin/plugin.json"
	}
	if l.rootHas(rootmanifest.File) && !apRoot {
		l.pkgDiag(model.Place{File: rootmanifest.File}.Package("root-manifest-foreign", model.SeverityWarning,
			"plugin.json at the top of this folder is not an Agent Plugins manifest (its $schema does not name the Agent Plugins schema): "+model.Releases(model.ClientClaudeCode, model.ClaudeCode328)+" never read it and load this folder by its own markers, and "+model.Releases(model.ClientCodex, model.Codex169)+" ignore it too.", specRef("2.1")))
	}
	if !l.manifestStep() {
		pkg.Rejected = true
		pkg.Components = l.codexReadsRejected()
		return pkg
	}
	if l.paths == nil {
		l.paths, l.inline = map[string][]string{}, map[string][]inlineVal{}
	}
	if opts.Marketplace != "" {
		pkg.ID = pkg.Name + "@" + opts.Marketplace
	}
	ver := pkg.Version
	if ver == "" {
		ver = "<version>"
	}
	pkg.Manifest = append(pkg.Manifest,
		model.Field{Key: "${CLAUDE_PLUGIN_ROOT}", Value: fmt.Sprintf("%s here; once installed %s/plugins/cache/%s/%s/%s (it changes on every update)", root.Path(), strings.TrimSuffix(opts.ConfigDir, "/"), l.marketplace(), pkg.Name, ver)},
		model.Field{Key: "${CLAUDE_PLUGIN_DATA}", Value: l.dataDir() + " (kept across updates)"})
	if l.otherManifest != "" && l.rootHas(manifestFile) {
		l.pkgDiag(model.Place{}.Package("codex-reads-other-manifest", model.SeverityInfo,
			fmt.Sprintf("This folder also holds %s; "+codexSeen+" reads that manifest instead of .claude-plugin/ (root plugin.json > .codex-plugin > .claude-plugin), so it loads none of this plugin's hooks or servers.", l.otherManifest), specRef("2.1")))
	}
	// Skills and markdown first: the closure walk, on the first hook or server, reuses
	// what they read.
	l.skillsStep()
	l.markdownStep()
	l.hooksStep()
	if pkg.Rejected {
		pkg.Components = nil
		return pkg
	}
	l.mcpStep()
	l.lspStep()
	l.binStep()
	l.settingsStep()
	l.monitorsStep()
	l.blockCut()
	for _, d := range []struct{ field, dir, what string }{{"workflows", "workflows", "workflows"}, {"themes", "themes", "themes"}} {
		if l.rootHas(d.dir) || l.paths[d.field] != nil {
			l.pkgDiag(model.Place{File: d.dir}.ComponentType("component-not-reviewed", model.SeverityInfo,
				fmt.Sprintf(claudeSeen+" also loads this plugin's %s (%s/); vouch lists them here but does not review their contents yet.", d.what, d.dir), specRef("1.2")))
		}
	}
	if m := l.manifestMember("defaultEnabled"); m != nil && m.Val.Kind == jsontext.Bool && !m.Val.Bool {
		l.pkgDiag(model.Place{File: manifestFile, Pointer: "/defaultEnabled"}.Package("plugin-default-disabled", model.SeverityInfo,
			"defaultEnabled is false: Claude Code (2.1.154 or later) installs the plugin disabled, and nothing in it runs until the user enables it.", specRef("1.1")))
	}
	if m := l.manifestMember("dependencies"); m != nil {
		l.pkgDiag(model.Place{File: manifestFile, Pointer: "/dependencies"}.Package("plugin-dependencies", model.SeverityInfo,
			"The plugin declares dependencies on other plugins; Claude Code installs them with it, and each must be reviewed as its own plugin. While one of them is not installed, Claude Code disables this whole plugin (observed with "+model.ClaudeCode328+": \"Dependency … is not installed\"), and the components below start once it is.", specRef("1.2")))
	}
	l.optionalDependenciesStep()
	l.networkNote()
	l.codexRefusal()
	l.noManifestNote()
	if l.rootHas("CLAUDE.md") {
		l.pkgWarn("claude-md-not-loaded", "CLAUDE.md", "", 0, "CLAUDE.md at the plugin root is not loaded by "+claudeSeen+"; put instructions in a skill, command or agent.", "1.2")
	}
	for _, d := range []string{"commands", "agents", "skills", "hooks", "output-styles", "bin"} {
		if l.rootHas(manifestDir + "/" + d) {
			l.pkgWarn("component-in-manifest-dir", manifestDir+"/"+d, "", 0,
				fmt.Sprintf("%s/%s is inside .claude-plugin/; "+claudeSeen+" looks for components at the plugin root only, so nothing in it is loaded.", manifestDir, d), "1.1")
		}
	}
	pkg.SortComponents()
	return pkg
}

// noManifestNote says how Claude Code names and finds a plugin without
// .claude-plugin/plugin.json given on its own, and, in a Codex plugin folder, that Claude
// Code still loads this default layout once the folder is installed in it.
func (l *loader) noManifestNote() {
	if l.rootHas(manifestFile) || l.entry != nil {
		return
	}
	name := clip(l.pkg.Name)
	if !l.rootHas(".codex-plugin") {
		l.pkgDiag(model.Place{}.Package("claude-no-manifest", model.SeverityInfo,
			fmt.Sprintf("No .claude-plugin/plugin.json: "+claudeSeen+" loads this folder's default layout as the plugin %q, named after its folder (observed with --plugin-dir). `claude plugin validate` accepts such a folder but lists none of its components; the components below are what Claude Code loads.", name), specRef("1.1")))
		return
	}
	l.pkgDiag(model.Place{}.Package("claude-reads-codex-folder", model.SeverityInfo,
		fmt.Sprintf("This is a Codex plugin folder (.codex-plugin/, which %s reads) with no .claude-plugin/plugin.json, and it holds Claude Code's default layout: installed in Claude Code (--plugin-dir, or a Claude marketplace entry whose source is this folder), %s loads that layout as the plugin %q, named after its folder, and runs the components below (observed with --plugin-dir). Its Codex reading (and any other package of this folder) is a separate package with its own approvals.",
			codexSeen, claudeSeen, name), specRef("1.1")))
}

// lspStep lists the LSP servers of .lsp.json and the manifest's lspServers.
func (l *loader) lspStep() {
	names := map[string]int{}
	var srcs []*serverSource
	if l.rootHas(lspFile) {
		if s := l.serverFile(lspFile, "lsp", true); s != nil {
			srcs = append(srcs, s)
		}
	}
	for _, p := range l.paths["lspServers"] {
		if p == lspFile {
			continue
		}
		if s := l.serverFile(p, "lsp", true); s != nil {
			srcs = append(srcs, s)
		}
	}
	for _, iv := range l.inline["lspServers"] {
		file, data := l.inlineSrc(iv)
		srcs = append(srcs, &serverSource{file: file, data: data, base: jsontext.SplitPointer(iv.ptr), servers: iv.v, entry: iv.entry})
	}
	inFile := map[string]*model.Component{} // the servers of .lsp.json, by name
	for _, src := range srcs {
		for _, m := range src.servers.Obj {
			mm := src.servers.Get(m.Key)
			if mm.KeyOff != m.KeyOff {
				continue
			}
			if first := inFile[m.Key]; first != nil && src.entry {
				l.lspDeclaredAgain(first, m)
				continue
			}
			c := l.lspServer(src, names, m)
			if src.file == lspFile {
				inFile[m.Key] = c
			}
			l.pkg.Components = append(l.pkg.Components, c)
		}
	}
}

// lspDeclaredAgain folds a marketplace entry's declaration of an LSP server that the
// folder's .lsp.json declares too into the .lsp.json server: every Claude Code release
// vouch models runs such a server once (observed offline), and of two servers registered for one file
// extension the first wins, so the one that starts is the .lsp.json declaration, which
// Claude reads from the plugin folder before the entry's. Where the entry's declaration
// differs, it is bound in the contract too, so an approval still covers whichever of the
// two starts.
func (l *loader) lspDeclaredAgain(first *model.Component, m jsontext.Member) {
	name := clip(m.Key)
	same := false
	again := model.Fields{{Key: "file", Value: displayFile("")}}
	if m.Val.Kind == jsontext.Object {
		cmd, _ := strVal(m.Val, "command")
		var args []string
		if a := m.Val.Get("args"); a != nil && a.Val.Kind == jsontext.Array {
			for _, e := range a.Val.Arr {
				args = append(args, e.Str)
			}
		}
		if args == nil {
			args = []string{}
		}
		again = append(again, model.Field{Key: "command", Value: cmd}, model.Field{Key: "args", Value: args})
		if first.Contract != nil {
			c0, _ := first.Contract.Fields.Get("command")
			a0, _ := first.Contract.Fields.Get("args")
			same = c0 == cmd && fmt.Sprint(a0) == fmt.Sprint(args)
		}
	}
	msg := fmt.Sprintf("The marketplace entry declares LSP server %q too; Claude Code %s starts it once, from .lsp.json (read first, and the first server registered for a file extension wins).", name, l.opts.ClaudeVersion)
	if !same {
		msg = strings.TrimSuffix(msg, ".") + "; the entry's declaration differs, so it is part of what the approval covers as well."
		if first.Contract != nil {
			first.Contract.Fields = append(first.Contract.Fields, model.Field{Key: "declared_again", Value: again})
		}
	}
	first.Details = append(first.Details, model.Field{Key: "also declared in", Value: displayFile("")})
	first.Diagnostics = append(first.Diagnostics, model.Place{File: lspFile}.Component("lsp-server-declared-twice", model.SeverityInfo, msg, specRef("1.6")))
}

func (l *loader) lspServer(src *serverSource, names map[string]int, m jsontext.Member) *model.Component {
	id, n := l.uniqueID(names, m.Key)
	c := &model.Component{Kind: model.KindLSPServer, ID: id}
	ptr := jsontext.Pointer(append(append([]string(nil), src.base...), m.Key)...)
	line := l.line(src.data, m.KeyOff)
	bad := func(code, msg string) {
		c.Diagnostics = append(c.Diagnostics, model.Place{File: src.file, Pointer: ptr, Line: line}.Component(code, model.SeverityError, msg, specRef("1.6")))
	}
	if n > 1 {
		c.Diagnostics = append(c.Diagnostics, model.Place{File: src.file, Pointer: ptr, Line: line}.Component("lsp-server-duplicate-name", model.SeverityWarning,
			fmt.Sprintf("Two LSP servers are named %q; the first one registered for an extension wins.", clip(m.Key)), specRef("1.6")))
	}
	c.Details = model.Fields{{Key: "name", Value: m.Key}, {Key: "file", Value: displayFile(src.file)}}
	v := m.Val
	if v.Kind != jsontext.Object {
		bad("lsp-server-not-object", fmt.Sprintf("LSP server %q is a %s, not an object; Claude skips it.", clip(m.Key), v.Kind))
		return l.lspInvalid(c)
	}
	cmd, hasCmd := strVal(v, "command")
	if !hasCmd {
		bad("lsp-server-missing-command", fmt.Sprintf("LSP server %q has no string \"command\"; Claude skips it (its validator does not report this).", clip(m.Key)))
	}
	ext := v.Get("extensionToLanguage")
	if ext == nil || ext.Val.Kind != jsontext.Object {
		bad("lsp-server-missing-extensions", fmt.Sprintf("LSP server %q has no extensionToLanguage object; Claude skips it (its validator does not report this).", clip(m.Key)))
	}
	if t, ok := strVal(v, "transport"); ok && t != "stdio" && t != "socket" {
		bad("lsp-server-transport", fmt.Sprintf("LSP server %q has transport %q; it must be stdio or socket.", clip(m.Key), clip(t)))
	}
	var args []string
	if a := v.Get("args"); a != nil && a.Val.Kind == jsontext.Array {
		for _, e := range a.Val.Arr {
			args = append(args, e.Str)
		}
	}
	if args == nil {
		args = []string{}
	}
	env := map[string]string{}
	if e := v.Get("env"); e != nil && e.Val.Kind == jsontext.Object {
		for _, x := range e.Val.Obj {
			env[x.Key] = x.Val.Str
		}
	}
	var exts []string
	if ext != nil {
		for _, x := range ext.Val.Obj {
			exts = append(exts, x.Key)
		}
	}
	c.Details = append(c.Details, model.Field{Key: "command", Value: cmd}, model.Field{Key: "args", Value: args}, model.Field{Key: "extensions", Value: strings.Join(exts, ", ")})
	if hasErrors(c.Diagnostics) {
		return l.lspInvalid(c)
	}
	launch := strings.TrimSpace(strings.Join(append([]string{cmd}, args...), " "))
	c.Summary = []string{
		fmt.Sprintf("Starts the language server `%s` when Claude opens a file with extension %s.", launch, strings.Join(exts, ", ")),
	}
	markNotCovered(c, l.execNotCovered(cmd, args, env, "Claude starts the language server", false))
	c.Capabilities = []model.Capability{{Kind: model.CapServerLaunch, Scope: []string{cmd}, Detail: fmt.Sprintf("Starts `%s` as a local language server.", launch)}}
	c.Validity = model.Valid
	c.Contract = &model.Contract{Kind: model.KindLSPServer, Fields: model.Fields{{Key: "command", Value: cmd}, {Key: "args", Value: args}, {Key: "env", Value: env}, {Key: "extensions", Value: exts}, {Key: "file", Value: displayFile(src.file)}}}
	c.Support = []model.Support{
		{Provider: clientClaude, Version: ClaudeVersion, Status: model.Supported, Detail: "Claude Code starts it for matching files when the command is on PATH."},
		{Provider: clientCodex, Version: CodexVersion, Status: model.NotSupported, Detail: "Codex does not read LSP servers from a Claude plugin."},
	}
	l.bindClosure(c, "LSP server")
	return c
}

func (l *loader) lspInvalid(c *model.Component) *model.Component {
	c.Validity = model.Invalid
	c.Summary = append([]string{"Not loaded: " + claudeSeen + " skips this LSP entry (see its diagnostics)."}, c.Summary...)
	c.Support = unsupportedBoth("The entry is invalid.")
	return c
}

// binStep lists each file in bin/: Claude adds the folder to the Bash tool's PATH while
// the plugin is enabled, so any Bash command can run them by name.
func (l *loader) binStep() {
	st, err := l.root.Stat("bin")
	if err != nil || st.Type != fsguard.TypeDir {
		return
	}
	entries, _, err := l.root.ReadDir("bin")
	if err != nil {
		l.pkgDiag(model.Place{File: "bin"}.ComponentType("bin-"+fsguard.CodeSuffix(err), model.SeverityError, fmt.Sprintf("bin/ %s, so its executables cannot be listed.", fsguard.Reason(err)), specRef("1.2")))
		return
	}
	for _, e := range entries {
		if e.Type == fsguard.TypeDir {
			continue
		}
		c := &model.Component{Kind: model.KindExecutable, ID: e.Name, Details: model.Fields{{Key: "file", Value: e.Rel}}}
		c.Summary = []string{
			fmt.Sprintf("Adds %s to the Bash tool's PATH while the plugin is enabled: any Bash command Claude runs can call `%s` by name, and it shadows a program of the same name later in PATH.", e.Rel, e.Name),
		}
		if !e.Exec {
			c.Summary = append(c.Summary, "It has no execute permission, so calling it by name fails.")
		}
		c.Capabilities = []model.Capability{{Kind: model.CapSubprocess, Scope: []string{e.Name}, Detail: "Callable by name from every Bash command while the plugin is enabled."}}
		c.Validity = model.Valid
		c.Contract = &model.Contract{Kind: model.KindExecutable, Fields: model.Fields{{Key: "name", Value: e.Name}, {Key: "file", Value: e.Rel}}}
		c.Support = []model.Support{
			{Provider: clientClaude, Version: ClaudeVersion, Status: model.Supported, Detail: "Claude Code puts bin/ on the Bash tool's PATH."},
			{Provider: clientCodex, Version: CodexVersion, Status: model.NotSupported, Detail: "Codex does not add a Claude plugin's bin/ to PATH."},
		}
		l.bindClosure(c, "executable")
		l.pkg.Components = append(l.pkg.Components, c)
	}
}

// settingsStep reads settings.json: only agent and subagentStatusLine are honoured.
func (l *loader) settingsStep() {
	doc, data, _, missing, ok := l.parseJSON(settingsFile, "settings", model.BoundaryComponent, "its settings are not applied")
	if missing || !ok {
		return
	}
	c := &model.Component{Kind: model.KindSettings, ID: "settings.json", Details: model.Fields{{Key: "file", Value: settingsFile}}}
	if doc.Kind != jsontext.Object {
		c.Diagnostics = append(c.Diagnostics, model.Place{File: settingsFile, Line: 1}.Component("settings-not-object", model.SeverityError, "settings.json must hold an object.", specRef("1.2")))
		c.Validity = model.Invalid
		c.Support = unsupportedBoth("settings.json is not an object.")
		l.pkg.Components = append(l.pkg.Components, c)
		return
	}
	honoured := map[string]string{}
	var ignored []string
	for _, m := range doc.Obj {
		switch m.Key {
		case "agent", "subagentStatusLine":
			honoured[m.Key] = fmt.Sprint(jsontext.Display(m.Val))
			if m.Key == "subagentStatusLine" && m.Val.Kind == jsontext.Object {
				if cm := m.Val.Get("command"); cm != nil && cm.Val.Kind == jsontext.String {
					markNotCovered(c, l.shellNotCovered(cm.Val.Str, "the status line updates", true))
				}
			}
			c.Details = append(c.Details, model.Field{Key: m.Key, Value: jsontext.Display(m.Val)})
		default:
			ignored = append(ignored, m.Key)
		}
	}
	if a, ok := honoured["agent"]; ok {
		c.Summary = append(c.Summary, fmt.Sprintf("Sets agent: %s: the main thread runs as that agent (its prompt, tools and model) while the plugin is enabled.", a))
		c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapModelContext, Scope: []string{"agent"}, Detail: "Replaces the main thread's agent."})
	}
	if s, ok := honoured["subagentStatusLine"]; ok {
		c.Summary = append(c.Summary, fmt.Sprintf("Sets subagentStatusLine: %s (a status line command runs in a shell).", clip(s)))
		c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapSubprocess, Scope: []string{"subagentStatusLine"}, Detail: "Its status line command runs in a shell."})
	}
	if len(ignored) > 0 {
		sort.Strings(ignored)
		c.Summary = append(c.Summary, "Ignored by "+model.Releases(clientClaude, model.ClaudeCode328)+", which honour only agent and subagentStatusLine in a plugin's settings.json: "+strings.Join(ignored, ", ")+".")
		c.Diagnostics = append(c.Diagnostics, model.Place{File: settingsFile, Line: jsontext.Line(data, doc.Off)}.Component("settings-keys-ignored", model.SeverityWarning,
			fmt.Sprintf("settings.json sets %s, which "+claudeSeen+" silently ignores in a plugin; only agent and subagentStatusLine are honoured.", strings.Join(ignored, ", ")), specRef("1.2")))
	}
	if len(honoured) == 0 {
		c.Summary = append([]string{"Has no effect: none of its keys is honoured."}, c.Summary...)
	}
	c.Validity = model.Valid
	c.Contract = &model.Contract{Kind: model.KindSettings, Fields: model.Fields{{Key: "honoured", Value: honoured}}}
	c.Support = []model.Support{
		{Provider: clientClaude, Version: ClaudeVersion, Status: model.Supported, Detail: "Claude Code applies agent and subagentStatusLine."},
		{Provider: clientCodex, Version: CodexVersion, Status: model.NotSupported, Detail: "Codex does not read a Claude plugin's settings.json."},
	}
	if _, ok := honoured["agent"]; ok {
		c.Summary = append(c.Summary, model.Releases(model.ClientClaudeCode, model.ClaudeCode328)+" note that a plugin's agent setting is deprecated and will stop applying in a future release.")
	}
	if _, ok := honoured["subagentStatusLine"]; ok {
		l.bindClosure(c, "settings file")
	}
	l.pkg.Components = append(l.pkg.Components, c)
}

// monitorsStep lists monitors/monitors.json (or experimental.monitors): commands Claude
// runs in the background and whose output it watches.
func (l *loader) monitorsStep() {
	var list *jsontext.Value
	var data []byte
	file := monitorsFile
	if iv := l.inline["monitors"]; len(iv) > 0 && iv[0].v.Kind != jsontext.String {
		list = iv[0].v
		file, data = l.inlineSrc(iv[0])
	} else {
		rel := monitorsFile
		if ps := l.paths["monitors"]; len(ps) > 0 {
			rel = ps[0]
		}
		doc, d, _, missing, ok := l.parseJSON(rel, "monitors", model.BoundaryComponentType, "its monitors are not started")
		if missing || !ok {
			return
		}
		list, data, file = doc, d, rel
		if w := doc.Get("monitors"); w != nil {
			list = w.Val
		}
	}
	var items []jsontext.Member
	switch list.Kind {
	case jsontext.Array:
		for i, v := range list.Arr {
			name := fmt.Sprint(i)
			if n, ok := strVal(v, "name"); ok {
				name = n
			}
			items = append(items, jsontext.Member{Key: name, KeyOff: v.Off, Val: v})
		}
	case jsontext.Object:
		items = list.Obj
	}
	names := map[string]int{}
	for _, it := range items {
		id, _ := l.uniqueID(names, it.Key)
		c := &model.Component{Kind: model.KindMonitor, ID: id, Details: model.Fields{{Key: "file", Value: file}}}
		cmd, ok := strVal(it.Val, "command")
		if !ok {
			c.Diagnostics = append(c.Diagnostics, model.Place{File: file, Line: l.line(data, it.KeyOff)}.Component("monitor-missing-command", model.SeverityError,
				fmt.Sprintf("Monitor %q has no string \"command\".", clip(it.Key)), specRef("1.2")))
			c.Validity = model.Invalid
			c.Support = unsupportedBoth("The monitor is invalid.")
			l.pkg.Components = append(l.pkg.Components, c)
			continue
		}
		if _, ok := strVal(it.Val, "description"); !ok && it.Val.Kind == jsontext.Object {
			c.Diagnostics = append(c.Diagnostics, model.Place{File: file, Line: l.line(data, it.KeyOff)}.Component("monitor-missing-description", model.SeverityError,
				fmt.Sprintf("Monitor %q has no \"description\"; Claude requires name, command and description, so the monitors file cannot be read.", clip(it.Key)), specRef("1.2")))
		}
		c.Details = append(c.Details, model.Field{Key: "command", Value: cmd})
		if x, ok := l.expandedField(cmd); ok {
			c.Details = append(c.Details, model.Field{Key: "command (expanded)", Value: x})
		}
		when := "always"
		if w, ok := strVal(it.Val, "when"); ok {
			when = w
		}
		c.Details = append(c.Details, model.Field{Key: "when", Value: when})
		arm := "from session start while the plugin is enabled"
		if s, ok := strings.CutPrefix(when, "on-skill-invoke:"); ok {
			arm = "from the first time the skill " + s + " is invoked"
		}
		c.Summary = []string{fmt.Sprintf("Runs the shell command `%s` in the background %s, unsandboxed like a hook; each line it prints is delivered to Claude.", cmd, arm)}
		if hasErrors(c.Diagnostics) {
			c.Validity = model.Invalid
			c.Support = unsupportedBoth("The monitor is invalid.")
			l.pkg.Components = append(l.pkg.Components, c)
			continue
		}
		markNotCovered(c, l.shellNotCovered(cmd, "the monitor starts", true))
		c.Capabilities = []model.Capability{{Kind: model.CapSubprocess, Scope: []string{cmd}, Detail: "Runs in the background; its output reaches Claude."},
			{Kind: model.CapModelContext, Scope: []string{id}, Detail: "What it prints is added to what Claude reads."}}
		c.Validity = model.Valid
		c.Contract = &model.Contract{Kind: model.KindMonitor, Fields: model.Fields{{Key: "name", Value: it.Key}, {Key: "command", Value: cmd}, {Key: "definition", Value: fmt.Sprint(jsontext.Display(it.Val))}}}
		c.Support = []model.Support{
			{Provider: clientClaude, Version: ClaudeVersion, Status: model.Supported, Detail: "Claude Code starts plugin monitors (experimental)."},
			{Provider: clientCodex, Version: CodexVersion, Status: model.NotSupported, Detail: "Codex has no monitors."},
		}
		l.bindClosure(c, "monitor")
		l.pkg.Components = append(l.pkg.Components, c)
	}
}

// manifestMember returns a top-level member of plugin.json (nil without a manifest).
func (l *loader) manifestMember(key string) *jsontext.Member {
	if l.manifest == nil {
		return nil
	}
	return l.manifest.Get(key)
}
