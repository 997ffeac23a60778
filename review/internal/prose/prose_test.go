package prose

import "testing"

func TestList(t *testing.T) {
	for _, tc := range []struct {
		xs         []string
		conj, none string
		want       string
	}{
		{nil, "and", "no client", "no client"},
		{[]string{}, "or", "", ""},
		{[]string{"a"}, "and", "none", "a"},
		{[]string{"a", "b"}, "and", "", "a and b"},
		{[]string{"a", "b"}, "or", "", "a or b"},
		{[]string{"a", "b", "c"}, "and", "", "a, b and c"},
		{[]string{"a", "b", "c", "d"}, "or", "", "a, b, c or d"},
	} {
		if got := List(tc.xs, tc.conj, tc.none); got != tc.want {
			t.Errorf("List(%q, %q, %q) = %q, want %q", tc.xs, tc.conj, tc.none, got, tc.want)
		}
	}
}
