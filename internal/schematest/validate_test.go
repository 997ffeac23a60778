package schematest

import (
	"testing"

	"vouch/internal/testtree"
)

func TestValidate(t *testing.T) {
	s := Compile(t, "s.json", map[string][]byte{"s.json": []byte(`{"type": "object", "required": ["valid"], "properties": {"valid": {"type": "boolean"}}}`)})
	for _, tc := range []struct {
		name, doc string
		fails     bool
	}{
		{"accepted", `{"valid": true}`, false},
		{"not JSON", `{"valid": tru`, true},
		{"empty", ``, true},
		{"JSON the schema refuses", `{"valid": "yes"}`, true},
		{"missing a required field", `{}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := testtree.Fails(func(tb testing.TB) { Validate(tb, s, "doc", tc.doc) }); got != tc.fails {
				t.Errorf("Validate failed the test: %v, want %v", got, tc.fails)
			}
		})
	}
}
