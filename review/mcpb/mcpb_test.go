package mcpb

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"vouch/internal/testtree"

	"vouch/model"
	"vouch/review/internal/loadertest"
)

// wantCodes is the diagnostic each bad case must produce.
var wantCodes = map[string]string{
	"bad-args-not-strings":            "manifest-field-type",
	"bad-author-email":                "manifest-field-format",
	"bad-homepage-host":               "manifest-field-format",
	"bad-homepage-url":                "manifest-field-format",
	"bad-icon-absolute":               "icon-absolute",
	"bad-icon-dirname":                "icon-dirname",
	"bad-icon-missing":                "icon-missing",
	"bad-icon-not-png":                "icon-not-png",
	"bad-icons-size":                  "manifest-field-pattern",
	"bad-invalid-json":                "manifest-invalid-json",
	"bad-missing-author":              "manifest-missing-field",
	"bad-missing-mcp-config":          "manifest-missing-field",
	"bad-mixed-versions":              "manifest-field-value",
	"bad-localization-no-placeholder": "manifest-field-pattern",
	"bad-no-version":                  "manifest-version-unsupported",
	"bad-override-extra-field":        "manifest-unknown-field",
	"bad-platform-unknown":            "manifest-field-value",
	"bad-privacy-in-v0.1":             "manifest-unknown-field",
	"bad-unknown-field-id":            "manifest-unknown-field",
	"bad-unknown-field-scripts":       "manifest-unknown-field",
	"bad-user-config-no-title":        "manifest-missing-field",
	"bad-user-config-type":            "manifest-field-value",
	"bad-uv-in-v0.3":                  "manifest-field-value",
	"bad-version-number":              "manifest-version-unsupported",
	"bad-version-unknown":             "manifest-version-unsupported",
}

// readOracle reads testdata/oracle.txt: the verdict `mcpb validate` 2.1.2 gave each case
// (recorded offline by oracle.sh; mcpb is not needed to run the tests).
func readOracle(t *testing.T) map[string]bool {
	t.Helper()
	f, err := os.Open("testdata/oracle.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, verdict, ok := strings.Cut(sc.Text(), " ")
		if !ok || (verdict != "valid" && verdict != "invalid") {
			t.Fatalf("bad oracle line %q", sc.Text())
		}
		out[name] = verdict == "valid"
	}
	return out
}

// TestCasesMatchOracle: every folder fixture gets the verdict mcpb validate gives, and
// every bad one its diagnostic code.
func TestCasesMatchOracle(t *testing.T) {
	oracle := readOracle(t)
	dirs, _ := filepath.Glob("testdata/cases/*")
	if len(dirs) != len(oracle) || len(dirs) < 30 {
		t.Fatalf("%d cases, %d oracle verdicts: rerun mkcases.py and oracle.sh", len(dirs), len(oracle))
	}
	for _, d := range dirs {
		name := filepath.Base(d)
		t.Run(name, func(t *testing.T) {
			want, ok := oracle[name]
			if !ok {
				t.Fatalf("no oracle verdict for %s", name)
			}
			p := Load(d, Options{Home: "/home/u"})
			if p.Format != model.FormatMCPB {
				t.Fatalf("format %s", p.Format)
			}
			if got := p.Valid(); got != want {
				t.Fatalf("valid = %v, mcpb validate says %v; diagnostics %v", got, want, p.Diagnostics)
			}
			if strings.HasPrefix(name, "bad-") {
				if !slices.Contains(loadertest.Codes(p), wantCodes[name]) {
					t.Fatalf("want %s, got %v (%v)", wantCodes[name], loadertest.Codes(p), p.Diagnostics)
				}
				return
			}
			if len(p.Components) != 1 || p.Components[0].Contract == nil {
				t.Fatalf("a valid bundle has one approvable server, got %+v", p.Components)
			}
		})
	}
	for name := range wantCodes {
		if _, ok := oracle[name]; !ok {
			t.Errorf("wantCodes names %s, which is no case", name)
		}
	}
}

func detail(c *model.Component, key string) any {
	v, _ := c.Details.Get(key)
	return v
}

// TestSubstitution: values are shown expanded beside the literal, as mcpb's config.js
// expands them: multiple values become separate arguments only for an exact
// ${user_config.KEY} argument, booleans become "true", ${/} the platform separator, and
// platform overrides replace command, args and env.
func TestSubstitution(t *testing.T) {
	p := Load("testdata/cases/good-user-config", Options{Home: "/home/u"})
	c := p.Components[0]
	args, _ := detail(c, "args (expanded)").([]string)
	root := p.Root
	want := []string{root + "/server/index.js", "/a", "/b", "--flag=true"}
	if strings.Join(args, "|") != strings.Join(want, "|") {
		t.Fatalf("args expanded %q, want %q", args, want)
	}
	env, _ := detail(c, "env (expanded)").(model.Fields)
	if v, _ := env.Get("DATA"); v != "/home/u/data" {
		t.Fatalf("DATA expanded to %v", v)
	}
	// The required, sensitive token has no default: it stays verbatim, and is named.
	if v, _ := env.Get("TOKEN"); v != "${user_config.token}" {
		t.Fatalf("TOKEN expanded to %v", v)
	}
	sum := strings.Join(c.Summary, "\n")
	for _, s := range []string{"Sensitive (stored as secrets and handed to the server): token.", "Required", "display only: the host does not enforce", "dirs takes several values"} {
		if !strings.Contains(sum, s) {
			t.Errorf("summary lacks %q:\n%s", s, sum)
		}
	}
	var fsRead bool
	for _, cp := range c.Capabilities {
		fsRead = fsRead || cp.Kind == model.CapFilesystemRead
	}
	if !fsRead {
		t.Error("a directory option is not shown as filesystem-read")
	}

	p = Load("testdata/cases/good-platform-overrides", Options{Home: `C:\Users\u`})
	c = p.Components[0]
	ov, _ := detail(c, "platform_overrides").(model.Fields)
	win, _ := ov.Get("win32 (effective, expanded)")
	wf, _ := win.(model.Fields)
	if cmd, _ := wf.Get("command"); cmd != p.Root+`\bin\server.exe` {
		t.Fatalf("win32 command %v", cmd)
	}
	if a, _ := wf.Get("args"); strings.Join(a.([]string), " ") != "--stdio" {
		t.Fatalf("win32 keeps the base args, got %v", a)
	}
	dar, _ := ov.Get("darwin (effective, expanded)")
	df, _ := dar.(model.Fields)
	if a, _ := df.Get("args"); len(a.([]string)) != 0 {
		t.Fatalf("an empty args override replaces the base args (JavaScript truthiness), got %v", a)
	}
}

func TestExpandOrder(t *testing.T) {
	vars := []variable{{"__dirname", []string{"/x"}, false}, {"HOME", []string{"/h"}, false},
		{"user_config.a", []string{"${HOME}"}, false}, {"user_config.m", []string{"1", "2"}, true}, {"user_config.e", []string{""}, false}}
	l := launch{Command: "${__dirname}/s", Args: []string{"${user_config.a}", "${user_config.m}", "-m=${user_config.m}", "${user_config.e}", "${unknown}", "${user_config.zz}"}}
	got := l.expand(vars)
	want := []string{"${HOME}", "1", "2", "-m=${user_config.m}", "${user_config.e}", "${unknown}", "${user_config.zz}"}
	if got.Command != "/x/s" || strings.Join(got.Args, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q %q, want %q", got.Command, got.Args, want)
	}
}

// TestClassify: a manifest.json is an MCP Bundle's only with a version field, Splice's
// only with specVersion, and anything else is a source diagnostic.
func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		body string
		want Kind
	}{
		{`{"manifest_version":"0.3"}`, KindMCPB},
		{`{"dxt_version":0.1}`, KindMCPB},
		{`{"specVersion":1,"name":"x"}`, KindSplice},
		{`{"name":"x","version":"1"}`, KindOther},
		{`[1]`, KindOther},
		{`{nope`, KindOther},
	} {
		d := t.TempDir()
		if err := os.WriteFile(filepath.Join(d, "manifest.json"), []byte(tc.body), 0o644); err != nil {
			t.Fatal(err)
		}
		k, diag := Classify(d)
		if k != tc.want || (k == KindOther) != (diag != nil) {
			t.Errorf("%s: kind %v diag %v", tc.body, k, diag)
		}
		if diag != nil && (diag.Boundary != model.BoundarySource || diag.Code != "manifest-unrecognized") {
			t.Errorf("%s: %+v", tc.body, diag)
		}
	}
	if k, _ := Classify(t.TempDir()); k != KindNone {
		t.Errorf("an empty folder is %v", k)
	}
}

// TestFolderClosure: every file but manifest.json is bound; a link leaving the folder
// blocks the server (valid, but no contract).
func TestFolderClosure(t *testing.T) {
	d := t.TempDir()
	testtree.Copy(t, "testdata/cases/good-v0.3-icon", d)
	p := Load(d, Options{})
	c := p.Components[0]
	var paths []string
	for _, f := range c.Contract.Files {
		paths = append(paths, f.Path)
	}
	if strings.Join(paths, " ") != "icon.png manifest.json server/index.js" {
		t.Fatalf("closure %v", paths)
	}
	before := c.Contract.MustDigest()
	os.WriteFile(filepath.Join(d, "server/index.js"), []byte("// changed\n"), 0o644)
	if Load(d, Options{}).Components[0].Contract.MustDigest() == before {
		t.Fatal("editing the server did not change the digest")
	}
	// The server can read its manifest: editing even its description is a change.
	mid := Load(d, Options{}).Components[0].Contract.MustDigest()
	testtree.Replace(t, filepath.Join(d, "manifest.json"), "A demo server.", "Another description.")
	after := Load(d, Options{}).Components[0].Contract.MustDigest()
	if after == mid {
		t.Fatal("editing manifest.json did not change the digest")
	}
	os.Symlink("/etc/passwd", filepath.Join(d, "server/leak"))
	p = Load(d, Options{})
	c = p.Components[0]
	if c.Contract != nil || !slices.Contains(loadertest.Codes(p), "bundle-file-absolute-link") || c.Validity != model.Valid {
		t.Fatalf("an escaping link must block: validity %s contract %v codes %v", c.Validity, c.Contract != nil, loadertest.Codes(p))
	}
	os.Remove(filepath.Join(d, "server/leak"))
	if Load(d, Options{}).Components[0].Contract.MustDigest() != after {
		t.Fatal("the digest is not stable")
	}
}
