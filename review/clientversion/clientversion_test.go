package clientversion

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"vouch/model"
)

func TestInstalled(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) string {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	link := func(target, rel string) string {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	native := link(write("share/claude/versions/2.1.332", "\x7fELF"), "native/bin/claude")
	write("npm/lib/node_modules/@anthropic-ai/claude-code/package.json", `{"name": "@anthropic-ai/claude-code", "version": "2.1.328"}`)
	npm := link(write("npm/lib/node_modules/@anthropic-ai/claude-code/cli.js", "#!/usr/bin/env node"), "npm/bin/claude")
	write("npm/lib/node_modules/@openai/codex/package.json", `{"name": "@openai/codex", "version": "0.171.0"}`)
	codex := link(write("npm/lib/node_modules/@openai/codex/bin/codex.js", "#!/usr/bin/env node"), "npm/bin/codex")
	write("other/package.json", `{"name": "not-claude", "version": "9.9.9"}`)
	other := write("other/claude", "#!/bin/sh")
	write("cased/package.json", `{"Name": "@anthropic-ai/claude-code", "version": "2.1.300"}`)
	cased := write("cased/claude", "#!/bin/sh")
	fifoDir := filepath.Join(root, "fifo")
	os.MkdirAll(fifoDir, 0o755)
	if err := syscall.Mkfifo(filepath.Join(fifoDir, "package.json"), 0o644); err != nil {
		t.Skip("no FIFOs here")
	}
	fifo := write("fifo/claude", "#!/bin/sh")

	for _, tc := range []struct {
		name, id, bin, want string
	}{
		{"native installer", model.ClientClaudeCode, native, "2.1.332"},
		{"npm", model.ClientClaudeCode, npm, "2.1.328"},
		{"npm codex, package.json above bin/", model.ClientCodex, codex, "0.171.0"},
		{"another package's metadata", model.ClientClaudeCode, other, ""},
		{"keys are exact", model.ClientClaudeCode, cased, ""},
		{"a FIFO is refused, never waited on", model.ClientClaudeCode, fifo, ""},
		{"not on PATH", model.ClientClaudeCode, "", ""},
		{"a client vouch cannot find", model.ClientPi, native, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			look := func(string) (string, error) {
				if tc.bin == "" {
					return "", errors.New("not found")
				}
				return tc.bin, nil
			}
			got, ok := Installed(tc.id, look)
			if ok != (tc.want != "") || got.Version != tc.want {
				t.Errorf("Installed = %+v, %v; want %q", got, ok, tc.want)
			}
		})
	}
}
