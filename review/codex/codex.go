// Package codex loads Codex plugins (.codex-plugin/plugin.json) and Codex marketplaces
// (.agents/plugins/marketplace.json) the way Codex reads them: which manifest wins
// in a folder, which fields are read and which bad ones are skipped with a warning, the
// skills, MCP servers, apps and hooks Codex loads, and the identity (key and definition
// hash) Codex gives each hook in its own trust store. Every rule is tagged with where it
// comes from in ../shared/reference/native/NOTES.md §2, and the test tables record what
// Codex itself answered for each fixture (plugin/read, hooks/list).
//
// The loader is pure: it reads through fsguard, runs nothing and writes nothing. Reading
// Codex's own config.toml (trust.go) is read-only as well.
package codex

import (
	"fmt"
	"path/filepath"

	"vouch/internal/textclip"
	"vouch/model"
	"vouch/review/fsguard"
	"vouch/review/probe"
	"vouch/review/skills"
)

// Client and version every support answer names.
const (
	ClientCodex  = model.ClientCodex
	CodexVersion = model.Codex171
)

// Files Codex looks for in a plugin folder, in the order it prefers manifests (observed
// on Codex): a root Agent Plugins plugin.json, then .codex-plugin/, then .claude-plugin/.
const (
	manifestFile      = ".codex-plugin/plugin.json"
	rootManifestFile  = "plugin.json"
	claudeManifest    = ".claude-plugin/plugin.json"
	defaultHooksFile  = "hooks/hooks.json"
	defaultMCPFile    = ".mcp.json"
	defaultAppsFile   = ".app.json"
	defaultSkillsDir  = "skills"
	marketplaceFile   = ".agents/plugins/marketplace.json"
	specManifest      = "codex §2.1"
	specMarketplace   = "codex §2.2"
	specHooks         = "codex §2.3"
	maxDefaultPrompts = 3
	maxDefaultPrompt  = 128
)

// Options configure a load.
type Options struct {
	Limits fsguard.Limits
	// Marketplace is the name of the marketplace the plugin is installed from, when known
	// (a marketplace load passes its own name): Codex keys hook trust by
	// <plugin>@<marketplace>. Empty means unknown; keys are then shown with "<marketplace>".
	Marketplace string
	// Skills, when set, is shared with the other formats' loaders of the same folder, so
	// that a skill both clients read is read and parsed once (nil: each is read here).
	Skills *skills.Shared
}

// StampVersion names, in every Codex support answer of pkgs, the release asked for (the
// rules write the default, CodexVersion).
func StampVersion(pkgs []*model.Package, version string) {
	if version == "" {
		return
	}
	for _, p := range pkgs {
		for _, c := range p.Components {
			for i := range c.Support {
				if c.Support[i].Provider == ClientCodex {
					c.Support[i].Version = version
				}
			}
		}
	}
}

// IsRoot reports whether dir holds a Codex plugin manifest. The .codex-plugin folder is
// never a package root of its own: its parent is.
func IsRoot(dir string) bool { return IsRootIn(probe.New(dir)) }

// IsRootIn is IsRoot asked of a probe, which answers from one listing of the folder.
func IsRootIn(p *probe.Dir) bool {
	return filepath.Base(p.Path()) != ".codex-plugin" && p.IsFileOrOther(manifestFile)
}

// IsMarketplace reports whether dir holds a Codex marketplace file.
func IsMarketplace(dir string) bool { return IsMarketplaceIn(probe.New(dir)) }

// IsMarketplaceIn is IsMarketplace asked of a probe.
func IsMarketplaceIn(p *probe.Dir) bool { return p.IsFileOrOther(marketplaceFile) }

// Detect names the Codex formats present in dir (a folder can be both a plugin and a
// marketplace).
func Detect(dir string) []model.Format {
	var out []model.Format
	if IsRoot(dir) {
		out = append(out, model.FormatCodex)
	}
	if IsMarketplace(dir) {
		out = append(out, model.FormatCodexMarketplace)
	}
	return out
}

func codexSupport(status model.SupportStatus, detail string) []model.Support {
	return []model.Support{{Provider: ClientCodex, Version: CodexVersion, Status: status, Detail: detail}}
}

// clip shortens package text quoted in messages; the display layer escapes it.
func clip(s string) string { return textclip.Clip(s, 81, "…") }

func errorf(format string, a ...any) string { return fmt.Sprintf(format, a...) }
