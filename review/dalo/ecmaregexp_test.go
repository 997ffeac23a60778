package dalo

import (
	"fmt"
	"testing"
)

// The schema's "description": {"pattern": "\\S"} is an ECMA-262 pattern: a description
// made only of characters JavaScript's \s matches (U+00A0, U+3000, U+FEFF, ...) is blank
// and refused, one with any other character passes.
func TestDescriptionPatternIsECMAScript(t *testing.T) {
	tests := []struct {
		desc string
		code string // "" when valid
	}{
		{"Reviews designs.", ""},
		{"   ", "plugin-invalid-description"},
		{"\u00a0", "plugin-invalid-description"},
		{"\u3000\u3000", "plugin-invalid-description"},
		{"\ufeff", "plugin-invalid-description"},
		{"\u2028\u2029\u202f\u205f\u1680\u2000\u200a", "plugin-invalid-description"},
		{"\u200b", ""}, // ZERO WIDTH SPACE is not \s in JavaScript
		{"\u3000x", ""},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%+q", tt.desc), func(t *testing.T) {
			data := fmt.Sprintf("schema_version = 1\n[plugin]\nname = \"p\"\ndescription = %q\n", tt.desc)
			_, _, diags := parseManifest([]byte(data), "PLUGIN.toml")
			var codes []string
			for _, d := range diags {
				codes = append(codes, d.Code)
			}
			switch {
			case tt.code == "" && len(diags) != 0:
				t.Errorf("diagnostics %v, want none", codes)
			case tt.code != "" && (len(diags) != 1 || diags[0].Code != tt.code || diags[0].Pointer != "/plugin/description"):
				t.Errorf("diagnostics %+v, want one %s at /plugin/description", diags, tt.code)
			case tt.code != "" && diags[0].Message != "plugin.description: "+jsQuote(tt.desc)+" does not match pattern '\\\\S'.":
				t.Errorf("message %q", diags[0].Message)
			}
		})
	}
}

// jsQuote is how the schema messages quote a value: single quotes, non-ASCII escaped.
func jsQuote(s string) string {
	q := fmt.Sprintf("%+q", s)
	return "'" + q[1:len(q)-1] + "'"
}
