package fsguard

import (
	"errors"
	"testing"
)

// TestMemReader: a file of the decoded package comes back as a copy (changing it leaves
// the package as decoded); any other path is refused as not found, naming what holds the
// files.
func TestMemReader(t *testing.T) {
	m := MemReader{Files: map[string][]byte{"a/b.js": []byte("x")}, Of: "the bundle"}
	for _, tc := range []struct {
		rel, want, msg string
	}{
		{"a/b.js", "x", ""},
		{"a/c.js", "", "is not a file of the bundle"},
		{"./a/b.js", "", "is not a file of the bundle"},
	} {
		b, err := m.ReadFile(tc.rel)
		if tc.msg == "" {
			if err != nil || string(b) != tc.want {
				t.Errorf("%s: %q, %v; want %q", tc.rel, b, err, tc.want)
			}
			b[0] = 'y'
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeNotFound || e.Msg != tc.msg || e.Path != tc.rel {
			t.Errorf("%s: %v, want %s %q", tc.rel, err, CodeNotFound, tc.msg)
		}
	}
	if b, _ := m.ReadFile("a/b.js"); string(b) != "x" {
		t.Errorf("a caller's change reached the package: %q", b)
	}
}

// TestOrDefault: only the zero Limits become the defaults; any limit set keeps the rest
// as given (a caller lowering one bound must not have the others raised behind it).
func TestOrDefault(t *testing.T) {
	one := Limits{MaxDepth: 3}
	for _, tc := range []struct {
		name string
		in   Limits
		want Limits
	}{
		{"none set", Limits{}, DefaultLimits()},
		{"one set", one, one},
		{"defaults", DefaultLimits(), DefaultLimits()},
	} {
		if got := tc.in.OrDefault(); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
