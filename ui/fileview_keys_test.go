package ui

import (
	"strings"
	"testing"
)

// Every file view action has keys, words and a handler; no key runs two; each key the
// footer names runs the action whose part it is (or one after it that the part covers).
func TestFileViewTableIsWhole(t *testing.T) {
	acts := fileActions()
	seen := map[string]bool{}
	for i, a := range acts {
		if len(a.keys) == 0 || a.desc == "" || a.run == nil {
			t.Errorf("file action %d lacks keys, words or a handler", i)
		}
		for _, k := range a.keys {
			if seen[k] {
				t.Errorf("key %q runs two file view actions", k)
			}
			seen[k] = true
		}
	}
	if acts[0].foot == "" {
		t.Fatal("the first file action writes no footer part: the ones before the first part would be unlisted")
	}
	for i := 0; i < len(acts); {
		part := acts[i].foot
		group := map[string]bool{}
		j := i
		for ; j < len(acts) && (j == i || acts[j].foot == ""); j++ {
			for _, k := range acts[j].keys {
				group[k] = true
			}
		}
		// A word made of keys ("j/k", "tab", "!") must name keys of the part's actions;
		// the other words describe them.
		words := strings.Fields(part)
		for w, word := range words {
			keys := strings.Split(word, "/") // "j/k": j and k
			if word == "/" {
				keys = []string{"/"}
			}
			isKeys, known := true, true
			for _, k := range keys {
				isKeys = isKeys && (seen[k] || len([]rune(k)) == 1)
				known = known && group[k]
			}
			switch {
			case isKeys && !known:
				t.Errorf("footer part %q names %q, which is not a key of its actions", part, word)
			case w == 0 && !isKeys:
				t.Errorf("footer part %q does not start with keys of its actions", part)
			}
		}
		i = j
	}
	m := newTestModel(t, fixturePackages(), 100, 30)
	selectRef(t, m, "design-review#skill:design-review")
	press(t, m, "f")
	if m.fileView() == nil {
		t.Fatal("f opened no file view")
	}
	if foot := m.fileView().footerText(200); !strings.HasPrefix(foot, "q back") {
		t.Fatalf("the footer %q does not start with how to leave", foot)
	}
}

// In the file view a key whose action is off says why and does nothing: a closure of one
// file has no next file, and n before a search has no match to move to.
func TestFileViewOffKeysSayWhy(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 100, 30)
	selectRef(t, m, "design-review#skill:design-review")
	press(t, m, "f")
	fv := m.fileView()
	if fv == nil || fv.closure != 1 {
		t.Fatalf("the skill's file view: %+v", fv)
	}
	for _, tc := range []struct{ key, why string }{
		{"tab", "The closure has one file: o lists the package's files."},
		{"n", "No match to move to: / searches."},
	} {
		top, idx := fv.top, fv.idx
		press(t, m, tc.key)
		if fv.flash != tc.why || fv.top != top || fv.idx != idx || m.fileView() != fv {
			t.Fatalf("%s: flash %q (want %q), top %d→%d, file %d→%d", tc.key, fv.flash, tc.why, top, fv.top, idx, fv.idx)
		}
		if !strings.Contains(screen(m), tc.why) {
			t.Fatalf("%s: the reason is not on screen:\n%s", tc.key, screen(m))
		}
	}
	if sheet := strings.Join(fileSheet(), "\n"); !strings.Contains(sheet, "tab ]") || !strings.Contains(sheet, "next closure file") {
		t.Fatalf("the sheet's file view part lacks the next-file action:\n%s", sheet)
	}
}
