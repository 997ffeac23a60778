package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
)

// skillTree is a standalone Agent Skills folder named name.
func skillTree(name string) map[string]string {
	return map[string]string{name + "/SKILL.md": "---\nname: " + name + "\ndescription: The " + name + " skill.\n---\nDo the " + name + " thing.\n"}
}

// configProject is a repository holding the skills alpha, beta and vendor/gamma, with
// .vouch/config.toml holding config, and a folder sub/ to run from.
func configProject(t *testing.T, config string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"alpha", "beta", "vendor/gamma"} {
		testtree.WriteFiles(t, dir, skillTree(name))
		if strings.Contains(name, "/") {
			// vendor/gamma's folder is named gamma: its skill is gamma.
			os.RemoveAll(filepath.Join(dir, name))
			testtree.WriteFiles(t, filepath.Join(dir, "vendor"), skillTree("gamma"))
		}
	}
	testtree.WriteFiles(t, dir, map[string]string{".git/": "", "sub/": ""})
	if config != "" {
		testtree.WriteFiles(t, dir, map[string]string{".vouch/config.toml": config})
	}
	return dir
}

// runIn runs vouch in dir, with a home of its own.
func runIn(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	t.Chdir(dir)
	var out, errb bytes.Buffer
	a := &app{stdout: &out, stderr: &errb}
	code := a.run(append([]string{"--home", t.TempDir()}, args...))
	return code, out.String(), errb.String()
}

// skillsIn names the skills a report lists, in the order given, "-" for each absent.
func skillsIn(out string) string {
	var got []string
	for _, n := range []string{"alpha", "beta", "gamma"} {
		if strings.Contains(out, "skill:"+n) || strings.Contains(out, `"name": "`+n+`"`) {
			got = append(got, n)
		} else {
			got = append(got, "-")
		}
	}
	return strings.Join(got, " ")
}

// The config file fills in what the command line leaves out, and every flag wins over it.
func TestConfigPrecedence(t *testing.T) {
	const config = "sources = [\"alpha\", \"vendor\"]\nexclude = [\"gamma\"]\nformat = \"json\"\n"
	other := "sources = [\"beta\"]\n"
	cases := []struct {
		name   string
		from   string // folder under the project to run in
		args   []string
		code   int
		skills string
		json   bool
	}{
		{"config sources, exclude and format", "", []string{"validate"}, 1, "alpha - -", true},
		{"found from a folder below", "sub", []string{"validate"}, 1, "alpha - -", true},
		{"SOURCE given wins over sources", "", []string{"validate", "beta"}, 0, "- beta -", true},
		{"--format wins over format", "", []string{"validate", "--format", "text"}, 1, "alpha - -", false},
		{"--json wins over format", "", []string{"validate", "--json"}, 1, "alpha - -", true},
		{"--exclude replaces exclude", "", []string{"validate", "--exclude", "alpha", "."}, 0, "- beta gamma", true},
		{"--exclude '' drops exclude", "", []string{"validate", "--exclude", "", "vendor"}, 0, "- - gamma", true},
		{"--no-config reads nothing", "", []string{"validate", "--no-config", "."}, 0, "alpha beta gamma", false},
		{"--no-config without SOURCE is a usage error", "", []string{"validate", "--no-config"}, 2, "- - -", false},
		{"--config names another file", "", []string{"validate", "--config", "other.toml"}, 0, "- beta -", false},
		{"status reads it too", "", []string{"status"}, 1, "alpha - -", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := configProject(t, config)
			testtree.WriteFiles(t, dir, map[string]string{"other.toml": other})
			code, out, errs := runIn(t, filepath.Join(dir, c.from), c.args...)
			// alpha alone leaves vendor searched with gamma excluded: nothing found there,
			// which fails the run (exit 1) as a SOURCE with no package does.
			if code != c.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, c.code, out, errs)
			}
			if got := skillsIn(out); got != c.skills {
				t.Errorf("skills %q, want %q\n%s", got, c.skills, out)
			}
			if isJSON := strings.HasPrefix(out, "{"); c.code != 2 && isJSON != c.json {
				t.Errorf("JSON output %v, want %v:\n%.200s", isJSON, c.json, out)
			}
		})
	}
}

// The config file's ledger is the team ledger the reading commands use unless --ledger
// is given; approve still records in the personal ledger.
func TestConfigLedger(t *testing.T) {
	dir := configProject(t, "ledger = \"team.toml\"\n")
	testtree.WriteFiles(t, dir, map[string]string{"team.toml": "garbage = [\n"})
	code, _, errs := runIn(t, filepath.Join(dir, "sub"), "status", "../alpha")
	if code != 1 || !strings.Contains(errs, filepath.Join(dir, "team.toml")) {
		t.Fatalf("status did not read the config's ledger: exit %d, %s", code, errs)
	}
	testtree.WriteFiles(t, dir, map[string]string{"good.toml": "schema_version = 1\n"})
	if code, out, errs := runIn(t, dir, "status", "--ledger", "good.toml", "alpha"); code != 0 {
		t.Fatalf("--ledger did not win over the config: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := runIn(t, dir, "approve", "--yes", "alpha", "alpha#skill:alpha"); code != 0 {
		t.Fatalf("approve read the config's ledger: exit %d\n%s%s", code, out, errs)
	}
}

// A config file that cannot be used is an error naming the file, the line and the key,
// never ignored; a command that reads no config (version) is not stopped by it.
func TestConfigBadFile(t *testing.T) {
	cases := []struct {
		name, config string
		want         string // in the message, after the file name
	}{
		{"unknown key", "sources = [\"alpha\"]\nsourcez = [\"beta\"]\n", ` line 2: unknown key "sourcez"; a config file holds sources, exclude, ledger, format.`},
		{"key spelled in another case", "format = \"text\"\nSources = [\"alpha\"]\n", ` line 2: unknown key "Sources"`},
		{"unknown table", "format = \"text\"\n\n[paths]\nsources = []\n", ` line 3: unknown key "paths"`},
		{"unknown dotted key", "ui.colour = \"no\"\n", ` line 1: unknown key "ui"`},
		{"quoted unknown key", "\"exclude \" = []\n", ` line 1: unknown key "exclude "`},
		{"wrong type", "# comment\nsources = \"alpha\"\n", ` line 2: "sources": incompatible types`},
		{"not TOML", "sources = [\"alpha\"\n", ` line 1: expected a comma`},
		{"format outside its set", "\nformat = \"xml\"\n", ` line 2: format "xml" is not one of text, json, sarif, github.`},
		{"bad glob", "exclude = [\"ok\", \"[z\"]\n", ` line 1: exclude pattern "[z" is not a glob`},
		{"empty glob part", "exclude = [\"a//b\"]\n", ` line 1: exclude pattern "a//b" has an empty part`},
		{"empty source", "sources = [\"\"]\n", ` line 1: sources holds "", which is not a path.`},
		{"empty ledger", "ledger = \"\"\n", ` line 1: ledger "" is not a path.`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := configProject(t, c.config)
			code, out, errs := runIn(t, dir, "validate", "alpha")
			file := filepath.Join(dir, ".vouch", "config.toml")
			if code != 2 || !strings.HasPrefix(errs, "vouch: "+file) || !strings.Contains(errs, c.want) || out != "" {
				t.Fatalf("exit %d, stderr %q, stdout %q; want exit 2 and %q", code, errs, out, file+c.want)
			}
			if code, _, errs := runIn(t, dir, "version"); code != 0 {
				t.Errorf("version read the config: exit %d %s", code, errs)
			}
			if code, _, errs := runIn(t, dir, "validate", "--no-config", "alpha"); code != 0 {
				t.Errorf("--no-config read the config: exit %d %s", code, errs)
			}
		})
	}
}

// A config path that is missing, or names both --config and --no-config, is an error.
func TestConfigFileMissing(t *testing.T) {
	dir := configProject(t, "")
	if code, _, errs := runIn(t, dir, "validate", "--config", "nothere.toml", "alpha"); code != 2 || !strings.Contains(errs, "The config file nothere.toml does not exist.") {
		t.Errorf("missing --config: exit %d %q", code, errs)
	}
	if code, _, errs := runIn(t, dir, "validate", "--config", "x.toml", "--no-config", "alpha"); code != 2 || !strings.Contains(errs, "contradict") {
		t.Errorf("--config with --no-config: exit %d %q", code, errs)
	}
}

// The search for the file stops at the repository's top; outside a repository only the
// working directory is looked in.
func TestFindConfig(t *testing.T) {
	outer := t.TempDir()
	testtree.WriteFiles(t, outer, map[string]string{".vouch/config.toml": "", "repo/a/b/x": "", "plain/a/x": "", "repo/.git/": ""})
	if got := findConfig(filepath.Join(outer, "repo", "a", "b")); got != "" {
		t.Errorf("found %s above the repository's top", got)
	}
	testtree.WriteFiles(t, outer, map[string]string{"repo/.vouch/config.toml": ""})
	if got, want := findConfig(filepath.Join(outer, "repo", "a", "b")), filepath.Join(outer, "repo", ".vouch", "config.toml"); got != want {
		t.Errorf("found %q, want %q", got, want)
	}
	if got := findConfig(filepath.Join(outer, "plain", "a")); got != "" && gitTop(outer) == "" {
		t.Errorf("found %s above a directory outside any repository", got)
	}
	if got, want := findConfig(outer), filepath.Join(outer, ".vouch", "config.toml"); got != want {
		t.Errorf("in the working directory itself: %q, want %q", got, want)
	}
}

func TestKeyLine(t *testing.T) {
	text := "# sources = [] in a comment\nformat = \"text\"\n  ledger=\"x\"\n[ \"exclude\" ]\n[[sources.x]]\na.b = 1\n'lit.k' = 2\n"
	for key, want := range map[string]int{"format": 2, "ledger": 3, "exclude": 4, "sources": 5, "a": 6, "lit.k": 7, "none": 0} {
		if got := keyLine(text, key); got != want {
			t.Errorf("keyLine(%q) = %d, want %d", key, got, want)
		}
	}
}

// Reading any bytes as a config file gives a config or an error, never a panic, and an
// error always names the file.
func FuzzReadConfig(f *testing.F) {
	for _, s := range []string{"sources = [\"a\"]\nexclude = [\"**/x\"]\nledger = \"l\"\nformat = \"json\"\n", "[x]\ny=1\n", "sources = \"a\"", "\"\\u0000\" = 1", "exclude = [\"[\"]"} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		file := filepath.Join(dir, "config.toml")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := readConfig(file)
		if err != nil {
			if !strings.Contains(err.Error(), file) {
				t.Fatalf("error without the file: %v", err)
			}
			return
		}
		if c.Format != "" && !validFormat(c.Format) {
			t.Fatalf("format %q accepted", c.Format)
		}
		_ = excludeMatcher(c.Exclude)
	})
}
