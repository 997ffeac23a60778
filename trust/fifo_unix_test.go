//go:build unix

package trust

import (
	"os"
	"path/filepath"
	"testing"

	"vouch/internal/testtree"
)

// mkfifo makes a FIFO at p, making its folder first; a system without FIFOs skips the test.
func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	testtree.Fifo(t, p)
}

// TestOpenRefusesFIFOLedgers: every ledger Open reads (the personal one, a team ledger
// named with --ledger) and every ledger a decision rewrites is refused when it is a FIFO,
// at once; a FIFO where the fold cache should be is passed over, never waited on.
func TestOpenRefusesFIFOLedgers(t *testing.T) {
	t.Run("personal", func(t *testing.T) {
		home := t.TempDir()
		mkfifo(t, filepath.Join(home, "ledger.toml"))
		err := testtree.Returns(t, "opening a FIFO personal ledger", func() error {
			_, err := Open(Options{Home: home, Reviewer: "t"})
			return err
		})
		if err == nil {
			t.Fatal("Open accepted a FIFO as the personal ledger")
		}
	})
	t.Run("explicit team ledger", func(t *testing.T) {
		home, team := t.TempDir(), filepath.Join(t.TempDir(), "team.toml")
		mkfifo(t, team)
		err := testtree.Returns(t, "opening a FIFO --ledger", func() error {
			_, err := Open(Options{Home: home, Reviewer: "t", TeamLedger: team})
			return err
		})
		if err == nil {
			t.Fatal("Open accepted a FIFO as --ledger")
		}
	})
	t.Run("cache", func(t *testing.T) {
		home := t.TempDir()
		tr := openT(t, home)
		pkg := toolHookPackage(t.TempDir(), nil)
		tool := comp(pkg, "tool", "run")
		if _, err := tr.Approve(pkg, tool, DigestOf(tool), DecideOptions{}); err != nil {
			t.Fatal(err)
		}
		cache := tr.cachePath(tr.PersonalLedger())
		os.Remove(cache)
		mkfifo(t, cache)
		err := testtree.Returns(t, "reading a FIFO fold cache", func() error {
			fresh := openT(t, home)
			_, err := fresh.Statuses(pkg)
			return err
		})
		if err != nil {
			t.Fatalf("a FIFO cache must be passed over, not fail the read: %v", err)
		}
	})
}
