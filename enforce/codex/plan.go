package codex

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"vouch/model"
	rcodex "vouch/review/codex"
	"vouch/trust"
)

// Plan is what enforcing one plugin in Codex takes: the approved files to stage and what
// vouch will write into config.toml once the staged folder's fingerprint is known.
type Plan struct {
	Name  string       // the plugin's name, as Codex and the marketplace entry name it
	Files []model.File // every approved file and nothing else, by path
	// Hooks are the approved hooks' trust keys (without the plugin prefix) and
	// definition hashes; hooks not approved get no trust, so Codex does not run them.
	Hooks []HookEntry
	// ServersOff are the MCP servers that are not approved now.
	ServersOff []string
	// Missing lists what is not approved now and stops the plan ("ref (status)").
	Missing []string
	// digests are the approved digests whose closures together are the staged folder.
	digests []string
}

// PlanPlugin decides whether pkg, a Codex plugin (its own manifest, or the Claude Code
// manifest Codex reads), can be enforced with statuses as they are now. Every component
// Codex would use must be approved now; inert data and components Codex does not run
// (unsupported by it) need nothing. With partial, hooks and MCP servers may be left
// unapproved: Codex [Version] has a switch of its own for each (a hook with no trust entry
// is not run; a server with enabled = false does not start), so the client enforces the
// gap. Skills and apps have no such switch and must always be approved. It refuses what Codex's fingerprint
// leaves out or cannot hash, since Codex would run those bytes without binding them.
func PlanPlugin(pkg *model.Package, statuses map[string]trust.Status, partial bool) (*Plan, error) {
	if pkg == nil || pkg.Format != model.FormatCodex {
		return nil, fmt.Errorf("not a Codex plugin (Codex reads a folder with .codex-plugin/plugin.json or .claude-plugin/plugin.json)")
	}
	if pkg.Rejected {
		return nil, fmt.Errorf(observed+" cannot load the plugin %s as it is: review it (vouch review) and fix the errors first", pkg.Name)
	}
	p := &Plan{Name: pkg.Name}
	byPath := map[string]model.File{}
	for _, c := range pkg.Components {
		if c.Kind.Inert() || c.Validity == model.Unsupported {
			continue
		}
		ref := pkg.Ref(c)
		st := statuses[ref]
		if st.Authorization != model.Approved || c.Contract == nil || st.Digest != trust.DigestOf(c) {
			switch {
			case partial && c.Kind == model.KindHook:
			case partial && c.Kind == model.KindMCPServer:
				p.ServersOff = append(p.ServersOff, c.ID)
			default:
				p.Missing = append(p.Missing, ref+" ("+string(orUnreviewed(st.Authorization))+")")
			}
			continue
		}
		p.digests = append(p.digests, st.Digest)
		if c.Kind == model.KindHook {
			if key, def, ok := rcodex.ExportEntry(c, ""); ok {
				p.Hooks = append(p.Hooks, HookEntry{Key: strings.TrimPrefix(key, ":"), TrustedHash: def})
			}
		}
		for _, f := range c.Contract.Files {
			if old, dup := byPath[f.Path]; dup && old != f {
				return nil, fmt.Errorf("the approved contracts of %s disagree about %s; review the plugin again", pkg.Name, f.Path)
			}
			byPath[f.Path] = f
		}
	}
	sort.Strings(p.digests)
	sort.Strings(p.Missing)
	sort.Strings(p.ServersOff)
	if len(p.Missing) > 0 {
		return p, nil
	}
	for _, f := range byPath {
		if err := stageable(f); err != nil {
			return nil, err
		}
		p.Files = append(p.Files, f)
	}
	sort.Slice(p.Files, func(i, j int) bool { return p.Files[i].Path < p.Files[j].Path })
	if len(p.Files) == 0 {
		return nil, fmt.Errorf("nothing of %s is approved, so there are no approved bytes to stage", pkg.Name)
	}
	if !hasManifest(p.Files) {
		return nil, fmt.Errorf("no approval of %s covers its manifest (.codex-plugin/plugin.json or .claude-plugin/plugin.json), so "+observed+" could not load the staged copy; approve a hook or server of it", pkg.Name)
	}
	return p, nil
}

// Entries are the config.toml tables for the staged copy whose fingerprint is given.
func (p *Plan) Entries(fingerprint string) Entries {
	id := p.Name + "@" + Marketplace
	e := Entries{PluginID: id, ServersOff: p.ServersOff}
	for _, h := range p.Hooks {
		e.Hooks = append(e.Hooks, HookEntry{Key: id + ":" + h.Key, TrustedHash: h.TrustedHash, TrustedContentHash: fingerprint})
	}
	return e
}

func orUnreviewed(a model.Authorization) model.Authorization {
	if a == "" {
		return model.Unreviewed
	}
	return a
}

// stageable refuses an entry Codex would run without binding it: a link (Codex cannot
// fingerprint a plugin holding one and skips all its hooks) or a path under a name the
// fingerprint skips (Codex would not notice a change there).
func stageable(f model.File) error {
	if f.IsLink() {
		return fmt.Errorf("%s is a symbolic link: %s cannot fingerprint a plugin holding a link and skips every hook of it; replace the link with the file and approve again", f.Path, model.ClientLabel(model.ClientCodex, Version))
	}
	for _, seg := range strings.Split(f.Path, "/") {
		if SkippedName(seg) {
			return fmt.Errorf("%s is under %q, which %s leaves out of the plugin fingerprint, so Codex would run a changed copy of it without noticing; remove it from the plugin (Python caches and virtual environments are rebuilt at run time) and approve again", f.Path, seg, model.ClientLabel(model.ClientCodex, Version))
		}
	}
	if p := f.Path; p == "" || path.IsAbs(p) || path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../") || strings.ContainsAny(p, "\\\x00") {
		return fmt.Errorf("the approved contract holds the path %q, which cannot be staged", p)
	}
	return nil
}

func hasManifest(files []model.File) bool {
	for _, f := range files {
		if f.Path == ".codex-plugin/plugin.json" || f.Path == ".claude-plugin/plugin.json" {
			return true
		}
	}
	return false
}
