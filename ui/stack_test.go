package ui

import (
	"fmt"
	"reflect"
	"testing"
)

// The layers tests ask for by kind.
func (m *Model) keysHelp() *keySheet      { return onStack[*keySheet](m) }
func (m *Model) filterInput() *filterMode { return onStack[*filterMode](m) }

// stackKinds names the layers on the stack, bottom first.
func stackKinds(m *Model) []string {
	out := []string{}
	for _, l := range m.modals {
		out = append(out, reflect.TypeOf(l).Elem().Name())
	}
	return out
}

// Every modal view is pushed on the one stack and popped off it; only the top takes keys;
// a reload keeps a dialog (stale) and drops what shows the replaced packages.
func TestModalStack(t *testing.T) {
	cases := []struct {
		keys   []string
		reload bool
		want   []string
	}{
		{nil, false, []string{}},
		{[]string{"j", "j", "a"}, false, []string{"dialog"}},
		{[]string{"j", "j", "a", "m"}, false, []string{"dialog", "noteInput"}},
		// n and esc typed into the note do not reach the dialog under it.
		{[]string{"j", "j", "a", "m", "n"}, false, []string{"dialog", "noteInput"}},
		{[]string{"j", "j", "a", "m", "esc"}, false, []string{"dialog"}},
		{[]string{"j", "j", "a", "m", "enter", "esc"}, false, []string{}},
		{[]string{"j", "j", "a", "m"}, true, []string{"dialog"}},
		{[]string{"/"}, false, []string{"filterMode"}},
		{[]string{"/", "x", "enter"}, false, []string{}},
		{[]string{":"}, false, []string{"filterMode"}},
		{[]string{"/", "esc"}, false, []string{}},
		{[]string{"?"}, false, []string{"keySheet"}},
		{[]string{"?"}, true, []string{"keySheet"}},
		{[]string{"?", "?"}, false, []string{}},
		{[]string{"j", "j", "f"}, false, []string{"fileView"}},
		{[]string{"j", "j", "f"}, true, []string{}},
		{[]string{"j", "j", "f", "q"}, false, []string{}},
		{[]string{"j", "j", "j", "j", "i"}, false, []string{"targetPrompt"}},
		{[]string{"j", "j", "j", "j", "i"}, true, []string{"targetPrompt"}},
		{[]string{"j", "j", "j", "j", "i", "esc"}, false, []string{}},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprint(tc.keys, tc.reload), func(t *testing.T) {
			m := newTestModel(t, fixturePackages(), 100, 30)
			press(t, m, tc.keys...)
			if tc.reload {
				run(t, m, m.loadCmd())
			}
			if got := stackKinds(m); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("stack %v, want %v", got, tc.want)
			}
			if d := m.dialog(); d != nil && tc.reload && !d.stale {
				t.Fatal("a reload left the dialog able to record")
			}
			if d := m.dialog(); d != nil && d.noting != (m.top() != layer(d)) {
				t.Fatalf("the dialog's note focus %v disagrees with the stack %v", d.noting, stackKinds(m))
			}
			if m.tree.editing != (m.filterInput() != nil) {
				t.Fatalf("the filter input's focus %v disagrees with the stack %v", m.tree.editing, stackKinds(m))
			}
		})
	}
}
