package codex

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"vouch/model"
	rcodex "vouch/review/codex"
	"vouch/trust"
)

// Problem is one finding of StatusOf: a stable code and a sentence.
type Problem struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// HookRun is one hook of an enforced plugin: what vouch says and what Codex will do.
type HookRun struct {
	Key      string `json:"key"`
	Approved bool   `json:"approved"`
	// Codex is the judgement of Codex [Version] from config.toml and the installed copy:
	// "trusted" (it runs), "untrusted" (no entry), "modified" (an entry for other bytes),
	// "disabled" (enabled = false).
	Codex string `json:"codex"`
}

// ServerRun is one MCP server of an enforced plugin.
type ServerRun struct {
	Name     string `json:"name"`
	Approved bool   `json:"approved"`
	Enabled  bool   `json:"enabled"` // false when config.toml switches it off
}

// PluginStatus is what Codex's own files say will run of one enforced plugin, beside
// what is approved. Problems each mean something runs that is not approved, or vouch's
// state is not what it wrote; any of them makes `enforce status` exit 1.
type PluginStatus struct {
	PluginID             string      `json:"plugin_id"`
	Source               string      `json:"source"`
	Staged               string      `json:"staged"`
	StagedFingerprint    string      `json:"staged_fingerprint,omitempty"`
	Installed            string      `json:"installed,omitempty"`
	InstalledFingerprint string      `json:"installed_fingerprint,omitempty"`
	Hooks                []HookRun   `json:"hooks"`
	Servers              []ServerRun `json:"servers"`
	Problems             []Problem   `json:"problems"`
	Notes                []string    `json:"notes"`
}

// StatusOf reads what Codex will run of the enforced plugin name and judges it against
// the ledger now. What runs is the staged folder's bytes (the cache copy is checked to be
// the same), so the staged folder is what is reviewed: a hook revoked since it was staged,
// or a staged file changed by hand, shows up as not approved. An edit of the source folder
// changes nothing that runs, so it is not a problem here.
func StatusOf(t *trust.Trust, name string, o Options) PluginStatus {
	l := NewLayout(o.VouchHome)
	id := name + "@" + Marketplace
	s := PluginStatus{PluginID: id, Source: Source(l, name), Staged: l.PluginDir(name), Hooks: []HookRun{}, Servers: []ServerRun{}, Problems: []Problem{}, Notes: []string{}}
	bad := func(code, f string, a ...any) { s.Problems = append(s.Problems, Problem{code, fmt.Sprintf(f, a...)}) }
	if data, err := os.ReadFile(l.pendingPath(name)); err == nil {
		if strings.HasPrefix(string(data), "remove") {
			bad("half-done", "the removal of %s did not finish: its hooks are untrusted and its MCP servers off, but Codex still has it installed; run `codex plugin remove %s`, then `vouch enforce sync`", name, id)
		} else {
			bad("half-done", "an add of %s did not finish; run `vouch enforce codex add` again (or `vouch enforce codex remove %s`)", name, name)
		}
	}
	cfgPath := filepath.Join(o.CodexHome, "config.toml")
	cfg, err := readConfig(cfgPath)
	if err != nil {
		bad("config-unreadable", "%v", err)
		return s
	}
	if src, ok := dig(cfg, "marketplaces", Marketplace, "source").(string); ok && filepath.Clean(src) != filepath.Clean(l.Root()) {
		bad("marketplace-not-vouch", "Codex's marketplace %q is %s, not vouch's folder %s: what Codex installs as %s is not staged by vouch", Marketplace, src, l.Root(), id)
	}
	// The same plugin installed from another marketplace runs outside vouch.
	if plugins, ok := cfg["plugins"].(map[string]any); ok {
		var others []string
		for k, v := range plugins {
			if strings.HasPrefix(k, name+"@") && k != id {
				if en, _ := v.(map[string]any)["enabled"].(bool); en {
					others = append(others, k)
				}
			}
		}
		sort.Strings(others)
		for _, k := range others {
			bad("other-install", "Codex also has %s installed and enabled, from a marketplace vouch does not stage: its hooks and servers run outside vouch (codex plugin remove %s)", k, k)
		}
	}
	if st, err := os.Lstat(s.Staged); err != nil || !st.IsDir() {
		bad("staged-missing", "the staged folder %s is missing; run `vouch enforce codex add` again", s.Staged)
	} else if fp, err := Fingerprint(s.Staged); err != nil {
		bad("staged-unhashable", "the staged folder cannot be fingerprinted: %v", err)
	} else {
		s.StagedFingerprint = fp
	}
	installed := dig(cfg, "plugins", id, "enabled") == true
	if installed {
		s.Installed, s.InstalledFingerprint = installedCopy(o.CodexHome, name, &s)
	} else {
		bad("not-installed", "Codex does not have %s installed (no [plugins.\"%s\"] enabled = true in %s), so nothing of it runs; run `codex plugin marketplace add %s` and `codex plugin add %s`, or `vouch enforce codex add` with the codex program at hand", id, id, cfgPath, l.Root(), id)
	}
	var pkg *model.Package
	var statuses map[string]trust.Status
	if s.StagedFingerprint != "" {
		pkg = rcodex.Load(s.Staged, rcodex.Options{Marketplace: Marketplace})
		if statuses, err = t.Statuses(pkg); err != nil {
			bad("ledger-unreadable", "the ledger cannot be read: %v", err)
			return s
		}
	}
	if pkg == nil {
		s.Notes = append(s.Notes, "without a staged folder there is nothing of "+name+" to judge")
	} else if p, err := PlanPlugin(pkg, statuses, true); err != nil {
		bad("staged-not-approved", "%v", err)
	} else {
		if len(p.Missing) > 0 {
			bad("staged-not-approved", "what is staged of %s is not approved now: %s; run `vouch enforce sync`", name, strings.Join(p.Missing, ", "))
		} else if s.StagedFingerprint != "" {
			if err := Verify(s.Staged, p.Files); err != nil {
				bad("staged-not-store", "the staged folder does not match the approved bytes: %v", err)
			}
		}
	}
	if installed && s.InstalledFingerprint != "" && s.StagedFingerprint != "" && s.InstalledFingerprint != s.StagedFingerprint {
		bad("cache-not-staged", "the copy Codex runs (%s) is not the staged folder: "+observed+" skips its trusted hooks as modified, but its skills and servers still load", s.Installed)
	}
	if pkg != nil {
		judgeHooks(pkg, statuses, cfg, id, installed, s.InstalledFingerprint, &s)
		judgeServers(pkg, statuses, cfg, id, installed, &s)
		judgeProjects(pkg, statuses, cfg, id, &s)
	}
	return s
}

// installedCopy finds the cache copy Codex runs: $CODEX_HOME/plugins/cache/vouch/<name>/<version>/.
func installedCopy(codexHome, name string, s *PluginStatus) (string, string) {
	base := filepath.Join(codexHome, "plugins", "cache", Marketplace, name)
	ents, err := os.ReadDir(base)
	if err != nil || len(ents) == 0 {
		s.Problems = append(s.Problems, Problem{"cache-missing", "config.toml has " + s.PluginID + " installed but its cache copy under " + base + " is missing"})
		return "", ""
	}
	var dirs []string
	for _, e := range ents {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			dirs = append(dirs, e.Name())
		}
	}
	if len(dirs) != 1 {
		s.Problems = append(s.Problems, Problem{"cache-ambiguous", fmt.Sprintf("Codex's cache holds %d copies of %s under %s; run `vouch enforce codex add` again", len(dirs), s.PluginID, base)})
		return "", ""
	}
	p := filepath.Join(base, dirs[0])
	fp, err := Fingerprint(p)
	if err != nil {
		var ue *UnhashableError
		if errors.As(err, &ue) {
			s.Notes = append(s.Notes, "the cache copy holds an entry Codex cannot hash, so "+observed+" skips every hook of it: "+err.Error())
		} else {
			s.Problems = append(s.Problems, Problem{"cache-unreadable", "the cache copy cannot be read: " + err.Error()})
		}
		return p, ""
	}
	return p, fp
}

func judgeHooks(pkg *model.Package, statuses map[string]trust.Status, cfg map[string]any, id string, installed bool, fp string, s *PluginStatus) {
	states, _ := dig(cfg, "hooks", "state").(map[string]any)
	for _, c := range pkg.Components {
		if c.Kind != model.KindHook {
			continue
		}
		key, def, ok := rcodex.ExportEntry(c, id)
		if !ok {
			continue
		}
		st := statuses[pkg.Ref(c)]
		h := HookRun{Key: key, Approved: approvedNow(st, c), Codex: "untrusted"}
		if e, ok := states[key].(map[string]any); ok {
			switch {
			case e["enabled"] == false:
				h.Codex = "disabled"
			case e["trusted_hash"] == def && e["trusted_content_hash"] == fp && fp != "":
				h.Codex = "trusted"
			case e["trusted_hash"] == def && e["trusted_content_hash"] == nil:
				h.Codex = "trusted" // Codex pins its own baseline on first sight
			default:
				h.Codex = "modified"
			}
		}
		if h.Codex == "trusted" && installed && !h.Approved {
			s.Problems = append(s.Problems, Problem{"runs-unapproved", observed + " runs the hook " + key + ", which is not approved now (" + string(orUnreviewed(st.Authorization)) + "); run `vouch enforce sync`"})
		}
		if h.Codex == "trusted" && stateOf(states, key)["trusted_content_hash"] == nil {
			s.Problems = append(s.Problems, Problem{"trust-on-first-use", "the trust of " + key + " has no trusted_content_hash, so " + observed + " trusts whatever bytes it sees first; run `vouch enforce sync`"})
		}
		if h.Approved && h.Codex != "trusted" && installed {
			s.Notes = append(s.Notes, "the approved hook "+key+" is "+h.Codex+" in Codex, so it does not run")
		}
		s.Hooks = append(s.Hooks, h)
	}
}

// approvedNow reports whether st, the status of c, approves c as it is now: an approval
// of another digest (c changed since) approves nothing that runs.
func approvedNow(st trust.Status, c *model.Component) bool {
	return st.Authorization == model.Approved && st.Digest == trust.DigestOf(c)
}

func stateOf(states map[string]any, key string) map[string]any {
	m, _ := states[key].(map[string]any)
	return m
}

func judgeServers(pkg *model.Package, statuses map[string]trust.Status, cfg map[string]any, id string, installed bool, s *PluginStatus) {
	for _, c := range pkg.Components {
		if c.Kind != model.KindMCPServer {
			continue
		}
		st := statuses[pkg.Ref(c)]
		r := ServerRun{Name: c.ID, Approved: approvedNow(st, c), Enabled: dig(cfg, "plugins", id, "mcp_servers", c.ID, "enabled") != false}
		if installed && r.Enabled && !r.Approved {
			s.Problems = append(s.Problems, Problem{"runs-unapproved", observed + " starts the MCP server " + c.ID + " of " + id + ", which is not approved now (" + string(orUnreviewed(st.Authorization)) + "); run `vouch enforce sync`"})
		}
		s.Servers = append(s.Servers, r)
	}
}

// judgeProjects looks at the projects the user trusts: Codex [Version] reads a trusted
// project's .codex/config.toml over the user's, and there [plugins."P@vouch".mcp_servers.S]
// enabled = true starts a server vouch switched off (observed; an untrusted project's file
// did not). It also names another install of the plugin that such a file enables.
func judgeProjects(pkg *model.Package, statuses map[string]trust.Status, cfg map[string]any, id string, s *PluginStatus) {
	projects, _ := cfg["projects"].(map[string]any)
	dirs := make([]string, 0, len(projects))
	for dir, v := range projects {
		if t, _ := v.(map[string]any); t["trust_level"] == "trusted" {
			dirs = append(dirs, dir)
		}
	}
	sort.Strings(dirs)
	for _, dir := range dirs {
		p := filepath.Join(dir, ".codex", "config.toml")
		doc, err := readConfig(p)
		if err != nil {
			s.Problems = append(s.Problems, Problem{"project-unreadable", "the trusted project's " + p + " cannot be read, so what it turns on is unknown: " + err.Error()})
			continue
		}
		for _, c := range pkg.Components {
			if c.Kind != model.KindMCPServer {
				continue
			}
			st := statuses[pkg.Ref(c)]
			if dig(doc, "plugins", id, "mcp_servers", c.ID, "enabled") == true && !approvedNow(st, c) {
				s.Problems = append(s.Problems, Problem{"project-override", "the trusted project's " + p + " turns the MCP server " + c.ID + " of " + id + " back on, and " + observed + " starts it although it is not approved now; remove that table or stop trusting the project"})
			}
		}
		plugins, _ := doc["plugins"].(map[string]any)
		for k, v := range plugins {
			if strings.HasPrefix(k, pkg.Name+"@") && k != id {
				if t, _ := v.(map[string]any); t["enabled"] == true {
					s.Problems = append(s.Problems, Problem{"project-override", "the trusted project's " + p + " enables " + k + ", an install vouch does not stage"})
				}
			}
		}
	}
}
