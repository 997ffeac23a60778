package review

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"
	"vouch/internal/testtree"

	"vouch/review/internal/loadertest"
)

// TestLocate: only the roots that may hold the ref are loaded, and every package Open
// returns under the ref's name is among them (two copies of one name both are, so the
// caller can refuse the ambiguity).
func TestLocate(t *testing.T) {
	src := generated(t, 12)
	// A folder named otherwise whose manifest names plugin-0003: a second copy.
	testtree.Copy(t, filepath.Join(src, "plugin-0003"), filepath.Join(src, "zz-copy"))
	// A manifest spelling its name with an escape: the probe cannot rule it out, for any ref.
	esc := filepath.Join(src, "escaped")
	testtree.Copy(t, filepath.Join(src, "plugin-0005"), esc)
	loadertest.WriteFile(t, filepath.Join(esc, "plugin.json"), `{"name": "plugin-\u0030005", "version": "1.0.0"}`)
	// A standalone skill (named by its folder) and a Dalo source (no probe: always loaded).
	loadertest.WriteFile(t, filepath.Join(src, "skill-x", "SKILL.md"), "---\nname: skill-x\ndescription: x\n---\nbody\n")

	cases := []struct {
		ref  string
		want []string // package roots loaded, by base name
	}{
		{"plugin-0003#mcp-server:indexer", []string{"escaped", "plugin-0003", "zz-copy"}},
		{"plugin-0005#mcp-server:indexer", []string{"escaped", "plugin-0005"}},
		{"plugin-0007#skill:review", []string{"escaped", "plugin-0007"}},
		{"skill-x#skill:skill-x", []string{"escaped", "skill-x"}},
		{"nothing#skill:x", []string{"escaped"}},
		{"no-hash-at-all", dirNames(t, src)}, // not a ref: nothing can be ruled out
	}
	for _, c := range cases {
		res, err := Locate(Options{}, src, c.ref)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range res.Packages {
			got = append(got, filepath.Base(p.Root))
		}
		sort.Strings(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("Locate(%s) loaded %v, want %v", c.ref, got, c.want)
		}
		// Whatever Open finds holding the ref, Locate found too.
		all, _ := Open(Options{}, src)
		for _, p := range all.Packages {
			for _, comp := range p.Components {
				if p.Ref(comp) == c.ref && !contains(got, filepath.Base(p.Root)) {
					t.Errorf("Locate(%s) missed %s", c.ref, p.Root)
				}
			}
		}
	}
	if _, err := Locate(Options{}, filepath.Join(src, "missing"), "a#b:c"); err == nil {
		t.Error("Locate of a missing path passed")
	}
}

func dirNames(t *testing.T, dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// contains is slices.Contains for the string lists of this package's tests.
func contains(s []string, x string) bool { return slices.Contains(s, x) }
