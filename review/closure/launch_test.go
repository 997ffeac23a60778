package closure

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestNotCoveredBy(t *testing.T) {
	const root, data = "/plug", "/home/u/.vouch/data/p"
	cases := []struct {
		name    string
		p       Process
		want    []string // "kind subject", in order
		details []string // substrings of the joined details
	}{
		{"bundled command", Process{Command: "./bin/s", Bundled: true}, nil, nil},
		{"bundled script with env node", Process{Command: "./bin/s", Bundled: true, Interpreter: "/usr/bin/env -S node --no-warnings"}, []string{"path-program node"}, []string{"#!/usr/bin/env -S node"}},
		{"bundled script with an absolute interpreter", Process{Command: "./bin/s", Bundled: true, Interpreter: "/bin/sh -e"}, []string{"path-program /bin/sh"}, []string{"outside the package"}},
		{"bundled script with a bundled interpreter", Process{Command: "./bin/s", Bundled: true, Interpreter: root + "/bin/interp"}, nil, nil},
		{"bare command", Process{Command: "node", Args: []string{root + "/s.js"}}, []string{"path-program node"}, []string{"PATH"}},
		{"npx latest", Process{Command: "npx", Args: []string{"-y", "x@latest"}}, []string{"path-program npx", "fetched-at-start x@latest"}, []string{"@latest"}},
		{"npx no version", Process{Command: "npx", Args: []string{"-y", "@scope/srv", "--flag"}}, []string{"path-program npx", "fetched-at-start @scope/srv"}, []string{"no version"}},
		{"npx scoped pinned", Process{Command: "npx", Args: []string{"--yes", "@scope/srv@1.2.3"}}, []string{"path-program npx", "pinned-package @scope/srv@1.2.3"}, []string{"pinned to version 1.2.3"}},
		{"npx --package", Process{Command: "npx", Args: []string{"--package=x@2.0.0", "x-cli"}}, []string{"path-program npx", "pinned-package x@2.0.0"}, nil},
		{"npx range", Process{Command: "npx", Args: []string{"x@^1.2"}}, []string{"path-program npx", "fetched-at-start x@^1.2"}, []string{"not one fixed version"}},
		{"npm exec", Process{Command: "npm", Args: []string{"exec", "--", "x"}}, []string{"path-program npm", "fetched-at-start x"}, nil},
		{"npm run is not a launcher", Process{Command: "npm", Args: []string{"run", "start"}}, []string{"path-program npm"}, nil},
		{"bunx", Process{Command: "bunx", Args: []string{"x@1.0.0"}}, []string{"path-program bunx", "pinned-package x@1.0.0"}, nil},
		{"bun x", Process{Command: "bun", Args: []string{"x", "y"}}, []string{"path-program bun", "fetched-at-start y"}, nil},
		{"pnpm dlx", Process{Command: "pnpm", Args: []string{"dlx", "x"}}, []string{"path-program pnpm", "fetched-at-start x"}, nil},
		{"yarn dlx", Process{Command: "yarn", Args: []string{"dlx", "-p", "x@3.1.4", "x"}}, []string{"path-program yarn", "pinned-package x@3.1.4"}, nil},
		{"uvx", Process{Command: "uvx", Args: []string{"mcp-server-git"}}, []string{"path-program uvx", "fetched-at-start mcp-server-git"}, []string{"PyPI"}},
		{"uvx at version", Process{Command: "uvx", Args: []string{"ruff@0.5.0"}}, []string{"path-program uvx", "pinned-package ruff@0.5.0"}, nil},
		{"uvx from", Process{Command: "uvx", Args: []string{"--python", "3.12", "--from", "black==24.1.0", "black"}}, []string{"path-program uvx", "pinned-package black==24.1.0"}, nil},
		{"uvx latest", Process{Command: "uvx", Args: []string{"ruff@latest"}}, []string{"path-program uvx", "fetched-at-start ruff@latest"}, nil},
		{"uv tool run", Process{Command: "uv", Args: []string{"tool", "run", "x>=1"}}, []string{"path-program uv", "fetched-at-start x>=1"}, nil},
		{"pipx run", Process{Command: "pipx", Args: []string{"run", "--spec", "black==24.1.0", "black"}}, []string{"path-program pipx", "pinned-package black==24.1.0"}, nil},
		{"git url", Process{Command: "npx", Args: []string{"github:evil/x"}}, []string{"path-program npx", "fetched-at-start github:evil/x"}, []string{"that URL"}},
		{"argument leaves", Process{Command: "./s", Bundled: true, Root: root, Args: []string{root + "/../shared.js"}}, []string{"outside-path /plug/../shared.js"}, nil},
		{"relative argument leaves", Process{Command: "./s", Bundled: true, Root: root, Args: []string{"../x.js", "lib/y.js", "--config=../../c.json"}}, []string{"outside-path ../x.js", "outside-path ../../c.json"}, nil},
		{"home path", Process{Command: "./s", Bundled: true, Root: root, Args: []string{"~/.config/x"}}, []string{"outside-path ~/.config/x"}, nil},
		{"urls and packages are not paths", Process{Command: "./s", Bundled: true, Root: root, Args: []string{"https://x.example/a/b", "@scope/pkg"}}, nil, nil},
		{"env loads code", Process{Command: "./s", Bundled: true, Root: root, Env: []EnvVar{{"NODE_OPTIONS", "--require /tmp/x.js"}, {"dyld_insert_libraries", root + "/x.dylib"}, {"LOG", "info"}}},
			[]string{"code-loading-env NODE_OPTIONS", "outside-path /tmp/x.js", "code-loading-env dyld_insert_libraries"}, []string{"--require"}},
		{"PATH list", Process{Command: "./s", Bundled: true, Root: root, Env: []EnvVar{{"PYTHONPATH", root + "/lib:/opt/evil"}}}, []string{"code-loading-env PYTHONPATH", "outside-path /opt/evil"}, nil},
		{"plugin data in args", Process{Command: "./s", Bundled: true, Root: root, Data: data, DataName: "${PLUGIN_DATA}", Args: []string{data + "/server.js"}}, []string{"plugin-data ${PLUGIN_DATA}"}, nil},
		{"plugin data as cwd", Process{Command: "./s", Bundled: true, Root: root, Data: data, DataName: "${PLUGIN_DATA}", Cwd: data, Args: []string{"server.js"}}, []string{"plugin-data ${PLUGIN_DATA}"}, nil},
		{"inherited env", Process{Command: "node", Inherit: []string{"NODE_OPTIONS", "HOME"}}, []string{"path-program node", "code-loading-env NODE_OPTIONS"}, []string{"your environment"}},
		{"every loader list entry", Process{Command: "./s", Bundled: true, Env: []EnvVar{{"NODE_PATH", ""}, {"PYTHONSTARTUP", ""}, {"LD_PRELOAD", ""}, {"LD_LIBRARY_PATH", ""}, {"PERL5OPT", ""}, {"RUBYOPT", ""}, {"JAVA_TOOL_OPTIONS", ""}, {"BASH_ENV", ""}}},
			[]string{"code-loading-env NODE_PATH", "code-loading-env PYTHONSTARTUP", "code-loading-env LD_PRELOAD", "code-loading-env LD_LIBRARY_PATH", "code-loading-env PERL5OPT", "code-loading-env RUBYOPT", "code-loading-env JAVA_TOOL_OPTIONS", "code-loading-env BASH_ENV"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.p.Root == "" {
				tc.p.Root = root
			}
			got := NotCoveredBy(tc.p)
			var gs, ds []string
			for _, n := range got {
				gs = append(gs, n.Kind+" "+n.Subject)
				ds = append(ds, n.Detail)
				if !strings.HasSuffix(n.Detail, ".") {
					t.Errorf("detail is not a sentence: %q", n.Detail)
				}
			}
			if strings.Join(gs, "|") != strings.Join(tc.want, "|") {
				t.Errorf("got  %q\nwant %q", gs, tc.want)
			}
			for _, d := range tc.details {
				if !strings.Contains(strings.Join(ds, " "), d) {
					t.Errorf("details lack %q: %q", d, ds)
				}
			}
		})
	}
}

func TestShebang(t *testing.T) {
	for in, want := range map[string]string{"#!/bin/sh\necho": "/bin/sh", "#! /usr/bin/env node\r\n": "/usr/bin/env node", "#!": "", "echo": "-"} {
		got, ok := Shebang([]byte(in))
		if !ok {
			got = "-"
		}
		if got != want {
			t.Errorf("Shebang(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzNotCoveredBy: any command line gives an answer, never a panic, and every entry is
// a known kind with a sentence.
func FuzzNotCoveredBy(f *testing.F) {
	f.Add("npx", "-y\x00x@latest", "NODE_OPTIONS", "--require /tmp/x")
	f.Add("uvx", "--from\x00black==1.0\x00black", "PYTHONPATH", "/a:/b")
	f.Add("pnpm", "dlx\x00--package", "DYLD_X", "")
	f.Add("./bin/s", "${PLUGIN_ROOT}/../x\x00--c=../../y", "PATH", "~/bin")
	f.Add("pipx", "run\x00--spec", "", "")
	f.Fuzz(func(t *testing.T, cmd, args, name, value string) {
		p := Process{Command: cmd, Args: strings.Split(args, "\x00"), Env: []EnvVar{{name, value}}, Root: "/r", Data: "/d", Cwd: "/r/x", Bundled: strings.HasPrefix(cmd, "./"), Interpreter: value}
		for _, n := range NotCoveredBy(p) {
			switch n.Kind {
			case "path-program", "fetched-at-start", "pinned-package", "outside-path", "code-loading-env", "plugin-data":
			default:
				t.Fatalf("unknown kind %q", n.Kind)
			}
			// Each input on its own: two invalid halves can concatenate to a valid rune.
			allValid := utf8.ValidString(cmd) && utf8.ValidString(args) && utf8.ValidString(name) && utf8.ValidString(value)
			if n.Detail == "" || (allValid && !utf8.ValidString(n.Detail)) {
				t.Fatalf("bad detail %q", n.Detail)
			}
		}
	})
}
