package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"vouch/internal/schematest"
	"vouch/internal/testtree"
)

func sarifSchemaCLI(t *testing.T) *jsonschema.Schema {
	return schematest.CompileFile(t, filepath.Join("..", "..", "report", "testdata", "sarif-2.1.0", "sarif-schema-2.1.0.json"))
}

// validate and status print SARIF 2.1.0 that the official schema accepts, for every
// example, and --format is checked like any flag.
func TestFormatFlag(t *testing.T) {
	schema := sarifSchemaCLI(t)
	home := t.TempDir()
	examples, _ := filepath.Glob(filepath.Join("..", "..", "examples", "*"))
	for _, ex := range examples {
		if st, err := os.Stat(ex); err != nil || !st.IsDir() {
			continue
		}
		for _, cmd := range [][]string{{"validate", "--format", "sarif", ex}, {"status", "--format", "sarif", "--require-approved", ex}} {
			_, out, errOut := runVouch(t, home, cmd...)
			if !strings.HasPrefix(strings.TrimSpace(out), "{") {
				t.Fatalf("%v: no SARIF on stdout: %s", cmd, errOut)
			}
			schematest.Validate(t, schema, strings.Join(cmd, " "), out)
		}
		code, out, _ := runVouch(t, home, "status", "--format", "github", ex)
		if code == 2 || !strings.Contains(out, "::") {
			t.Errorf("%s: github format: exit %d, %q", ex, code, out)
		}
	}
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"validate", "--format", "xml", "examples"}, 2, `--format "xml" is not one of text, json, sarif, github.`},
		{[]string{"status", "--json", "--format", "github", "examples"}, 2, "--json and --format github contradict each other"},
	} {
		code, _, errOut := runVouch(t, home, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d, %q", tc.args, code, errOut)
		}
	}
}

// The GitHub Action's gate (scripts/ci-gate, which action.yml runs) end to end against an
// example, without the upload: it fails with SARIF and annotations while something is
// unreviewed, and passes once every runnable component is approved.
func TestCIGateScript(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not found")
	}
	dir := t.TempDir()
	bin := buildVouch(t)
	src, _ := filepath.Abs(filepath.Join("..", "..", "examples", "agent-plugins", "release-helper"))
	home := filepath.Join(dir, "home")
	sarif := filepath.Join(dir, "out.sarif")
	gate := func(env ...string) (int, string) {
		cmd := exec.Command("bash", filepath.Join("..", "..", "scripts", "ci-gate"), src)
		cmd.Env = append(append(os.Environ(), "VOUCH="+bin, "VOUCH_HOME="+home, "VOUCH_SARIF="+sarif), env...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, out.String()
	}
	code, out := gate()
	if code != 1 || !strings.Contains(out, "::error") || !strings.Contains(out, "is unreviewed") {
		t.Fatalf("gate before approval: exit %d\n%s", code, out)
	}
	data, err := os.ReadFile(sarif)
	if err != nil {
		t.Fatal(err)
	}
	schematest.Validate(t, sarifSchemaCLI(t), "the gate's SARIF", string(data))
	refs := []string{"release-helper#mcp-server:local-preview", "release-helper#mcp-server:registry", "release-helper#mcp-server:release-notes", "release-helper#skill:changelog", "release-helper#skill:version-check"}
	if c, _, e := runVouch(t, home, append([]string{"approve", "--yes", src}, refs...)...); c != 0 {
		t.Fatalf("approve: %d %s", c, e)
	}
	if code, out = gate(); code != 0 {
		t.Fatalf("gate after approval: exit %d\n%s", code, out)
	}

	// A team ledger not in canonical layout fails the gate, with the command that fixes it.
	team := filepath.Join(dir, "team.toml")
	if err := os.WriteFile(team, []byte("schema_version=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out = gate("VOUCH_LEDGER=" + team); code != 1 || !strings.Contains(out, "vouch ledger fmt") {
		t.Fatalf("gate with an unformatted team ledger: exit %d\n%s", code, out)
	}
	if c, _, e := runVouch(t, home, "ledger", "fmt", team); c != 0 {
		t.Fatalf("ledger fmt: %d %s", c, e)
	}
	if code, out = gate("VOUCH_LEDGER=" + team); code != 0 {
		t.Fatalf("gate with the formatted team ledger: exit %d\n%s", code, out)
	}

	// A change that adds a config file excluding its own unreviewed package does not
	// pass the gate: the gate reads no config unless VOUCH_CONFIG names one.
	repo := filepath.Join(dir, "repo")
	testtree.WriteFiles(t, filepath.Join(repo, "plugins"), skillTree("alpha"))
	testtree.WriteFiles(t, filepath.Join(repo, "plugins"), skillTree("beta"))
	testtree.WriteFiles(t, repo, map[string]string{".vouch/config.toml": "exclude = [\"beta\"]\n", ".git/HEAD": ""})
	if c, _, e := runVouch(t, home, "approve", "--yes", filepath.Join(repo, "plugins", "alpha"), "alpha#skill:alpha"); c != 0 {
		t.Fatalf("approve: %d %s", c, e)
	}
	inRepo := func(env ...string) (int, string) {
		cmd := exec.Command("bash", filepath.Join(here(t), "..", "..", "scripts", "ci-gate"), "plugins")
		cmd.Dir = repo
		cmd.Env = append(append(os.Environ(), "VOUCH="+bin, "VOUCH_HOME="+home, "VOUCH_SARIF="+sarif), env...)
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), string(out)
		} else if err != nil {
			t.Fatal(err)
		}
		return 0, string(out)
	}
	if code, out = inRepo(); code != 1 || !strings.Contains(out, "beta#skill:beta") {
		t.Fatalf("gate with a config file excluding an unreviewed package: exit %d\n%s", code, out)
	}
	if code, out = inRepo("VOUCH_CONFIG=" + filepath.Join(repo, ".vouch", "config.toml")); code != 0 {
		t.Fatalf("gate told to read the config file: exit %d\n%s", code, out)
	}
}

// buildVouch builds this command into a folder of its own, as a program named vouch
// (with the build tags given, "vouch_gate" for the gate build), for the tests that run it
// the way a script, hook or CI job does, and returns its path.
func buildVouch(t *testing.T, tags ...string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "vouch")
	if out, err := exec.Command("go", "build", "-tags", strings.Join(tags, ","), "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// here is the test's package directory.
func here(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return wd
}
