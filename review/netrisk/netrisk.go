// Package netrisk finds, in a command line or a script's text, what reaches the network
// or fetches code to run: a download piped to a shell, wget and curl, package runners
// that fetch a package at run time (npx, bunx, uvx, pnpm dlx), package installs, and the
// URLs and hosts named. It reads text only; nothing is resolved or fetched.
package netrisk

import (
	"regexp"
	"sort"
	"strings"

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

var (
	pipeShell = regexp.MustCompile(`(?i)\b(curl|wget)\b[^|\n;]*\|\s*(sudo\s+)?(ba|z|da|k)?sh\b`)
	fetchCmd  = regexp.MustCompile(`(?i)(^|[\s;&|(` + "`" + `"'])(curl|wget|nc|ncat|ssh|scp|rsync)\s`)
	runner    = regexp.MustCompile(`(?i)(^|[\s;&|(` + "`" + `"'])(npx|bunx|uvx|pipx\s+run|pnpm\s+dlx|yarn\s+dlx|deno\s+run)\s+(-\S+\s+)*([@\w][\w./@-]*)`)
	install   = regexp.MustCompile(`(?i)(^|[\s;&|(` + "`" + `"'])(npm\s+(install|i|ci)|bun\s+(install|add|i)|pnpm\s+(install|add|i)|yarn\s+(install|add)|pip3?\s+install|uv\s+(pip\s+install|add|sync)|go\s+install|cargo\s+install|gem\s+install)\b`)
	urlRe     = regexp.MustCompile(`(?i)\b(https?|wss?|ftp)://([a-z0-9.-]+\.[a-z]{2,}|\[[0-9a-f:]+\]|\d{1,3}(\.\d{1,3}){3})(:\d+)?[^\s"'<>)\]]*`)
)

// Scan returns what text reaches the network or fetches code, remote code first, each
// distinct finding once.
func Scan(text string) []Finding {
	if len(text) > maxInput {
		text = text[:maxInput]
	}
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
	for _, m := range pipeShell.FindAllString(text, -1) {
		add(Finding{Kind: RemoteCode, What: "downloads a script and runs it with a shell", Text: strings.TrimSpace(m), Host: firstHost(m)})
	}
	for _, m := range runner.FindAllStringSubmatch(text, -1) {
		add(Finding{Kind: RemoteCode, What: "fetches and runs the package " + m[4] + " at run time (" + strings.Fields(m[2])[0] + ")", Text: strings.TrimSpace(m[0])})
	}
	for _, m := range install.FindAllStringSubmatch(text, -1) {
		add(Finding{Kind: RemoteCode, What: "installs packages from a registry (" + strings.Join(strings.Fields(m[2]), " ") + ")", Text: strings.TrimSpace(m[0])})
	}
	for _, m := range fetchCmd.FindAllStringSubmatch(text, -1) {
		add(Finding{Kind: Network, What: "runs " + strings.ToLower(m[2]) + ", which reaches the network", Text: strings.TrimSpace(m[0])})
	}
	for _, m := range urlRe.FindAllStringSubmatch(text, -1) {
		host := strings.ToLower(m[2])
		if local(host) {
			continue
		}
		add(Finding{Kind: Network, What: "names the host " + host, Text: m[0], Host: host})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Kind == RemoteCode && out[j].Kind != RemoteCode })
	return out
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
