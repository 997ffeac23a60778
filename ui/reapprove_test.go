package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// After an approved tool's file is edited and made executable, a on it opens a dialog
// titled with the change and its date, the change before what the approval grants, the
// line diff inline (d hides it and shows it again), and the mode change said as such.
func TestReapprovalDialogShowsTheChangeFirst(t *testing.T) {
	m, src := loadedCopy(t, 120, 50)
	const tool = "design-review#tool:context"
	selectRef(t, m, tool)
	press(t, m, "a", "y")
	entry := filepath.Join(src, "plugins", "design-review", "context.mjs")
	appendFile(t, entry, "// edited after approval\n")
	press(t, m, "R")
	selectRef(t, m, tool)
	press(t, m, "a")
	d := m.dialog()
	if d == nil {
		t.Fatal("a opened no dialog on the changed tool")
	}
	if title := ansi.Strip(d.title); !strings.HasPrefix(title, "Re-approve: changed since 20") || !strings.Contains(title, tool) {
		t.Fatalf("title %q", title)
	}
	body := ansi.Strip(d.body)
	changed, grants := strings.Index(body, "Changed since the last approval"), strings.Index(body, "What it does")
	if changed < 0 || grants < 0 || changed > grants {
		t.Fatalf("the change is not first (at %d, what it does at %d):\n%s", changed, grants, body)
	}
	if !strings.Contains(body, "+// edited after approval") {
		t.Fatalf("no inline line diff:\n%s", body)
	}
	press(t, m, "d")
	if strings.Contains(ansi.Strip(m.dialog().body), "+// edited after approval") {
		t.Fatal("d did not hide the line diff")
	}
	press(t, m, "d")
	if !strings.Contains(ansi.Strip(m.dialog().body), "+// edited after approval") {
		t.Fatal("d did not show the line diff again")
	}
	press(t, m, "y")

	// The same bytes, now executable: a mode change, not an edit.
	if err := os.Chmod(entry, 0o755); err != nil {
		t.Fatal(err)
	}
	press(t, m, "R")
	openApproval(t, m, tool)
	if body := ansi.Strip(m.dialog().body); !strings.Contains(body, "~ mode changed, same bytes") || !strings.Contains(body, "mode: now executable") {
		t.Fatalf("the mode change is not said as one:\n%s", body)
	}
}
