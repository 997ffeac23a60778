package report

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"vouch/model"
)

// TestStreamIsBuild: the streamed document decodes to the one Build and WriteJSON give,
// and says invalid where Build does, for no packages, one, several and an invalid one.
func TestStreamIsBuild(t *testing.T) {
	bad := samplePackage()
	bad.Name = "bad\u202ename" // a bidi control: escaped in both
	bad.Diagnostics = append(bad.Diagnostics, model.Diagnostic{Code: "x", Severity: model.SeverityError, Boundary: model.BoundaryPackage, Message: "broken"})
	srcErr := []model.Diagnostic{{Code: "unreadable-directory", Severity: model.SeverityError, Boundary: model.BoundarySource, File: "/x", Message: "no"}}
	cases := []struct {
		name  string
		pkgs  []*model.Package
		diags []model.Diagnostic
	}{
		{"none", nil, nil},
		{"one", []*model.Package{samplePackage()}, nil},
		{"several", []*model.Package{samplePackage(), samplePackage(), samplePackage()}, nil},
		{"invalid", []*model.Package{samplePackage(), bad}, nil},
		{"source error", []*model.Package{samplePackage()}, srcErr},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var whole, streamed bytes.Buffer
			rep := Build(c.pkgs, c.diags, nil)
			if err := WriteJSON(&whole, rep); err != nil {
				t.Fatal(err)
			}
			s := NewStream(&streamed)
			for _, p := range c.pkgs {
				if err := s.Add(p); err != nil {
					t.Fatal(err)
				}
			}
			valid, err := s.Close(c.diags)
			if err != nil {
				t.Fatal(err)
			}
			if valid != rep.Valid {
				t.Fatalf("Close says valid=%v, Build %v", valid, rep.Valid)
			}
			var a, b any
			if err := json.Unmarshal(whole.Bytes(), &a); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(streamed.Bytes(), &b); err != nil {
				t.Fatalf("streamed report does not parse: %v\n%s", err, streamed.String())
			}
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("streamed:\n%s\nwhole:\n%s", streamed.String(), whole.String())
			}
			if strings.ContainsRune(streamed.String(), '\u202e') {
				t.Fatal("a bidi control reached the output")
			}
			// Same layout as WriteJSON's, line for line, but for where "valid" sits.
			strip := func(s string) []string {
				var out []string
				for _, l := range strings.Split(s, "\n") {
					if !strings.HasPrefix(l, "  \"valid\": ") {
						out = append(out, strings.TrimSuffix(l, ","))
					}
				}
				return out
			}
			if !reflect.DeepEqual(strip(whole.String()), strip(streamed.String())) {
				t.Fatalf("layout differs:\n%s\nwhole:\n%s", streamed.String(), whole.String())
			}
		})
	}
}

// TestEscapeInvisibleCopiesOnlyWhenNeeded: plain output is returned as it is, without an
// allocation; output holding a hidden rune is rewritten.
func TestEscapeInvisibleCopiesOnlyWhenNeeded(t *testing.T) {
	plain := []byte(strings.Repeat(`{"name": "plugin-0001", "v": "caf`+"\u00e9"+`"}`+"\n", 100))
	if n := testing.AllocsPerRun(20, func() { escapeInvisible(plain) }); n != 0 {
		t.Fatalf("%v allocations for output with nothing to escape", n)
	}
	if got := string(escapeInvisible([]byte("a\u200bb\x7fc"))); got != `a\u200bb\u007fc` {
		t.Fatalf("escaped %q", got)
	}
}
