package claude

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"vouch/enforce"
	"vouch/internal/atomicfile"
	"vouch/model"
)

// Client is Claude Code's enforcement as "vouch enforce sync" and "status" drive it.
type Client struct{}

// ID implements enforce.Client.
func (Client) ID() string { return ClientID }

// identity is the package the ledgers rate an entry's refs under: its name and format,
// and its source folder (where a team ledger is found).
func identity(e *enforce.Entry) *model.Package {
	return &model.Package{Name: e.Package, Format: e.Format, Root: e.Source}
}

// Sync implements enforce.Client: each enforced plugin is re-planned from its source;
// a plugin fully approved now is staged with what is approved now; one whose source
// changed without a new approval keeps the bytes it was staged with while they stay
// approved; one with a staged component no longer approved loses its folder, so Claude
// loads nothing of it from the next session on.
func (Client) Sync(env *enforce.Env) ([]enforce.Change, error) {
	st, err := enforce.LoadState(env.Layout)
	if err != nil {
		return nil, err
	}
	var changes []enforce.Change
	var firstErr error
	fail := func(name string, err error) {
		changes = append(changes, enforce.Change{Plugin: name, Action: "failed", Detail: err.Error()})
		if firstErr == nil {
			firstErr = fmt.Errorf("%s: %w", name, err)
		}
	}
	p, perr := PathsFrom(env.Getenv)
	for _, e := range st.Entries(ClientID) {
		if e.Phase != enforce.PhaseEnforced {
			changes = append(changes, enforce.Change{Plugin: e.Name, Action: "unchanged", Detail: "its " + e.Phase + " did not finish; run add or remove again"})
			continue
		}
		ch, err := syncOne(env, e)
		if err != nil {
			fail(e.Name, err)
			continue
		}
		changes = append(changes, ch)
		if perr != nil {
			fail(e.Name, perr)
		} else if ch, err := syncSettings(env, p, e); err != nil {
			fail(e.Name, err)
		} else if ch != nil {
			changes = append(changes, *ch)
		}
	}
	return changes, firstErr
}

// syncSettings turns off again, in the user's settings, any other install of an
// enforced plugin that was turned back on, and keeps NAME@vouch enabled; the values
// from before vouch's first change stay recorded for remove.
func syncSettings(env *enforce.Env, p Paths, e *enforce.Entry) (*enforce.Change, error) {
	ids, err := installedIDs(p)
	if err != nil {
		return nil, err
	}
	var turnedOff []string
	restore := map[string]json.RawMessage{}
	err = editSettings(p, func(o *jsonObject) error {
		turnedOff = nil
		for _, id := range othersOf(o, ids, e.Name) {
			if present, on := enabledValue(o, id); present && !on {
				continue
			}
			prev, err := setEnabled(o, p.Settings, id, []byte("false"))
			if err != nil {
				return err
			}
			restore["enabledPlugins/"+id] = prev
			turnedOff = append(turnedOff, id+" false")
		}
		if present, on := enabledValue(o, e.Name+"@"+Marketplace); !present || !on {
			if _, err := setEnabled(o, p.Settings, e.Name+"@"+Marketplace, []byte("true")); err != nil {
				return err
			}
			turnedOff = append(turnedOff, e.Name+"@"+Marketplace+" true")
		}
		if len(turnedOff) == 0 {
			return atomicfile.ErrUnchanged
		}
		return nil
	})
	if err != nil || len(turnedOff) == 0 {
		return nil, err
	}
	if err := enforce.UpdateState(env.Layout, func(s *enforce.State) error {
		if cur := s.Plugin(ClientID, e.Name); cur != nil {
			if cur.Restore == nil {
				cur.Restore = map[string]json.RawMessage{}
			}
			for k, v := range restore {
				if _, kept := cur.Restore[k]; !kept {
					cur.Restore[k] = v
				}
			}
		}
		return nil
	}); err != nil {
		return nil, err
	}
	return &enforce.Change{Plugin: e.Name, Action: "settings", Detail: "in " + p.Settings + ": " + strings.Join(turnedOff, ", ")}, nil
}

func syncOne(env *enforce.Env, e *enforce.Entry) (enforce.Change, error) {
	dir := PluginDir(env.Layout, e.Name)
	if pkg, err := loadPlugin(env, e.Source); err == nil && pkg.Name == e.Package {
		if plan, err := enforce.MakePlan(env.Trust, pkg, presentReads(pkg.Root)); err == nil && plan.OK() {
			if sameDigests(plan.Digests, e.Digests) {
				if bad, err := env.Trust.CheckStaged(enforce.DigestList(e.Digests), dir); err == nil && len(bad) == 0 {
					return enforce.Change{Plugin: e.Name, Action: "unchanged"}, nil
				}
			}
			if _, err := env.Trust.StageDigests(enforce.DigestList(plan.Digests), dir, true); err != nil {
				return enforce.Change{}, err
			}
			err := enforce.UpdateState(env.Layout, func(s *enforce.State) error {
				if cur := s.Plugin(ClientID, e.Name); cur != nil {
					cur.Digests, cur.At = plan.Digests, now()
				}
				return nil
			})
			return enforce.Change{Plugin: e.Name, Action: "staged", Detail: "the approved bytes of " + pkg.Root}, err
		}
	}
	gone, err := enforce.StillApproved(env.Trust, identity(e), e.Digests)
	if err != nil {
		return enforce.Change{}, err
	}
	if len(gone) > 0 {
		if err := removeFolder(dir); err != nil {
			return enforce.Change{}, err
		}
		return enforce.Change{Plugin: e.Name, Action: "removed", Detail: "no longer approved: " + strings.Join(gone, ", ") + "; " + observed + " loads nothing of it from the next session on"}, nil
	}
	// The source changed (or is gone) and nothing staged was revoked: the staged bytes
	// stay, restored from the store if the folder was damaged.
	bad, err := env.Trust.CheckStaged(enforce.DigestList(e.Digests), dir)
	if err != nil {
		return enforce.Change{}, err
	}
	if len(bad) == 0 {
		return enforce.Change{Plugin: e.Name, Action: "unchanged", Detail: "its source is not approved as it is now; the approved bytes staged before keep running"}, nil
	}
	if _, err := env.Trust.StageDigests(enforce.DigestList(e.Digests), dir, true); err != nil {
		return enforce.Change{}, err
	}
	return enforce.Change{Plugin: e.Name, Action: "staged", Detail: "restored from the store: " + bad[0]}, nil
}

func sameDigests(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// Status implements enforce.Client.
func (Client) Status(env *enforce.Env) (*enforce.Report, error) {
	p, err := PathsFrom(env.Getenv)
	if err != nil {
		return nil, err
	}
	st, err := enforce.LoadState(env.Layout)
	if err != nil {
		return nil, err
	}
	cwd, _ := os.Getwd()
	sc, err := Scan(p, cwd, st)
	if err != nil {
		return nil, err
	}
	r := &enforce.Report{Client: ClientID}
	for _, e := range st.Entries(ClientID) {
		r.Plugins = append(r.Plugins, pluginStatus(env, sc, e))
	}
	r.Problems = append(r.Problems, sc.Problems()...)
	r.Problems = append(r.Problems, guardProblems(env.Layout, st)...)
	return r, nil
}

// guardProblems checks the guard is there to run: Claude Code lets an MCP call through
// when a PreToolUse hook's program is missing, so a moved vouch program or a removed
// guard folder is a way around enforcement.
func guardProblems(l enforce.Layout, st *enforce.State) []enforce.Problem {
	if len(st.Entries(ClientID)) == 0 {
		return nil
	}
	var out []enforce.Problem
	if _, err := os.Stat(filepath.Join(PluginDir(l, GuardName), "hooks", "hooks.json")); err != nil {
		out = append(out, enforce.Problem{Code: "guard-missing", Subject: GuardName, Message: fmt.Sprintf("the guard plugin's hooks are missing from %s; run vouch enforce claude add again", PluginDir(l, GuardName))})
	}
	if prog := st.Option(ClientID, "guard-program"); prog != "" {
		if info, err := os.Stat(prog); err != nil || info.Mode()&0o111 == 0 {
			out = append(out, enforce.Problem{Code: "guard-program-missing", Subject: prog, Message: fmt.Sprintf("the guard runs %s, which is not an executable program here, and "+observed+" lets a call through when a hook cannot run; run vouch enforce claude add again with this vouch", prog)})
		}
	}
	return out
}

func pluginStatus(env *enforce.Env, sc *Scanned, e *enforce.Entry) enforce.PluginStatus {
	ps := enforce.PluginStatus{Name: e.Name, Source: e.Source, Staged: e.Staged, State: "enforced"}
	bad := func(code, msg string) {
		if ps.State != "pending" {
			ps.State = "broken"
		}
		ps.Problems = append(ps.Problems, enforce.Problem{Code: code, Subject: e.Name, Message: msg})
	}
	if e.Phase != enforce.PhaseEnforced {
		ps.State = "pending"
		op := map[string]string{enforce.PhaseAdding: "add", enforce.PhaseRemoving: "remove"}[e.Phase]
		if op == "" {
			op = e.Phase
		}
		ps.Problems = append(ps.Problems, enforce.Problem{Code: "half-done-" + op, Subject: e.Name,
			Message: fmt.Sprintf("the %s of %s did not finish (recorded %s); run vouch enforce claude add %s again, or vouch enforce claude remove %s", op, e.Name, e.At.Format("2006-01-02 15:04 UTC"), e.Source, e.Name)})
	}
	if gone, err := enforce.StillApproved(env.Trust, identity(e), e.Digests); err != nil {
		bad("ledger", err.Error())
	} else if len(gone) > 0 {
		if _, err := os.Lstat(e.Staged); err == nil {
			bad("staged-not-approved", fmt.Sprintf("%s is staged with %s, no longer approved; run vouch enforce sync", e.Name, strings.Join(gone, ", ")))
		} else {
			ps.State = "withdrawn"
			ps.Problems = append(ps.Problems, enforce.Problem{Code: "withdrawn", Subject: e.Name, Message: fmt.Sprintf("%s is not staged: %s is no longer approved, so "+observed+" loads nothing of it", e.Name, strings.Join(gone, ", "))})
		}
		return ps
	}
	if mism, err := env.Trust.CheckStaged(enforce.DigestList(e.Digests), e.Staged); err != nil {
		bad("store", err.Error())
	} else if len(mism) > 0 {
		bad("staged-differs", fmt.Sprintf("the staged folder of %s no longer matches the store: %s; run vouch enforce sync", e.Name, strings.Join(mism, "; ")))
	}
	id := e.Name + "@" + Marketplace
	if !sc.installed(id) {
		bad("not-installed", fmt.Sprintf("Claude Code has not installed %s; run claude plugin install %s", id, id))
	} else if on, by := sc.enabled(id); !on {
		bad("not-enabled", fmt.Sprintf("%s is turned off (%s)", id, orNone(by)))
	}
	for _, other := range sc.Installs {
		if other.Name == e.Name && other.Marketplace != Marketplace && other.Enabled {
			bad("other-install-enabled", fmt.Sprintf("%s is enabled by %s, so "+observed+" also loads it from %s, a folder vouch did not stage", other.ID, other.EnabledBy, other.Folder))
		}
	}
	return ps
}

func orNone(s string) string {
	if s == "" {
		return "no settings file enables it"
	}
	return "by " + s
}

var _ enforce.Client = Client{}

// settingsFiles are Claude's settings in its precedence, lowest first: user, the
// project's shared and local files, managed.
func settingsFiles(p Paths, cwd string) []string {
	files := []string{p.Settings}
	if cwd != "" {
		files = append(files, filepath.Join(cwd, ".claude", "settings.json"), filepath.Join(cwd, ".claude", "settings.local.json"))
	}
	return append(files, managedSettings)
}

// managedSettings is where Claude Code reads managed settings on Linux (docs).
var managedSettings = "/etc/claude-code/managed-settings.json"
