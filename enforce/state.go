package enforce

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"time"

	"vouch/internal/atomicfile"
	"vouch/model"
)

// Phases of an enforced plugin. An add writes its intent (PhaseAdding) before it
// touches anything, and PhaseEnforced only once every step is done, so a crash in
// between leaves a record that Status reports as a half-done add, and that the next
// add or remove of the same plugin finishes or undoes.
const (
	PhaseAdding   = "adding"
	PhaseEnforced = "enforced"
	PhaseRemoving = "removing"
)

// maxStateFile bounds the state file: it lists plugins, not their content.
const maxStateFile = 16 << 20

// State is the record of what vouch enforces, per client and plugin name.
type State struct {
	Version int                          `json:"version"`
	Clients map[string]map[string]*Entry `json:"clients"`
	// Options are a client's own settings of enforcement (Claude's guard in strict
	// mode, say), by client and name.
	Options map[string]map[string]string `json:"options,omitempty"`
}

// Option returns a client's option ("" when unset).
func (s *State) Option(client, key string) string { return s.Options[client][key] }

// SetOption records a client's option.
func (s *State) SetOption(client, key, value string) {
	if s.Options == nil {
		s.Options = map[string]map[string]string{}
	}
	if s.Options[client] == nil {
		s.Options[client] = map[string]string{}
	}
	s.Options[client][key] = value
}

// Entry is one enforced plugin of one client.
type Entry struct {
	Name    string       `json:"name"`    // the plugin's name, as the client installs it
	Source  string       `json:"source"`  // the folder it was reviewed and staged from
	Package string       `json:"package"` // the package name the ledger's refs use
	Format  model.Format `json:"format"`
	Staged  string       `json:"staged"` // the folder the client reads
	// Digests are the approved digests staged, by component ref: the bytes in Staged.
	Digests map[string]string `json:"digests"`
	Phase   string            `json:"phase"`
	At      time.Time         `json:"at"`
	// Restore holds what vouch changed in the client's files for this plugin (another
	// install turned off, say), each key with its value before ("null" when absent), so
	// remove can put it back.
	Restore map[string]json.RawMessage `json:"restore,omitempty"`
	// Extra is the client's own record (a subpackage's, opaque here).
	Extra json.RawMessage `json:"extra,omitempty"`
}

// Plugin returns the entry of a client's plugin, or nil.
func (s *State) Plugin(client, name string) *Entry {
	if s == nil || s.Clients == nil {
		return nil
	}
	return s.Clients[client][name]
}

// Put records an entry.
func (s *State) Put(client string, e *Entry) {
	if s.Clients == nil {
		s.Clients = map[string]map[string]*Entry{}
	}
	if s.Clients[client] == nil {
		s.Clients[client] = map[string]*Entry{}
	}
	s.Clients[client][e.Name] = e
}

// Delete forgets a client's plugin.
func (s *State) Delete(client, name string) {
	if s.Clients != nil {
		delete(s.Clients[client], name)
	}
}

// Entries lists a client's plugins by name.
func (s *State) Entries(client string) []*Entry {
	var out []*Entry
	for _, e := range s.Clients[client] {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// LoadState reads the state file; a missing file is an empty state. A file that does
// not parse is an error naming it: vouch never guesses what it enforces.
func LoadState(l Layout) (*State, error) {
	data, err := atomicfile.ReadRegular(l.StateFile(), maxStateFile)
	if errors.Is(err, os.ErrNotExist) {
		return &State{Version: 1}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read the enforcement record %s: %w", l.StateFile(), err)
	}
	return parseState(l.StateFile(), data)
}

func parseState(path string, data []byte) (*State, error) {
	var s State
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("the enforcement record %s is damaged (%v); restore it or remove it and add the plugins again", path, err)
	}
	for c, es := range s.Clients {
		for name, e := range es {
			if e == nil || e.Name != name {
				return nil, fmt.Errorf("the enforcement record %s is damaged (the entry %q of %s does not name itself); restore it or remove it and add the plugins again", path, name, c)
			}
		}
	}
	if s.Version != 1 {
		return nil, fmt.Errorf("the enforcement record %s has version %d; this vouch reads version 1", path, s.Version)
	}
	return &s, nil
}

// UpdateState changes the state file under its lock: it is read afresh, handed to
// change, and written atomically.
func UpdateState(l Layout, change func(*State) error) error {
	return atomicfile.Edit(l.StateFile(), l.StateFile()+".lock", maxStateFile, 0o600, func(old []byte, exists bool) ([]byte, error) {
		s := &State{Version: 1}
		if exists {
			var err error
			if s, err = parseState(l.StateFile(), old); err != nil {
				return nil, err
			}
		}
		if err := change(s); err != nil {
			return nil, err
		}
		out, err := json.MarshalIndent(s, "", "  ")
		if err != nil {
			return nil, err
		}
		return append(out, '\n'), nil
	})
}
