package agentplugins

import (
	"fmt"
	"strings"
	"sync"

	"vouch/model"
	"vouch/review/internal/prose"
)

// The client profiles vouch reports support for. What each supports comes from its
// published conformance notes (seeds 001 DSH, 003 Lola, 004 Pi) and, for Codex, from what
// Codex was observed to do offline: it reads a root Agent Plugins
// plugin.json (preferring it over .codex-plugin/plugin.json), expands ${PLUGIN_ROOT} and
// ${PLUGIN_DATA} in stdio args, env and cwd, lists no sse server, loads skills whose
// frontmatter has unknown keys, and drops every symlink when it copies a plugin into its
// cache.
const (
	clientDSH   = model.ClientDSH
	clientLola  = model.ClientLola
	clientPi    = model.ClientPi
	clientCodex = model.ClientCodex
	// codexVersion is the Codex release the observations hold for.
	codexVersion = model.Codex169
)

var clients = []string{clientDSH, clientLola, clientPi, clientCodex}

// support builds one client's answer, with the version where vouch pins one.
func support(client string, st model.SupportStatus, detail string) model.Support {
	s := model.Support{Provider: client, Status: st, Detail: detail}
	if client == clientCodex {
		s.Version = codexVersion
	}
	return s
}

func unsupportedEverywhere(detail string) []model.Support {
	out := make([]model.Support, len(clients))
	for i, c := range clients {
		out[i] = support(c, model.NotSupported, detail)
	}
	return out
}

// codexCache is why a component that relies on a symlink is unsupported by Codex.
func codexCache(link string) string {
	return fmt.Sprintf("Codex %s drops every symlink when it copies a plugin into its cache, so %s, which goes through a symlink here, does not exist where Codex loads it.", codexVersion, link)
}

// clientList names clients in prose: "DSH, Lola and Pi"; Codex with its version.
func clientList(cs []string) string {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = model.ClientName(c)
		if c == clientCodex {
			names[i] += " " + codexVersion
		}
	}
	return prose.List(names, "and", "no client")
}

// whoLoads says, from per-client answers, which clients load a component and which skip
// it: "DSH, Lola and Pi skip it; Codex loads it".
func whoLoads(ss []model.Support) string {
	var yes, no []string
	for _, s := range ss {
		switch s.Status {
		case model.Supported:
			yes = append(yes, s.Provider)
		case model.NotSupported:
			no = append(no, s.Provider)
		}
	}
	switch {
	case len(yes) == 0:
		return clientList(no) + " skip it"
	case len(no) == 0:
		return clientList(yes) + " load it"
	}
	verb := "loads"
	if len(yes) > 1 {
		verb = "load"
	}
	return clientList(no) + " skip it; " + clientList(yes) + " " + verb + " it"
}

// serverSupport answers "can this client run it as declared" for a valid server entry.
//   - DSH: stdio; streamable-http only without configured headers (its MCP client cannot
//     keep headers from following a cross-origin redirect); sse is not supported.
//   - Lola: adapts every valid entry into its module; its ADR names no unsupported transport.
//   - Pi: stdio; streamable-http only without headers and without pi-mcp-adapter
//     environment-expression syntax in the URL; sse is not supported.
//   - Codex: stdio and streamable-http; it lists no sse server.
//
// The slice is shared by every server of the same kind (a source of 10,000 plugins holds
// tens of thousands of servers): clone it before changing an entry. Its capacity is its
// length, so an append copies.
func serverSupport(typ string, headers int, url string) []model.Support {
	key := serverSupportKey{typ: typ, headers: headers > 0, envURL: strings.Contains(url, "${") || strings.Contains(url, "$env:") || strings.Contains(url, "{env:")}
	if typ == "streamable-http" && key.headers {
		key.envURL = false // headers decide before the URL is looked at
	}
	if typ != "streamable-http" {
		key.headers, key.envURL = false, false
	}
	if s, ok := sharedServerSupport.Load(key); ok {
		return s.([]model.Support)
	}
	s := newServerSupport(typ, headers, url)
	s = s[:len(s):len(s)]
	sharedServerSupport.Store(key, s)
	return s
}

// serverSupportKey is what serverSupport's answer depends on.
type serverSupportKey struct {
	typ             string
	headers, envURL bool
}

var sharedServerSupport sync.Map // serverSupportKey -> []model.Support

func newServerSupport(typ string, headers int, url string) []model.Support {
	dsh := support(clientDSH, model.Supported, "")
	lola := support(clientLola, model.Supported, "Lola adapts valid entries into its module; its ADR lists no unsupported transport.")
	pi := support(clientPi, model.Supported, "")
	codex := support(clientCodex, model.Supported, "")
	switch typ {
	case "streamable-http":
		if headers > 0 {
			dsh = support(clientDSH, model.NotSupported, "DSH skips remote entries with configured headers: it cannot stop them following a cross-origin redirect.")
			pi = support(clientPi, model.NotSupported, "Pi validates but does not activate remote entries with configured headers (no redirect-policy hook in pi-mcp-adapter).")
		} else if strings.Contains(url, "${") || strings.Contains(url, "$env:") || strings.Contains(url, "{env:") {
			pi = support(clientPi, model.NotSupported, "Pi skips URLs with environment-expression syntax, which pi-mcp-adapter would expand.")
		}
	case "sse":
		dsh = support(clientDSH, model.NotSupported, "DSH does not run the legacy HTTP+SSE transport; the entry is skipped without fallback.")
		pi = support(clientPi, model.NotSupported, "Pi does not support the legacy HTTP+SSE transport; the entry is skipped.")
		codex = support(clientCodex, model.NotSupported, "Codex "+codexVersion+" lists no sse server: the legacy HTTP+SSE entry is not loaded.")
	}
	return []model.Support{dsh, lola, pi, codex}
}

// knownNamespaces labels the extension namespaces a known client reads. Lola reads
// commands, agents and instructions paths from its list, in this compatibility order,
// dev.getlola last and authoritative; Pi reads dev.pi.agent.
var knownNamespaces = []struct {
	NS, Owner string
	Readers   []string
}{
	{"com.anthropic.claude", "Anthropic Claude", []string{clientLola}},
	{"com.anthropic.claude-code", "Anthropic Claude Code", []string{clientLola}},
	{"com.cursor.editor", "Cursor", []string{clientLola}},
	{"com.github.copilot", "GitHub Copilot", []string{clientLola}},
	{"com.google.gemini-cli", "Google Gemini CLI", []string{clientLola}},
	{"com.openai", "OpenAI", []string{clientLola}},
	{"com.openai.codex", "OpenAI Codex", []string{clientLola}},
	{"ai.opencode", "opencode", []string{clientLola}},
	{"dev.getlola", "Lola", []string{clientLola}},
	{"dev.pi.agent", "Pi", []string{clientPi}},
}

func namespaceInfo(ns string) (owner string, readers []string) {
	for _, k := range knownNamespaces {
		if k.NS == ns {
			return k.Owner, k.Readers
		}
	}
	return "", nil
}

// extensionSupport says which client reads a namespace. Pi and Lola read only what the
// manifest's extensions object declares (seeds 003, 004): a namespace directory with no
// manifest data is read by no one, whatever its name.
//
// The slice is shared by every namespace with the same answer: clone it before changing
// an entry (codexNamespace does). Its capacity is its length, so an append copies.
func extensionSupport(ns string, readers []string, hasData bool) []model.Support {
	// What the answer depends on: the readers, whether there is data, a com.openai
	// prefix, and the name itself only in the sentence for a reader with no data.
	key := extSupportKey{readers: strings.Join(readers, "\x00"), hasData: hasData, openai: strings.HasPrefix(ns, "com.openai")}
	if len(readers) > 0 && !hasData {
		key.ns = ns
	}
	if s, ok := sharedExtSupport.Load(key); ok {
		return s.([]model.Support)
	}
	s := newExtensionSupport(ns, readers, hasData)
	s = s[:len(s):len(s)]
	key.ns = strings.Clone(key.ns) // not a slice of plugin.json's text
	sharedExtSupport.Store(key, s)
	return s
}

type extSupportKey struct {
	ns, readers     string
	hasData, openai bool
}

var sharedExtSupport sync.Map // extSupportKey -> []model.Support

func newExtensionSupport(ns string, readers []string, hasData bool) []model.Support {
	out := make([]model.Support, 0, len(clients))
	for _, c := range clients {
		s := support(c, model.NotApplicable, model.ClientName(c)+" ignores this namespace without validating it.")
		if c == clientCodex && strings.HasPrefix(ns, "com.openai") {
			s.Detail = "Codex " + codexVersion + " was not observed reading this namespace; Agent Plugins gives it no meaning."
		}
		for _, r := range readers {
			if r != c {
				continue
			}
			switch {
			case !hasData:
				s.Detail = fmt.Sprintf("%s reads this namespace only from the manifest's extensions object; plugin.json declares nothing under %q, so the %s/ directory is not read.", model.ClientName(c), ns, ns)
			case c == clientLola:
				s = support(c, model.Supported, "Lola reads commands, agents and instructions paths from this namespace.")
			default:
				s = support(c, model.Supported, model.ClientName(c)+" reads this namespace.")
			}
		}
		out = append(out, s)
	}
	return out
}
