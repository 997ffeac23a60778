package loadertest

import (
	"slices"

	"vouch/model"
)

// Diagnostics lists every diagnostic a loaded package carries: the package's own first,
// then each component's, in component order.
func Diagnostics(p *model.Package) []model.Diagnostic {
	out := append([]model.Diagnostic(nil), p.Diagnostics...)
	for _, c := range p.Components {
		out = append(out, c.Diagnostics...)
	}
	return out
}

// Codes lists the codes of Diagnostics(p), in the same order.
func Codes(p *model.Package) []string {
	var out []string
	for _, d := range Diagnostics(p) {
		out = append(out, d.Code)
	}
	return out
}

// HasCode reports whether a diagnostic in ds has exactly this code.
func HasCode(ds []model.Diagnostic, code string) bool {
	return slices.ContainsFunc(ds, func(d model.Diagnostic) bool { return d.Code == code })
}
