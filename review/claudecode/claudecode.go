// Package claudecode loads Claude Code plugins and marketplaces as Claude Code
// reads them (../shared/reference/native/NOTES.md §1): the plugin root is the folder that
// holds .claude-plugin/plugin.json, or a folder with the default layout and no manifest;
// every hook handler, MCP and LSP server, command, skill, agent, output style, bin/
// executable, settings file and monitor becomes one component with its own three answers.
// Claude Code has no per-hook trust (a plugin's hooks run whenever it is enabled), so
// each hook says in plain language when it fires, what it receives and what it can do.
// Support is answered for Claude Code and for Codex, which reads a Claude
// plugin's skills, hooks and .mcp.json in its own way. A marketplace
// (.claude-plugin/marketplace.json) is a package of its own; each relative-path entry is
// also loaded as a plugin. Nothing is executed, fetched or written: every read goes
// through fsguard.
package claudecode

import (
	"fmt"
	"path/filepath"
	"strings"

	"vouch/internal/textclip"
	"vouch/model"
	"vouch/review/closure"
	"vouch/review/fsguard"
	"vouch/review/jsontext"
	"vouch/review/probe"
	"vouch/review/rootmanifest"
	"vouch/review/skills"
)

// The releases the support answers describe when the caller names none: the newest that
// vouch's rules model. The rules were observed on every Claude Code and Codex release the
// registry models for native plugins, which answered alike except where a rule is keyed
// by version (eventInfo.Since, the manifest fields a release first reads).
const (
	ClaudeVersion = model.ClaudeCode332
	CodexVersion  = model.Codex171
	clientClaude  = model.ClientClaudeCode
	clientCodex   = model.ClientCodex
)

const (
	manifestDir     = ".claude-plugin"
	manifestFile    = ".claude-plugin/plugin.json"
	marketplaceFile = ".claude-plugin/marketplace.json"
	hooksFile       = "hooks/hooks.json"
	mcpFile         = ".mcp.json"
	lspFile         = ".lsp.json"
	settingsFile    = "settings.json"
	monitorsFile    = "monitors/monitors.json"
)

// Options configure the loader.
type Options struct {
	Limits fsguard.Limits
	// ConfigDir is shown as Claude's config directory (default "~/.claude"); it is where
	// ${CLAUDE_PLUGIN_DATA} points. Nothing there is read.
	ConfigDir string
	// Marketplace names the marketplace a plugin was listed in, for ${CLAUDE_PLUGIN_DATA}
	// and the plugin id; "" when the plugin was given on its own.
	Marketplace string
	// ClaudeVersion and CodexVersion name the client releases to answer for (the one the
	// user has installed, when known); "" means the newest modelled.
	ClaudeVersion, CodexVersion string
	// Skills, when set, is shared with the other formats' loaders of the same folder, so
	// that a skill both clients read is read and parsed once (nil: each is read here).
	Skills *skills.Shared
}

func (o Options) withDefaults() Options {
	if o.Limits == (fsguard.Limits{}) {
		o.Limits = fsguard.DefaultLimits()
	}
	if o.ConfigDir == "" {
		o.ConfigDir = "~/.claude"
	}
	if o.ClaudeVersion == "" {
		o.ClaudeVersion = ClaudeVersion
	}
	if o.CodexVersion == "" {
		o.CodexVersion = CodexVersion
	}
	return o
}

// IsRoot reports whether dir is a Claude Code plugin root: it holds
// .claude-plugin/plugin.json; or it is a Codex plugin folder (.codex-plugin/) that holds
// any part of Claude Code's default layout (holdsDefaultLayout), which Claude Code loads
// as a plugin of its own when that folder is installed in it; or no root Agent Plugins
// plugin.json claims it and it holds a .claude-plugin/ folder without a marketplace, or
// the default layout's hooks/hooks.json or .lsp.json at its top. A root plugin.json that
// is not an Agent Plugins manifest (a catalogue's metadata) claims nothing: the Claude
// Code releases vouch models never read it, and with --plugin-dir they load the folder by
// its own markers ("`.lsp.json` at its top marks it").
func IsRoot(dir string) bool { return IsRootIn(probe.New(dir)) }

// IsRootIn is IsRoot asked of a probe, which answers from one listing of the folder.
func IsRootIn(p *probe.Dir) bool {
	switch {
	case p.Exists(manifestFile):
		return true
	case p.Exists(".codex-plugin"):
		// A Claude marketplace's folder is a folder of plugins to Claude Code, not one.
		return !p.Exists(marketplaceFile) && holdsDefaultLayout(p)
	case p.Exists(rootmanifest.File) && rootmanifest.IsAgentPlugins(p.Path()):
		return false
	case p.IsDir(manifestDir):
		return !p.Exists(marketplaceFile)
	}
	return p.Exists(hooksFile) || p.Exists(lspFile)
}

// defaultLayout are the parts of Claude Code's default plugin layout that make a Codex
// plugin folder a Claude Code plugin too: the markers Claude Code's --plugin-dir names
// when it loads a folder without .claude-plugin/ as one plugin (hooks, skills, .mcp.json,
// .lsp.json, a top SKILL.md; the Claude Code releases vouch models read no
// .codex-plugin/), and the other component folders its loader reads there (commands/,
// agents/, output-styles/, monitors), which a Claude marketplace entry naming the folder
// loads whatever marks it. bin/ and settings.json alone are left out: no recorded run
// shows either making a folder a plugin.
//
// An Agent Plugins folder is not read this way: no recorded Claude Code run covers a
// folder with a root Agent Plugins plugin.json and Claude's layout but no .codex-plugin/
// (only folders with a Claude Code or Codex marker are recorded), so what Claude Code
// makes of one is not observed.
var defaultLayout = []string{hooksFile, mcpFile, lspFile, "skills", "commands", "agents", "output-styles", monitorsFile, "SKILL.md"}

// holdsDefaultLayout reports whether the probed folder holds any part of defaultLayout.
func holdsDefaultLayout(p *probe.Dir) bool {
	for _, rel := range defaultLayout {
		if p.Exists(rel) {
			return true
		}
	}
	return false
}

// IsMarketplace reports whether dir holds .claude-plugin/marketplace.json.
func IsMarketplace(dir string) bool { return IsMarketplaceIn(probe.New(dir)) }

// IsMarketplaceIn is IsMarketplace asked of a probe.
func IsMarketplaceIn(p *probe.Dir) bool { return p.Exists(marketplaceFile) }

// DetectIn reports whether the probed folder holds a Claude Code plugin or marketplace,
// or is the .claude-plugin folder of one (then Load reads its parent).
func DetectIn(p *probe.Dir) bool {
	return IsRootIn(p) || IsMarketplaceIn(p) || IsManifestDir(p.Path())
}

// IsManifestDir reports whether dir is the .claude-plugin folder of a plugin or
// marketplace: given on its own, it stands for its parent, never for a plugin of its own.
func IsManifestDir(dir string) bool {
	if filepath.Base(filepath.Clean(dir)) != manifestDir {
		return false
	}
	parent := filepath.Dir(filepath.Clean(dir))
	return IsRoot(parent) || IsMarketplace(parent)
}

// Load reviews dir: the marketplace it holds (with a claude-code package for each
// relative-path entry) and the plugin rooted there, if it is one that no entry loaded.
// It never fails: problems become diagnostics.
func Load(dir string, opts Options) []*model.Package {
	if IsManifestDir(dir) {
		dir = filepath.Dir(filepath.Clean(dir))
	}
	var out []*model.Package
	loadedRoot := false
	if IsMarketplace(dir) {
		mk, plugins, self := LoadMarketplace(dir, opts)
		out = append(out, mk)
		out = append(out, plugins...)
		loadedRoot = self
	}
	if !loadedRoot && IsRoot(dir) {
		out = append(out, loadPlugin(dir, opts, nil))
	}
	stampVersions(out, opts.withDefaults())
	// Refs are <package>#<kind>:<id>: two plugins of one name here would share refs.
	seen := map[string]string{}
	for _, p := range out {
		if p.Format != model.FormatClaudeCode {
			continue
		}
		if other, dup := seen[p.Name]; dup {
			p.Diagnostics = append(p.Diagnostics, model.Diagnostic{Code: "plugin-name-collision", Severity: model.SeverityWarning, Boundary: model.BoundaryPackage,
				Message: fmt.Sprintf("Another plugin here, at %s, is also named %q; their components share refs, so approvals of one apply to the other's identical contracts only.", other, clip(p.Name)), Spec: specRef("1.8")})
			continue
		}
		seen[p.Name] = p.Root
	}
	return out
}

// specRef formats a reference into the native notes.
func specRef(section string) string { return "claude-code " + section }

// loader holds the state of one plugin load.
type loader struct {
	opts Options
	root *fsguard.Root
	// codexDoc is .codex-plugin/plugin.json as Codex reads it (codexother.go).
	codexDoc *jsontext.Value
	pkg      *model.Package
	name     string
	entry    *entry // the marketplace entry this plugin was listed as, or nil
	// manifest is the parsed plugin.json (nil when absent or broken).
	manifest *jsontext.Value
	mdata    []byte
	// paths records, per manifest component field, the paths it declares that passed
	// the path rules (nil when the field is absent).
	paths map[string][]string
	// pathOrder gives each of paths[f] its index in the manifest's list.
	pathOrder map[string][]int
	// inline holds inline object values of manifest fields (hooks, mcpServers, lspServers).
	inline map[string][]inlineVal
	// otherManifest names a root Agent Plugins plugin.json or a .codex-plugin that Codex
	// reads instead of this plugin's manifest ("" when none).
	otherManifest string
	cl            *closure.Result
	mcpNames      map[string]int
	// mcpPlaced are the MCP servers in the order they were read, with their place in
	// Claude's merge order (.mcp.json first, then the manifest's mcpServers in list
	// order): of two servers of one name the higher runs.
	mcpPlaced []placedServer
	pathFatal bool // a component path broke the manifest schema
	// read keeps the bytes of markdown files already read, so the closure walk hashes them
	// without reading them again.
	read map[string][]byte
	// cut names the JSON files that hold more entries than vouch reads, with why.
	cut closure.Cut
	// remoteBundles are .mcpb/.dxt URLs in mcpServers: listed, never fetched.
	remoteBundles []string
	userConfig    map[string]bool // option key -> sensitive
}

func (l *loader) pkgDiag(d model.Diagnostic) { l.pkg.Diagnostics = append(l.pkg.Diagnostics, d) }

func (l *loader) pkgErr(code, file, ptr string, line int, msg, section string) {
	l.pkgDiag(model.Place{File: file, Pointer: ptr, Line: line}.Package(code, model.SeverityError, msg, specRef(section)))
}

func (l *loader) pkgWarn(code, file, ptr string, line int, msg, section string) {
	l.pkgDiag(model.Place{File: file, Pointer: ptr, Line: line}.Package(code, model.SeverityWarning, msg, specRef(section)))
}

// clip shortens package text quoted in messages.
func clip(s string) string { return textclip.Clip(s, 120, "...") }

func hasErrors(ds []model.Diagnostic) bool {
	for _, d := range ds {
		if d.IsError() {
			return true
		}
	}
	return false
}

// parseJSON reads and parses one JSON file of the plugin, reporting a read or syntax
// failure with the code stem given ("hooks-file" gives hooks-file-invalid-json...).
// ok is false when there is nothing to interpret; missing is true for an absent file.
func (l *loader) parseJSON(rel, stem string, b model.Boundary, effect string) (doc *jsontext.Value, data []byte, issues []jsontext.Issue, missing, ok bool) {
	data, err := l.root.ReadFile(rel, l.opts.Limits.MaxManifestSize)
	if err != nil {
		if fsguard.CodeOf(err) == fsguard.CodeNotFound {
			return nil, nil, nil, true, false
		}
		l.pkgDiag(model.Place{File: rel}.Finding(b, stem+"-"+fsguard.CodeSuffix(err), model.SeverityError,
			fmt.Sprintf("%s %s, so %s.", rel, fsguard.Reason(err), effect), specRef("1.2")))
		return nil, nil, nil, false, false
	}
	doc, issues, jerr := jsontext.Parse(data, jsontext.Limits)
	if jerr != nil {
		code := map[string]string{jsontext.CodeSyntax: "invalid-json", jsontext.CodeInvalidUTF8: "invalid-utf8", jsontext.CodeTooDeep: "too-deep"}[jerr.Code]
		if code == "" {
			code = "invalid-json"
		}
		l.pkgDiag(model.Place{File: rel, Line: jsontext.Line(data, jerr.Off)}.Finding(b, stem+"-"+code, model.SeverityError,
			fmt.Sprintf("%s %s, so %s.", rel, jerr.Msg, effect), specRef("1.4")))
		return nil, data, nil, false, false
	}
	l.cut.Note(rel, issues)
	return doc, data, issues, false, true
}

// blockCut makes every component defined in a file that holds more entries than vouch
// reads unapprovable: Claude Code reads them all.
func (l *loader) blockCut() {
	l.cut.Block(l.pkg.Components, "file", claudeSeen, specRef("1.2"))
}

// strVal returns the string held by member key of v.
func strVal(v *jsontext.Value, key string) (string, bool) {
	if m := v.Get(key); m != nil && m.Val.Kind == jsontext.String {
		return m.Val.Str, true
	}
	return "", false
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func joinQuoted(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, ", ")
}
