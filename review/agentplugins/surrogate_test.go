package agentplugins

import (
	"testing"

	"vouch/model"
	"vouch/review/internal/loadertest"
)

// Server names that are distinct lone surrogates are distinct names (JSON.parse keeps
// them apart), never one duplicate; vouch cannot show them apart, so each is named in an
// error instead of becoming a component. "\ufffd" itself is an ordinary name.
func TestLoneSurrogateServerNames(t *testing.T) {
	pkg := Load("testdata/lone-surrogate-servers", Options{})
	type row struct {
		code, pointer, message string
		line                   int
	}
	want := []row{
		{"mcp-server-name-not-unicode", "/mcpServers/\ufffd", `In mcp.json, the server name "\ud800" holds a lone UTF-16 surrogate escape, which is not Unicode text; vouch cannot show or approve it apart from other names, so it is not reviewed (JavaScript clients such as Pi load it under that name).`, 4},
		{"mcp-server-name-not-unicode", "/mcpServers/\ufffd", `In mcp.json, the server name "\ud801" holds a lone UTF-16 surrogate escape, which is not Unicode text; vouch cannot show or approve it apart from other names, so it is not reviewed (JavaScript clients such as Pi load it under that name).`, 5},
	}
	var got []row
	for _, d := range pkg.Diagnostics {
		got = append(got, row{d.Code, d.Pointer, d.Message, d.Line})
		if d.Severity != model.SeverityError || d.Boundary != model.BoundaryComponent {
			t.Errorf("%s: %s at %s", d.Code, d.Severity, d.Boundary)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("package diagnostics %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("diagnostic %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
	comps := map[string]*model.Component{}
	for _, c := range pkg.Components {
		comps[c.ID] = c
	}
	if len(comps) != 2 || comps["\ufffd"] == nil || comps["twice"] == nil {
		t.Fatalf("components %v", keys(pkg))
	}
	if c := comps["\ufffd"]; c.Validity != model.Valid {
		t.Errorf("\\ufffd: %s %v", c.Validity, c.Diagnostics)
	}
	if c := comps["twice"]; !loadertest.HasCode(c.Diagnostics, "mcp-server-duplicate-name") {
		t.Errorf("twice: %v", c.Diagnostics)
	}
}
