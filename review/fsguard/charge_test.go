package fsguard

import (
	"testing"

	"vouch/internal/testtree"
)

// TestChargeCountsAsReading: what one root read, charged to another root of the same
// folder, counts there as its own reads would: bytes, and each directory's entries once
// (a later listing of a charged directory counts nothing again); a charge past a limit
// fails with that limit's code and counts nothing.
func TestChargeCountsAsReading(t *testing.T) {
	dir := testtree.Make(t, map[string]string{"skills/a/SKILL.md": "hello", "skills/a/x.md": "xx", "skills/b/SKILL.md": "b"})
	lim := DefaultLimits()
	a := open(t, dir, lim)
	m := a.Mark()
	if _, err := a.ReadDirNames("skills/a"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.ReadFile("skills/a/SKILL.md", 0); err != nil {
		t.Fatal(err)
	}
	rd := a.ReadsSince(m)

	b := open(t, dir, lim)
	if err := b.Charge("skills/a", rd); err != nil {
		t.Fatal(err)
	}
	if got, want := b.BytesRead(), a.BytesRead(); got != want {
		t.Errorf("charged %d bytes, the reading root counted %d", got, want)
	}
	if b.entries != 2 {
		t.Errorf("charged %d entries, want the 2 of skills/a", b.entries)
	}
	if _, err := b.ReadDirNames("skills/a"); err != nil || b.entries != 2 {
		t.Errorf("listing a charged directory again counted it again: %d entries (%v)", b.entries, err)
	}
	if _, err := b.ReadDirNames("skills/b"); err != nil || b.entries != 3 {
		t.Errorf("a directory of its own: %d entries (%v), want 3", b.entries, err)
	}

	small := lim
	small.MaxEntries = 1
	c := open(t, dir, small)
	if err := c.Charge("skills/a", rd); CodeOf(err) != CodeTooMany || c.entries != 0 || c.total != 0 {
		t.Errorf("over the entry limit: %v, %d entries, %d bytes counted", err, c.entries, c.total)
	}
	small = lim
	small.MaxTotalBytes = 3
	d := open(t, dir, small)
	if err := d.Charge("skills/a", rd); CodeOf(err) != CodeTotalExceeded || d.entries != 0 || d.total != 0 {
		t.Errorf("over the byte limit: %v, %d entries, %d bytes counted", err, d.entries, d.total)
	}
}
