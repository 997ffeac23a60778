// Package netrisk finds, in a command line or a script's text, what reaches the network
// or fetches code to run: a download piped to a shell, wget and curl, package runners
// that fetch a package at run time (npx, bunx, uvx, pnpm dlx), package installs, and the
// URLs and hosts named. It reads text only; nothing is resolved or fetched.
package netrisk

import (
	"sort"
	"strings"

	"vouch/internal/lazyre"
	"vouch/internal/textclip"
)

// Kind is what a finding says the text does.
type Kind string

const (
	// RemoteCode: code is fetched and run (curl … | sh, npx pkg@ver, an install).
	RemoteCode Kind = "remote-code"
	// Network: the text reaches a host (curl, wget, a URL).
	Network Kind = "network"
)

// Finding is one thing found, with the text that shows it.
type Finding struct {
	Kind Kind
	What string // a short description, e.g. "downloads and runs with sh"
	Text string // the matched text, cut to maxText characters and a mark
	Host string // the host named, when there is one
}

// maxInput bounds the text searched: a bundled script larger than this is searched in
// its first maxInput bytes (the caller says so).
const maxInput = 1 << 20

const maxText = 120

// The patterns compile on first use: every command that loads packages imports this
// package, and a console's first frame should not wait for them.
var (
	pipeShell = lazyre.New(`(?i)\b(curl|wget)\b[^|\n;]*\|\s*(sudo\s+)?(ba|z|da|k)?sh\b`)
	fetchCmd  = lazyre.New(`(?i)(^|[\s;&|(` + "`" + `"'])(curl|wget|nc|ncat|ssh|scp|rsync)\s`)
	runner    = lazyre.New(`(?i)(^|[\s;&|(` + "`" + `"'])(npx|bunx|uvx|pipx\s+run|pnpm\s+dlx|yarn\s+dlx|deno\s+run)\s+(-\S+\s+)*([@\w][\w./@-]*)`)
	install   = lazyre.New(`(?i)(^|[\s;&|(` + "`" + `"'])(npm\s+(install|i|ci)|bun\s+(install|add|i)|pnpm\s+(install|add|i)|yarn\s+(install|add)|pip3?\s+install|uv\s+(pip\s+install|add|sync)|go\s+install|cargo\s+install|gem\s+install)\b`)
	urlRe     = lazyre.New(`(?i)\b(https?|wss?|ftp)://([a-z0-9.-]+\.[a-z]{2,}|\[[0-9a-f:]+\]|\d{1,3}(\.\d{1,3}){3})(:\d+)?[^\s"'<>)\]]*`)
)

// Scan returns what text reaches the network or fetches code, remote code first, each
// distinct finding once.
func Scan(text string) []Finding {
	if len(text) > maxInput {
		text = text[:maxInput]
	}
	lines := keyLines(text)
	var out []Finding
	seen := map[string]bool{}
	add := func(f Finding) {
		f.Text = cut(f.Text)
		k := string(f.Kind) + "\x00" + f.What + "\x00" + f.Text
		if !seen[k] {
			seen[k] = true
			out = append(out, f)
		}
	}
	for _, mm := range pipeShell.FindAllStringSubmatch(lines(pipeKeys), -1) {
		m := mm[0]
		add(Finding{Kind: RemoteCode, What: "downloads a script and runs it with a shell", Text: strings.TrimSpace(m), Host: firstHost(m)})
	}
	for _, m := range runner.FindAllStringSubmatch(lines(runnerKeys), -1) {
		add(Finding{Kind: RemoteCode, What: "fetches and runs the package " + m[4] + " at run time (" + strings.Fields(m[2])[0] + ")", Text: strings.TrimSpace(m[0])})
	}
	for _, m := range install.FindAllStringSubmatch(lines(installKeys), -1) {
		add(Finding{Kind: RemoteCode, What: "installs packages from a registry (" + strings.Join(strings.Fields(m[2]), " ") + ")", Text: strings.TrimSpace(m[0])})
	}
	for _, m := range fetchCmd.FindAllStringSubmatch(lines(fetchKeys), -1) {
		add(Finding{Kind: Network, What: "runs " + strings.ToLower(m[2]) + ", which reaches the network", Text: strings.TrimSpace(m[0])})
	}
	for _, m := range urlRe.FindAllStringSubmatch(lines(urlKeys), -1) {
		host := strings.ToLower(m[2])
		if local(host) {
			continue
		}
		add(Finding{Kind: Network, What: "names the host " + host, Text: m[0], Host: host})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Kind == RemoteCode && out[j].Kind != RemoteCode })
	return out
}

// Each pattern is run only over the lines that hold one of its words (compared without
// case): a regular expression that may start at any blank is slow over a whole script
// (about 1 MB/s), and most lines of a script name no network tool. Every pattern matches
// within one line, so the findings are the same.
var (
	pipeKeys    = []string{"curl", "wget"}
	fetchKeys   = []string{"curl", "wget", "nc", "ssh", "scp", "rsync"}
	runnerKeys  = []string{"npx", "bunx", "uvx", "pipx", "pnpm", "yarn", "deno"}
	installKeys = []string{"npm", "bun", "pnpm", "yarn", "pip", "uv", "go", "cargo", "gem"}
	urlKeys     = []string{"://"}
)

// keyLines returns a function giving the lines of text that hold one of keys, joined by
// newlines (the whole text when it is one short line).
func keyLines(text string) func(keys []string) string {
	lower := asciiLower(text)
	return func(keys []string) string {
		var b strings.Builder
		for start := 0; start < len(text); {
			end := strings.IndexByte(text[start:], '\n')
			if end < 0 {
				end = len(text)
			} else {
				end += start
			}
			for _, k := range keys {
				if strings.Contains(lower[start:end], k) {
					b.WriteString(text[start:end])
					b.WriteByte('\n')
					break
				}
			}
			start = end + 1
		}
		return b.String()
	}
}

// asciiLower lowercases A-Z only, so every byte offset of the result is the text's.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// local reports whether host is this machine: a URL to it reaches no one else.
func local(host string) bool {
	return host == "localhost" || strings.HasPrefix(host, "127.") || host == "[::1]" || strings.HasSuffix(host, ".localhost")
}

func firstHost(s string) string {
	if m := urlRe.FindStringSubmatch(s); m != nil {
		return strings.ToLower(m[2])
	}
	return ""
}

func cut(s string) string { return textclip.Clip(s, maxText+1, "…") }
