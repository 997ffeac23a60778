package ui

import (
	"strings"
	"testing"

	"vouch/model"
)

// Y copies a digest; in a dialog it must not record the decision y records.
func TestCapitalYNeverConfirmsADialog(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 100, 30)
	selectRef(t, m, toolRef)
	press(t, m, "a")
	if m.dialog == nil {
		t.Fatal("a opened no dialog")
	}
	press(t, m, "Y")
	if m.dialog == nil {
		t.Fatal("Y closed the dialog")
	}
	if got := ledgerAuth(t, m, toolRef); got != model.Unreviewed {
		t.Fatalf("Y recorded %s", got)
	}
	press(t, m, "y")
	if got := ledgerAuth(t, m, toolRef); got != model.Approved {
		t.Fatalf("y recorded %s, want approved", got)
	}
}

// While a note is typed, every letter is text (n and N too, which cancel otherwise), and
// the input is on screen even when the dialog's body is longer than the screen.
func TestNoteInputTakesEveryLetterAndIsOnScreen(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 80, MinHeight)
	selectRef(t, m, toolRef)
	press(t, m, "a")
	if m.dialog == nil {
		t.Fatal("a opened no dialog")
	}
	press(t, m, "m")
	for _, k := range []string{"n", "o", " ", "N", "y", "Y", "q"} {
		press(t, m, k)
	}
	if m.dialog == nil {
		t.Fatal("typing the note closed the dialog")
	}
	if got := m.dialog.note.Value(); got != "no NyYq" {
		t.Fatalf("note %q, want %q", got, "no NyYq")
	}
	if v := screen(m); !strings.Contains(v, "note> no NyYq") {
		t.Fatalf("the note input is not on screen:\n%s", v)
	}
	press(t, m, "enter")
	if got := ledgerAuth(t, m, toolRef); got != model.Unreviewed {
		t.Fatalf("typing a note recorded %s", got)
	}
}
