package trust

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
	"vouch/internal/atomicfile"

	"github.com/BurntSushi/toml"

	"vouch/model"
)

// Team ledgers found next to a package arrive with the package, so a discovered ledger
// counts only after a person has seen what it approves and confirmed it, and the trust is
// pinned to the content they saw: the length of the ledger then and the SHA-256 of those
// bytes (a count+prefix pin). A ledger is append-only, so what was trusted stays a prefix
// of the file through later appends and ordinary git merges of appends; decisions after
// the prefix are pending until `vouch ledger trust` shows them and is confirmed again. A
// pin of two numbers stays small and costs one hash of the prefix when the ledger changes
// (the fold cache remembers the result otherwise). A file that no longer starts with the
// trusted bytes (rewritten, reordered) counts for nothing until it is trusted again.
//
// <home>/trusted-ledgers.toml:
//
//	schema_version = 1
//	[[ledger]]
//	path = "/repo/.vouch/ledger.toml"
//	size = 1234          # bytes trusted
//	sha256 = "…"         # of those bytes
//	decisions = 12       # decisions in them
//	trusted_at = 2026-…
//
// Entries of the older `ledgers = ["path", …]` list carry no pin: all their decisions
// are pending until the ledger is trusted again.

type trustedPin struct {
	Path      string    `toml:"path"`
	Size      int64     `toml:"size"`
	SHA256    string    `toml:"sha256"`
	Decisions int       `toml:"decisions"`
	TrustedAt time.Time `toml:"trusted_at"`
}

type trustedLedgers struct {
	SchemaVersion int          `toml:"schema_version"`
	Ledgers       []string     `toml:"ledgers,omitempty"`
	Ledger        []trustedPin `toml:"ledger"`
}

// pinMemo keeps the parsed trusted-ledgers file while it does not change: TeamLedgerFor
// runs once per package.
type pinMemo struct {
	mu    sync.Mutex
	size  int64
	mtime time.Time
	ok    bool
	tl    trustedLedgers
}

// trustedLedgersFile lists the team ledgers this home honours when found by discovery.
func (t *Trust) trustedLedgersFile() string {
	return filepath.Join(t.opts.Home, "trusted-ledgers.toml")
}

func (t *Trust) readTrustedLedgers() trustedLedgers {
	p := t.trustedLedgersFile()
	st, err := os.Stat(p)
	m := &t.pins
	m.mu.Lock()
	defer m.mu.Unlock()
	if err != nil {
		return trustedLedgers{}
	}
	if m.ok && st.Size() == m.size && st.ModTime().Equal(m.mtime) {
		return m.tl
	}
	var tl trustedLedgers
	data, err := atomicfile.ReadRegular(p, 1<<20)
	if err == nil {
		if _, err := toml.Decode(string(data), &tl); err != nil {
			tl = trustedLedgers{}
		}
	}
	m.size, m.mtime, m.ok, m.tl = st.Size(), st.ModTime(), true, tl
	return tl
}

// pinFor is the pin this home holds for the team ledger at path, and whether it trusts it.
func (t *Trust) pinFor(path string) (ledgerPin, bool) {
	real := canonicalPath(path)
	tl := t.readTrustedLedgers()
	for _, p := range tl.Ledger {
		if p.Path == real && p.Size >= 0 && validHex(p.SHA256) {
			return ledgerPin{Size: p.Size, SHA256: p.SHA256}, true
		}
	}
	for _, p := range tl.Ledgers {
		if p == real {
			return pinOf(nil), true // trusted without seeing it: nothing counts yet
		}
	}
	return ledgerPin{}, false
}

// IsTrustedTeamLedger reports whether path was trusted with TrustTeamLedger.
func (t *Trust) IsTrustedTeamLedger(path string) bool {
	_, ok := t.pinFor(path)
	return ok
}

// LedgerSummary is what `vouch ledger trust` shows before asking: what the ledger would
// approve once trusted, and what is new since it was last trusted.
type LedgerSummary struct {
	Path      string // canonical path
	Total     int    // decisions in the file
	Trusted   int    // decisions already trusted (0 when never trusted, or rewritten)
	Rewritten bool   // it was trusted, but no longer starts with the trusted bytes
	New       []Decision
	Packages  []PackageCount // over every decision that counts once confirmed
	Reviewers []ReviewerCount
	// Approved is the number of (package, component, digest) approvals in force once confirmed.
	Approved int
	pin      ledgerPin
}

// PackageCount sums the decisions of one package.
type PackageCount struct {
	Package    string
	Components int // components with an approval in force
	Approvals  int // approval decisions
	Revokes    int // revoke decisions
}

// ReviewerCount sums the decisions of one reviewer.
type ReviewerCount struct {
	Reviewer, Kind string
	Decisions      int
}

// ReviewTeamLedger reads the team ledger at path and summarizes it for a person about to
// trust it. Trusting records exactly the bytes summarized here.
func (t *Trust) ReviewTeamLedger(path string) (*LedgerSummary, error) {
	real := canonicalPath(path)
	st, err := os.Stat(real)
	if err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a ledger file", path)
	}
	data, err := atomicfile.ReadRegular(real, maxLedgerBytes)
	if err != nil {
		return nil, fmt.Errorf("cannot read ledger %s: %w", real, err)
	}
	ds, err := parseLedger(real, data)
	if err != nil {
		return nil, err
	}
	s := &LedgerSummary{Path: real, Total: len(ds), pin: pinOf(data)}
	if pin, ok := t.pinFor(real); ok {
		if pre, ok := pinnedPrefix(real, data, pin); ok && len(pre) <= len(ds) {
			s.Trusted = len(pre)
		} else {
			s.Rewritten = true
		}
	}
	s.New = ds[s.Trusted:]
	f := newFold(true)
	pkgs := map[string]*PackageCount{}
	revs := map[[2]string]int{}
	for _, d := range ds {
		d.Ledger = "team:" + real
		f.apply(d)
		pc := pkgs[d.Package]
		if pc == nil {
			pc = &PackageCount{Package: d.Package}
			pkgs[d.Package] = pc
		}
		if d.Action == ActionApprove {
			pc.Approvals++
		} else {
			pc.Revokes++
		}
		revs[[2]string{d.Reviewer, d.ReviewerKind}]++
	}
	for name, comps := range f.Comps {
		for _, c := range comps {
			if n := len(c.approvals()); n > 0 {
				pkgs[name].Components++
				s.Approved += n
			}
		}
	}
	for _, pc := range pkgs {
		s.Packages = append(s.Packages, *pc)
	}
	sort.Slice(s.Packages, func(i, j int) bool { return s.Packages[i].Package < s.Packages[j].Package })
	for k, n := range revs {
		s.Reviewers = append(s.Reviewers, ReviewerCount{Reviewer: k[0], Kind: k[1], Decisions: n})
	}
	sort.Slice(s.Reviewers, func(i, j int) bool {
		a, b := s.Reviewers[i], s.Reviewers[j]
		return a.Decisions > b.Decisions || a.Decisions == b.Decisions && a.Reviewer+a.Kind < b.Reviewer+b.Kind
	})
	return s, nil
}

// TrustTeamLedger pins this home's trust to exactly the bytes s summarized. The file may
// have grown since (those decisions stay pending), but it must still start with them.
func (t *Trust) TrustTeamLedger(s *LedgerSummary) (string, error) {
	if s == nil || s.pin.Size < 0 {
		return "", errors.New("nothing was shown to trust")
	}
	data, err := atomicfile.ReadRegular(s.Path, maxLedgerBytes)
	if err != nil {
		return "", fmt.Errorf("cannot read ledger %s: %w", s.Path, err)
	}
	if _, ok := pinnedPrefix(s.Path, data, s.pin); !ok {
		return "", fmt.Errorf("%s changed while it was shown (it no longer starts with what you saw); nothing was trusted, run the command again", s.Path)
	}
	return s.Path, t.editTrusted(func(tl *trustedLedgers) {
		tl.Ledgers = without(tl.Ledgers, s.Path)
		var keep []trustedPin
		for _, p := range tl.Ledger {
			if p.Path != s.Path {
				keep = append(keep, p)
			}
		}
		tl.Ledger = append(keep, trustedPin{Path: s.Path, Size: s.pin.Size, SHA256: s.pin.SHA256,
			Decisions: s.Total, TrustedAt: t.opts.Now().UTC().Truncate(time.Second)})
	})
}

// UntrustTeamLedger stops honouring the team ledger at path; it reports whether it was trusted.
func (t *Trust) UntrustTeamLedger(path string) (string, bool, error) {
	real := canonicalPath(path)
	if !t.IsTrustedTeamLedger(real) {
		return real, false, nil
	}
	return real, true, t.editTrusted(func(tl *trustedLedgers) {
		tl.Ledgers = without(tl.Ledgers, real)
		var keep []trustedPin
		for _, p := range tl.Ledger {
			if p.Path != real {
				keep = append(keep, p)
			}
		}
		tl.Ledger = keep
	})
}

func without(list []string, s string) []string {
	var out []string
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

// editTrusted rewrites trusted-ledgers.toml under the home lock.
func (t *Trust) editTrusted(edit func(*trustedLedgers)) error {
	unlock, err := lockHome(t.opts.Home)
	if err != nil {
		return err
	}
	defer unlock()
	t.pins.mu.Lock()
	t.pins.ok = false
	t.pins.mu.Unlock()
	tl := t.readTrustedLedgers()
	tl.SchemaVersion = 1
	edit(&tl)
	var b strings.Builder
	b.WriteString("# Team ledgers whose decisions this vouch home honours when found next to a package,\n")
	b.WriteString("# each pinned to the bytes a person saw and confirmed with `vouch ledger trust`.\n")
	if err := toml.NewEncoder(&b).Encode(tl); err != nil {
		return err
	}
	err = atomicfile.Write(t.trustedLedgersFile(), []byte(b.String()), 0o600)
	t.pins.mu.Lock()
	t.pins.ok = false
	t.pins.mu.Unlock()
	return err
}

// LedgerNotices are the warnings about the team ledger that applies to pkg: one found next
// to it that this home does not trust, decisions added since it was trusted (they do not
// count yet), a ledger that no longer starts with what was trusted, and a ledger that lies
// inside a package it approves (the package vouches for itself).
func (t *Trust) LedgerNotices(pkg *model.Package) []model.Diagnostic {
	var out []model.Diagnostic
	warn := func(code, file, msg string) {
		out = append(out, model.Diagnostic{Code: code, Severity: model.SeverityWarning, Boundary: model.BoundarySource, File: file, Message: msg})
	}
	if u := t.UntrustedTeamLedger(pkg); u != "" {
		warn("team-ledger-untrusted", u, fmt.Sprintf("The team ledger %s came with the source and is ignored until you read it and run `vouch ledger trust %s`.", u, u))
	}
	tp := t.TeamLedgerFor(pkg)
	if tp == "" {
		return out
	}
	s, err := t.teamState(tp)
	if err != nil {
		return out // the statuses already carry the error
	}
	switch {
	case tp == t.opts.TeamLedger && !t.opts.TrustLedger && !t.IsTrustedTeamLedger(tp):
		warn("team-ledger-untrusted", tp, fmt.Sprintf("The team ledger %s given with --ledger is not trusted by this home, so only its revokes count; read it and run `vouch ledger trust %s`, or pass --trust-ledger to count all of it.", tp, tp))
	case s.rewritten && s.pin.Size > 0:
		warn("team-ledger-rewritten", tp, fmt.Sprintf("The team ledger %s no longer starts with the content you trusted, so none of the approvals among its %d decisions count (its revokes do); run `vouch ledger trust %s` to review it again.", tp, s.total, tp))
	case s.pending() > 0:
		warn("team-ledger-pending", tp, fmt.Sprintf("%d decisions were added to the team ledger %s after you trusted it; they count only after `vouch ledger trust %s` shows them and you confirm.", s.pending(), tp, tp))
	}
	if pkg.Root != "" && within(canonicalPath(pkg.Root), canonicalPath(tp)) {
		if comps, err := s.pkg(pkg.Name); err == nil && len(comps) > 0 {
			warn("team-ledger-inside-package", tp, fmt.Sprintf("The team ledger %s lies inside package %s, which it approves: the package arrives with its own approvals, so they are worth only as much as where the package came from.", tp, pkg.Name))
		}
	}
	return out
}

// within reports whether p lies inside dir.
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
