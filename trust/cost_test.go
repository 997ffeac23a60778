package trust

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"vouch/model"
)

func requests(p *model.Package) []Request {
	out := make([]Request, len(p.Components))
	for i, c := range p.Components {
		out[i] = Request{p, c, DigestOf(c)}
	}
	return out
}

// approvedHome is a fresh home whose personal ledger approves every tool of
// manyTools(prefix, n), with the Trust that recorded the approvals.
func approvedHome(t *testing.T, prefix string, n int) (home string, tr *Trust, p *model.Package) {
	t.Helper()
	home = t.TempDir()
	tr = openT(t, home)
	p = manyTools(prefix, n)
	if _, err := tr.Decide(ActionApprove, requests(p), DecideOptions{}); err != nil {
		t.Fatal(err)
	}
	return home, tr, p
}

// wantAllApproved fails unless m rates every component of p approved.
func wantAllApproved(t testing.TB, m map[string]Status, p *model.Package) {
	t.Helper()
	for _, c := range p.Components {
		if got := m[p.Ref(c)].Authorization; got != model.Approved {
			t.Fatalf("%s: %s, want approved", p.Ref(c), got)
		}
	}
}

// work runs f and returns how many times it read a ledger in full and parsed one.
func work(f func()) (reads, parses int64) {
	r0, p0 := ledgerReads.Load(), ledgerParses.Load()
	f()
	return ledgerReads.Load() - r0, ledgerParses.Load() - p0
}

// TestDecideCostIsFlat: one command deciding many refs (explain them all, then record
// them) reads the ledger in full at most twice (once to show, once under the lock to
// append) and parses it at most once, whatever the number of refs; with the cache warm,
// once and never. It used to be 3–5 parses per ref.
func TestDecideCostIsFlat(t *testing.T) {
	for _, n := range []int{10, 100} {
		for _, warm := range []bool{false, true} {
			t.Run(fmt.Sprintf("refs=%d,warm=%v", n, warm), func(t *testing.T) {
				home, tr, _ := approvedHome(t, "seed", 50)
				if !warm {
					os.Remove(tr.cachePath(tr.PersonalLedger()))
				}
				p := manyTools("load", n)
				var grants []Grant
				reads, parses := work(func() { // the whole command, as `vouch approve` runs it
					tr = openT(t, home)
					grants = tr.ExplainAll(requests(p), ActionApprove)
					if _, err := tr.Decide(ActionApprove, requests(p), DecideOptions{}); err != nil {
						t.Fatal(err)
					}
				})
				if len(grants) != n || grants[0].Status.Authorization != model.Unreviewed {
					t.Fatalf("grants %d, first %+v", len(grants), grants[0].Status)
				}
				wantReads, wantParses := int64(2), int64(1)
				if warm {
					wantReads, wantParses = 1, 0
				}
				if reads != wantReads || parses != wantParses {
					t.Fatalf("%d refs: %d full reads and %d parses, want %d and %d", n, reads, parses, wantReads, wantParses)
				}
				l, _, _ := readLedger(tr.PersonalLedger(), "personal")
				if len(l.decisions) != 50+n {
					t.Fatalf("%d decisions, want %d", len(l.decisions), 50+n)
				}
				m, _ := tr.Statuses(p)
				wantAllApproved(t, m, p)
			})
		}
	}
}

// TestCheckUsesTheCache: an unchanged ledger is not parsed again; a changed one is; a
// damaged cache is discarded, never trusted.
func TestCheckUsesTheCache(t *testing.T) {
	home, tr, p := approvedHome(t, "c", 20)
	check := func() Status { // as `vouch check` does: a new Trust each time
		st, err := openT(t, home).Check(p, p.Ref(p.Components[3]))
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	_, parses := work(func() { wantAuth(t, check(), model.Approved) })
	if parses != 0 {
		t.Fatalf("check after an approval parsed the ledger %d times; the approval should have cached its fold", parses)
	}
	// Another process changes the ledger (here: an edit of the same size, the worst case).
	ledger := tr.PersonalLedger()
	data, _ := os.ReadFile(ledger)
	c3 := p.Ref(p.Components[3])
	edited := strings.Replace(string(data), `action = "approve"
package = "load"
component = "`+c3+`"`, `action = "revoke"
package = "load"
component = "`+c3+`"`, 1)
	// "revoke" is one byte shorter than "approve": pad to keep the size.
	edited = strings.Replace(edited, `action = "revoke"`, `action = "revoke" `, 1)
	if len(edited) != len(data) {
		t.Fatalf("edit changed the size: %d vs %d", len(edited), len(data))
	}
	st0, _ := os.Stat(ledger)
	os.WriteFile(ledger, []byte(edited), 0o644) // in place: same inode
	os.Chtimes(ledger, st0.ModTime(), st0.ModTime())
	_, parses = work(func() { wantAuth(t, check(), model.Revoked) })
	if parses != 1 {
		t.Fatalf("a changed ledger was parsed %d times, want 1", parses)
	}

	// Damage the cache in every way: the answer stays right and the ledger is parsed again.
	cache := tr.cachePath(ledger)
	good, err := os.ReadFile(cache)
	if err != nil {
		t.Fatal(err)
	}
	nl := strings.IndexByte(string(good), '\n')
	// Where the shard of package "load" sits, to damage exactly what a check reads.
	fh, _ := os.Open(ledger)
	fst, _ := fh.Stat()
	fid, _ := identify(fh, fst)
	fh.Close()
	cl := tr.openCache(ledger, fid, pinAll, false)
	if cl == nil {
		t.Fatal("no valid cache to damage")
	}
	cf, _ := os.Open(cache)
	sref, _ := cl.ref(cf, shardOf("load", cl.hdr.Shards))
	cf.Close()
	shardAt := int(cl.body) + cl.hdr.Shards*indexEntry + int(sref.Off)
	damages := map[string][]byte{
		"truncated":    good[:nl/2],
		"shard cut":    good[:shardAt+int(sref.Len)/2],
		"header flip":  flip(good, 70),
		"shard flip":   flip(good, shardAt+int(sref.Len)/2),
		"empty":        {},
		"garbage":      []byte("not a cache\n{}"),
		"no body":      good[:nl+1],
		"header only":  good[:nl],
		"other ledger": []byte(strings.Replace(string(good), ledger, ledger+"x", 1)),
		"huge header":  []byte(strings.Repeat("a", maxCacheHeader+10)),
		"index zeroed": zero(good, nl+1, shardAt),
		"index cut":    good[:nl+1+indexEntry*3],
	}
	for name, bad := range damages {
		t.Run(name, func(t *testing.T) {
			os.WriteFile(cache, bad, 0o600)
			var st Status
			_, parses := work(func() { st = check() })
			wantAuth(t, st, model.Revoked)
			if parses == 0 {
				t.Fatal("a damaged cache was trusted")
			}
			if parses > 2 {
				t.Fatalf("%d parses", parses)
			}
			// ...and rewritten: the next check is cheap again.
			if _, p2 := work(func() { check() }); p2 != 0 {
				t.Fatalf("the cache was not rebuilt (%d parses)", p2)
			}
		})
	}
}

func zero(b []byte, from, to int) []byte {
	out := append([]byte(nil), b...)
	for i := from; i < to && i < len(out); i++ {
		out[i] = 0
	}
	return out
}

func flip(b []byte, i int) []byte {
	out := append([]byte(nil), b...)
	out[i] ^= 0x01
	return out
}

// FuzzCache: whatever bytes sit in the cache file, reading it never panics and never
// yields a state for a ledger it was not built from.
func FuzzCache(f *testing.F) {
	home := f.TempDir()
	tr, err := Open(Options{Home: home, Reviewer: "fz"})
	if err != nil {
		f.Fatal(err)
	}
	p := manyTools("fz", 3)
	if _, err := tr.Decide(ActionApprove, requests(p), DecideOptions{}); err != nil {
		f.Fatal(err)
	}
	good, err := os.ReadFile(tr.cachePath(tr.PersonalLedger()))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte("0 {}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cache := tr.cachePath(tr.PersonalLedger())
		os.WriteFile(cache, data, 0o600)
		m, err := tr.Statuses(p)
		if err != nil {
			t.Fatal(err)
		}
		wantAllApproved(t, m, p)
	})
}

// bigLedger writes a personal ledger of n decisions over packages of 10 tools and returns
// a home holding it, its cache warm.
func bigLedger(b *testing.B, n int, target *model.Package) string {
	home := b.TempDir()
	var buf strings.Builder
	buf.WriteString(ledgerHeader)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < n; i++ {
		d := Decision{Action: ActionApprove, Package: fmt.Sprintf("pkg-%d", i/10), Component: fmt.Sprintf("pkg-%d#tool:t%d", i/10, i%10),
			Digest: fmt.Sprintf("sha256:%064x", i), Reviewer: "bench", ReviewerKind: ReviewerAutomation, At: at}
		if i%7 == 3 {
			d.Action, d.Scope = ActionRevoke, ScopeDigest
		}
		e, _ := encodeDecision(d)
		buf.WriteByte('\n')
		buf.Write(e)
	}
	if err := os.WriteFile(filepath.Join(home, "ledger.toml"), []byte(buf.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	tr, err := Open(Options{Home: home, Reviewer: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := tr.Decide(ActionApprove, requests(target), DecideOptions{}); err != nil {
		b.Fatal(err)
	}
	return home
}

// BenchmarkCheck: the dispatch-time gate (open the home, rate one ref) with a 10-decision
// and a 100,000-decision personal ledger. The machine these run on is shared, so the two
// are timed alternately in one loop and reported as medians with their ratio
// (check-ratio, target ≤ 3).
func BenchmarkCheck(b *testing.B) {
	p := manyTools("gate", 1)
	ref := p.Ref(p.Components[0])
	small, big := bigLedger(b, 10, p), bigLedger(b, 100_000, p)
	gate := func(home string) time.Duration {
		t0 := time.Now()
		tr, err := Open(Options{Home: home, Reviewer: "bench"})
		if err != nil {
			b.Fatal(err)
		}
		st, err := tr.Check(p, ref)
		if err != nil || st.Authorization != model.Approved {
			b.Fatalf("%+v %v", st, err)
		}
		return time.Since(t0)
	}
	runtime.GC() // the set-up's garbage is not the gate's cost
	b.ResetTimer()
	var ts, tb []time.Duration
	for i := 0; i < b.N; i++ {
		ts = append(ts, gate(small))
		tb = append(tb, gate(big))
	}
	reportRatio(b, "check", "10", ts, "100k", tb)
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func reportRatio(b *testing.B, what, an string, a []time.Duration, bn string, bd []time.Duration) {
	ma, mb := median(a), median(bd)
	b.ReportMetric(float64(ma.Nanoseconds()), "ns-"+an)
	b.ReportMetric(float64(mb.Nanoseconds()), "ns-"+bn)
	b.ReportMetric(float64(mb)/float64(ma), what+"-ratio")
}

// BenchmarkApproveRefs: one command approving 100 and 1,000 refs (explain them all, then
// record them) against a ledger that already holds 1,000 decisions, timed alternately and
// reported as medians with their ratio (approve-ratio, target ≤ 12).
func BenchmarkApproveRefs(b *testing.B) {
	run := func(i, n int) time.Duration {
		b.StopTimer()
		home := bigLedger(b, 1000, manyTools("warm", 1))
		p := manyTools(fmt.Sprintf("r%d-%d", i, n), n)
		b.StartTimer()
		t0 := time.Now()
		tr, err := Open(Options{Home: home, Reviewer: "bench"})
		if err != nil {
			b.Fatal(err)
		}
		reqs := requests(p)
		for _, g := range tr.ExplainAll(reqs, ActionApprove) {
			if g.Blocked != "" {
				b.Fatal(g.Blocked)
			}
		}
		if _, err := tr.Decide(ActionApprove, reqs, DecideOptions{}); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0)
	}
	var t100, t1000 []time.Duration
	for i := 0; i < b.N; i++ {
		t100 = append(t100, run(i, 100))
		t1000 = append(t1000, run(i, 1000))
	}
	reportRatio(b, "approve", "100", t100, "1000", t1000)
}

// TestConcurrentReadersShareState: a console rates packages from several goroutines with
// one Trust; the remembered ledger state is shared safely (run with -race).
func TestConcurrentReadersShareState(t *testing.T) {
	home, _, p := approvedHome(t, "c", 8)
	tr := openT(t, home) // its state comes from the cache, shards read on demand
	done := make(chan map[string]Status)
	for i := 0; i < 4; i++ {
		go func() { m, _ := tr.Statuses(p); done <- m }()
	}
	for i := 0; i < 4; i++ {
		wantAllApproved(t, <-done, p)
	}
}
