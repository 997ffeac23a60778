package jsontext

import "testing"

// TestScalar: each scalar kind comes back as JavaScript holds it (numbers as doubles,
// strings unescaped); arrays and objects are not scalars.
func TestScalar(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want any
		ok   bool
	}{
		{`null`, nil, true},
		{`true`, true, true},
		{`false`, false, true},
		{`1e2`, 100.0, true},
		{`-0.5`, -0.5, true},
		{`"a\u0062"`, "ab", true},
		{`[1]`, nil, false},
		{`{"a": 1}`, nil, false},
	} {
		v, _, err := ParseString(tc.in, Limits)
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		got, ok := v.Scalar()
		if ok != tc.ok || got != tc.want {
			t.Errorf("%s: Scalar() = %#v, %v; want %#v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
