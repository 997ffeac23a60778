package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
)

// TestLedgerFmtCLI: --check fails on a hand-edited team ledger and names it, fmt rewrites
// it with the same decisions, and --check then passes; no ledger found is a usage error.
func TestLedgerFmtCLI(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	ledger := filepath.Join(dir, ".vouch", "ledger.toml")
	testtree.WriteFiles(t, dir, map[string]string{".vouch/ledger.toml": "schema_version=1\n# merged by hand\n[[decision]]\naction='approve'\npackage='p'\ncomponent='p#hook:h'\ndigest='sha256:" + strings.Repeat("a", 64) + "'\nreviewer='r'\nreviewer_kind='human'\nat=2026-01-01T00:00:00Z\n"})
	out, _ := expectRun(t, home, "fmt --check of a hand-edited ledger", 1, "ledger", "fmt", "--check", ledger)
	if !strings.Contains(out, "is not formatted") {
		t.Errorf("--check does not say which ledger: %s", out)
	}
	before := testtree.ReadFile(t, ledger)
	expectRun(t, home, "fmt", 0, "ledger", "fmt", ledger)
	after := testtree.ReadFile(t, ledger)
	if before == after || !strings.Contains(after, "reviewer_kind = \"human\"") {
		t.Fatalf("not rewritten:\n%s", after)
	}
	expectRun(t, home, "fmt --check after fmt", 0, "ledger", "fmt", "--check", ledger)

	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	os.Chdir(t.TempDir())
	code, _, errs := trustRun(t, home, "ledger", "fmt")
	expect(t, "fmt with no ledger around", code, 2, "", errs)
}
