package report

import (
	"bytes"
	"errors"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/goldenfile"
	"vouch/model"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/text")

// textReport has one component of every authorization and validity, hostile text in a
// name, a changed component's changes, something not covered and a source diagnostic.
func textReport() *Report {
	sup := map[string]model.SupportStatus{"codex": "supported", "claude-code": "unsupported"}
	comp := func(id, validity string, a model.Authorization) Component {
		return Component{Ref: "demo#tool:" + id, Kind: "tool", ID: id, Validity: validity, Support: &sup, Authorization: a}
	}
	changed := comp("changed", "valid", model.Changed)
	changed.Changes = []string{"run.sh changed"}
	blocked := comp("blocked", "invalid", model.Blocked)
	blocked.Reason = "It is invalid."
	blocked.Diagnostics = []model.Diagnostic{{Code: "tool-bad", Severity: model.SeverityError, Boundary: model.BoundaryComponent, File: "PLUGIN.toml", Line: 3, Message: "Bad \x1b[31mred\x1b[0m tool."}}
	approved := comp("approved", "valid", model.Approved)
	approved.NotCovered = []model.NotCovered{{Kind: "path-program", Subject: "node"}}
	return &Report{SchemaVersion: 1, Packages: []Package{{
		Format: "dalo", Name: "demo\x1b]0;title\x07", Version: "1.0.0", Path: "/src/demo", Valid: true, Errors: 1,
		Components: []Component{approved, comp("unreviewed", "valid", model.Unreviewed), changed,
			comp("revoked", "skipped", model.Revoked), blocked, comp("odd", "unsupported", model.Unreviewed)},
		Diagnostics: []model.Diagnostic{},
	}}, Diagnostics: []model.Diagnostic{{Code: "manifest-not-read", Severity: model.SeverityWarning, Boundary: model.BoundarySource, File: "/src/.kiro", Message: "Not read."}}}
}

func TestTextPrintersGolden(t *testing.T) {
	rel := func(p string) string { return strings.TrimPrefix(p, "/src/") }
	for _, tc := range []struct {
		name  string
		print func(*bytes.Buffer) error
	}{
		{"validation.txt", func(b *bytes.Buffer) error { return WriteValidationText(b, textReport(), TextOptions{Rel: rel}) }},
		{"status.txt", func(b *bytes.Buffer) error { return WriteStatusText(b, textReport(), TextOptions{Rel: rel}) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.print(&b); err != nil {
				t.Fatal(err)
			}
			if bytes.IndexByte(b.Bytes(), 0x1b) >= 0 || bytes.IndexByte(b.Bytes(), 0x07) >= 0 {
				t.Fatalf("a control byte reached the text report:\n%q", b.String())
			}
			goldenfile.Check(t, filepath.Join("testdata", "text", tc.name), b.Bytes(), *update,
				"go test ./report -run TestTextPrintersGolden -update writes it")
		})
	}
}

// The status report draws each answer from the answer table: the line of a component
// holds the table's glyph and word for its validity and its authorization.
func TestStatusTextDrawsTheAnswerTable(t *testing.T) {
	rep := textReport()
	var b bytes.Buffer
	if err := WriteStatusText(&b, rep, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, c := range rep.Packages[0].Components {
		var line string
		for _, l := range strings.Split(b.String(), "\n") {
			if strings.Contains(l, " tool:"+c.ID+" ") {
				line = l
			}
		}
		for _, want := range []string{ValidityAnswer(model.Validity(c.Validity)).String(), AuthAnswer(c.Authorization).String()} {
			if !strings.Contains(line, want) {
				t.Errorf("%s: line %q lacks %q", c.ID, line, want)
			}
		}
	}
}

type failingWriter struct{ n int }

func (f *failingWriter) Write(p []byte) (int, error) {
	f.n++
	return 0, errors.New("disk full")
}

// A printer reports the first write error, and stops writing after it.
func TestTextPrintersReportWriteErrors(t *testing.T) {
	for name, print := range map[string]func(*failingWriter) error{
		"validation": func(w *failingWriter) error { return WriteValidationText(w, textReport(), TextOptions{}) },
		"status":     func(w *failingWriter) error { return WriteStatusText(w, textReport(), TextOptions{}) },
	} {
		w := &failingWriter{}
		if err := print(w); err == nil || err.Error() != "disk full" {
			t.Errorf("%s: error %v, want disk full", name, err)
		}
		if w.n != 1 {
			t.Errorf("%s: %d writes reached the failing writer, want 1", name, w.n)
		}
	}
}

// The answers every component can get are distinct as glyph and word: no two answers of
// one column read alike without colour.
func TestAnswerTableDistinct(t *testing.T) {
	seen := map[string]model.Authorization{}
	for _, a := range []model.Authorization{model.Unreviewed, model.Approved, model.Changed, model.Revoked, model.Blocked, AuthNothing} {
		s := AuthAnswer(a).String()
		if prev, dup := seen[s]; dup {
			t.Errorf("%s and %s both read %q", prev, a, s)
		}
		seen[s] = a
	}
	vseen := map[string]model.Validity{}
	for _, v := range []model.Validity{model.Valid, model.Invalid, model.Skipped, model.Unsupported} {
		s := ValidityAnswer(v).String()
		if prev, dup := vseen[s]; dup {
			t.Errorf("%s and %s both read %q", prev, v, s)
		}
		vseen[s] = v
	}
}
