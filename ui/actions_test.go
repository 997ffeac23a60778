package ui

import (
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// applies reports whether the browsing action named name would run now.
func applies(m *Model, name string) bool {
	for i := range m.actions {
		if m.actions[i].name == name {
			return m.top() == nil && m.actions[i].reason(m) == ""
		}
	}
	panic("no action " + name)
}

// Every binding of the table is whole: a name, keys, help text, a heading and a handler;
// a key two actions share belongs to the second whenever the first, which takes it over,
// is off.
func TestActionTableIsWhole(t *testing.T) {
	names := map[string]bool{}
	owner := map[string]*action{}
	for i, a := range browseActions() {
		if a.name == "" || len(a.keys) == 0 || a.help == "" || a.desc == "" || a.group == "" || a.run == nil {
			t.Errorf("action %d (%q) lacks a name, keys, help, description, heading or handler", i, a.name)
		}
		if names[a.name] {
			t.Errorf("two actions are named %q", a.name)
		}
		names[a.name] = true
		for _, k := range a.keys {
			if prev := owner[k]; prev != nil && !prev.takesOver {
				t.Errorf("key %q runs both %s and %s: %s never runs by it", k, prev.name, a.name, a.name)
			}
			owner[k] = &a
		}
	}
}

// tableModes are states of the browsing screen in which the table's actions apply
// differently.
var tableModes = []struct {
	name string
	keys []string
}{
	{"package row", nil},
	{"hook", []string{"j"}},
	{"tool", []string{"j", "j"}},
	{"skill content", []string{"j", "j", "j", "3"}},
	{"instruction", []string{"j", "j", "j", "j"}},
	{"invalid package", []string{"G", "k"}},
	{"filter kept", []string{"/", "c", "o", "n", "enter"}},
	{"approved tool", []string{"j", "j", "a", "y"}},
}

// In every mode the help line lists exactly the table's footer actions that apply, in
// the table's footer order; the `?` sheet lists every action, greying exactly those that
// are off with their reason.
func TestFooterAndSheetAreTheTable(t *testing.T) {
	for _, mode := range tableModes {
		t.Run(mode.name, func(t *testing.T) {
			m := newTestModel(t, fixturePackages(), 250, 40)
			press(t, m, mode.keys...)
			if m.top() != nil {
				t.Fatalf("the mode's keys left %v open", stackKinds(m))
			}
			var want []string
			for rank := 1; rank <= len(m.actions); rank++ {
				for i := range m.actions {
					if a := &m.actions[i]; a.footer == rank && a.reason(m) == "" {
						want = append(want, a.help+" "+a.what(m))
					}
				}
			}
			lines := strings.Split(screen(m), "\n")
			footer := strings.TrimSpace(lines[len(lines)-1])
			if got := strings.Split(footer, " • "); !reflect.DeepEqual(got, want) {
				t.Fatalf("help line %q\nwant      %q", got, want)
			}

			press(t, m, "?")
			ks := m.keysHelp()
			if ks == nil {
				t.Fatal("? opened no sheet")
			}
			i := 0
			for _, l := range ks.lines {
				l = ansi.Strip(l)
				if !strings.HasPrefix(l, "  ") {
					continue // a heading or a blank line
				}
				if i == len(m.actions) {
					break // the views and the modal keys follow the table
				}
				a := &m.actions[i]
				i++
				why := a.reason(m)
				if !strings.HasPrefix(l, "  "+keysOf(a)+" ") {
					t.Fatalf("sheet line %q, want the keys of %s (%s)", l, a.name, keysOf(a))
				}
				off := strings.Contains(l, "(off: ")
				if a.sheet == "" && off != (why != "") {
					t.Errorf("sheet line %q: greyed %v, but %s's reason is %q", l, off, a.name, why)
				}
				if off && !strings.Contains(l, "(off: "+strings.TrimSuffix(why, ".")+")") {
					t.Errorf("sheet line %q does not give %s's reason %q", l, a.name, why)
				}
			}
			if i != len(m.actions) {
				t.Fatalf("the sheet lists %d of the table's %d actions", i, len(m.actions))
			}
		})
	}
}

// browseState is what a key of the browsing screen can change.
type browseState struct {
	cursor, tab int
	raw, sorted bool
	filter      string
	stack       []string
	busy        bool
}

func stateOf(m *Model) browseState {
	return browseState{m.tree.cursor, int(m.detail.tab), m.detail.raw, m.tree.byRisk, m.tree.filter.Value(), stackKinds(m), m.busy}
}

// A key whose action is off does nothing and says why, in the words of the sheet.
func TestOffActionSaysWhyAndDoesNothing(t *testing.T) {
	pressedOff := 0
	for _, mode := range tableModes {
		probe := newTestModel(t, fixturePackages(), 120, 30)
		press(t, probe, mode.keys...)
		for i := range probe.actions {
			a := &probe.actions[i]
			why := a.reason(probe)
			if why == "" || a.takesOver || a.keys[0] == "ctrl+c" {
				continue
			}
			if runs := probe.runs(a.keys[0]); runs != nil {
				continue // another action has this key and applies
			}
			t.Run(mode.name+"/"+a.name, func(t *testing.T) {
				m := newTestModel(t, fixturePackages(), 120, 30)
				press(t, m, mode.keys...)
				before := stateOf(m)
				press(t, m, a.keys[0])
				if after := stateOf(m); !reflect.DeepEqual(after, before) {
					t.Fatalf("%s is off (%s) but its key changed %+v to %+v", a.name, why, before, after)
				}
				if !strings.Contains(m.flash, strings.TrimSuffix(why[1:], ".")) {
					t.Fatalf("%s is off (%s); the status line says %q", a.name, why, m.flash)
				}
				if !strings.Contains(screen(m), m.flash[:min(len(m.flash), 40)]) {
					t.Fatalf("the reason is not on screen:\n%s", screen(m))
				}
			})
			pressedOff++
		}
	}
	if pressedOff < 10 {
		t.Fatalf("only %d off actions were pressed: the modes no longer exercise the table", pressedOff)
	}
}
