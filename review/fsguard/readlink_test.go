package fsguard

import (
	"testing"

	"vouch/internal/testtree"
)

func TestReadlink(t *testing.T) {
	dir := testtree.Make(t, map[string]string{"a/f": "x", "a/l": "->f", "a/out": "->../../outside", "via": "->a", "up": "->.."})
	r := open(t, dir, DefaultLimits())
	for rel, want := range map[string]string{"a/l": "f", "a/out": "../../outside", "via": "a", "via/l": "f"} {
		if got, err := r.Readlink(rel); err != nil || got != want {
			t.Errorf("Readlink(%s) = %q, %v; want %q", rel, got, err, want)
		}
	}
	for rel, code := range map[string]Code{"a/f": CodeNotRegular, "a": CodeNotRegular, "missing": CodeNotFound, "up/x": CodeEscape, "../x": CodeEscape} {
		if _, err := r.Readlink(rel); CodeOf(err) != code {
			t.Errorf("Readlink(%s): %v, want %s", rel, err, code)
		}
	}
}
