// Package claude enforces approvals in Claude Code. Observed with the release [Version]
// (offline, scratch homes): a plugin of a "directory" marketplace whose entry source is
// a relative folder is read from that folder at every session start (hooks run with
// CLAUDE_PLUGIN_ROOT there, MCP servers start from it), and once the folder is gone
// nothing of the plugin loads; it never falls back to the copy in plugins/cache. So
// vouch keeps a directory marketplace named "vouch" whose plugin folders are written only
// by staging approved bytes, installs NAME@vouch, and turns every other install of NAME
// off in the user's settings.
package claude

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"vouch/enforce"
	"vouch/model"
)

const (
	// ClientID names Claude Code in reports and the state file.
	ClientID = "claude-code"
	// Marketplace is the name of vouch's own marketplace.
	Marketplace = "vouch"
	// GuardName is the guard plugin vouch installs with the first add.
	GuardName = "vouch-guard"
	// Version is the Claude Code release the behaviour here was observed on.
	Version = model.ClaudeCode332
)

// observed names Claude Code at Version for the sentences that say what it does.
var observed = model.ClientLabel(model.ClientClaudeCode, Version)

// Paths are Claude Code's files: its configuration folder ($CLAUDE_CONFIG_DIR, default
// ~/.claude), the user settings in it and its plugins folder.
type Paths struct {
	Config   string
	Settings string
	Plugins  string
}

// PathsFrom finds Claude Code's configuration folder as Claude does, through the client
// registry (the one place its home variable is read).
func PathsFrom(getenv func(string) string) (Paths, error) {
	c, _ := model.LookupClient(model.ClientClaudeCode)
	base, err := c.Home(getenv)
	if err != nil {
		return Paths{}, fmt.Errorf("cannot find Claude Code's configuration folder: %w", err)
	}
	abs, err := filepath.Abs(base)
	if err != nil {
		return Paths{}, err
	}
	return Paths{Config: abs, Settings: filepath.Join(abs, "settings.json"), Plugins: filepath.Join(abs, "plugins")}, nil
}

// MarketplaceDir is vouch's marketplace folder; PluginDir is one staged plugin in it.
func MarketplaceDir(l enforce.Layout) string { return l.ClientDir(ClientID) }

// PluginDir is the folder Claude reads the enforced plugin name from.
func PluginDir(l enforce.Layout, name string) string {
	return filepath.Join(MarketplaceDir(l), "plugins", name)
}

// checkName refuses a plugin name that could step out of vouch's marketplace folder or
// collide with the guard: letters, digits, '.', '_' and '-', not starting with a dot.
// (A plain loop, not a regular expression: the guard's process compiles nothing at
// start.)
func checkName(name string) error {
	ok := name != "" && len(name) <= 128 && name[0] != '.' && name[0] != '-' && name != GuardName
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			ok = false
		}
	}
	if !ok {
		return fmt.Errorf("the plugin name %q cannot be enforced: vouch stages plugins under their name, which must be letters, digits, '.', '_' or '-' (and not %s)", name, GuardName)
	}
	return nil
}

// reads are the files Claude Code reads from a plugin folder whatever components it
// declares: its manifest and the default component files. Each one present must be in
// an approved closure.
var reads = []string{".claude-plugin/plugin.json", "hooks/hooks.json", ".mcp.json", ".lsp.json", "settings.json", "monitors/monitors.json"}

func presentReads(root string) []string {
	var out []string
	for _, r := range reads {
		if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(r))); err == nil {
			out = append(out, r)
		}
	}
	return out
}

// loadPlugin reads the Claude Code plugin whose root is folder.
func loadPlugin(env *enforce.Env, folder string) (*model.Package, error) {
	pkgs, err := env.Load(folder)
	if err != nil {
		return nil, err
	}
	want := canonical(folder)
	var found []*model.Package
	for _, p := range pkgs {
		if p.Format == model.FormatClaudeCode && canonical(p.Root) == want {
			found = append(found, p)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return nil, fmt.Errorf("%s is not a Claude Code plugin folder (no plugin of that format has its root there)", folder)
	default:
		return nil, fmt.Errorf("%s holds %d Claude Code plugins at its root", folder, len(found))
	}
}

func canonical(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	return p
}

// Refused is an add that the plan turned down: it lists what is missing.
type Refused struct{ Plan *enforce.Plan }

func (r *Refused) Error() string {
	return fmt.Sprintf("%s is not staged: every runnable component must be approved now and every file Claude Code reads must be bound by an approval", r.Plan.Package.Name)
}

// now is the clock of state records (a variable for tests).
var now = func() time.Time { return time.Now().UTC() }

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func sortStrings(xs []string) { sort.Strings(xs) }
