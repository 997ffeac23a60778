package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/gen"
	"vouch/review"
)

// runVouchWith is runVouch with the given load options under the flags (lower bounds).
func runVouchWith(t *testing.T, home string, base review.Options, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	a := &app{stdout: &out, stderr: &errb, stdin: strings.NewReader(""), loadBase: base}
	code := a.run(append([]string{"--home", home}, args...))
	return code, out.String(), errb.String()
}

const exampleArchive = "../../examples/splice/splice-example-0.1.1.tar.gz"
const exampleHex = "0169fd7f1277bcadb265e79110b7bfe297a579e9ef92b9620ce130cf15801ed5"

// --integrity: both spellings of the right hash pass, a wrong hash fails validation, and
// a malformed value is a usage error that names the expected form.
func TestIntegrityFlag(t *testing.T) {
	home := t.TempDir()
	form := "expected sha256-<64 hex digits> (Splice's integrity string; sha256:<64 hex digits> is accepted too)."
	tests := []struct {
		name, value string
		code        int
		stderr      string
		stdout      string
	}{
		{"canonical", "sha256-" + exampleHex, 0, "", ""},
		{"digest spelling", "sha256:" + exampleHex, 0, "", ""},
		{"upper-case hex", "sha256-" + strings.ToUpper(exampleHex), 0, "", ""},
		{"other hash", "sha256-" + strings.Repeat("0", 64), 1, "",
			"The artifact's integrity is sha256-" + exampleHex + ", not the expected sha256-" + strings.Repeat("0", 64) + ": do not install it."},
		{"no prefix", exampleHex, 2, `vouch: --integrity "` + exampleHex + `" does not start with sha256- or sha256:; ` + form, ""},
		{"other algorithm", "sha512-" + exampleHex, 2, `vouch: --integrity "sha512-` + exampleHex + `" does not start with sha256- or sha256:; ` + form, ""},
		{"short", "sha256-00", 2, `vouch: --integrity "sha256-00" has 2 characters after the prefix, not 64; ` + form, ""},
		{"not hex", "sha256-" + strings.Repeat("g", 64), 2, `vouch: --integrity "sha256-` + strings.Repeat("g", 64) + `" has 'g' at position 1 of the hash, which is not a hex digit; ` + form, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runVouch(t, home, "validate", "--integrity", tt.value, exampleArchive)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout %s\nstderr %s", code, tt.code, out, errOut)
			}
			if strings.TrimSpace(errOut) != tt.stderr {
				t.Errorf("stderr %q\nwant   %q", errOut, tt.stderr)
			}
			if tt.stdout != "" && !strings.Contains(out, tt.stdout) {
				t.Errorf("stdout lacks %q:\n%s", tt.stdout, out)
			}
			if tt.code == 2 && out != "" {
				t.Errorf("a usage error printed a report: %s", out)
			}
		})
	}
}

// Sources that were not reviewed completely fail validate, status and the CI gate alike.
func TestIncompleteSourceExitCodes(t *testing.T) {
	home := t.TempDir()
	many := t.TempDir()
	if err := gen.Minimal(many, 6); err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()
	plugin := filepath.Join(many, "plugin-00000")
	bounded := review.Options{MaxPackages: 5}
	tests := []struct {
		name string
		base review.Options
		args []string
		code int
		out  string
	}{
		{"validate, bound reached", bounded, []string{"validate", many}, 1, "source-too-many-packages"},
		{"status, bound reached", bounded, []string{"status", many}, 1, "source-too-many-packages"},
		{"status --require-approved, bound reached", bounded, []string{"status", "--require-approved", many}, 1, "source-too-many-packages"},
		{"validate within the bound", review.Options{MaxPackages: 6}, []string{"validate", many}, 0, "plugin-00005"},
		{"status within the bound", review.Options{MaxPackages: 6}, []string{"status", many}, 0, "plugin-00005"},
		{"validate, nothing found", review.Options{}, []string{"validate", empty}, 1, "no-packages"},
		{"status, nothing found", review.Options{}, []string{"status", empty}, 1, "no-packages"},
		{"status --json, nothing found", review.Options{}, []string{"status", "--json", empty}, 1, `"code": "no-packages"`},
		{"validate plugin.json", review.Options{}, []string{"validate", filepath.Join(plugin, "plugin.json")}, 1,
			filepath.Join(plugin, "plugin.json") + " is the manifest of the Agent Plugins package in " + plugin + ": give the folder " + plugin + " as SOURCE, not the file."},
		{"status PLUGIN.toml", review.Options{}, []string{"status", "../../examples/dalo/design-review/plugins/design-review/PLUGIN.toml"}, 1,
			"is the manifest of the Dalo package in ../../examples/dalo/design-review/plugins/design-review: give the folder"},
		{"validate manifest.json", review.Options{}, []string{"validate", "../../examples/splice/example/manifest.json"}, 1,
			"is the manifest of the Splice package in ../../examples/splice/example: give the folder ../../examples/splice/example as SOURCE, not the file."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runVouchWith(t, home, tt.base, tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout %s\nstderr %s", code, tt.code, out, errOut)
			}
			if !strings.Contains(out, tt.out) {
				t.Errorf("stdout lacks %q:\n%s", tt.out, out)
			}
		})
	}
}

// A folder that cannot be listed fails validate and status (where the file system
// enforces modes: root reads any directory, and review tests that case with a stub).
func TestUnreadableFolderExitCode(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads any directory")
	}
	dir := t.TempDir()
	if err := gen.Minimal(dir, 1); err != nil {
		t.Fatal(err)
	}
	locked := filepath.Join(dir, "locked")
	if err := os.Mkdir(locked, 0); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(locked, 0o755)
	for _, cmd := range []string{"validate", "status"} {
		code, out, _ := runVouch(t, t.TempDir(), cmd, dir)
		if code != 1 || !strings.Contains(out, "unreadable-directory") {
			t.Errorf("%s: exit %d\n%s", cmd, code, out)
		}
	}
}
