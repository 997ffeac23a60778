package trust

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBadLedgers: every file under testdata/bad-ledgers is refused with the error its
// first line names ("# want: <substring>").
func TestBadLedgers(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "bad-ledgers", "*.toml"))
	if len(paths) == 0 {
		t.Fatal("no bad ledgers")
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(string(data), "\n")
			want, ok := strings.CutPrefix(first, "# want: ")
			if !ok {
				t.Fatal("first line must be # want: <substring>")
			}
			_, err = parseLedger(p, data)
			if !errors.Is(err, ErrDamagedLedger) || !strings.Contains(err.Error(), want) {
				t.Fatalf("error %v, want %q", err, want)
			}
		})
	}
}

// FuzzParseLedger: a hostile team ledger never panics the parser, and a ledger that
// parses still parses, with one more decision, after vouch appends to it.
func FuzzParseLedger(f *testing.F) {
	f.Add([]byte("schema_version = 1\n"))
	f.Add([]byte("schema_version = 1\n[[decision]]\naction = \"revoke\"\npackage = \"p\"\ncomponent = \"p#tool:x\"\nnote = \"\"\"multi\nline\"\"\"\n"))
	f.Add([]byte("schema_version = 1\n[decision]\n"))
	f.Add([]byte("# c\nschema_version = 1\n[other]\nx = 1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		before, err := parseLedger("fuzz.toml", data)
		if err != nil {
			return
		}
		dir := t.TempDir()
		p := filepath.Join(dir, "ledger.toml")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		d := Decision{Action: ActionApprove, Package: "p", Component: "p#tool:x", Digest: "sha256:" + strings.Repeat("a", 64),
			Reviewer: "r", ReviewerKind: ReviewerHuman, At: time.Unix(0, 0).UTC(), Note: "n"}
		if err := appendToLedger(p, d); err != nil {
			// Only a file that cannot take a [[decision]] table (a static decision key) may refuse.
			if after, _ := os.ReadFile(p); string(after) != string(data) {
				t.Fatal("a refused append changed the file")
			}
			return
		}
		after, _ := os.ReadFile(p)
		ds, err := parseLedger(p, after)
		if err != nil || len(ds) != len(before)+1 || ds[len(ds)-1].Note != "n" {
			t.Fatalf("append broke the ledger: %v (%d → %d)", err, len(before), len(ds))
		}
	})
}
