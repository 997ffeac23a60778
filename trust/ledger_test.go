package trust

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
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
// parses still parses after vouch appends to it, with one more decision and every old
// decision unchanged: Decide checks only the appended part, so this is the proof that
// [[decision]] tables after bytes that parsed cannot change or break them.
func FuzzParseLedger(f *testing.F) {
	f.Add([]byte("schema_version = 1\n"))
	f.Add([]byte("schema_version = 1\n[[decision]]\naction = \"revoke\"\npackage = \"p\"\ncomponent = \"p#tool:x\"\nnote = \"\"\"multi\nline\"\"\"\n"))
	f.Add([]byte("schema_version = 1\n[decision]\n"))
	f.Add([]byte("# c\nschema_version = 1\n[other]\nx = 1"))
	f.Add([]byte("schema_version = 1\n[[decision]]\naction = \"approve\"\npackage = \"p\"\ncomponent = \"p#tool:x\"\ndigest = \"sha256:" + strings.Repeat("a", 64) + "\"\n[[decision.files]]\npath = \"x\"\nsha256 = \"" + strings.Repeat("c", 64) + "\"\nsize = 3"))
	f.Add([]byte("schema_version = 1\ndecision = []\n"))
	f.Add([]byte("schema_version = 1\n[[decision]]\naction = \"revoke\"\npackage = \"p\"\ncomponent = \"p#tool:x\"\n[decision.extra]\nk = 1\n"))
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
			Reviewer: "r", ReviewerKind: ReviewerHuman, At: time.Unix(0, 0).UTC(), Note: "n",
			Files: []FileDigest{{Path: "a", SHA256: strings.Repeat("b", 64), Size: 1}}}
		// The append path of Decide: old bytes kept verbatim, only the new part checked.
		tr := &Trust{opts: Options{Home: dir}}
		f := &pendingFile{path: p, origin: "personal", data: data, fold: newFold(false), out: []Decision{d}}
		if err := tr.appendLocked(f); err != nil {
			t.Fatal(err)
		}
		after, _ := os.ReadFile(p)
		if !bytes.HasPrefix(after, data) && len(bytes.TrimSpace(data)) > 0 {
			t.Fatal("the old bytes were not kept verbatim")
		}
		ds, err := parseLedger(p, after)
		if err != nil || len(ds) != len(before)+1 || ds[len(ds)-1].Note != "n" || len(ds[len(ds)-1].Files) != 1 {
			t.Fatalf("append broke the ledger: %v (%d → %d)", err, len(before), len(ds))
		}
		for i := range before {
			if !reflect.DeepEqual(before[i], ds[i]) {
				t.Fatalf("decision %d changed by the append: %+v → %+v", i, before[i], ds[i])
			}
		}
	})
}

// A key spelled in another case would be matched to a ledger field by the TOML decoder
// and could replace the [[decision]] tables vouch appends (hiding a revocation): every
// such ledger is damaged, not read.
func TestLedgerCaseVariantKeys(t *testing.T) {
	digest := "sha256:" + strings.Repeat("a", 64)
	approve := "[[decision]]\naction = \"approve\"\npackage = \"p\"\ncomponent = \"p#tool:x\"\ndigest = \"" + digest + "\"\n"
	revoke := "[[decision]]\naction = \"revoke\"\npackage = \"p\"\ncomponent = \"p#tool:x\"\ndigest = \"\"\n"
	cases := map[string]string{
		"top level":         "schema_version = 1\nDecision = []\n" + approve + revoke,
		"fuzzer's input":    "schema_version = 1\ndecisIon = []\n",
		"schema version":    "Schema_Version = 1\nschema_version = 1\n",
		"inside a decision": "schema_version = 1\n" + approve + "Action = \"revoke\"\n",
		"inside a file":     "schema_version = 1\n" + approve + "[[decision.files]]\npath = \"a\"\nSHA256 = \"" + strings.Repeat("b", 64) + "\"\nsize = 1\n",
	}
	for name, data := range cases {
		if _, err := parseLedger("l.toml", []byte(data)); !errors.Is(err, ErrDamagedLedger) {
			t.Errorf("%s: err = %v, want a damaged ledger", name, err)
		}
	}
	// The exact spellings still read.
	ds, err := parseLedger("l.toml", []byte("schema_version = 1\n"+approve+revoke))
	if err != nil || len(ds) != 2 {
		t.Fatalf("exact keys: %d decisions, %v", len(ds), err)
	}
}
