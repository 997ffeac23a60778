package claude

import (
	"encoding/json"
	"fmt"

	"vouch/enforce"
	"vouch/model"
	"vouch/review/claudecode"
	"vouch/review/jsontext"
)

// denyOption is the state key of what deny-unapproved changed, for allow to undo.
const denyOption = "deny-unapproved"

// denyRecord is what DenyUnapproved added to the user settings.
type denyRecord struct {
	Servers []string                   `json:"servers"` // deniedMcpServers serverName values added
	Enabled map[string]json.RawMessage `json:"enabled"` // enabledPlugins ids turned off, with their values before
}

// DenyResult says what DenyUnapproved did.
type DenyResult struct {
	Servers  []string
	Disabled []string
}

// DenyUnapproved makes the user settings refuse what vouch does not vouch for, among
// the plugins installed outside vouch: a deniedMcpServers entry {"serverName":
// "plugin:P:S"} for each of their MCP servers not approved now (the form Claude Code
// [Version] honours; the server never starts, and a project file cannot undo it), and
// enabledPlugins false for each such plugin. A plugin vouch enforces is left alone: its
// servers' names are the staged copy's too.
func DenyUnapproved(env *enforce.Env, p Paths) (*DenyResult, error) {
	if err := checkSettings(p); err != nil {
		return nil, err
	}
	res, st, err := outsideVouch(env, p)
	if err != nil {
		return nil, err
	}
	var old denyRecord
	if raw := st.Option(ClientID, denyOption); raw != "" {
		_ = json.Unmarshal([]byte(raw), &old)
	}
	if old.Enabled == nil {
		old.Enabled = map[string]json.RawMessage{}
	}
	err = editSettings(p, func(o *jsonObject) error {
		added, err := addDenied(o, p.Settings, res.Servers)
		if err != nil {
			return err
		}
		for _, s := range added {
			if !contains(old.Servers, s) {
				old.Servers = append(old.Servers, s)
			}
		}
		for _, id := range res.Disabled {
			prev, err := setEnabled(o, p.Settings, id, []byte("false"))
			if err != nil {
				return err
			}
			if _, kept := old.Enabled[id]; !kept {
				old.Enabled[id] = prev
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	rec, _ := json.Marshal(old)
	return res, enforce.UpdateState(env.Layout, func(s *enforce.State) error {
		s.SetOption(ClientID, denyOption, string(rec))
		return nil
	})
}

// addDenied appends {"serverName": name} to deniedMcpServers for each name not there yet.
func addDenied(o *jsonObject, file string, names []string) ([]string, error) {
	elems, have, err := deniedEntries(o, file)
	if err != nil {
		return nil, err
	}
	var added []string
	for _, n := range names {
		if !have[n] {
			elems = append(elems, []byte(`{"serverName": `+string(quote(n))+`}`))
			added = append(added, n)
		}
	}
	if len(added) > 0 {
		o.set("deniedMcpServers", renderArray(elems, 1))
	}
	return added, nil
}

// deniedEntries are deniedMcpServers' elements as written, and the serverName of each.
func deniedEntries(o *jsonObject, file string) ([][]byte, map[string]bool, error) {
	have := map[string]bool{}
	m := o.get("deniedMcpServers")
	if m == nil {
		return nil, have, nil
	}
	if m.val.Kind != jsontext.Array {
		return nil, nil, fmt.Errorf("%s has deniedMcpServers as %s, not a list; fix it by hand", file, m.val.Kind)
	}
	v := reparse(m.raw)
	var elems [][]byte
	for _, e := range v.Arr {
		raw, err := valueText(m.raw, e.Off)
		if err != nil {
			return nil, nil, err
		}
		elems = append(elems, raw)
		if e.Kind == jsontext.Object {
			if sn := e.Get("serverName"); sn != nil && sn.Val.Kind == jsontext.String {
				have[sn.Val.Str] = true
			}
		}
	}
	return elems, have, nil
}

// Allow undoes DenyUnapproved: the deniedMcpServers entries it added are removed and the
// plugins it turned off get their values back. Entries the user wrote stay.
func Allow(env *enforce.Env, p Paths) (*DenyResult, error) {
	if err := checkSettings(p); err != nil {
		return nil, err
	}
	st, err := enforce.LoadState(env.Layout)
	if err != nil {
		return nil, err
	}
	var rec denyRecord
	if raw := st.Option(ClientID, denyOption); raw != "" {
		if err := json.Unmarshal([]byte(raw), &rec); err != nil {
			return nil, fmt.Errorf("the record of deny-unapproved in %s is damaged: %w", env.Layout.StateFile(), err)
		}
	}
	res := &DenyResult{Servers: rec.Servers}
	err = editSettings(p, func(o *jsonObject) error {
		if len(rec.Servers) > 0 {
			elems, _, err := deniedEntries(o, p.Settings)
			if err != nil {
				return err
			}
			kept := elems[:0]
			for _, e := range elems {
				v := reparse(e)
				if v != nil && v.Kind == jsontext.Object {
					if sn := v.Get("serverName"); sn != nil && len(v.Obj) == 1 && contains(rec.Servers, sn.Val.Str) {
						continue
					}
				}
				kept = append(kept, e)
			}
			if len(kept) == 0 {
				o.delete("deniedMcpServers")
			} else {
				o.set("deniedMcpServers", renderArray(kept, 1))
			}
		}
		for _, id := range sortedKeys(rec.Enabled) {
			var raw []byte
			if v := rec.Enabled[id]; string(v) != "null" {
				raw = v
			}
			if _, err := setEnabled(o, p.Settings, id, raw); err != nil {
				return err
			}
			res.Disabled = append(res.Disabled, id)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, enforce.UpdateState(env.Layout, func(s *enforce.State) error {
		if s.Options[ClientID] != nil {
			delete(s.Options[ClientID], denyOption)
		}
		return nil
	})
}

// outsideVouch finds the plugins installed outside vouch that vouch does not enforce,
// and their MCP servers not approved now, as "plugin:P:S".
func outsideVouch(env *enforce.Env, p Paths) (*DenyResult, *enforce.State, error) {
	st, err := enforce.LoadState(env.Layout)
	if err != nil {
		return nil, nil, err
	}
	var installs []claudecode.Installation
	if claudecode.IsInstallDir(p.Plugins) {
		installs, _ = claudecode.ReadInstallations(p.Plugins, []string{p.Settings})
	}
	res := &DenyResult{}
	seen := map[string]bool{}
	for _, in := range installs {
		if in.Marketplace == Marketplace || st.Plugin(ClientID, in.Name) != nil {
			continue
		}
		if !seen[in.ID] {
			seen[in.ID] = true
			res.Disabled = append(res.Disabled, in.ID)
		}
		pkg, err := loadPlugin(env, in.Folder)
		if err != nil {
			// A plugin vouch cannot read has no approved server: its servers cannot be
			// named, but the plugin is turned off.
			continue
		}
		sts, err := env.Trust.Statuses(pkg)
		if err != nil {
			return nil, nil, err
		}
		for _, c := range pkg.Components {
			if c.Kind != model.KindMCPServer || sts[pkg.Ref(c)].Authorization == model.Approved {
				continue
			}
			name := "plugin:" + in.Name + ":" + c.ID
			if !seen[name] {
				seen[name] = true
				res.Servers = append(res.Servers, name)
			}
		}
	}
	sortStrings(res.Servers)
	sortStrings(res.Disabled)
	return res, st, nil
}
