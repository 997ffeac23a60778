package agentplugins

import (
	"fmt"
	"strings"

	"vouch/model"
)

// The three client profiles vouch reports support for. What each supports comes from its
// published conformance notes (seeds 001 DSH, 003 Lola, 004 Pi).
const (
	clientDSH  = "DSH"
	clientLola = "Lola"
	clientPi   = "Pi"
)

var clients = []string{clientDSH, clientLola, clientPi}

func unsupportedEverywhere(detail string) []model.Support {
	out := make([]model.Support, len(clients))
	for i, c := range clients {
		out[i] = model.Support{Provider: c, Status: model.NotSupported, Detail: detail}
	}
	return out
}

// serverSupport answers "can this client run it as declared" for a valid server entry.
//   - DSH: stdio; streamable-http only without configured headers (its MCP client cannot
//     keep headers from following a cross-origin redirect); sse is not supported.
//   - Lola: adapts every valid entry into its module; its ADR names no unsupported transport.
//   - Pi: stdio; streamable-http only without headers and without pi-mcp-adapter
//     environment-expression syntax in the URL; sse is not supported.
func serverSupport(typ string, headers int, url string) []model.Support {
	dsh := model.Support{Provider: clientDSH, Status: model.Supported}
	lola := model.Support{Provider: clientLola, Status: model.Supported, Detail: "Lola adapts valid entries into its module; its ADR lists no unsupported transport."}
	pi := model.Support{Provider: clientPi, Status: model.Supported}
	switch typ {
	case "streamable-http":
		if headers > 0 {
			dsh = model.Support{Provider: clientDSH, Status: model.NotSupported, Detail: "DSH skips remote entries with configured headers: it cannot stop them following a cross-origin redirect."}
			pi = model.Support{Provider: clientPi, Status: model.NotSupported, Detail: "Pi validates but does not activate remote entries with configured headers (no redirect-policy hook in pi-mcp-adapter)."}
		} else if strings.Contains(url, "${") || strings.Contains(url, "$env:") || strings.Contains(url, "{env:") {
			pi = model.Support{Provider: clientPi, Status: model.NotSupported, Detail: "Pi skips URLs with environment-expression syntax, which pi-mcp-adapter would expand."}
		}
	case "sse":
		dsh = model.Support{Provider: clientDSH, Status: model.NotSupported, Detail: "DSH does not run the legacy HTTP+SSE transport; the entry is skipped without fallback."}
		pi = model.Support{Provider: clientPi, Status: model.NotSupported, Detail: "Pi does not support the legacy HTTP+SSE transport; the entry is skipped."}
	}
	return []model.Support{dsh, lola, pi}
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
func extensionSupport(ns string, readers []string, hasData bool) []model.Support {
	out := make([]model.Support, 0, len(clients))
	for _, c := range clients {
		s := model.Support{Provider: c, Status: model.NotApplicable, Detail: c + " ignores this namespace without validating it."}
		for _, r := range readers {
			if r != c {
				continue
			}
			switch {
			case !hasData:
				s.Detail = fmt.Sprintf("%s reads this namespace only from the manifest's extensions object; plugin.json declares nothing under %q, so the %s/ directory is not read.", c, ns, ns)
			case c == clientLola:
				s = model.Support{Provider: c, Status: model.Supported, Detail: "Lola reads commands, agents and instructions paths from this namespace."}
			default:
				s = model.Support{Provider: c, Status: model.Supported, Detail: c + " reads this namespace."}
			}
		}
		out = append(out, s)
	}
	return out
}
