package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"sync"
	"vouch/internal/atomicfile"

	"vouch/model"
)

// ledgerPin is how much of a ledger counts. Size < 0: all of it (the personal ledger, a
// team ledger named with --ledger). Otherwise the first Size bytes, which must hash to
// SHA256: what a person saw and confirmed with `vouch ledger trust`. A ledger is
// append-only, so what was trusted stays a prefix of the file; decisions after it are
// pending until they are shown and confirmed.
type ledgerPin struct {
	Size   int64  `json:"size" toml:"size"`
	SHA256 string `json:"sha256" toml:"sha256"`
}

var pinAll = ledgerPin{Size: -1}

// ledgerState is one ledger file as evaluation needs it: its folded decisions, from the
// cache or from a parse.
type ledgerState struct {
	path, origin string
	team         bool
	exists       bool
	count        int  // decisions that count
	total        int  // decisions in the file
	rewritten    bool // the pinned prefix no longer matches: nothing counts
	id           fileID
	pin          ledgerPin
	fold         *fold         // set after a parse or a full load
	cache        *cachedLedger // otherwise shards are read from here on demand
	t            *Trust
	// mu guards fold and cache: a remembered state is shared by callers of one Trust.
	mu sync.Mutex
}

func (s *ledgerState) pending() int { return s.total - s.count }

// pkg returns the component states of one package. A cache shard that turns out damaged
// is discarded and the ledger parsed again.
func (s *ledgerState) pkg(name string) (map[string]*compFold, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fold != nil {
		return s.fold.Comps[name], nil
	}
	if s.cache == nil {
		return nil, nil
	}
	if m, ok := s.cache.pkg(name); ok {
		return m, nil
	}
	if err := s.reparse(); err != nil {
		return nil, err
	}
	return s.fold.Comps[name], nil
}

// comps returns the component states of pkg, by ref: its own format's decisions joined
// with those that name no format (see formatLayer).
func (s *ledgerState) comps(pkg *model.Package) (map[string]*compFold, error) {
	m, err := s.pkg(pkg.Name)
	if err != nil {
		return nil, err
	}
	return formatLayer(m, string(pkg.Format), s.team), nil
}

func (s *ledgerState) reparse() error {
	n, err := s.t.loadState(s.path, s.origin, s.team, s.pin, false)
	if err != nil {
		return err
	}
	s.fold, s.cache, s.count, s.total, s.rewritten, s.id = n.fold, nil, n.count, n.total, n.rewritten, n.id
	return nil
}

// loadState reads the ledger at path under pin: from the cache when it matches the file,
// else by parsing (and then caching) it. A missing file is an empty ledger.
func (t *Trust) loadState(path, origin string, team bool, pin ledgerPin, useCache bool) (*ledgerState, error) {
	s := &ledgerState{path: path, origin: origin, team: team, pin: pin, t: t}
	f, id, err := openLedger(path)
	if err != nil {
		return nil, err
	}
	if f == nil {
		s.fold = newFold(team)
		return s, nil
	}
	defer f.Close()
	s.exists = true
	s.id = id
	if useCache {
		// The same file, unchanged, already folded by this Trust (Open, then Check).
		t.memoMu.Lock()
		m := t.memo[path]
		t.memoMu.Unlock()
		if m != nil && m.id == id && m.pin == pin && m.team == team && m.origin == origin {
			return m, nil
		}
		if c := t.openCache(path, id, pin, team); c != nil {
			s.cache = c
			s.count, s.total, s.rewritten = c.hdr.Count, c.hdr.Total, c.hdr.Rewritten
			t.remember(s)
			return s, nil
		}
	}
	data, err := readOpenLedger(path, f)
	if err != nil {
		return nil, err
	}
	if err := s.foldBytes(data); err != nil {
		return nil, err
	}
	if int64(len(data)) == id.Size && tailOf(data) == id.Tail {
		t.writeCache(path, id, pin, s.total, s.rewritten, s.fold)
		t.remember(s)
	}
	return s, nil
}

// openLedger opens the ledger at path for a reader that identifies it before reading a
// byte: a regular file only (never waited on), refused when larger than maxLedgerBytes.
// A missing ledger is no file and no error.
func openLedger(path string) (*os.File, fileID, error) {
	f, st, err := atomicfile.OpenRegular(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fileID{}, nil
	}
	if err != nil {
		return nil, fileID{}, fmt.Errorf("cannot read ledger %s: %w", path, err)
	}
	if st.Size() > maxLedgerBytes {
		f.Close()
		return nil, fileID{}, ledgerTooLarge(path)
	}
	id, err := identify(f, st)
	if err != nil {
		f.Close()
		return nil, fileID{}, fmt.Errorf("cannot read ledger %s: %w", path, err)
	}
	return f, id, nil
}

// readOpenLedger reads the whole of a ledger openLedger opened, counted as one full read;
// it is refused past maxLedgerBytes again, since it can have grown since it was opened.
func readOpenLedger(path string, f *os.File) ([]byte, error) {
	countRead()
	data, err := io.ReadAll(io.LimitReader(f, maxLedgerBytes+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read ledger %s: %w", path, err)
	}
	if int64(len(data)) > maxLedgerBytes {
		return nil, ledgerTooLarge(path)
	}
	return data, nil
}

func ledgerTooLarge(path string) error {
	return fmt.Errorf("cannot read ledger %s: it is larger than %d bytes", path, maxLedgerBytes)
}

// foldBytes parses data and folds the decisions that count under s.pin.
func (s *ledgerState) foldBytes(data []byte) error {
	ds, err := parseLedger(s.path, data)
	if err != nil {
		return err
	}
	s.total = len(ds)
	counted := ds
	if s.pin.Size >= 0 {
		counted = nil
		if pre, ok := pinnedPrefix(s.path, data, s.pin); ok && len(pre) <= len(ds) && reflect.DeepEqual(pre, ds[:len(pre)]) {
			counted = ds[:len(pre)]
		} else {
			s.rewritten = true
		}
	}
	s.fold = newFold(s.team)
	for _, d := range counted {
		d.Ledger = s.origin
		s.fold.apply(d)
	}
	// A revoke outside what was trusted counts at once: it can only take rights away,
	// so waiting for `vouch ledger trust` would only keep a withdrawn approval in force.
	// Approvals there stay pending.
	for _, d := range ds[len(counted):] {
		if d.Action == ActionRevoke {
			d.Ledger = s.origin
			s.fold.apply(d)
		}
	}
	s.count = s.fold.Count
	return nil
}

// pinnedPrefix returns the decisions of the pinned prefix of data, if data still starts
// with exactly the bytes that were trusted. The prefix is parsed on its own and must
// equal the first decisions of the whole file, so bytes appended after it cannot reach
// back into a trusted decision (a TOML table stays open until the next header).
func pinnedPrefix(path string, data []byte, pin ledgerPin) ([]Decision, bool) {
	if pin.Size < 0 || int64(len(data)) < pin.Size {
		return nil, false
	}
	h := sha256.Sum256(data[:pin.Size])
	if hex.EncodeToString(h[:]) != pin.SHA256 {
		return nil, false
	}
	pre, err := parseLedger(path, data[:pin.Size])
	if err != nil {
		return nil, false
	}
	return pre, true
}

func pinOf(data []byte) ledgerPin {
	h := sha256.Sum256(data)
	return ledgerPin{Size: int64(len(data)), SHA256: hex.EncodeToString(h[:])}
}

// remember keeps s for later calls of this Trust while the file stays as it is. Only
// states read from the cache or a parse are kept, never a fold being written to.
func (t *Trust) remember(s *ledgerState) {
	t.memoMu.Lock()
	defer t.memoMu.Unlock()
	if t.memo == nil {
		t.memo = map[string]*ledgerState{}
	}
	t.memo[s.path] = s
}
