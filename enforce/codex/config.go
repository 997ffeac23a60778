package codex

import (
	"bytes"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// Marketplace is the name of vouch's own Codex marketplace: a plugin installed as
// P@vouch came from bytes vouch staged.
const Marketplace = "vouch"

// HookEntry is one [hooks.state."KEY"] table vouch writes: Codex [Version] runs the hook
// only while both hashes match, and with the content hash present it never pins a
// baseline of its own (trust on first use).
type HookEntry struct {
	Key                string // <plugin>@vouch:<hooks file>:<event>:<group>:<handler>
	TrustedHash        string // the definition hash
	TrustedContentHash string // the plugin fingerprint of the staged folder
}

// Entries is everything vouch owns in config.toml for one enforced plugin.
type Entries struct {
	PluginID   string      // "<plugin>@vouch"
	Hooks      []HookEntry // approved hooks, by key
	ServersOff []string    // MCP servers that are not approved: enabled = false
}

// ConfigError says config.toml could not be edited safely; the file is left as it was.
type ConfigError struct {
	Path   string
	Reason string
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("%s was not changed: %s", e.Path, e.Reason)
}

// owned reports whether a table header (its key segments) belongs to vouch for the plugin
// pluginID: the hook-trust tables of that plugin's hooks and the tables of its MCP servers.
// Every other table, and every key outside these tables, is the user's or Codex's.
func owned(key []string, pluginID string) bool {
	switch {
	case len(key) == 3 && key[0] == "hooks" && key[1] == "state":
		return strings.HasPrefix(key[2], pluginID+":")
	case len(key) == 4 && key[0] == "plugins" && key[1] == pluginID && key[2] == "mcp_servers":
		return true
	}
	return false
}

// EditConfig returns config.toml text with vouch's tables for e.PluginID replaced by e
// (an Entries with no hooks and no servers removes them all). Everything else keeps its
// bytes, comments and order: the file is edited as text, never re-encoded, because a TOML
// encoder would drop the user's comments. The new tables go where the first old one was,
// or at the end. The text is parsed before (a file that does not parse is refused) and
// after, and every key and value that vouch does not own must be the same in both, or
// nothing is written.
func EditConfig(path string, old []byte, e Entries) ([]byte, error) {
	before, err := decodeTOML(old)
	if err != nil {
		return nil, &ConfigError{path, "it is not valid TOML (" + oneLine(err.Error()) + "); fix it by hand and run this again"}
	}
	secs, err := splitSections(old)
	if err != nil {
		return nil, &ConfigError{path, err.Error()}
	}
	var out bytes.Buffer
	inserted := false
	insert := func() {
		block := renderEntries(e)
		if block == "" {
			return
		}
		if out.Len() > 0 && !bytes.HasSuffix(out.Bytes(), []byte("\n")) {
			out.WriteByte('\n')
		}
		if out.Len() > 0 && !bytes.HasSuffix(out.Bytes(), []byte("\n\n")) {
			out.WriteByte('\n')
		}
		out.WriteString(block)
	}
	for _, s := range secs {
		if s.header != nil && owned(s.header, e.PluginID) {
			if !inserted {
				insert()
				inserted = true
			}
			out.Write(old[s.keepFrom:s.end]) // the comments that lead into the next table
			continue
		}
		out.Write(old[s.start:s.end])
	}
	if !inserted {
		insert()
	}
	next := out.Bytes()
	after, err := decodeTOML(next)
	if err != nil {
		return nil, &ConfigError{path, "it defines vouch's tables for " + e.PluginID + " in a form vouch does not edit (a dotted key or an inline table: " + oneLine(err.Error()) + "); remove those keys by hand and run this again"}
	}
	if !reflect.DeepEqual(foreign(before, e.PluginID), foreign(after, e.PluginID)) {
		return nil, &ConfigError{path, "the edit would have changed keys vouch does not own for " + e.PluginID + " (they are written as dotted keys or inline tables); move them into their own tables and run this again"}
	}
	if err := checkOwned(after, e); err != nil {
		return nil, &ConfigError{path, err.Error()}
	}
	return next, nil
}

// renderEntries writes e's tables, each followed by a blank line, in a stable order.
func renderEntries(e Entries) string {
	var b strings.Builder
	hooks := append([]HookEntry(nil), e.Hooks...)
	sort.Slice(hooks, func(i, j int) bool { return hooks[i].Key < hooks[j].Key })
	for _, h := range hooks {
		fmt.Fprintf(&b, "[hooks.state.%s]\ntrusted_hash = %s\ntrusted_content_hash = %s\n\n", tomlKey(h.Key), tomlString(h.TrustedHash), tomlString(h.TrustedContentHash))
	}
	servers := append([]string(nil), e.ServersOff...)
	sort.Strings(servers)
	for _, s := range servers {
		fmt.Fprintf(&b, "[plugins.%s.mcp_servers.%s]\nenabled = false\n\n", tomlKey(e.PluginID), tomlKey(s))
	}
	return b.String()
}

// checkOwned re-reads what was written: exactly e's tables, nothing else of vouch's.
func checkOwned(doc map[string]any, e Entries) error {
	states, _ := dig(doc, "hooks", "state").(map[string]any)
	n := 0
	for k := range states {
		if strings.HasPrefix(k, e.PluginID+":") {
			n++
		}
	}
	if n != len(e.Hooks) {
		return fmt.Errorf("after the edit it holds %d hook-trust tables of %s, not the %d vouch wrote", n, e.PluginID, len(e.Hooks))
	}
	for _, h := range e.Hooks {
		st, _ := states[h.Key].(map[string]any)
		if st["trusted_hash"] != h.TrustedHash || st["trusted_content_hash"] != h.TrustedContentHash || len(st) != 2 {
			return fmt.Errorf("after the edit the trust of %s is not what vouch wrote", h.Key)
		}
	}
	servers, _ := dig(doc, "plugins", e.PluginID, "mcp_servers").(map[string]any)
	if len(servers) != len(e.ServersOff) {
		return fmt.Errorf("after the edit it holds %d server tables of %s, not the %d vouch wrote", len(servers), e.PluginID, len(e.ServersOff))
	}
	for _, s := range e.ServersOff {
		if t, _ := servers[s].(map[string]any); t["enabled"] != false || len(t) != 1 {
			return fmt.Errorf("after the edit the server %s of %s is not switched off as vouch wrote", s, e.PluginID)
		}
	}
	return nil
}

func decodeTOML(data []byte) (map[string]any, error) {
	doc := map[string]any{}
	if _, err := toml.Decode(string(data), &doc); err != nil {
		return nil, err
	}
	return doc, nil
}

func dig(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// foreign is a copy of the decoded document without vouch's tables for pluginID, with
// tables left empty by that removed, so two documents compare on what others own.
func foreign(doc map[string]any, pluginID string) map[string]any {
	c := deepCopy(doc).(map[string]any)
	if states, ok := dig(c, "hooks", "state").(map[string]any); ok {
		for k := range states {
			if strings.HasPrefix(k, pluginID+":") {
				delete(states, k)
			}
		}
	}
	if p, ok := dig(c, "plugins", pluginID).(map[string]any); ok {
		if s, ok := p["mcp_servers"].(map[string]any); ok {
			for k, v := range s {
				if _, table := v.(map[string]any); table {
					delete(s, k)
				}
			}
		}
	}
	prune(c)
	return c
}

func deepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			m[k] = deepCopy(e)
		}
		return m
	case []map[string]any:
		s := make([]any, len(t))
		for i, e := range t {
			s[i] = deepCopy(e)
		}
		return s
	case []any:
		s := make([]any, len(t))
		for i, e := range t {
			s[i] = deepCopy(e)
		}
		return s
	}
	return v
}

// prune drops tables that hold nothing (the parents of removed vouch tables).
func prune(m map[string]any) {
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok {
			prune(sub)
			if len(sub) == 0 {
				delete(m, k)
			}
		}
	}
}

// tomlKey writes one key segment: bare when TOML allows it, else a basic string.
func tomlKey(s string) string {
	if s != "" && strings.Trim(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") == "" {
		return s
	}
	return tomlString(s)
}

// tomlString writes a TOML basic string; control characters are \u escapes.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\r", " ")
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}
