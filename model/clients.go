package model

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The stable ids of the clients vouch answers for. They are the keys of a report's
// support map and Support.Provider in every format, so a consumer reads one spelling per
// client whatever the package's format.
const (
	ClientClaudeCode    = "claude-code"
	ClientCodex         = "codex"
	ClientClaudeDesktop = "claude-desktop"
	ClientPi            = "pi"
	ClientDSH           = "dsh"
	ClientLola          = "lola"
	ClientSplice        = "splice"
)

// Client is one entry of the registry: what vouch calls a client, what people call it,
// which of its releases vouch's rules model, and where it keeps its own files.
type Client struct {
	ID   string
	Name string
	// Versions are the releases whose behaviour vouch's rules were observed on, oldest
	// first. A rule that changed between two of them is keyed by version (see AtLeast).
	// Empty for a client vouch knows from a published description only.
	Versions []string
	// Basis names what the answers rest on when there is no observed release: a spec
	// revision or the tooling the rules come from.
	Basis string
	// HomeEnv is the environment variable that moves the client's home, HomeDir the
	// default home under the user's home directory. Both empty for a client whose files
	// vouch never reads.
	HomeEnv, HomeDir string
}

// Newest is the newest modelled release (or the basis when none was observed): what a
// loader answers for when it is not told which release the user has.
func (c Client) Newest() string {
	if len(c.Versions) == 0 {
		return c.Basis
	}
	return c.Versions[len(c.Versions)-1]
}

// Models reports whether v is one of the releases vouch's rules were observed on.
func (c Client) Models(v string) bool {
	for _, m := range c.Versions {
		if m == v {
			return true
		}
	}
	return false
}

// The client releases vouch's rules name: the ones observed (the registry's Versions)
// and the ones a rule is keyed by. Loaders name a release only through these, never with
// a version string of their own, so every release vouch states is written here once.
const (
	ClaudeCodeDalo = "2.1.233" // the release Dalo's hook rules rest on
	ClaudeCode328  = "2.1.328" // the first release the native-plugin rules were observed on
	ClaudeCode331  = "2.1.331" // reads optionalDependencies (from its release notes; not run)
	ClaudeCode332  = "2.1.332" // runs PreSkillShellCommand hooks
	CodexDalo      = "0.147.0" // the release Dalo's hook rules rest on
	Codex169       = "0.169.0" // the first release the native-plugin rules were observed on
	Codex171       = "0.171.0"
)

// registry is the one list of clients; everything else that names a client asks it.
var registry = []Client{
	{ID: ClientClaudeCode, Name: "Claude Code", Versions: []string{ClaudeCodeDalo, ClaudeCode328, ClaudeCode332}, HomeEnv: "CLAUDE_CONFIG_DIR", HomeDir: ".claude"},
	{ID: ClientCodex, Name: "Codex", Versions: []string{CodexDalo, Codex169, Codex171}, HomeEnv: "CODEX_HOME", HomeDir: ".codex"},
	{ID: ClientClaudeDesktop, Name: "Claude Desktop", Basis: "mcpb 2.1.2"},
	{ID: ClientPi, Name: "Pi", Basis: "agent-plugins 1.0.0"},
	{ID: ClientDSH, Name: "DSH", Basis: "agent-plugins 1.0.0"},
	{ID: ClientLola, Name: "Lola", Basis: "agent-plugins 1.0.0"},
	{ID: ClientSplice, Name: "Splice", Basis: "spec 1"},
}

// Since lists the modelled releases of the client from since on, oldest first: the
// releases a rule observed on since holds for.
func (c Client) Since(since string) []string {
	var out []string
	for _, v := range c.Versions {
		if AtLeast(v, since) {
			out = append(out, v)
		}
	}
	return out
}

// Releases names, for a sentence, the modelled releases of client id from since on:
// "Codex 0.169.0 and 0.171.0", "Claude Code 2.1.332".
func Releases(id, since string) string {
	c, _ := LookupClient(id)
	vs := c.Since(since)
	switch len(vs) {
	case 0:
		return ClientName(id) + " " + since
	case 1:
		return ClientName(id) + " " + vs[0]
	}
	return ClientName(id) + " " + strings.Join(vs[:len(vs)-1], ", ") + " and " + vs[len(vs)-1]
}

// ClientAt names, for a sentence whose client stays its singular subject, the client id
// with its modelled releases from since on: "Claude Code (2.1.328 and 2.1.332) refuses
// the manifest" reads as Releases does, without changing the verb.
func ClientAt(id, since string) string {
	name := ClientName(id)
	return name + " (" + strings.TrimPrefix(Releases(id, since), name+" ") + ")"
}

// Clients returns the registry, in a stable order.
func Clients() []Client { return append([]Client(nil), registry...) }

// LookupClient returns the registry entry for id.
func LookupClient(id string) (Client, bool) {
	for _, c := range registry {
		if c.ID == id {
			return c, true
		}
	}
	return Client{}, false
}

// ClientName is the display name of id ("Claude Code" for claude-code); an id the
// registry does not hold is shown as given.
func ClientName(id string) string {
	if c, ok := LookupClient(id); ok {
		return c.Name
	}
	return id
}

// ClientLabel names a client at a release in prose: "Claude Code 2.1.332".
func ClientLabel(id, version string) string {
	if version == "" {
		return ClientName(id)
	}
	return ClientName(id) + " " + version
}

// Home is the client's home directory: $HomeEnv when set, else HomeDir under the user's
// home. It reads the environment through getenv so callers and tests can supply their own.
func (c Client) Home(getenv func(string) string) (string, error) {
	if c.HomeEnv == "" {
		return "", errors.New(c.Name + " keeps no files vouch reads")
	}
	if getenv == nil {
		getenv = os.Getenv
	}
	if h := getenv(c.HomeEnv); h != "" {
		return h, nil
	}
	// $HOME through getenv first, so a caller's environment decides both variables.
	home := getenv("HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return "", errors.New("cannot find " + c.Name + "'s home: $" + c.HomeEnv + " is not set and " + err.Error())
		}
		home = h
	}
	return filepath.Join(home, c.HomeDir), nil
}

// ClaudeConfigDir is Claude Code's home: $CLAUDE_CONFIG_DIR, default ~/.claude.
func ClaudeConfigDir() (string, error) {
	c, _ := LookupClient(ClientClaudeCode)
	return c.Home(nil)
}

// CodexHome is Codex's home: $CODEX_HOME, default ~/.codex.
func CodexHome() (string, error) {
	c, _ := LookupClient(ClientCodex)
	return c.Home(nil)
}

// AtLeast reports whether release v is min or newer, comparing dotted numbers
// ("2.1.332" >= "2.1.328"). A version that does not parse is treated as the newest, since
// a client newer than every modelled release is the likelier reading of a strange string.
func AtLeast(v, min string) bool {
	a, okA := versionParts(v)
	b, okB := versionParts(min)
	if !okA || !okB {
		return !okA
	}
	for i := 0; i < len(a) || i < len(b); i++ {
		var x, y int
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return x > y
		}
	}
	return true
}

func versionParts(v string) ([]int, bool) {
	v = strings.TrimPrefix(strings.TrimSpace(v), "v")
	if i := strings.IndexAny(v, "-+"); i >= 0 {
		v = v[:i]
	}
	if v == "" {
		return nil, false
	}
	fs := strings.Split(v, ".")
	out := make([]int, len(fs))
	for i, f := range fs {
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 {
			return nil, false
		}
		out[i] = n
	}
	return out, true
}
