package main

import (
	"strings"
	"testing"
)

// Without a terminal on stdout, review prints the status report instead of failing.
func TestReviewWithoutTerminalPrintsStatus(t *testing.T) {
	home := t.TempDir()
	code, out, errs := runVouch(t, home, "review", "../../examples/splice/web-notes")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if !strings.Contains(out, "tool:clip") || !strings.Contains(out, "unreviewed") {
		t.Fatalf("no status report on a non-terminal stdout:\n%s", out)
	}
	if strings.Contains(out, "\x1b[?1049h") {
		t.Fatal("the console started without a terminal")
	}
	// The same answers as vouch status.
	_, status, _ := runVouch(t, home, "status", "../../examples/splice/web-notes")
	if status != out {
		t.Errorf("review fallback differs from status:\n%s\n---\n%s", out, status)
	}
}

func TestReviewMissingPath(t *testing.T) {
	code, _, errs := runVouch(t, t.TempDir(), "review", "/nonexistent/vouch-source")
	if code != 2 || !strings.Contains(errs, "does not exist") {
		t.Fatalf("exit %d, stderr %q; want 2 and a sentence", code, errs)
	}
}

func TestReviewHelpExplainsKeys(t *testing.T) {
	code, out, _ := runVouch(t, t.TempDir(), "review", "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"approve / revoke", "only y confirms", "enter does nothing", "NO_COLOR", "status report",
		"removes the block and records the revocation", "o, then y, overwrites"} {
		if !strings.Contains(out, want) {
			t.Errorf("help lacks %q", want)
		}
	}
}
