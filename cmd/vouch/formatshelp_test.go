package main

import (
	"strings"
	"testing"

	"vouch/review"
)

// The help of vouch and of validate names every format of review's format table, and
// the path-not-found error names every form a SOURCE may take.
func TestHelpNamesEveryFormat(t *testing.T) {
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	_, root, _ := runVouch(t, t.TempDir(), "--help")
	if !strings.Contains(flat(root), flat(review.FormatNames())) {
		t.Errorf("vouch --help does not list the formats %q:\n%s", review.FormatNames(), root)
	}
	_, validate, _ := runVouch(t, t.TempDir(), "validate", "--help")
	if !strings.Contains(validate, review.FormatLines("  ")) {
		t.Errorf("vouch validate --help does not list the formats:\n%s", validate)
	}
	for _, args := range [][]string{{"validate", "/no/such/source"}, {"review", "/no/such/source"}} {
		_, _, errOut := runVouch(t, t.TempDir(), args...)
		for _, form := range review.SourceForms() {
			if !strings.Contains(errOut, form) {
				t.Errorf("vouch %s: %q does not name %q", args[0], errOut, form)
			}
		}
	}
}

func TestWrapText(t *testing.T) {
	for _, tc := range []struct {
		in    string
		width int
		want  string
	}{
		{"a bb ccc dddd", 6, "a bb\nccc\ndddd"},
		{"  spaced   out  ", 20, "spaced out"},
		{"averyveryverylongword b", 5, "averyveryverylongword\nb"},
		{"é é é", 3, "é é\né"},
		{"", 10, ""},
	} {
		if got := wrapText(tc.in, tc.width); got != tc.want {
			t.Errorf("wrapText(%q, %d) = %q, want %q", tc.in, tc.width, got, tc.want)
		}
	}
}
