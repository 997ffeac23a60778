package claude

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"vouch/enforce"
	"vouch/review/claudecode"
)

// AddResult says what Add did.
type AddResult struct {
	Name     string
	Staged   string
	Files    int
	Disabled []string // other installs of the plugin turned off
}

// ResolveSource turns add's SOURCE into a plugin folder: a folder as it is, or
// NAME@MARKETPLACE of a plugin Claude Code has installed, as "status --claude" finds
// it (the folder Claude reads it from).
func ResolveSource(p Paths, source string) (string, error) {
	if !strings.Contains(source, "@") || strings.ContainsRune(source, filepath.Separator) {
		return filepath.Abs(source)
	}
	installs, _ := claudecode.ReadInstallations(p.Plugins, []string{p.Settings})
	for _, in := range installs {
		if in.ID == source {
			return in.Folder, nil
		}
	}
	return "", fmt.Errorf("%s is not a plugin Claude Code has installed in %s (vouch status --claude lists them)", source, p.Plugins)
}

// Add stages the plugin at folder into vouch's marketplace and makes Claude Code load
// it from there only. The plan must pass (every runnable component approved now, every
// file Claude reads bound), else *Refused. The intent is recorded first, so a crash
// part way leaves a record "enforce status" reports as a half-done add.
func Add(env *enforce.Env, p Paths, folder string, g Guard) (*AddResult, error) {
	pkg, err := loadPlugin(env, folder)
	if err != nil {
		return nil, err
	}
	if err := checkName(pkg.Name); err != nil {
		return nil, err
	}
	plan, err := enforce.MakePlan(env.Trust, pkg, presentReads(pkg.Root))
	if err != nil {
		return nil, err
	}
	if !plan.OK() {
		return nil, &Refused{Plan: plan}
	}
	// Nothing is written before the client's files are known to parse as vouch needs
	// them.
	if err := checkSettings(p); err != nil {
		return nil, err
	}
	ids, err := installedIDs(p)
	if err != nil {
		return nil, err
	}
	name, dir := pkg.Name, PluginDir(env.Layout, pkg.Name)
	entry := &enforce.Entry{Name: name, Source: pkg.Root, Package: pkg.Name, Format: pkg.Format, Staged: dir,
		Digests: plan.Digests, Phase: enforce.PhaseAdding, At: now()}
	var names []string
	strict := g.Strict
	err = enforce.UpdateState(env.Layout, func(s *enforce.State) error {
		if old := s.Plugin(ClientID, name); old != nil {
			entry.Restore = old.Restore
		}
		s.Put(ClientID, entry)
		if g.Strict {
			s.SetOption(ClientID, "strict", "true")
		}
		s.SetOption(ClientID, "guard-program", g.Program)
		strict = s.Option(ClientID, "strict") == "true"
		for _, e := range s.Entries(ClientID) {
			names = append(names, e.Name)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	g.Strict = strict
	staged, err := env.Trust.StageDigests(enforce.DigestList(plan.Digests), dir, true)
	if err != nil {
		return nil, err
	}
	if err := writeGuard(env.Layout, g); err != nil {
		return nil, err
	}
	if err := writeMarketplace(env.Layout, names); err != nil {
		return nil, err
	}
	res := &AddResult{Name: name, Staged: dir, Files: len(staged.Files)}
	if err := install(env, p, ids, name); err != nil {
		return nil, err
	}
	restore := map[string]json.RawMessage{}
	err = editSettings(p, func(o *jsonObject) error {
		others := othersOf(o, ids, name)
		for _, id := range others {
			prev, err := setEnabled(o, p.Settings, id, []byte("false"))
			if err != nil {
				return err
			}
			restore["enabledPlugins/"+id] = prev
		}
		res.Disabled = others
		for _, id := range []string{name + "@" + Marketplace, GuardName + "@" + Marketplace} {
			if _, err := setEnabled(o, p.Settings, id, []byte("true")); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = enforce.UpdateState(env.Layout, func(s *enforce.State) error {
		e := s.Plugin(ClientID, name)
		if e == nil {
			return fmt.Errorf("the enforcement record of %s vanished during add; run add again", name)
		}
		if e.Restore == nil {
			e.Restore = map[string]json.RawMessage{}
		}
		for k, v := range restore {
			if _, kept := e.Restore[k]; !kept { // the value before vouch's first add
				e.Restore[k] = v
			}
		}
		e.Phase, e.At = enforce.PhaseEnforced, now()
		return nil
	})
	return res, err
}

// othersOf are the ids of name's installs or settings entries outside vouch's
// marketplace.
func othersOf(settings *jsonObject, installed []string, name string) []string {
	seen := map[string]bool{}
	var out []string
	consider := func(id string) {
		n, m, ok := strings.Cut(id, "@")
		if ok && n == name && m != Marketplace && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	for _, id := range installed {
		consider(id)
	}
	if ep := settings.get("enabledPlugins"); ep != nil && ep.val.Obj != nil {
		for _, m := range ep.val.Obj {
			consider(m.Key)
		}
	}
	sortStrings(out)
	return out
}

// install registers vouch's marketplace and installs the guard and the plugin with
// Claude Code's own commands, each only when Claude does not already have it.
func install(env *enforce.Env, p Paths, ids []string, name string) error {
	cli := newCLI(env)
	if !knownMarketplace(p, Marketplace) {
		if err := cli.run("plugin", "marketplace", "add", MarketplaceDir(env.Layout)); err != nil {
			return err
		}
	}
	for _, id := range []string{GuardName + "@" + Marketplace, name + "@" + Marketplace} {
		if !contains(ids, id) {
			if err := cli.run("plugin", "install", id); err != nil {
				return err
			}
		}
	}
	return nil
}

// Remove undoes Add for name: uninstalls NAME@vouch, puts back every settings value
// vouch changed for it (the original install turned on again), deletes the staged
// folder and forgets the plugin.
func Remove(env *enforce.Env, p Paths, name string) error {
	st, err := enforce.LoadState(env.Layout)
	if err != nil {
		return err
	}
	e := st.Plugin(ClientID, name)
	if e == nil {
		return fmt.Errorf("%s is not enforced in Claude Code (vouch enforce status lists what is)", name)
	}
	if err := checkSettings(p); err != nil {
		return err
	}
	if err := enforce.UpdateState(env.Layout, func(s *enforce.State) error {
		if e := s.Plugin(ClientID, name); e != nil {
			e.Phase = enforce.PhaseRemoving
		}
		return nil
	}); err != nil {
		return err
	}
	ids, err := installedIDs(p)
	if err != nil {
		return err
	}
	if contains(ids, name+"@"+Marketplace) {
		if err := newCLI(env).run("plugin", "uninstall", name+"@"+Marketplace); err != nil {
			return err
		}
	}
	err = editSettings(p, func(o *jsonObject) error {
		for _, k := range sortedKeys(e.Restore) {
			id, ok := strings.CutPrefix(k, "enabledPlugins/")
			if !ok {
				continue
			}
			var raw []byte
			if v := e.Restore[k]; string(v) != "null" {
				raw = v
			}
			if _, err := setEnabled(o, p.Settings, id, raw); err != nil {
				return err
			}
		}
		_, err := setEnabled(o, p.Settings, name+"@"+Marketplace, nil)
		return err
	})
	if err != nil {
		return err
	}
	if err := removeFolder(PluginDir(env.Layout, name)); err != nil {
		return err
	}
	var names []string
	err = enforce.UpdateState(env.Layout, func(s *enforce.State) error {
		s.Delete(ClientID, name)
		for _, e := range s.Entries(ClientID) {
			names = append(names, e.Name)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return writeMarketplace(env.Layout, names)
}

// checkSettings reads the user settings as an edit would, without writing.
func checkSettings(p Paths) error {
	o, _, err := readObject(p.Settings)
	if err != nil {
		return err
	}
	_, err = o.child(p.Settings, "enabledPlugins")
	return err
}
