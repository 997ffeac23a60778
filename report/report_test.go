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
				Support:  []model.Support{{Provider: "claude", Status: model.Supported}, {Provider: "codex", Status: model.NotSupported}}},
			{Kind: model.KindHook, ID: "ctx", Validity: model.Invalid,
				Diagnostics: []model.Diagnostic{{Code: "hook-bad", Severity: model.SeverityError, Boundary: model.BoundaryComponent, Message: "Bad."}}},
		},
	}
}

func TestBuildValidation(t *testing.T) {
	r := Build([]*model.Package{samplePackage()}, nil, nil)
	if r.Valid || r.Packages[0].Valid {
		t.Fatal("an invalid component must make the package and the report invalid")
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
	if run.Support == nil || (*run.Support)["claude"] != model.Supported || (*run.Support)["codex"] != model.NotSupported {
		t.Fatalf("support map: %v", run.Support)
	}
	if ctx.Support == nil || len(*ctx.Support) != 0 {
		t.Fatalf("a status report must carry support, empty included: %v", ctx.Support)
	}
	if ctx.Authorization != model.Blocked || ctx.Reason != "invalid" {
		t.Fatalf("status not carried: %+v", ctx)
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
