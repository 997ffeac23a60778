package codex

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"vouch/model"
	"vouch/review/fsguard"
)

// Codex's own trust, read-only, so a reviewer sees it next to vouch's. Codex 0.169 keeps
// per-hook trust in $CODEX_HOME/config.toml (Codex source hook_trust.rs, discovery.rs):
//
//	[hooks.state."<plugin>@<marketplace>:<source>:<event_label>:<group>:<handler>"]
//	trusted_hash = "sha256:<definition>"
//	trusted_content_hash = "sha256:<content>"
//	enabled = false   # optional
//
// The key's tail and the definition hash are computed exactly by this package (each hook
// contract holds them as codex_key and codex_definition_hash; the test tables check them
// against Codex's hooks/list). The content hash is Codex's digest of the plugin's files;
// vouch does not reproduce it, so a hook whose definition Codex trusts is reported as
// "trusted" with the caveat that Codex also re-checks the plugin's files.
//
// Exporting a vouch approval into Codex later is a write of that same table: the key from
// codex_key with the installed <plugin>@<marketplace> prefix, trusted_hash from
// codex_definition_hash (bound by the approval's digest, so approving means approving
// exactly what Codex hashes), and trusted_content_hash once the content digest is
// reproduced (or read from hooks/list of the installed copy). Nothing here writes.

// MaxConfigSize bounds the read of config.toml.
const MaxConfigSize = 4 << 20

// Codex trust statuses as hooks/list names them, plus what vouch adds.
const (
	TrustTrusted = "trusted" // the definition hash equals trusted_hash and no content hash is recorded
	// TrustDefinition: the definition hash equals trusted_hash and a trusted_content_hash is
	// recorded, which vouch cannot recompute: Codex says trusted when the plugin's files
	// are unchanged since, modified otherwise.
	TrustDefinition   = "definition-trusted"
	TrustModified     = "modified"      // a trusted_hash exists for another definition: Codex skips the hook
	TrustUntrusted    = "untrusted"     // no trusted_hash: Codex skips the hook
	TrustNotInstalled = "not-installed" // config.toml enables no plugin of this name
)

// HookState is one [hooks.state."<key>"] table.
type HookState struct {
	TrustedHash        string `toml:"trusted_hash"`
	TrustedContentHash string `toml:"trusted_content_hash"`
	Enabled            *bool  `toml:"enabled"`
}

// Config is the part of Codex's config.toml that trust needs.
type Config struct {
	Path    string
	States  map[string]HookState
	Plugins []string // installed plugin ids, "<plugin>@<marketplace>", sorted
}

// Home returns $CODEX_HOME, else ~/.codex.
func Home() string {
	if h, err := model.CodexHome(); err == nil {
		return h
	}
	return ".codex"
}

// ReadConfig reads <home>/config.toml, bounded. A missing file is an empty config; a
// FIFO or anything else that is not a regular file is refused without waiting on it.
func ReadConfig(home string) (*Config, error) {
	cfg := &Config{Path: filepath.Join(home, "config.toml"), States: map[string]HookState{}}
	data, _, err := fsguard.ReadUserFile(cfg.Path, MaxConfigSize+1)
	if errors.Is(err, fs.ErrNotExist) {
		return cfg, nil
	}
	if err != nil {
		return nil, err
	}
	if len(data) > MaxConfigSize {
		return nil, errors.New(cfg.Path + " is larger than 4 MiB")
	}
	return cfg, ParseConfig(data, cfg)
}

// ParseConfig decodes config.toml text into cfg. Keys are matched exactly, as Codex's
// serde reader matches them: decoding into a Go struct would let "[HOOKS.state]" or
// "TRUSTED_HASH" stand for the real keys (the TOML library falls back to matching field
// names ignoring case), so the text is decoded into maps and read by exact name.
func ParseConfig(data []byte, cfg *Config) error {
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err != nil {
		return err
	}
	hooks, err := table(doc, "hooks")
	if err != nil {
		return err
	}
	states, err := table(hooks, "state")
	if err != nil {
		return fmt.Errorf("hooks.%w", err)
	}
	for k, v := range states {
		st, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("hooks.state.%q is not a table", k)
		}
		hs, err := hookState(st)
		if err != nil {
			return fmt.Errorf("hooks.state.%q: %w", k, err)
		}
		cfg.States[k] = hs
	}
	plugins, err := table(doc, "plugins")
	if err != nil {
		return err
	}
	for id := range plugins {
		cfg.Plugins = append(cfg.Plugins, id)
	}
	sort.Strings(cfg.Plugins)
	return nil
}

// table is the table named exactly key in t: nil when absent, an error when key holds
// something else.
func table(t map[string]any, key string) (map[string]any, error) {
	v, ok := t[key]
	if !ok {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s is not a table", key)
	}
	return m, nil
}

func hookState(t map[string]any) (HookState, error) {
	var hs HookState
	for key, dst := range map[string]*string{"trusted_hash": &hs.TrustedHash, "trusted_content_hash": &hs.TrustedContentHash} {
		if v, ok := t[key]; ok {
			s, ok := v.(string)
			if !ok {
				return hs, fmt.Errorf("%s is not a string", key)
			}
			*dst = s
		}
	}
	if v, ok := t["enabled"]; ok {
		b, ok := v.(bool)
		if !ok {
			return hs, errors.New("enabled is not a boolean")
		}
		hs.Enabled = &b
	}
	return hs, nil
}

// HookTrust is Codex's answer for one hook of one installed plugin.
type HookTrust struct {
	Ref            string `json:"ref"`
	Key            string `json:"key"`
	DefinitionHash string `json:"definition_hash"`
	Status         string `json:"status"`
	Enabled        bool   `json:"enabled"`
	Detail         string `json:"detail"`
}

// Trust computes, for every command hook of a Codex package, the trust key Codex uses for
// each installed copy (every [plugins."<name>@<marketplace>"] in config.toml; or the
// marketplace the package was loaded from) and whether Codex currently trusts it.
func Trust(pkg *model.Package, cfg *Config) []HookTrust {
	if pkg.Format != model.FormatCodex {
		return nil
	}
	return trustAt(pkg, cfg, answeredFor(pkg))
}

// answeredFor is the Codex release pkg's support answers are for (the installed one when
// the caller found it), which the trust sentences name.
func answeredFor(pkg *model.Package) string {
	for _, c := range pkg.Components {
		for _, s := range c.Support {
			if s.Provider == ClientCodex && s.Version != "" {
				return s.Version
			}
		}
	}
	return CodexVersion
}

func trustAt(pkg *model.Package, cfg *Config, release string) []HookTrust {
	at := model.ClientLabel(ClientCodex, release)
	var ids []string
	for _, id := range cfg.Plugins {
		if strings.HasPrefix(id, pkg.Name+"@") {
			ids = append(ids, id)
		}
	}
	var out []HookTrust
	for _, c := range pkg.Components {
		if c.Kind != model.KindHook || c.Contract == nil {
			continue
		}
		tail, _ := c.Contract.Fields.Get("codex_key")
		def, _ := c.Contract.Fields.Get("codex_definition_hash")
		ts, _ := tail.(string)
		ds, _ := def.(string)
		if ds == "" {
			continue // no Codex identity (not a command or mcp_tool hook)
		}
		if len(ids) == 0 {
			out = append(out, HookTrust{Ref: pkg.Ref(c), Key: pkg.Name + "@<marketplace>:" + ts, DefinitionHash: ds, Status: TrustNotInstalled, Enabled: true,
				Detail: "Codex's config.toml enables no plugin named " + pkg.Name + "; once installed, " + at + " runs this hook only after it is trusted."})
			continue
		}
		for _, id := range ids {
			key := id + ":" + ts
			out = append(out, judge(pkg.Ref(c), key, ds, cfg.States[key], cfg.States, at))
		}
	}
	return out
}

// judge settles one trust key; at names the Codex release the sentences are about.
func judge(ref, key, def string, st HookState, all map[string]HookState, at string) (t HookTrust) {
	t = HookTrust{Ref: ref, Key: key, DefinitionHash: def, Enabled: true}
	if _, ok := all[key]; !ok {
		t.Status, t.Detail = TrustUntrusted, "No [hooks.state] entry: "+at+" lists the hook as untrusted and does not run it."
		return t
	}
	defer func() {
		if st.Enabled != nil && !*st.Enabled {
			t.Enabled = false
			t.Detail += " The entry sets enabled = false: " + at + " does not run it whatever its trust."
		}
	}()
	switch {
	case st.TrustedHash == "":
		t.Status, t.Detail = TrustUntrusted, "The entry has no trusted_hash: "+at+" does not run the hook."
	case st.TrustedHash != def:
		t.Status, t.Detail = TrustModified, "Codex trusted another definition ("+st.TrustedHash+"): the hook changed since, and "+at+" skips it until it is trusted again."
	case st.TrustedContentHash == "":
		t.Status, t.Detail = TrustTrusted, "Codex trusts this definition (no trusted_content_hash is recorded, so "+at+" checks the definition only)."
	default:
		t.Status, t.Detail = TrustDefinition, "Codex trusts this definition; it also re-checks the plugin's files against trusted_content_hash "+st.TrustedContentHash+", which vouch does not recompute: an edited plugin file makes "+at+" report it modified."
	}
	return t
}

// ExportEntry is the [hooks.state] entry that would make Codex trust an approved hook's
// definition for the installed plugin pluginID ("<plugin>@<marketplace>"): the key and the
// trusted_hash, both taken from the approved contract, so an export writes exactly what
// the person approved. ok is false for components that have no Codex definition hash
// (prompt and agent handlers, which Codex skips, and other kinds). The
// trusted_content_hash is left to a later step (see the package comment); without it
// Codex checks the definition only [obs].
func ExportEntry(c *model.Component, pluginID string) (key, trustedHash string, ok bool) {
	if c == nil || c.Kind != model.KindHook || c.Contract == nil {
		return "", "", false
	}
	tail, _ := c.Contract.Fields.Get("codex_key")
	def, _ := c.Contract.Fields.Get("codex_definition_hash")
	ts, _ := tail.(string)
	ds, _ := def.(string)
	if ts == "" || ds == "" {
		return "", "", false
	}
	return pluginID + ":" + ts, ds, true
}

// TrustOfClaude is Trust for a Claude Code plugin that Codex installs as it is: a folder
// with .claude-plugin/plugin.json and no .codex-plugin/plugin.json, whose manifest, hooks
// and servers Codex reads in place of its own. Codex keys and hashes such a plugin's hooks
// as any other plugin's (<plugin>@<marketplace>:hooks/hooks.json:<event>:<g>:<h>), so the
// folder's Codex reading is loaded and each of its hooks' trust is given to the Claude
// Code hook of the same file, event, group and handler. Nil for any other package.
func TrustOfClaude(pkg *model.Package, cfg *Config, limits fsguard.Limits) []HookTrust {
	if pkg.Format != model.FormatClaudeCode || pkg.Root == "" {
		return nil
	}
	// Where Codex reads its own manifest the folder's Codex package has its own answer;
	// where there is no manifest at all Codex installs no plugin from it.
	cp := Load(pkg.Root, Options{Limits: limits})
	if cp.Rejected || cp.Name != pkg.Name || !hasDiag(cp, "codex-reads-claude-manifest") || hasDiag(cp, "codex-manifest-shadowed") {
		return nil
	}
	claude := map[string]*model.Component{}
	for _, c := range pkg.Components {
		if c.Kind == model.KindHook {
			claude[hookPlace(c, "file")] = c
		}
	}
	var out []HookTrust
	for _, h := range trustAt(cp, cfg, answeredFor(pkg)) {
		_, id, _ := strings.Cut(h.Ref, "#"+string(model.KindHook)+":")
		cc := cp.Component(model.KindHook, id)
		if cc == nil {
			continue
		}
		if c := claude[hookPlace(cc, "source")]; c != nil {
			h.Ref = pkg.Ref(c)
			out = append(out, h)
		}
	}
	return out
}

// hookPlace names a hook handler by what both readings of a plugin share: its file (the
// detail named fileKey), its event, and its group and handler numbers (the last two
// parts of the id in either format).
func hookPlace(c *model.Component, fileKey string) string {
	file, _ := c.Details.Get(fileKey)
	event, _ := c.Details.Get("event")
	parts := strings.Split(c.ID, ":")
	if len(parts) < 2 {
		return ""
	}
	return fmt.Sprint(file) + "\x00" + fmt.Sprint(event) + "\x00" + strings.Join(parts[len(parts)-2:], ":")
}

func hasDiag(p *model.Package, code string) bool {
	for _, d := range p.Diagnostics {
		if d.Code == code {
			return true
		}
	}
	return false
}
