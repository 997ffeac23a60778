package ui

import (
	"strings"
	"testing"
)

// The dialog's footer names exactly the table's actions that apply (y first), and a key
// whose action is off says why and changes nothing; space, off as a mark, scrolls.
func TestDialogKeysAreTheTable(t *testing.T) {
	for i, a := range dialogActions() {
		if len(a.keys) == 0 || a.desc == "" || a.run == nil {
			t.Errorf("dialog action %d lacks keys, words or a handler", i)
		}
	}
	cases := []struct {
		name    string
		open    []string
		off     []string // keys whose action is off here
		picking bool
	}{
		{"one component", []string{"j", "j", "a"}, []string{"tab", "shift+tab", "d"}, false},
		{"package", []string{"A"}, []string{"d"}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestModel(t, fixturePackages(), 120, 40)
			press(t, m, tc.open...)
			d := m.dialog()
			if d == nil || d.picking() != tc.picking {
				t.Fatalf("%v opened %v", tc.open, d)
			}
			foot := d.footParts(m)
			for _, a := range dialogActions() {
				applies := a.off == nil || a.off(m, d) == ""
				shown := false
				for _, p := range foot {
					shown = shown || p == a.foot
				}
				if a.foot != "" && shown != applies {
					t.Errorf("footer part %q shown %v, its action applies %v", a.foot, shown, applies)
				}
			}
			if v := screen(m); !strings.Contains(v, strings.Join(foot, "   ")) || !strings.Contains(v, "y approve") {
				t.Fatalf("the footer %q is not on screen:\n%s", foot, v)
			}
			for _, k := range tc.off {
				pick, hide := d.pick, d.hideDiff
				m.flash = ""
				press(t, m, k)
				if m.dialog() != d || d.pick != pick || d.hideDiff != hide || m.flash == "" {
					t.Fatalf("%s is off here: pick %d→%d, diff hidden %v→%v, flash %q", k, pick, d.pick, hide, d.hideDiff, m.flash)
				}
			}
			if !tc.picking {
				y := d.vp.YOffset()
				press(t, m, "space")
				if d.vp.TotalLineCount() > d.vp.Height() && d.vp.YOffset() == y {
					t.Fatal("space does not scroll a dialog that is not a package approval")
				}
			}
		})
	}
	// A stale dialog offers no note and records nothing; y says why.
	m := newTestModel(t, fixturePackages(), 120, 40)
	press(t, m, "j", "j", "a")
	run(t, m, m.loadCmd())
	press(t, m, "m")
	if m.top() != layer(m.dialog()) || !strings.Contains(m.flash, "nothing to note") {
		t.Fatalf("m on a stale dialog: stack %v, flash %q", stackKinds(m), m.flash)
	}
	press(t, m, "y")
	if m.dialog() == nil || !strings.Contains(m.flash, "Nothing recorded") {
		t.Fatalf("y on a stale dialog: flash %q", m.flash)
	}
}
