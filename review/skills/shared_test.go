package skills

import (
	"reflect"
	"sync"
	"testing"

	"vouch/internal/testtree"
	"vouch/model"
	"vouch/review/fsguard"
)

// TestSharedReadsOnce: the loaders of one folder, each with its own root and its own
// tolerance, get from Shared exactly what LoadTolerant gives each of them, while the
// skill is read once; changing one reader's copy leaves the other's alone.
func TestSharedReadsOnce(t *testing.T) {
	files := map[string]string{
		"skills/review/SKILL.md":         goodSkill,
		"skills/review/scripts/run.sh":   "#!/bin/sh\n",
		"skills/extra/SKILL.md":          "---\nname: extra\ndescription: Has a key the spec does not know.\nversion: 2\n---\nBody.\n",
		"skills/missing/notes.md":        "no SKILL.md here\n",
		"skills/extra/references/ref.md": "# ref\n",
	}
	dir := testtree.Make(t, files)
	lim := fsguard.DefaultLimits()
	unknown := func(code string) bool { return code == "skill-unknown-field" }
	for _, sd := range []string{"skills/review", "skills/extra", "skills/missing"} {
		want := []*model.Component{
			LoadTolerant(openRoot(t, dir, lim), sd, nil, ""),
			LoadTolerant(openRoot(t, dir, lim), sd, unknown, "tolerated here"),
		}
		shared := NewShared(2)
		roots := []*fsguard.Root{openRoot(t, dir, lim), openRoot(t, dir, lim)}
		before := reads.Load()
		got := make([]*model.Component, 2)
		var wg sync.WaitGroup
		for i := range got {
			wg.Add(1)
			go func() {
				defer wg.Done()
				tol, note := (func(string) bool)(nil), ""
				if i == 1 {
					tol, note = unknown, "tolerated here"
				}
				got[i] = shared.Load(roots[i], sd, tol, note)
			}()
		}
		wg.Wait()
		if n := reads.Load() - before; n != 1 {
			t.Errorf("%s: read %d times for two readers of one folder, want once", sd, n)
		}
		for i := range got {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Errorf("%s, reader %d: shared load\n%+v\nwant\n%+v", sd, i, got[i], want[i])
			}
		}
		if got[0].Validity == model.Valid {
			got[0].Diagnostics = append(got[0].Diagnostics, model.Diagnostic{Code: "changed"})
			got[0].Summary = append(got[0].Summary[:0], "changed")
			again := shared.Load(openRoot(t, dir, lim), sd, nil, "")
			if !reflect.DeepEqual(again, want[0]) {
				t.Errorf("%s: a reader's change reached the next reader: %+v", sd, again)
			}
		}
		// Each root counted the skill's bytes as if it had read them.
		if a, b := roots[0].BytesRead(), roots[1].BytesRead(); a != b || (a == 0 && sd != "skills/missing") {
			t.Errorf("%s: roots counted %d and %d bytes, want the same non-zero count", sd, a, b)
		}
	}
}

// TestSharedKeepsEachBudget: a skill another root read still counts against this root's
// limits, and one that does not fit them gets the limit's diagnostic here, as reading it
// through this root alone would.
func TestSharedKeepsEachBudget(t *testing.T) {
	dir := testtree.Make(t, map[string]string{"skills/review/SKILL.md": goodSkill, "skills/review/big.md": string(make([]byte, 4096))})
	lim := fsguard.DefaultLimits()
	shared := NewShared(2)
	if c := shared.Load(openRoot(t, dir, lim), "skills/review", nil, ""); c.Validity != model.Valid {
		t.Fatalf("first reader: %v %v", c.Validity, c.Diagnostics)
	}
	tight := openRoot(t, dir, lim)
	// The same limits (the cache answers only readers bounded alike), with most of
	// the byte budget already spent by the package's other reads.
	if err := tight.Charge("other", fsguard.ReadsOf(lim.MaxTotalBytes-100)); err != nil {
		t.Fatal(err)
	}
	before := reads.Load()
	c := shared.Load(tight, "skills/review", nil, "")
	if reads.Load()-before != 1 {
		t.Errorf("a root without room for the shared read did not read the skill itself")
	}
	want := LoadTolerant(func() *fsguard.Root {
		r := openRoot(t, dir, lim)
		r.Charge("other", fsguard.ReadsOf(lim.MaxTotalBytes-100))
		return r
	}(), "skills/review", nil, "")
	if !reflect.DeepEqual(c, want) || c.Validity == model.Valid {
		t.Errorf("over budget: %v %+v, want %+v", c.Validity, c.Diagnostics, want.Diagnostics)
	}
}

// TestNilSharedReads: without a cache every call reads.
func TestNilSharedReads(t *testing.T) {
	dir := testtree.Make(t, map[string]string{"SKILL.md": goodSkill})
	var s *Shared
	before := reads.Load()
	s.Load(openRoot(t, dir, fsguard.DefaultLimits()), ".", nil, "")
	s.Load(openRoot(t, dir, fsguard.DefaultLimits()), ".", nil, "")
	if n := reads.Load() - before; n != 2 {
		t.Errorf("nil cache read %d times, want 2", n)
	}
}

// TestSharedLetsGo: once every loader of the folder is done, the cache holds nothing,
// and a reader after that still gets the skill.
func TestSharedLetsGo(t *testing.T) {
	dir := testtree.Make(t, map[string]string{"skills/review/SKILL.md": goodSkill})
	lim := fsguard.DefaultLimits()
	s := NewShared(2)
	s.Load(openRoot(t, dir, lim), "skills/review", nil, "")
	s.Done()
	if len(s.skills) != 1 {
		t.Fatalf("the cache let go before its last reader was done: %d entries", len(s.skills))
	}
	s.Done()
	if s.skills != nil {
		t.Fatalf("every reader is done and the cache still holds %d skills", len(s.skills))
	}
	if c := s.Load(openRoot(t, dir, lim), "skills/review", nil, ""); c.Validity != model.Valid {
		t.Errorf("a reader after the last Done: %v %v", c.Validity, c.Diagnostics)
	}
}
