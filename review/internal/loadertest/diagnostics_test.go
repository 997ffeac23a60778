package loadertest

import (
	"slices"
	"testing"

	"vouch/model"
)

// TestDiagnostics: the package's own diagnostics come first, then each component's in
// component order, and Codes and HasCode read the same list.
func TestDiagnostics(t *testing.T) {
	d := func(code string) model.Diagnostic { return model.Diagnostic{Code: code} }
	for _, tc := range []struct {
		name string
		pkg  *model.Package
		want []string
	}{
		{"empty", &model.Package{}, nil},
		{"package only", &model.Package{Diagnostics: []model.Diagnostic{d("a"), d("b")}}, []string{"a", "b"}},
		{"components after the package", &model.Package{
			Diagnostics: []model.Diagnostic{d("p")},
			Components: []*model.Component{
				{Diagnostics: []model.Diagnostic{d("c1"), d("c2")}},
				{},
				{Diagnostics: []model.Diagnostic{d("c3")}},
			},
		}, []string{"p", "c1", "c2", "c3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Codes(tc.pkg); !slices.Equal(got, tc.want) {
				t.Errorf("Codes %v, want %v", got, tc.want)
			}
			ds := Diagnostics(tc.pkg)
			for _, code := range tc.want {
				if !HasCode(ds, code) {
					t.Errorf("HasCode(%q) is false", code)
				}
			}
			if HasCode(ds, "c") {
				t.Error("HasCode matched a prefix")
			}
		})
	}
}

// TestDiagnosticsLeavesThePackage: appending to the list does not write into the
// package's own slice.
func TestDiagnosticsLeavesThePackage(t *testing.T) {
	own := make([]model.Diagnostic, 1, 4)
	own[0] = model.Diagnostic{Code: "p"}
	p := &model.Package{Diagnostics: own, Components: []*model.Component{{Diagnostics: []model.Diagnostic{{Code: "c"}}}}}
	_ = Diagnostics(p)
	if got := own[:2][1].Code; got != "" {
		t.Errorf("the package's slice was written: %q", got)
	}
}
