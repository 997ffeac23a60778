package report

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"vouch/internal/schematest"
	"vouch/model"
	"vouch/review"
)

func sarifSchema(t *testing.T) *jsonschema.Schema {
	return schematest.CompileFile(t, filepath.Join("testdata", "sarif-2.1.0", "sarif-schema-2.1.0.json"))
}

func validateSARIF(t *testing.T, s *jsonschema.Schema, b []byte) map[string]any {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if err := s.Validate(doc); err != nil {
		t.Fatalf("SARIF does not validate against the 2.1.0 schema: %v\n%s", err, b)
	}
	var m map[string]any
	json.Unmarshal(b, &m)
	return m
}

// Every example, as a validation report and as a status report with every answer, gives
// SARIF that the official 2.1.0 schema accepts, with one result per diagnostic, per
// not-covered and hidden item and per network risk.
func TestSARIFExamplesValidate(t *testing.T) {
	schema := sarifSchema(t)
	examples, _ := filepath.Glob(filepath.Join("..", "examples", "*", "*"))
	if len(examples) < 5 {
		t.Fatalf("found %d examples", len(examples))
	}
	base, _ := filepath.Abs("..")
	answers := []model.Authorization{model.Unreviewed, model.Approved, model.Changed, model.Revoked, model.Blocked}
	for _, ex := range examples {
		if strings.HasSuffix(ex, "README.md") {
			continue
		}
		res, err := review.Open(review.Options{}, ex)
		if err != nil {
			t.Fatalf("%s: %v", ex, err)
		}
		for _, status := range []bool{false, true} {
			var st Statuses
			if status {
				st = Statuses{}
				i := 0
				for _, p := range res.Packages {
					st[p] = map[string]Status{}
					for _, c := range p.Components {
						st[p][p.Ref(c)] = Status{Authorization: answers[i%len(answers)], Reason: "because"}
						i++
					}
				}
			}
			r := Build(res.Packages, res.Diagnostics, st)
			var buf bytes.Buffer
			if err := WriteSARIF(&buf, r, SARIFOptions{Base: base, Version: "test", RequireApproved: status}); err != nil {
				t.Fatal(err)
			}
			m := validateSARIF(t, schema, buf.Bytes())
			results := m["runs"].([]any)[0].(map[string]any)["results"].([]any)
			want := len(r.Diagnostics)
			for _, p := range r.Packages {
				want += len(p.Diagnostics)
				for _, c := range p.Components {
					want += len(c.Diagnostics) + len(c.NotCovered) + len(c.Hidden) + len(c.Risks)
					if c.Authorization != "" && c.Authorization != model.Approved && !model.Kind(c.Kind).Inert() {
						want++
					}
				}
			}
			if len(results) != want {
				t.Errorf("%s (status %v): %d results, want %d", ex, status, len(results), want)
			}
		}
	}
}

func TestSARIFLocationsAndRules(t *testing.T) {
	base := t.TempDir()
	r := &Report{Packages: []Package{{
		Name: "p", Path: filepath.Join(base, "pkgs", "p"),
		Diagnostics: []model.Diagnostic{
			{Code: "manifest-unknown-field", Severity: model.SeverityWarning, File: "plugin.json", Line: 3, Message: "Unknown.", Spec: "agent-plugins §5"},
			{Code: "manifest-unknown-field", Severity: model.SeverityWarning, File: "plugin.json", Line: 4, Message: "Unknown too."},
		},
		Components: []Component{{Ref: "p#skill:a", Authorization: model.Changed, Reason: "digest differs"}},
	}}}
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, r, SARIFOptions{Base: base}); err != nil {
		t.Fatal(err)
	}
	m := validateSARIF(t, sarifSchema(t), buf.Bytes())
	run := m["runs"].([]any)[0].(map[string]any)
	rules := run["tool"].(map[string]any)["driver"].(map[string]any)["rules"].([]any)
	if len(rules) != 2 {
		t.Fatalf("want one rule per code (2), got %d", len(rules))
	}
	if help := rules[0].(map[string]any)["help"].(map[string]any)["text"].(string); !strings.Contains(help, "agent-plugins §5") {
		t.Errorf("rule help does not name the spec: %q", help)
	}
	res := run["results"].([]any)
	loc := res[0].(map[string]any)["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
	if uri := loc["artifactLocation"].(map[string]any)["uri"]; uri != "pkgs/p/plugin.json" {
		t.Errorf("uri = %v", uri)
	}
	if line := loc["region"].(map[string]any)["startLine"]; line != float64(3) {
		t.Errorf("line = %v", line)
	}
	if lvl := res[2].(map[string]any)["level"]; lvl != "error" {
		t.Errorf("a changed component must be an error result, got %v", lvl)
	}
}

// A hostile message cannot end its annotation and start a workflow command of its own,
// nor put raw control characters into the log.
func TestGitHubAnnotationsEscape(t *testing.T) {
	r := &Report{Packages: []Package{{
		Name: "p", Path: "/w/p",
		Diagnostics: []model.Diagnostic{{Code: "x", Severity: model.SeverityError, File: "a,b:c.md", Line: 2,
			Message: "bad\n::add-mask::secret\r%0A\x1b[31m\u202e"}},
		Components: []Component{{Ref: "p#hook:h", Authorization: model.Unreviewed}},
	}}}
	var buf bytes.Buffer
	if err := WriteGitHub(&buf, r, SARIFOptions{Base: "/w", RequireApproved: true}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("want 2 annotation lines, got %d:\n%s", len(lines), buf.String())
	}
	want := `::error file=p/a%2Cb%3Ac.md,line=2,title=vouch x::p: bad%0A::add-mask::secret%0D%250A\u001b[31m\u202e`
	if lines[0] != want {
		t.Errorf("got  %s\nwant %s", lines[0], want)
	}
	if lines[1] != "::error file=p,line=1,title=vouch unreviewed::p#hook:h is unreviewed" {
		t.Errorf("status line: %s", lines[1])
	}
}

// TestSARIFEscapesPackageText: package text reaches message.text and the properties with
// ESC, C1, bidi and invisible characters written as \u escapes, as --format github
// writes them; encoding/json alone would keep them as raw characters.
func TestSARIFEscapesPackageText(t *testing.T) {
	hostile := "a\x1b[2Jb\u009bc\u202ed\u200be"
	r := &Report{Packages: []Package{{
		Name: "p" + hostile, Path: "/w/p", Format: "claude-code",
		Diagnostics: []model.Diagnostic{{Code: "x", Severity: model.SeverityError, Message: "bad " + hostile}},
		Components: []Component{{Ref: "p#hook:" + hostile, Authorization: model.Unreviewed, Reason: hostile,
			NotCovered: []model.NotCovered{{Kind: "path-program", Subject: hostile, Detail: hostile}}}},
	}}}
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, r, SARIFOptions{Base: "/w"}); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				Message    struct{ Text string } `json:"message"`
				Properties map[string]any        `json:"properties"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 || len(log.Runs[0].Results) != 3 {
		t.Fatalf("want 3 results:\n%s", buf.String())
	}
	for _, res := range log.Runs[0].Results {
		texts := []string{res.Message.Text}
		for _, v := range res.Properties {
			if s, ok := v.(string); ok {
				texts = append(texts, s)
			}
		}
		for _, s := range texts {
			for _, r := range s {
				if r < 0x20 || model.IsHiddenRune(r) {
					t.Fatalf("raw %U in %q", r, s)
				}
			}
		}
		if !strings.Contains(res.Message.Text, `\u001b[2Jb\u009bc\u202ed\u200be`) {
			t.Errorf("message not escaped as --format github writes it: %q", res.Message.Text)
		}
	}
}
