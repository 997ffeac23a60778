package fsguard

import "testing"

func TestWithinLexical(t *testing.T) {
	cases := []struct {
		rel  string
		want bool
	}{
		{"", true},
		{".", true},
		{"a/b", true},
		{"a/../b", true},
		{"a/b/../../c", true},
		{"./a//b/", true},
		{"..", false},
		{"../a", false},
		{"a/../../b", false},
		{"a/./../..", false},
		{"..a/b", true}, // a name that starts with dots is a name
	}
	for _, tc := range cases {
		if got := WithinLexical(tc.rel); got != tc.want {
			t.Errorf("WithinLexical(%q) = %v, want %v", tc.rel, got, tc.want)
		}
	}
}
