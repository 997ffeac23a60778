package codex

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"vouch/enforce"
	"vouch/model"
	rcodex "vouch/review/codex"
)

// ClientID is Codex's id in reports and in the enforcement record.
const ClientID = model.ClientCodex

// Enforcer is Codex's enforcement as "vouch enforce sync" and "status" drive it, and the
// record keeping around Add and Remove that the enforcement record needs.
type Enforcer struct{}

var _ enforce.Client = Enforcer{}

// ID implements enforce.Client.
func (Enforcer) ID() string { return ClientID }

// EnvOptions are the plain inputs of Add, Remove and Sync for env: vouch's home, Codex's
// home, and the codex program (env.ClientCLI, else codex on PATH).
func EnvOptions(env *enforce.Env, partial bool) (Options, error) {
	cli, err := FindClient(env.ClientCLI)
	if err != nil {
		return Options{}, err
	}
	return Options{VouchHome: env.Trust.Home(), CodexHome: rcodex.Home(), Client: cli, Partial: partial}, nil
}

// PackageIn is the Codex reading of a folder (a Claude Code plugin's too).
func PackageIn(env *enforce.Env, dir string) (*model.Package, error) {
	pkgs, err := env.Load(dir)
	if err != nil {
		return nil, err
	}
	abs, _ := filepath.Abs(dir)
	for _, p := range pkgs {
		if p.Format == model.FormatCodex && (p.Root == abs || len(pkgs) == 1) {
			return p, nil
		}
	}
	for _, p := range pkgs {
		if p.Format == model.FormatCodex {
			return p, nil
		}
	}
	return nil, fmt.Errorf("%s holds no plugin Codex reads (.codex-plugin/plugin.json or .claude-plugin/plugin.json)", dir)
}

// AddEnforced records the intent, adds, and records the result: a crash in between
// leaves an "adding" entry that status reports.
func AddEnforced(env *enforce.Env, pkg *model.Package, o Options) (*Added, error) {
	l := NewLayout(o.VouchHome)
	var before *enforce.Entry
	err := enforce.UpdateState(env.Layout, func(s *enforce.State) error {
		before = s.Plugin(ClientID, pkg.Name)
		if before == nil {
			s.Put(ClientID, &enforce.Entry{Name: pkg.Name, Source: pkg.Root, Package: pkg.Name, Format: pkg.Format,
				Staged: l.PluginDir(pkg.Name), Digests: map[string]string{}, Phase: enforce.PhaseAdding, At: time.Now().UTC()})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	res, err := Add(env.Trust, pkg, o)
	var missing *MissingError
	if errors.As(err, &missing) && before == nil {
		enforce.UpdateState(env.Layout, func(s *enforce.State) error { s.Delete(ClientID, pkg.Name); return nil })
	}
	if err != nil {
		return nil, err
	}
	return res, recordEnforced(env, pkg, l, pkg.Root, o.Partial)
}

// recordExtra is Codex's own part of an enforcement record: whether the plugin was added
// with --partial, so that sync applies the same rule.
type recordExtra struct {
	Partial bool `json:"partial"`
}

func extraOf(e *enforce.Entry) recordExtra {
	var x recordExtra
	if len(e.Extra) > 0 {
		json.Unmarshal(e.Extra, &x) // vouch's own record; a damaged one reads as the default rule
	}
	return x
}

// recordEnforced writes the enforced entry with the digests now staged. source is the
// folder reviewed ("" keeps the recorded one: a sync that kept the staged bytes).
func recordEnforced(env *enforce.Env, pkg *model.Package, l Layout, source string, partial bool) error {
	statuses, err := env.Trust.Statuses(pkg)
	if err != nil {
		return err
	}
	digests := map[string]string{}
	for ref, st := range statuses {
		if st.Authorization == model.Approved {
			digests[ref] = st.Digest
		}
	}
	extra, _ := json.Marshal(recordExtra{Partial: partial})
	return enforce.UpdateState(env.Layout, func(s *enforce.State) error {
		e := s.Plugin(ClientID, pkg.Name)
		if e == nil {
			e = &enforce.Entry{Name: pkg.Name, Package: pkg.Name, Format: pkg.Format}
		}
		if source != "" {
			e.Source = source
		}
		e.Staged, e.Digests, e.Phase, e.At, e.Extra = l.PluginDir(pkg.Name), digests, enforce.PhaseEnforced, time.Now().UTC(), extra
		s.Put(ClientID, e)
		return nil
	})
}

// RemoveEnforced marks the plugin as being removed, removes it, and forgets it once
// Remove is done (a remove that must wait for a command the user runs stays recorded).
func RemoveEnforced(env *enforce.Env, name string, o Options) (*Removed, error) {
	err := enforce.UpdateState(env.Layout, func(s *enforce.State) error {
		if e := s.Plugin(ClientID, name); e != nil {
			e.Phase = enforce.PhaseRemoving
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	res, err := Remove(name, o)
	if err != nil || !res.Done {
		return res, err
	}
	return res, enforce.UpdateState(env.Layout, func(s *enforce.State) error { s.Delete(ClientID, name); return nil })
}

// Sync implements enforce.Client: every enforced plugin is synced in turn, and one that
// fails does not stop the others.
func (Enforcer) Sync(env *enforce.Env) ([]enforce.Change, error) {
	st, err := enforce.LoadState(env.Layout)
	if err != nil {
		return nil, err
	}
	o, err := EnvOptions(env, false)
	if err != nil {
		return nil, err
	}
	var changes []enforce.Change
	var first error
	for _, e := range st.Entries(ClientID) {
		ch, err := syncEntry(env, e, o)
		if err != nil {
			ch = enforce.Change{Plugin: e.Name, Action: "failed", Detail: err.Error()}
			if first == nil {
				first = fmt.Errorf("%s: %w", e.Name, err)
			}
		}
		changes = append(changes, ch)
	}
	return changes, first
}

func syncEntry(env *enforce.Env, e *enforce.Entry, o Options) (enforce.Change, error) {
	o.Partial = extraOf(e).Partial
	var src *model.Package
	if pkg, err := PackageIn(env, e.Source); err == nil && pkg.Name == e.Name {
		src = pkg
	}
	res, err := Sync(env.Trust, src, e.Name, o)
	if err != nil {
		return enforce.Change{}, err
	}
	ch := enforce.Change{Plugin: e.Name, Action: res.Action, Detail: res.Detail}
	switch {
	case res.Removed != nil && res.Removed.Done:
		err = enforce.UpdateState(env.Layout, func(s *enforce.State) error { s.Delete(ClientID, e.Name); return nil })
	case res.Removed != nil:
		ch.Detail += "; run " + strings.Join(res.Removed.Commands, "; ")
	case res.Added != nil:
		pkg, source := src, ""
		if res.FromStaged {
			pkg = rcodex.Load(e.Staged, rcodex.Options{Marketplace: Marketplace})
		} else {
			source = src.Root
		}
		err = recordEnforced(env, pkg, NewLayout(o.VouchHome), source, o.Partial)
		if len(res.Added.Commands) > 0 {
			ch.Detail += "; run " + strings.Join(res.Added.Commands, "; ")
		}
	}
	return ch, err
}

// Status implements enforce.Client: each enforced plugin as Codex's own files say it
// will run, with a half-done add or remove as a problem of its own.
func (Enforcer) Status(env *enforce.Env) (*enforce.Report, error) {
	st, err := enforce.LoadState(env.Layout)
	if err != nil {
		return nil, err
	}
	o := Options{VouchHome: env.Trust.Home(), CodexHome: rcodex.Home()}
	r := &enforce.Report{Client: ClientID}
	for _, e := range st.Entries(ClientID) {
		s := StatusOf(env.Trust, e.Name, o)
		ps := enforce.PluginStatus{Name: e.Name, Source: e.Source, Staged: s.Staged, State: "enforced"}
		for _, p := range s.Problems {
			ps.Problems = append(ps.Problems, enforce.Problem{Code: p.Code, Subject: e.Name, Message: p.Message})
		}
		switch {
		case e.Phase == enforce.PhaseAdding || e.Phase == enforce.PhaseRemoving:
			ps.State = "pending"
			ps.Problems = append(ps.Problems, enforce.Problem{Code: "half-done", Subject: e.Name, Message: "an " + e.Phase + " of " + e.Name + " did not finish; run it again"})
		case len(ps.Problems) > 0:
			ps.State = "broken"
		}
		r.Plugins = append(r.Plugins, ps)
	}
	sort.Slice(r.Plugins, func(i, j int) bool { return r.Plugins[i].Name < r.Plugins[j].Name })
	return r, nil
}
