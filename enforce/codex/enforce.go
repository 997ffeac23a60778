package codex

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"vouch/internal/atomicfile"
	"vouch/model"
	rcodex "vouch/review/codex"
	"vouch/trust"
)

// Options are the plain inputs of Add, Remove and Status.
type Options struct {
	VouchHome string // the vouch home: its store and vouch's marketplace
	CodexHome string // $CODEX_HOME, default ~/.codex
	Client    string // the codex executable; "" prints the commands instead
	Partial   bool   // allow unapproved hooks and MCP servers (see PlanPlugin)
}

// MissingError is Add's refusal of a plugin that is not approved enough to stage.
type MissingError struct {
	Plugin  string
	Missing []string
}

func (e *MissingError) Error() string {
	return fmt.Sprintf("%s was not enforced: %d component(s) are not approved now: %s", e.Plugin, len(e.Missing), strings.Join(e.Missing, ", "))
}

// Added says what Add did.
type Added struct {
	PluginID    string   `json:"plugin_id"`
	Staged      string   `json:"staged"`
	Fingerprint string   `json:"fingerprint"`
	Installed   string   `json:"installed,omitempty"` // the cache copy Codex runs, when the CLI ran
	Trusted     []string `json:"trusted_hooks"`       // hook keys written with both hashes
	ServersOff  []string `json:"servers_off"`
	Commands    []string `json:"commands,omitempty"` // what to run when no Codex CLI was found
}

// maxConfig bounds the read of config.toml.
const maxConfig = 4 << 20

// Version is the Codex release the behaviour enforcement relies on was observed on.
const Version = model.Codex171

// observed names Codex at Version for the sentences that say what it does.
var observed = model.ClientLabel(model.ClientCodex, Version)

// Add enforces pkg in Codex: it stages the approved bytes into vouch's marketplace,
// installs the plugin with Codex's CLI (`codex plugin marketplace add`, `codex plugin add
// NAME@vouch`), checks that the copy Codex installed has the staged folder's fingerprint,
// and writes Codex's trust for the approved hooks (both hashes) and enabled = false for
// the MCP servers that are not approved. Without a CLI it writes the trust (bound to the
// staged bytes, so it trusts no other copy) and returns the commands to run.
func Add(t *trust.Trust, pkg *model.Package, o Options) (*Added, error) {
	if err := checkName(pkg.Name); err != nil {
		return nil, err
	}
	statuses, err := t.Statuses(pkg)
	if err != nil {
		return nil, err
	}
	plan, err := PlanPlugin(pkg, statuses, o.Partial)
	if err != nil {
		return nil, err
	}
	if len(plan.Missing) > 0 {
		return nil, &MissingError{Plugin: pkg.Name, Missing: plan.Missing}
	}
	l, unlock, err := lockLayout(o.VouchHome)
	if err != nil {
		return nil, err
	}
	defer unlock()
	cfgPath := filepath.Join(o.CodexHome, "config.toml")
	if err := checkMarketplace(cfgPath, l.Root()); err != nil {
		return nil, err
	}
	if err := setPending(l, pkg.Name, "add "+pkg.Root); err != nil {
		return nil, err
	}
	dir := l.PluginDir(pkg.Name)
	if err := Stage(t, plan, dir); err != nil {
		return nil, err
	}
	fp, err := Fingerprint(dir)
	if err != nil {
		return nil, fmt.Errorf("the staged folder %s cannot be fingerprinted: %w", dir, err)
	}
	if err := writeCatalog(l); err != nil {
		return nil, err
	}
	if err := writeSource(l, pkg.Name, pkg.Root); err != nil {
		return nil, err
	}
	// Codex [Version] refuses to start when CODEX_HOME names a folder that does not exist.
	if err := os.MkdirAll(o.CodexHome, 0o700); err != nil {
		return nil, err
	}
	c := &Client{Path: o.Client, Home: o.CodexHome}
	id := pkg.Name + "@" + Marketplace
	res := &Added{PluginID: id, Staged: dir, Fingerprint: fp, ServersOff: nonNil(plan.ServersOff)}
	if _, err := c.run("plugin", "marketplace", "add", l.Root()); err != nil {
		return nil, err
	}
	out, err := c.run("plugin", "add", id, "--json")
	if err != nil {
		return nil, err
	}
	if c.Path != "" {
		inst, err := installedPath(out)
		if err != nil {
			return nil, err
		}
		// Only a copy in Codex's cache for this plugin is read: the path comes from the
		// CLI's output, and nothing else is what Codex runs.
		cache := resolved(filepath.Join(o.CodexHome, "plugins", "cache", Marketplace, pkg.Name))
		if rel, err := filepath.Rel(cache, resolved(inst)); err != nil || rel == "." || strings.HasPrefix(rel, "..") || strings.ContainsRune(rel, filepath.Separator) {
			return nil, fmt.Errorf("Codex says it installed %s at %s, which is not a folder of %s; no hook was trusted", id, inst, cache)
		}
		got, err := Fingerprint(inst)
		if err != nil {
			return nil, fmt.Errorf("the copy Codex installed (%s) cannot be fingerprinted: %w", inst, err)
		}
		if got != fp {
			return nil, fmt.Errorf("the copy Codex installed (%s) is not the staged folder (fingerprint %s, staged %s); no hook was trusted", inst, got, fp)
		}
		res.Installed = inst
	}
	e := plan.Entries(fp)
	if err := writeEntries(cfgPath, e); err != nil {
		return nil, err
	}
	for _, h := range e.Hooks {
		res.Trusted = append(res.Trusted, h.Key)
	}
	res.Trusted = nonNil(res.Trusted)
	res.Commands = c.Printed
	return res, clearPending(l, pkg.Name)
}

// Removed says what Remove did.
type Removed struct {
	PluginID string   `json:"plugin_id"`
	Done     bool     `json:"done"`               // false: Codex still has the plugin installed
	Commands []string `json:"commands,omitempty"` // what to run when no Codex CLI was found
}

// Remove undoes Add for the plugin name: `codex plugin remove NAME@vouch`, vouch's tables
// for it out of config.toml, its staged folder and marketplace entry gone. Without a CLI,
// while Codex still has the plugin installed, it takes the trust of every hook away and
// switches every MCP server of it off (so neither runs in the next session), keeps the
// rest, and returns the command to run; running Remove again afterwards finishes.
func Remove(name string, o Options) (*Removed, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	l, unlock, err := lockLayout(o.VouchHome)
	if err != nil {
		return nil, err
	}
	defer unlock()
	id := name + "@" + Marketplace
	res := &Removed{PluginID: id}
	cfgPath := filepath.Join(o.CodexHome, "config.toml")
	cfg, err := readConfig(cfgPath)
	if err != nil {
		return nil, err
	}
	if err := setPending(l, name, "remove"); err != nil {
		return nil, err
	}
	if dig(cfg, "plugins", id) != nil {
		c := &Client{Path: o.Client, Home: o.CodexHome}
		if c.Path == "" {
			c.run("plugin", "remove", id)
			res.Commands = c.Printed
			if err := writeEntries(cfgPath, Entries{PluginID: id, ServersOff: serversOf(l.PluginDir(name), cfg, id)}); err != nil {
				return nil, err
			}
			return res, nil
		}
		if _, err := c.run("plugin", "remove", id, "--json"); err != nil {
			return nil, err
		}
	}
	if err := writeEntries(cfgPath, Entries{PluginID: id}); err != nil {
		return nil, err
	}
	if err := os.RemoveAll(l.PluginDir(name)); err != nil {
		return nil, err
	}
	if err := writeCatalog(l); err != nil {
		return nil, err
	}
	if err := os.Remove(filepath.Join(l.Dir, "sources", name)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	res.Done = true
	return res, clearPending(l, name)
}

// serversOf lists every MCP server of the staged plugin and every one config.toml
// already switches off, so a removal can switch them all off.
func serversOf(dir string, cfg map[string]any, id string) []string {
	set := map[string]bool{}
	if t, ok := dig(cfg, "plugins", id, "mcp_servers").(map[string]any); ok {
		for k := range t {
			set[k] = true
		}
	}
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		for _, c := range rcodex.Load(dir, rcodex.Options{Marketplace: Marketplace}).Components {
			if c.Kind == model.KindMCPServer {
				set[c.ID] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// writeEntries replaces vouch's tables for one plugin in config.toml, under a lock, from
// a fresh read.
func writeEntries(cfgPath string, e Entries) error {
	lock := filepath.Join(filepath.Dir(cfgPath), ".config.toml.vouch.lock")
	return atomicfile.Edit(cfgPath, lock, maxConfig, 0o600, func(old []byte, _ bool) ([]byte, error) {
		return EditConfig(cfgPath, old, e)
	})
}

func readConfig(cfgPath string) (map[string]any, error) {
	data, err := atomicfile.ReadRegular(cfgPath, maxConfig)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]any{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", cfgPath, err)
	}
	doc, err := decodeTOML(data)
	if err != nil {
		return nil, fmt.Errorf("%s is not valid TOML (%s); fix it by hand and run this again", cfgPath, oneLine(err.Error()))
	}
	return doc, nil
}

// checkMarketplace refuses when Codex already knows a marketplace named vouch that is not
// vouch's folder: installing NAME@vouch would then take bytes vouch never staged.
func checkMarketplace(cfgPath, root string) error {
	cfg, err := readConfig(cfgPath)
	if err != nil {
		return err
	}
	if src, ok := dig(cfg, "marketplaces", Marketplace, "source").(string); ok && filepath.Clean(src) != filepath.Clean(root) {
		return fmt.Errorf("%s already names a marketplace %q at %s, which is not vouch's (%s); remove it (codex plugin marketplace remove %s) and run this again", cfgPath, Marketplace, src, root, Marketplace)
	}
	return nil
}

// writeCatalog writes the marketplace file from the staged folders: one entry per plugin.
func writeCatalog(l Layout) error {
	names, err := Staged(l)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(l.CatalogPath()), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(l.CatalogPath(), renderCatalog(names), 0o644)
}

func renderCatalog(names []string) []byte {
	var b strings.Builder
	b.WriteString("{\n  \"name\": \"" + Marketplace + "\",\n  \"interface\": {\"displayName\": \"Approved in vouch\"},\n  \"plugins\": [")
	for i, n := range names {
		if i > 0 {
			b.WriteString(",")
		}
		q, _ := json.Marshal(n)
		p, _ := json.Marshal("./plugins/" + n)
		fmt.Fprintf(&b, "\n    {\"name\": %s, \"source\": {\"source\": \"local\", \"path\": %s},\n     \"policy\": {\"installation\": \"AVAILABLE\", \"authentication\": \"ON_INSTALL\"}, \"category\": \"Coding\"}", q, p)
	}
	if len(names) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("]\n}\n")
	return []byte(b.String())
}

// Staged lists the plugins staged in vouch's marketplace, by name.
func Staged(l Layout) ([]string, error) {
	ents, err := os.ReadDir(filepath.Join(l.Root(), "plugins"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") && checkName(e.Name()) == nil {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names, nil
}

// Source is the folder an enforced plugin was added from ("" when unknown).
func Source(l Layout, name string) string {
	data, err := atomicfile.ReadRegular(filepath.Join(l.Dir, "sources", name), 64<<10)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
}

func writeSource(l Layout, name, root string) error {
	if err := os.MkdirAll(filepath.Join(l.Dir, "sources"), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(l.Dir, "sources", name), []byte(root+"\n"), 0o600)
}

// setPending records that an add or remove of name is under way; it is cleared when the
// step is done, so one left behind says a run stopped half-way (status reports it).
func setPending(l Layout, name, what string) error {
	if err := os.MkdirAll(filepath.Join(l.Dir, "pending"), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(l.pendingPath(name), []byte(what+"\n"), 0o600)
}

func clearPending(l Layout, name string) error {
	if err := os.Remove(l.pendingPath(name)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Synced says what Sync did with one plugin.
type Synced struct {
	Action  string   `json:"action"` // "staged", "unchanged" or "removed"
	Detail  string   `json:"detail,omitempty"`
	Added   *Added   `json:"added,omitempty"`
	Removed *Removed `json:"removed,omitempty"`
	// FromStaged says the staged bytes were kept (the source is not approved as it is now).
	FromStaged bool `json:"from_staged,omitempty"`
}

// Sync brings the enforced plugin name in line with the ledger after an approve or a
// revoke. The source src (nil when it cannot be read) is staged when it is approved as
// the rule requires. Otherwise the staged bytes stay while they are still approved (an
// edit of the source changes nothing that runs until it is approved), and the plugin is
// removed once they are not, so a revoke takes effect in Codex's next session.
func Sync(t *trust.Trust, src *model.Package, name string, o Options) (*Synced, error) {
	if src != nil && src.Name == name {
		if ok, err := planOK(t, src, o.Partial); err != nil {
			return nil, err
		} else if ok {
			if st := StatusOf(t, name, o); len(st.Problems) == 0 && st.StagedFingerprint != "" && sameFiles(t, src, o.Partial, st.Staged) {
				return &Synced{Action: "unchanged"}, nil
			}
			a, err := Add(t, src, o)
			if err != nil {
				return nil, err
			}
			return &Synced{Action: "staged", Detail: "the approved bytes of " + src.Root, Added: a}, nil
		}
	}
	dir := NewLayout(o.VouchHome).PluginDir(name)
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		staged := rcodex.Load(dir, rcodex.Options{Marketplace: Marketplace})
		if ok, err := planOK(t, staged, o.Partial); err != nil {
			return nil, err
		} else if ok {
			if st := StatusOf(t, name, o); len(st.Problems) == 0 {
				return &Synced{Action: "unchanged", Detail: "the staged bytes are still approved; the source is not", FromStaged: true}, nil
			}
			a, err := Add(t, staged, o)
			if err != nil {
				return nil, err
			}
			return &Synced{Action: "staged", Detail: "the staged bytes, still approved, written again", Added: a, FromStaged: true}, nil
		}
	}
	r, err := Remove(name, o)
	if err != nil {
		return nil, err
	}
	return &Synced{Action: "removed", Detail: "no longer approved; " + observed + " runs nothing of it from the next session on", Removed: r}, nil
}

func planOK(t *trust.Trust, pkg *model.Package, partial bool) (bool, error) {
	statuses, err := t.Statuses(pkg)
	if err != nil {
		return false, err
	}
	plan, err := PlanPlugin(pkg, statuses, partial)
	return err == nil && len(plan.Missing) == 0, nil
}

// sameFiles reports whether the staged folder already holds exactly what pkg's plan stages.
func sameFiles(t *trust.Trust, pkg *model.Package, partial bool, dir string) bool {
	statuses, err := t.Statuses(pkg)
	if err != nil {
		return false
	}
	plan, err := PlanPlugin(pkg, statuses, partial)
	return err == nil && Verify(dir, plan.Files) == nil
}

// resolved is p absolute with its links resolved, as far as it exists.
func resolved(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}
