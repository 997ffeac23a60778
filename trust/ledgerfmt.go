package trust

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"sort"

	"vouch/internal/atomicfile"
)

// A formatted ledger is exactly what vouch writes when it creates and appends to one:
// the header, then each decision as one [[decision]] table in the encoder's key order,
// a blank line before each. Decisions are in order of their recorded time (ties keep
// file order) when that order decides exactly what the file order does; otherwise file
// order is kept, because the order of a ledger is part of what it says (in a personal
// ledger the last decision for a digest wins, and an instruction's apply and remove
// pair up by position). Two branches that each appended decisions therefore format to
// the same bytes once merged, whichever way the merge went, and a ledger vouch alone
// wrote is already formatted.

// FormatResult is what formatting one ledger found.
type FormatResult struct {
	Path      string
	Formatted []byte // the canonical bytes
	Changed   bool   // Formatted differs from the file
	Reordered bool   // decisions were put in time order
	// KeptOrder is set when time order would decide differently from file order, so
	// file order was kept.
	KeptOrder bool
	Decisions int
}

// FormatLedger computes the canonical layout of the ledger at path without writing it.
func FormatLedger(path string) (*FormatResult, error) {
	data, err := atomicfile.ReadRegular(path, maxLedgerBytes)
	if err != nil {
		return nil, fmt.Errorf("cannot read ledger %s: %w", path, err)
	}
	return formatLedgerBytes(path, data)
}

func formatLedgerBytes(path string, data []byte) (*FormatResult, error) {
	ds, err := parseLedger(path, data)
	if err != nil {
		return nil, err
	}
	r := &FormatResult{Path: path, Decisions: len(ds)}
	ordered := append([]Decision(nil), ds...)
	sort.SliceStable(ordered, func(i, j int) bool { return ordered[i].At.Before(ordered[j].At) })
	if !reflect.DeepEqual(ordered, ds) {
		same, err := decideAlike(ds, ordered)
		if err != nil {
			return nil, err
		}
		if same {
			ds, r.Reordered = ordered, true
		} else {
			r.KeptOrder = true
		}
	}
	formatted, err := EncodeLedger(ds)
	if err != nil {
		return nil, fmt.Errorf("cannot encode a decision of %s: %w", path, err)
	}
	back, err := decodeLedger(path, formatted)
	if err != nil || !reflect.DeepEqual(back, ds) && !(len(back) == 0 && len(ds) == 0) {
		return nil, fmt.Errorf("internal error: the formatted %s would not read back as the same decisions (%v); nothing was written", path, err)
	}
	r.Formatted = formatted
	r.Changed = !bytes.Equal(r.Formatted, data)
	return r, nil
}

// decideAlike reports whether two orders of the same decisions leave every component
// in the same state, in a personal and in a team ledger alike: the same decision in
// force for every digest, the same revoke of every digest, the same activations.
func decideAlike(a, b []Decision) (bool, error) {
	for _, team := range []bool{false, true} {
		sa, err := foldSignature(a, team)
		if err != nil {
			return false, err
		}
		sb, err := foldSignature(b, team)
		if err != nil {
			return false, err
		}
		if !bytes.Equal(sa, sb) {
			return false, nil
		}
	}
	return true, nil
}

// foldSignature is what a fold of ds decides, without positions: per component, the
// decision in force for each digest, the revoke of every digest, the activations.
func foldSignature(ds []Decision, team bool) ([]byte, error) {
	f := newFold(team)
	for _, d := range ds {
		f.apply(d)
	}
	type sig struct {
		Digests  map[string]Decision `json:"d"`
		All      *Decision           `json:"a,omitempty"`
		ActiveAt map[string]Decision `json:"t,omitempty"`
	}
	out := map[string]map[string]sig{}
	for pkg, comps := range f.Comps {
		m := map[string]sig{}
		for key, c := range comps {
			s := sig{Digests: map[string]Decision{}}
			for dg, r := range c.Digests {
				s.Digests[dg] = r.D
			}
			if c.All != nil {
				d := c.All.D
				s.All = &d
			}
			for tg, r := range c.ActiveAt {
				if s.ActiveAt == nil {
					s.ActiveAt = map[string]Decision{}
				}
				s.ActiveAt[tg] = r.D
			}
			m[key] = s
		}
		out[pkg] = m
	}
	return json.Marshal(out)
}

// WriteFormattedLedger replaces the ledger with r.Formatted under the ledger's lock,
// only if the file still holds the bytes r was computed from. When this home trusts the
// ledger as a team ledger with every decision of it confirmed, the pin moves to the new
// bytes (the decisions are the same ones); a pin with decisions still pending is left,
// so formatting never confirms a decision nobody was shown.
func (t *Trust) WriteFormattedLedger(r *FormatResult) (repinned bool, err error) {
	if !r.Changed {
		return false, nil
	}
	lock := lockNextTo
	if r.Path == t.PersonalLedger() {
		lock = func(string) (func(), error) { return lockHome(t.opts.Home) }
	}
	unlock, err := lock(r.Path)
	if err != nil {
		return false, err
	}
	defer unlock()
	data, err := atomicfile.ReadRegular(r.Path, maxLedgerBytes)
	if err != nil {
		return false, fmt.Errorf("cannot read ledger %s: %w", r.Path, err)
	}
	again, err := formatLedgerBytes(r.Path, data)
	if err != nil {
		return false, err
	}
	if !bytes.Equal(again.Formatted, r.Formatted) {
		return false, errors.New(r.Path + " changed while it was being formatted; nothing was written, run the command again")
	}
	wholeTrust := false
	if pin, ok := t.pinFor(r.Path); ok && pin.Size == int64(len(data)) {
		_, wholeTrust = pinnedPrefix(r.Path, data, pin)
	}
	st, err := os.Stat(r.Path)
	if err != nil {
		return false, err
	}
	if err := atomicfile.Write(r.Path, r.Formatted, st.Mode().Perm()); err != nil {
		return false, err
	}
	if !wholeTrust {
		return false, nil
	}
	s, err := t.ReviewTeamLedger(r.Path)
	if err != nil {
		return false, err
	}
	if _, err := t.TrustTeamLedger(s); err != nil {
		return false, err
	}
	return true, nil
}
