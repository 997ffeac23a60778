package agentplugins

import (
	"os"
	"testing"

	"vouch/model"
	"vouch/review/internal/loadertest"
)

// TestCommandOneToken: agent-plugins §7.2.1 makes command one token that clients preserve
// as is, so a space (or a shell operator) is part of the name, not a separator: the entry
// is valid and, for a ./ path, its containment is checked as for any other path. Only
// text that cannot be one token is refused (blank, NUL, control characters), and the
// message says which character.
func TestCommandOneToken(t *testing.T) {
	pkg := Load("testdata/command-token", Options{DataDir: "/data"})
	if !pkg.Valid() || len(pkg.Diagnostics) != 0 {
		t.Fatalf("package valid=%v diagnostics %v", pkg.Valid(), pkg.Diagnostics)
	}
	shell := func(cmd string) string {
		return "Server \"" + cmd + "\" has command \"" + cmd + "\": clients run it as one token, the program named exactly that on the user's PATH, and no shell splits it; if you meant a program with arguments, put the arguments in \"args\"."
	}
	for _, tc := range []struct {
		id       string
		validity model.Validity
		code     string // "" when no diagnostic at all
		severity model.Severity
		message  string
		file     string // the bound command file, when one
	}{
		{"space-in-path", model.Valid, "", "", "", "bin/probe token.sh"},
		{"space-in-path-missing", model.Valid, "mcp-command-missing", model.SeverityWarning,
			`Server "space-in-path-missing" runs ./bin/no such file, which is not in the package; the server will fail to start.`, ""},
		{"space-in-bare-name", model.Valid, "mcp-command-looks-like-shell-string", model.SeverityWarning,
			`Server "space-in-bare-name" has command "npx -y server": clients run it as one token, the program named exactly that on the user's PATH, and no shell splits it; if you meant a program with arguments, put the arguments in "args".`, ""},
		{"operator-in-bare-name", model.Valid, "mcp-command-looks-like-shell-string", model.SeverityWarning, "", ""},
		{"nbsp-in-bare-name", model.Valid, "", "", "", ""},
		{"blank", model.Invalid, "mcp-command-not-single-token", model.SeverityError,
			`Server "blank" has a command made only of whitespace, which names no program; command must be one executable token. It is skipped.`, ""},
		{"newline", model.Invalid, "mcp-command-not-single-token", model.SeverityError,
			`Server "newline" has command "node\nrm", which contains the control character U+000A; no program name or file name passed as one token can carry it, so the server is skipped.`, ""},
		{"tab-only-control", model.Invalid, "mcp-command-not-single-token", model.SeverityError,
			`Server "tab-only-control" has command "./bin/probe\ttoken.sh", which contains the control character U+0009; no program name or file name passed as one token can carry it, so the server is skipped.`, ""},
		{"nul", model.Invalid, "mcp-command-not-single-token", model.SeverityError,
			`Server "nul" has command "no\x00de", which contains the control character NUL (U+0000); no program name or file name passed as one token can carry it, so the server is skipped.`, ""},
		{"c1", model.Invalid, "mcp-command-not-single-token", model.SeverityError,
			`Server "c1" has command "node\u0085", which contains the control character U+0085; no program name or file name passed as one token can carry it, so the server is skipped.`, ""},
		{"del", model.Invalid, "mcp-command-not-single-token", model.SeverityError,
			`Server "del" has command "node\x7f", which contains the control character U+007F; no program name or file name passed as one token can carry it, so the server is skipped.`, ""},
	} {
		t.Run(tc.id, func(t *testing.T) {
			c := pkg.Component(model.KindMCPServer, tc.id)
			if c == nil {
				t.Fatalf("not listed: %v", keys(pkg))
			}
			if c.Validity != tc.validity {
				t.Errorf("validity %s, want %s (%v)", c.Validity, tc.validity, c.Diagnostics)
			}
			if tc.code == "" {
				if len(c.Diagnostics) != 0 {
					t.Errorf("diagnostics %v, want none", c.Diagnostics)
				}
			} else {
				if len(c.Diagnostics) != 1 {
					t.Fatalf("diagnostics %v, want one %s", c.Diagnostics, tc.code)
				}
				d := c.Diagnostics[0]
				checkDiag(t, d)
				if d.Code != tc.code || d.Severity != tc.severity || d.Pointer != "/mcpServers/"+tc.id+"/command" {
					t.Errorf("diagnostic %s %s %s, want %s %s", d.Code, d.Severity, d.Pointer, tc.code, tc.severity)
				}
				want := tc.message
				if want == "" {
					want = shell("node;rm")
					want = "Server \"operator-in-bare-name\"" + want[len(`Server "node;rm"`):]
				}
				if d.Message != want {
					t.Errorf("message\n%s\nwant\n%s", d.Message, want)
				}
			}
			if tc.validity == model.Valid && c.Contract == nil {
				t.Errorf("a valid entry must be approvable")
			}
			if tc.file != "" {
				v, _ := c.Contract.Fields.Get("command_file")
				if v != tc.file {
					t.Errorf("command_file %v, want %s (the token names one file)", v, tc.file)
				}
			}
		})
	}
}

// TestCommandOneTokenContainment: a ./ command with a space is resolved like any path, so a
// symlink under that name that leaves the plugin skips the server.
func TestCommandOneTokenContainment(t *testing.T) {
	dir := t.TempDir()
	loadertest.WriteFile(t, dir+"/plugin.json", manifestText("escape"))
	loadertest.WriteFile(t, dir+"/mcp.json", mcpHead+`{"escape": {"type": "stdio", "command": "./bin/escape link"}}}`)
	if err := os.MkdirAll(dir+"/bin", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/bin/sh", dir+"/bin/escape link"); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	pkg := Load(dir, Options{})
	c := pkg.Component(model.KindMCPServer, "escape")
	if c == nil || c.Validity != model.Invalid || len(c.Diagnostics) != 1 {
		t.Fatalf("component %+v", c)
	}
	const want = `Server "escape" runs ./bin/escape link, which resolves outside the plugin root, so the server is skipped.`
	if d := c.Diagnostics[0]; d.Code != "mcp-command-escape" || d.Message != want {
		t.Errorf("diagnostic %s %q, want mcp-command-escape %q", d.Code, d.Message, want)
	}
	if !pkg.Valid() {
		t.Errorf("one skipped entry leaves the plugin valid")
	}
}
