package model

import "testing"

func TestPlaceConstructorsSetTheirBoundary(t *testing.T) {
	at := Place{File: "hooks/hooks.json", Pointer: "/hooks/PreToolUse/0", Line: 7}
	cases := []struct {
		name string
		make func(code string, sev Severity, msg, spec string) Diagnostic
		want Boundary
	}{
		{"Package", at.Package, BoundaryPackage},
		{"ComponentType", at.ComponentType, BoundaryComponentType},
		{"Component", at.Component, BoundaryComponent},
		{"Entry", at.Entry, BoundaryEntry},
		{"Finding", func(code string, sev Severity, msg, spec string) Diagnostic {
			return at.Finding(BoundarySource, code, sev, msg, spec)
		}, BoundarySource},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.make("hook-x", SeverityWarning, "A sentence.", "claude-code §1.4")
			want := Diagnostic{Code: "hook-x", Severity: SeverityWarning, Boundary: tc.want, File: "hooks/hooks.json",
				Pointer: "/hooks/PreToolUse/0", Line: 7, Message: "A sentence.", Spec: "claude-code §1.4"}
			if got != want {
				t.Errorf("%s = %+v, want %+v", tc.name, got, want)
			}
		})
	}
}
