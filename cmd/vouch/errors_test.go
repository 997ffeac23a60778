package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// Every failure is printed once, by run: a command's own (a.fail), as text or as JSON
// under --json, and Cobra's argument errors followed by that subcommand's usage.
func TestOneErrorPath(t *testing.T) {
	home := t.TempDir()
	code, out, errOut := runVouch(t, home, "validate", "--bogus", "x")
	if code != 2 || out != "" || strings.Count(errOut, "vouch: unknown flag: --bogus") != 1 ||
		!strings.Contains(errOut, "(see vouch validate --help)") || !strings.Contains(errOut, "Usage:\n  vouch validate") {
		t.Errorf("unknown flag: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, _, errOut = runVouch(t, home, "validate", "--json", "/nonexistent/x")
	var doc struct {
		Error struct{ Code, Message string }
	}
	if code != 2 || json.Unmarshal([]byte(errOut), &doc) != nil || doc.Error.Code != "path-not-found" || strings.Count(errOut, "path-not-found") != 1 {
		t.Errorf("missing path under --json: exit %d, stderr %q", code, errOut)
	}
	code, _, errOut = runVouch(t, home, "validate", "/nonexistent/x")
	if code != 2 || strings.Count(errOut, "vouch: ") != 1 || !strings.Contains(errOut, "does not exist") {
		t.Errorf("missing path: exit %d, stderr %q", code, errOut)
	}
}
