package model

import (
	"os"
	"path/filepath"
	"testing"
)

func TestAtLeast(t *testing.T) {
	for _, tc := range []struct {
		v, min string
		want   bool
	}{
		{"2.1.332", "2.1.332", true},
		{"2.1.332", "2.1.328", true},
		{"2.1.328", "2.1.332", false},
		{"2.1.1000", "2.1.332", true},
		{"2.2", "2.1.332", true},
		{"2.1", "2.1.0", true},
		{"v0.171.0", "0.169.0", true},
		{"0.171.0-alpha.1", "0.171.0", true},
		{"0.9.0", "0.10.0", false},
		{"nightly", "2.1.332", true}, // an unknown release reads as newer than every rule
		{"2.1.332", "garbage", false},
	} {
		if got := AtLeast(tc.v, tc.min); got != tc.want {
			t.Errorf("AtLeast(%q, %q) = %v, want %v", tc.v, tc.min, got, tc.want)
		}
	}
}

func TestRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Clients() {
		if seen[c.ID] || c.ID == "" || c.Name == "" {
			t.Errorf("entry %+v: ids must be unique and every entry named", c)
		}
		seen[c.ID] = true
		if c.Newest() == "" {
			t.Errorf("%s has neither a modelled release nor a basis", c.ID)
		}
		for i := 1; i < len(c.Versions); i++ {
			if AtLeast(c.Versions[i-1], c.Versions[i]) {
				t.Errorf("%s versions %v are not oldest first", c.ID, c.Versions)
			}
		}
	}
	for _, id := range []string{ClientClaudeCode, ClientCodex, ClientClaudeDesktop, ClientPi, ClientDSH, ClientLola, ClientSplice} {
		if !seen[id] {
			t.Errorf("%s is not in the registry", id)
		}
	}
	if ClientName(ClientClaudeCode) != "Claude Code" || ClientName("unknown-x") != "unknown-x" {
		t.Errorf("ClientName: %q %q", ClientName(ClientClaudeCode), ClientName("unknown-x"))
	}
	if l := ClientLabel(ClientCodex, "0.171.0"); l != "Codex 0.171.0" {
		t.Errorf("label %q", l)
	}
}

func TestClientHome(t *testing.T) {
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home directory")
	}
	claude, _ := LookupClient(ClientClaudeCode)
	codex, _ := LookupClient(ClientCodex)
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	for _, tc := range []struct {
		c    Client
		env  map[string]string
		want string
	}{
		{claude, nil, filepath.Join(home, ".claude")},
		{claude, map[string]string{"CLAUDE_CONFIG_DIR": "/x/claude"}, "/x/claude"},
		{claude, map[string]string{"CODEX_HOME": "/x/codex"}, filepath.Join(home, ".claude")},
		{codex, nil, filepath.Join(home, ".codex")},
		{codex, map[string]string{"CODEX_HOME": "/x/codex"}, "/x/codex"},
		{codex, map[string]string{"HOME": "/h"}, "/h/.codex"},
	} {
		env = tc.env
		got, err := tc.c.Home(getenv)
		if err != nil || got != tc.want {
			t.Errorf("%s home with %v = %q, %v; want %q", tc.c.ID, tc.env, got, err, tc.want)
		}
	}
	desktop, _ := LookupClient(ClientClaudeDesktop)
	if _, err := desktop.Home(getenv); err == nil {
		t.Errorf("a client whose files vouch never reads has no home")
	}
	t.Setenv("CODEX_HOME", "/y/codex")
	if h, _ := CodexHome(); h != "/y/codex" {
		t.Errorf("CodexHome = %q", h)
	}
	t.Setenv("CLAUDE_CONFIG_DIR", "/y/claude")
	if h, _ := ClaudeConfigDir(); h != "/y/claude" {
		t.Errorf("ClaudeConfigDir = %q", h)
	}
}

// TestReleasesSentence: the releases a rule holds for, named from the registry.
func TestReleasesSentence(t *testing.T) {
	for _, tc := range []struct{ id, since, want string }{
		{ClientCodex, Codex169, "Codex 0.169.0 and 0.171.0"},
		{ClientClaudeCode, ClaudeCode332, "Claude Code 2.1.332"},
		{ClientClaudeCode, ClaudeCodeDalo, "Claude Code 2.1.233, 2.1.328 and 2.1.332"},
		{ClientClaudeCode, "9.0.0", "Claude Code 9.0.0"},
	} {
		if got := Releases(tc.id, tc.since); got != tc.want {
			t.Errorf("Releases(%s, %s) = %q, want %q", tc.id, tc.since, got, tc.want)
		}
	}
}

// TestClientAtSentence: the parenthesised form names the same releases as Releases, so a
// sentence can keep its singular verb.
func TestClientAtSentence(t *testing.T) {
	for _, tc := range []struct{ id, since, want string }{
		{ClientCodex, Codex169, "Codex (0.169.0 and 0.171.0)"},
		{ClientClaudeCode, ClaudeCode332, "Claude Code (2.1.332)"},
		{ClientClaudeCode, ClaudeCode328, "Claude Code (2.1.328 and 2.1.332)"},
		{"unknown-client", "1.0", "unknown-client (1.0)"},
	} {
		if got := ClientAt(tc.id, tc.since); got != tc.want {
			t.Errorf("ClientAt(%s, %s) = %q, want %q", tc.id, tc.since, got, tc.want)
		}
	}
}
