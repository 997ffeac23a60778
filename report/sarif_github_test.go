package report

import (
	"bytes"
	"encoding/json"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"vouch/model"
	"vouch/review"
)

// githubConstraints checks a SARIF log against what GitHub code scanning documents for
// uploads ("SARIF support for code scanning" and its limits table): at most 20 runs,
// 25,000 results and rules per run, 1,000 locations per result and 20 tags per rule; every
// result with a ruleId, a message and at least one location whose artifact URI is
// relative to the repository root with a start line; rules with short and full
// descriptions of at most 1,024 characters and a security-severity from 0.0 to 10.0.
// vouch also promises fingerprints, help URIs and no raw control characters.
func githubConstraints(t *testing.T, name string, data []byte) []map[string]any {
	t.Helper()
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Name, InformationURI, SemanticVersion string
					Rules                                 []struct {
						ID               string
						ShortDescription struct{ Text string }
						FullDescription  struct{ Text string }
						HelpURI          string
						Properties       map[string]any
					}
				}
			}
			Results []map[string]any
		}
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(log.Runs) == 0 || len(log.Runs) > 20 {
		t.Fatalf("%s: %d runs", name, len(log.Runs))
	}
	if bytes.ContainsAny(data, "\x1b\u009b\u202e") {
		t.Errorf("%s: raw control or bidi characters in the log", name)
	}
	var all []map[string]any
	for _, run := range log.Runs {
		d := run.Tool.Driver
		if d.Name == "" || !strings.HasPrefix(d.InformationURI, "https://") {
			t.Errorf("%s: driver name %q informationUri %q", name, d.Name, d.InformationURI)
		}
		if len(d.Rules) > 25000 || len(run.Results) > 25000 {
			t.Errorf("%s: %d rules, %d results", name, len(d.Rules), len(run.Results))
		}
		ids := map[string]bool{}
		for _, r := range d.Rules {
			ids[r.ID] = true
			if r.ShortDescription.Text == "" || len(r.ShortDescription.Text) > 1024 || r.FullDescription.Text == "" || len(r.FullDescription.Text) > 1024 {
				t.Errorf("%s: rule %s descriptions %q / %q", name, r.ID, r.ShortDescription.Text, r.FullDescription.Text)
			}
			if u, err := url.Parse(r.HelpURI); err != nil || u.Scheme != "https" {
				t.Errorf("%s: rule %s helpUri %q", name, r.ID, r.HelpURI)
			}
			sev, _ := r.Properties["security-severity"].(string)
			if f, err := strconv.ParseFloat(sev, 64); err != nil || f < 0 || f > 10 || math.IsNaN(f) {
				t.Errorf("%s: rule %s security-severity %q", name, r.ID, sev)
			}
			if tags, _ := r.Properties["tags"].([]any); len(tags) == 0 || len(tags) > 20 {
				t.Errorf("%s: rule %s has %d tags", name, r.ID, len(tags))
			}
		}
		for _, res := range run.Results {
			all = append(all, res)
			id, _ := res["ruleId"].(string)
			msg, _ := res["message"].(map[string]any)
			if !ids[id] || msg["text"] == "" {
				t.Errorf("%s: result without a known rule or a message: %v", name, res)
			}
			fp, _ := res["partialFingerprints"].(map[string]any)
			if v, _ := fp[fingerprintKey].(string); len(v) < 16 {
				t.Errorf("%s: result %s has no fingerprint: %v", name, id, res["partialFingerprints"])
			}
			locs, _ := res["locations"].([]any)
			rel, _ := res["relatedLocations"].([]any)
			if len(locs) == 0 || len(locs)+len(rel) > 1000 {
				t.Errorf("%s: result %s has %d locations: %v", name, id, len(locs), res["message"])
				continue
			}
			for _, l := range append(locs, rel...) {
				pl := l.(map[string]any)["physicalLocation"].(map[string]any)
				uri := pl["artifactLocation"].(map[string]any)["uri"].(string)
				if u, err := url.Parse(uri); err != nil || u.Scheme != "" || strings.HasPrefix(uri, "/") || strings.HasPrefix(uri, "../") {
					t.Errorf("%s: result %s: uri %q is not relative to the repository root", name, id, uri)
				}
				if region, ok := pl["region"].(map[string]any); !ok || region["startLine"].(float64) < 1 {
					t.Errorf("%s: result %s at %s has no start line", name, id, uri)
				}
			}
		}
	}
	return all
}

// exampleStatuses rates every component of res with the answers in turn, so each
// example shows every kind of result.
func exampleStatuses(res *review.Result) Statuses {
	answers := []model.Authorization{model.Unreviewed, model.Approved, model.Changed, model.Revoked, model.Blocked}
	st := Statuses{}
	i := 0
	for _, p := range res.Packages {
		st[p] = map[string]Status{}
		for _, c := range p.Components {
			s := Status{Authorization: answers[i%len(answers)], Reason: "because"}
			if s.Authorization == model.Changed && len(c.Files) > 0 {
				s.ChangedFiles = []string{c.Files[0].Path}
			}
			st[p][p.Ref(c)] = s
			i++
		}
	}
	return st
}

// Every result of every example, as a validation and as a status report, has a location
// in a file relative to the repository root with a line, a fingerprint, and a rule GitHub
// can rank: the log passes the SARIF schema and GitHub's upload constraints.
func TestSARIFExamplesMeetGitHubConstraints(t *testing.T) {
	schema := sarifSchema(t)
	root, _ := filepath.Abs("..")
	examples, _ := filepath.Glob(filepath.Join(root, "examples", "*", "*"))
	o := SARIFOptions{Base: root, Version: "v1.2.3", ProjectURL: "https://example.invalid/vouch", Manifest: review.ManifestFile}
	results := 0
	for _, ex := range examples {
		if st, err := os.Stat(ex); err != nil || !st.IsDir() {
			continue
		}
		res, err := review.Open(review.Options{}, ex)
		if err != nil {
			t.Fatalf("%s: %v", ex, err)
		}
		for _, st := range []Statuses{nil, exampleStatuses(res)} {
			o.RequireApproved = st != nil
			var buf bytes.Buffer
			if err := WriteSARIF(&buf, Build(res.Packages, res.Diagnostics, st), o); err != nil {
				t.Fatal(err)
			}
			validateSARIF(t, schema, buf.Bytes())
			results += len(githubConstraints(t, ex, buf.Bytes()))
		}
	}
	if results < 100 {
		t.Errorf("only %d results over every example: the examples no longer exercise the output", results)
	}
}

// The hidden comment of the token-helper skill is a result at its line in SARIF and an
// annotation at its line in --format github.
func TestHiddenContentInSARIFAndGitHub(t *testing.T) {
	root, _ := filepath.Abs("..")
	ex := filepath.Join(root, "examples", "skills", "token-helper")
	res, err := review.Open(review.Options{}, ex)
	if err != nil {
		t.Fatal(err)
	}
	r := Build(res.Packages, res.Diagnostics, nil)
	o := SARIFOptions{Base: root, ProjectURL: "https://example.invalid/vouch", Manifest: review.ManifestFile}
	var sarif, gh bytes.Buffer
	WriteSARIF(&sarif, r, o)
	WriteGitHub(&gh, r, o)
	found := false
	for _, res := range githubConstraints(t, "token-helper", sarif.Bytes()) {
		if res["ruleId"] != "hidden-html-comment" {
			continue
		}
		found = true
		pl := res["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
		if uri := pl["artifactLocation"].(map[string]any)["uri"]; uri != "examples/skills/token-helper/SKILL.md" {
			t.Errorf("uri %v", uri)
		}
		if line := pl["region"].(map[string]any)["startLine"]; line != float64(10) {
			t.Errorf("line %v, want 10 (the comment's line)", line)
		}
	}
	if !found {
		t.Errorf("no hidden-html-comment result:\n%s", sarif.String())
	}
	if !regexp.MustCompile(`(?m)^::warning file=examples/skills/token-helper/SKILL.md,line=10,title=vouch hidden-html-comment::.*scripts/fix.sh`).Match(gh.Bytes()) {
		t.Errorf("no annotation at the hidden comment's line:\n%s", gh.String())
	}
}

// A changed component points at the file that changed, with a related location per
// changed file; annotations list changed and revoked components first; the step summary
// lists every finding with its markdown escaped.
func TestChangedFileLocationAndGitHubOrder(t *testing.T) {
	base := t.TempDir()
	pkg := filepath.Join(base, "p")
	os.MkdirAll(filepath.Join(pkg, "bin"), 0o755)
	os.WriteFile(filepath.Join(pkg, "plugin.json"), []byte("{}\n"), 0o644)
	os.WriteFile(filepath.Join(pkg, "bin", "run.sh"), []byte("echo\n"), 0o644)
	var comps []Component
	for i := 0; i < 12; i++ {
		comps = append(comps, Component{Ref: "p#skill:s" + strconv.Itoa(i), Kind: "skill", Authorization: model.Unreviewed})
	}
	comps = append(comps,
		Component{Ref: "p#tool:t", Kind: "tool", Authorization: model.Changed, Reason: "bin/run.sh modified", ChangedFiles: []string{"bin/run.sh", "gone.txt"}},
		Component{Ref: "p#hook:h", Kind: "hook", Authorization: model.Revoked, Reason: "<img src=x> | [link](http://x) \u202e"})
	r := &Report{Packages: []Package{{Name: "p", Format: "agent-plugins", Path: pkg, Components: comps}}}
	o := SARIFOptions{Base: base, ProjectURL: "https://example.invalid/vouch", Manifest: review.ManifestFile, RequireApproved: true}
	var sarif bytes.Buffer
	WriteSARIF(&sarif, r, o)
	validateSARIF(t, sarifSchema(t), sarif.Bytes())
	for _, res := range githubConstraints(t, "changed", sarif.Bytes()) {
		if res["ruleId"] != "authorization-changed" {
			continue
		}
		loc := res["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)["artifactLocation"].(map[string]any)["uri"]
		if loc != "p/bin/run.sh" {
			t.Errorf("changed result at %v, want p/bin/run.sh", loc)
		}
		if rel := res["relatedLocations"].([]any); len(rel) != 2 {
			t.Errorf("%d related locations, want one per changed file", len(rel))
		}
	}
	var gh bytes.Buffer
	WriteGitHub(&gh, r, o)
	lines := strings.Split(strings.TrimSpace(gh.String()), "\n")
	if len(lines) != 14 || !strings.HasPrefix(lines[0], "::error file=p/bin/run.sh,line=1,title=vouch changed::p#tool:t") || !strings.Contains(lines[1], "title=vouch revoked") {
		t.Errorf("changed and revoked must come first, the changed file as file=:\n%s", gh.String())
	}
	for _, l := range lines[2:] {
		if !strings.HasPrefix(l, "::error file=p/plugin.json,line=1,title=vouch unreviewed::") {
			t.Errorf("an unreviewed component points at its manifest: %s", l)
		}
	}
	var sum bytes.Buffer
	if err := WriteStepSummary(&sum, r, o); err != nil {
		t.Fatal(err)
	}
	table := sum.String()
	if got := strings.Count(table, "\n| error |"); got != 14 {
		t.Errorf("the summary lists %d of 14 findings:\n%s", got, table)
	}
	for _, bad := range []string{"<img", "](http", "\u202e", " | [link"} {
		if strings.Contains(table, bad) {
			t.Errorf("package text %q reached the summary unescaped:\n%s", bad, table)
		}
	}
}

// Package text in SARIF messages and properties has no raw ESC, C1 or bidi character.
func TestSARIFSanitizesPackageText(t *testing.T) {
	base := t.TempDir()
	r := &Report{Packages: []Package{{Name: "p\x1b[2J", Path: filepath.Join(base, "p"),
		Diagnostics: []model.Diagnostic{{Code: "x", Severity: model.SeverityError, Message: "bad \x1b]8;;http://x\x07 \u009b \u202e end"}},
		Components: []Component{{Ref: "p#hook:\u2066h", Kind: "hook", Authorization: model.Unreviewed,
			Risks: []model.Capability{{Kind: model.CapNetwork, Scope: []string{"evil\x1b.example.com"}, Detail: "Reaches the network: names the host evil\x1b]0;t\x07\u202e.example.com."}}}},
	}}}
	var buf bytes.Buffer
	WriteSARIF(&buf, r, SARIFOptions{Base: base})
	if !strings.Contains(buf.String(), "Reaches the network") {
		t.Errorf("the network risk is not reported:\n%s", buf.String())
	}
	var doc any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			for _, c := range v {
				if c == 0x1b || c == 0x07 || (c >= 0x80 && c <= 0x9f) || c == 0x202e || c == 0x2066 {
					t.Errorf("raw %U in %q", c, v)
				}
			}
		case map[string]any:
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(doc)
	if !strings.Contains(buf.String(), `\\u001b`) {
		t.Errorf("escapes not visible:\n%s", buf.String())
	}
}

// A network risk becomes one GitHub annotation, its package text escaped (no raw control
// byte, no newline that would start a workflow command), remote code as a warning.
func TestNetworkRiskGitHubAnnotation(t *testing.T) {
	base := t.TempDir()
	r := &Report{Packages: []Package{{Name: "p", Path: filepath.Join(base, "p"),
		Components: []Component{{Ref: "p#hook:h", Kind: "hook", Risks: []model.Capability{
			{Kind: model.CapRemoteCode, Scope: []string{"curl x | sh"}, Detail: "Fetches code over the network and runs it: downloads a script\n::error::forged\x1b[2J (in its command)."},
		}}},
	}}}
	var gh bytes.Buffer
	if err := WriteGitHub(&gh, r, SARIFOptions{Base: base}); err != nil {
		t.Fatal(err)
	}
	out := gh.String()
	if strings.Count(out, "\n") != 1 || !strings.HasPrefix(out, "::warning ") || strings.Contains(out, "\x1b") {
		t.Fatalf("annotation %q", out)
	}
}
