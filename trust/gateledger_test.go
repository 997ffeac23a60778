package trust

import (
	"strings"
	"testing"
	"time"
)

func TestAddedDecisions(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	d := func(comp, digest, reviewer string) Decision {
		return Decision{Action: ActionApprove, Package: "p", Component: "p#" + comp, Digest: digest,
			Reviewer: reviewer, ReviewerKind: ReviewerHuman, At: at}
	}
	a := d("hook:h", "sha256:"+strings.Repeat("a", 64), "ann")
	b := d("tool:t", "sha256:"+strings.Repeat("b", 64), "ann")
	aOther := a
	aOther.Note = "same component and digest, another record"
	aLater := a
	aLater.At = at.Add(time.Second)
	tests := []struct {
		name       string
		base, head []Decision
		want       []Decision
	}{
		{"nothing added", []Decision{a, b}, []Decision{a, b}, nil},
		{"appended", []Decision{a}, []Decision{a, b}, []Decision{b}},
		{"reordered by a merge", []Decision{a, b}, []Decision{b, a}, nil},
		{"duplicate counts once more", []Decision{a}, []Decision{a, a}, []Decision{a}},
		{"a field differs", []Decision{a}, []Decision{aOther}, []Decision{aOther}},
		{"the time differs", []Decision{a}, []Decision{aLater}, []Decision{aLater}},
		{"removed is not added", []Decision{a, b}, []Decision{a}, nil},
		{"empty base", nil, []Decision{a}, []Decision{a}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := AddedDecisions(tt.base, tt.head)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d decisions %v, want %d", len(got), got, len(tt.want))
			}
			for i := range got {
				if DecisionKey(got[i]) != DecisionKey(tt.want[i]) {
					t.Errorf("decision %d: got %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestEncodeLedgerReadsBack(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	ds := []Decision{
		{Action: ActionApprove, Package: "p", Component: "p#hook:h", Digest: "sha256:" + strings.Repeat("c", 64),
			Reviewer: "bot", ReviewerKind: ReviewerAutomation, At: at, Note: "n",
			Files: []FileDigest{{Path: "x.sh", SHA256: strings.Repeat("d", 64), Size: 3, Exec: true}}},
		{Action: ActionRevoke, Package: "p", Component: "p#hook:h", Reviewer: "ann", ReviewerKind: ReviewerHuman, At: at},
	}
	data, err := EncodeLedger(ds)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseLedger("encoded", data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if len(AddedDecisions(back, ds)) != 0 || len(AddedDecisions(ds, back)) != 0 {
		t.Errorf("read back %+v, want %+v", back, ds)
	}
}

func TestParseLedgerRefusesDamage(t *testing.T) {
	for _, in := range []string{"schema_version = 2\n", "[[decision]]\naction = \"approve\"\n", "not toml ="} {
		if _, err := ParseLedger("base", []byte(in)); err == nil {
			t.Errorf("ParseLedger(%q) = nil error, want a damaged-ledger error", in)
		}
	}
	if ds, err := ParseLedger("base", []byte("  \n")); err != nil || ds != nil {
		t.Errorf("blank ledger: %v, %v; want empty", ds, err)
	}
}

// Any ledger ParseLedger accepts encodes to a ledger that reads back as the same
// decisions, so the gate's rewritten ledger (base plus revokes, automation left out)
// rates exactly what it was given.
func FuzzEncodeLedgerRoundTrip(f *testing.F) {
	f.Add([]byte("schema_version = 1\n[[decision]]\naction = \"approve\"\npackage = \"p\"\ncomponent = \"p#hook:h\"\ndigest = \"sha256:" + strings.Repeat("a", 64) + "\"\nreviewer = \"r\"\nreviewer_kind = \"human\"\nat = 2026-01-02T03:04:05Z\n"))
	f.Add([]byte("schema_version = 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ds, err := ParseLedger("fuzz", data)
		if err != nil {
			return
		}
		enc, err := EncodeLedger(ds)
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		back, err := ParseLedger("encoded", enc)
		if err != nil {
			t.Fatalf("the encoded ledger does not parse: %v\n%s", err, enc)
		}
		if len(AddedDecisions(ds, back)) != 0 || len(AddedDecisions(back, ds)) != 0 {
			t.Fatalf("round trip changed the decisions:\n%+v\n%+v", ds, back)
		}
	})
}
