package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"vouch/model"
)

func samplePackage() *model.Package {
	return &model.Package{
		Format: model.FormatDalo, Name: "demo", Root: "/src/plugins/demo",
		Components: []*model.Component{
			{Kind: model.KindTool, ID: "run", Validity: model.Valid,
				Contract: &model.Contract{Kind: model.KindTool, Fields: model.Fields{{Key: "runtime", Value: "node"}}},
				Support:  []model.Support{{Provider: model.ClientClaudeCode, Status: model.Supported}, {Provider: model.ClientCodex, Status: model.NotSupported}}},
			{Kind: model.KindHook, ID: "ctx", Validity: model.Invalid,
				Diagnostics: []model.Diagnostic{{Code: "hook-bad", Severity: model.SeverityError, Boundary: model.BoundaryComponent, Message: "Bad."}}},
		},
	}
}

func TestBuildValidation(t *testing.T) {
	r := Build([]*model.Package{samplePackage()}, nil, nil)
	// An invalid component alone leaves the package valid (accepted at its
	// boundary) but the report, which gates CI, is invalid while any error exists.
	if r.Valid || !r.Packages[0].Valid {
		t.Fatalf("report valid=%v package valid=%v: want an invalid report of a valid package", r.Valid, r.Packages[0].Valid)
	}
	if r.Packages[0].Errors != 1 || r.Packages[0].Warnings != 0 {
		t.Fatalf("counts errors=%d warnings=%d, want 1 and 0", r.Packages[0].Errors, r.Packages[0].Warnings)
	}
	c := r.Packages[0].Components[0]
	if c.Ref != "demo#tool:run" || !strings.HasPrefix(c.Digest, "sha256:") {
		t.Fatalf("ref/digest: %q %q", c.Ref, c.Digest)
	}
	if c.Support != nil || c.Authorization != "" {
		t.Fatal("a validation report must not carry status fields")
	}
	if r.Packages[0].Components[1].Digest != "" {
		t.Fatal("a component without a contract has no digest")
	}
}

func TestBuildStatus(t *testing.T) {
	pkg := samplePackage()
	statuses := Statuses{pkg: {"demo#hook:ctx": {Authorization: model.Blocked, Reason: "invalid"}}}
	r := Build([]*model.Package{pkg}, nil, statuses)
	run, ctx := r.Packages[0].Components[0], r.Packages[0].Components[1]
	if run.Authorization != model.Unreviewed {
		t.Fatalf("a component without a status is %q, want unreviewed", run.Authorization)
	}
	if run.Support == nil || (*run.Support)[model.ClientClaudeCode] != model.Supported || (*run.Support)[model.ClientCodex] != model.NotSupported {
		t.Fatalf("support map: %v", run.Support)
	}
	if ctx.Support == nil || len(*ctx.Support) != 0 {
		t.Fatalf("a status report must carry support, empty included: %v", ctx.Support)
	}
	if ctx.Authorization != model.Blocked || ctx.Reason != "invalid" {
		t.Fatalf("status not carried: %+v", ctx)
	}
}

// TestBuildValidity: the package verdict and the strict report verdict, side by side.
func TestBuildValidity(t *testing.T) {
	warn := model.Diagnostic{Code: "w", Severity: model.SeverityWarning, Boundary: model.BoundaryComponent, Message: "W."}
	compErr := model.Diagnostic{Code: "e", Severity: model.SeverityError, Boundary: model.BoundaryComponent, Message: "E."}
	typeErr := model.Diagnostic{Code: "t", Severity: model.SeverityError, Boundary: model.BoundaryComponentType, Message: "T."}
	pkgErr := model.Diagnostic{Code: "p", Severity: model.SeverityError, Boundary: model.BoundaryPackage, Message: "P."}
	for _, tc := range []struct {
		name               string
		pkg                *model.Package
		source             []model.Diagnostic
		pkgValid, reportOK bool
		errors, warnings   int
	}{
		{"clean", &model.Package{Components: []*model.Component{{Validity: model.Valid}}}, nil, true, true, 0, 0},
		{"warning only", &model.Package{Components: []*model.Component{{Validity: model.Valid, Diagnostics: []model.Diagnostic{warn}}}}, nil, true, true, 0, 1},
		{"one entry skipped", &model.Package{Components: []*model.Component{{Validity: model.Valid}, {Validity: model.Skipped, Diagnostics: []model.Diagnostic{compErr, warn}}}}, nil, true, false, 1, 1},
		{"component type disabled", &model.Package{Diagnostics: []model.Diagnostic{typeErr}}, nil, true, false, 1, 0},
		{"package error", &model.Package{Diagnostics: []model.Diagnostic{pkgErr}}, nil, false, false, 1, 0},
		{"rejected", &model.Package{Rejected: true, Diagnostics: []model.Diagnostic{pkgErr}}, nil, false, false, 1, 0},
		{"source error", &model.Package{}, []model.Diagnostic{{Code: "s", Severity: model.SeverityError, Boundary: model.BoundarySource, Message: "S."}}, true, false, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Build([]*model.Package{tc.pkg}, tc.source, nil)
			p := r.Packages[0]
			if p.Valid != tc.pkgValid || r.Valid != tc.reportOK || p.Errors != tc.errors || p.Warnings != tc.warnings {
				t.Errorf("package valid=%v errors=%d warnings=%d, report valid=%v; want %v %d %d, %v",
					p.Valid, p.Errors, p.Warnings, r.Valid, tc.pkgValid, tc.errors, tc.warnings, tc.reportOK)
			}
		})
	}
}

func TestBuildNothingFoundIsInvalid(t *testing.T) {
	r := Build(nil, nil, nil)
	if r.Valid {
		t.Fatal("a report with no package must be invalid")
	}
	var b bytes.Buffer
	if err := WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	if _, ok := m["packages"].([]any); !ok {
		t.Fatal("packages must be an array, never null")
	}
}

func TestWriteJSONEscapesSupplementaryTags(t *testing.T) {
	var b bytes.Buffer
	in := "a\U000E0041b" // a tag character: invisible, used to smuggle text
	if err := WriteJSON(&b, in); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "\U000E0041") || !strings.Contains(b.String(), `\udb40\udc41`) {
		t.Fatalf("tag character not escaped as a surrogate pair: %q", b.String())
	}
	var back string
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || back != in {
		t.Fatalf("round trip: %v %q", err, back)
	}
}

// Two packages of one run with the same name have the same refs; each keeps its own
// verdict (a CI gate must not pass an unapproved package because its namesake is approved).
func TestBuildStatusPerPackage(t *testing.T) {
	good, evil := samplePackage(), samplePackage()
	statuses := Statuses{
		good: {"demo#tool:run": {Authorization: model.Approved}},
		evil: {"demo#tool:run": {Authorization: model.Changed}},
	}
	r := Build([]*model.Package{evil, good}, nil, statuses)
	if got := r.Packages[0].Components[0].Authorization; got != model.Changed {
		t.Fatalf("the unapproved namesake shows %s", got)
	}
	if got := r.Packages[1].Components[0].Authorization; got != model.Approved {
		t.Fatalf("the approved package shows %s", got)
	}
}
