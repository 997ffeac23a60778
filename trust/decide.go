package trust

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"vouch/internal/atomicfile"

	"vouch/model"
)

// Request is one decision to record: a component and the digest the caller showed for it.
// A caller that displayed digest D can never record a decision about another digest: if
// the component's digest is not D when the decision is made, nothing is recorded.
type Request struct {
	Pkg    *model.Package
	Comp   *model.Component
	Digest string
}

// ErrDigestMismatch is wrapped when a component's digest is not the one the caller showed.
var ErrDigestMismatch = errors.New("the component is not what was shown")

// Approve records an approval of comp at digest, the digest the caller showed, and stores
// its bytes. It refuses when comp's digest is not digest.
func (t *Trust) Approve(pkg *model.Package, comp *model.Component, digest string, o DecideOptions) (Decision, error) {
	ds, err := t.Decide(ActionApprove, []Request{{pkg, comp, digest}}, o)
	if err != nil {
		return Decision{}, err
	}
	return ds[0], nil
}

// Revoke records a revocation of comp, which the caller showed at digest: of every digest
// of the component, or of o.OnlyDigest alone. It refuses when comp's digest is not digest.
func (t *Trust) Revoke(pkg *model.Package, comp *model.Component, digest string, o DecideOptions) (Decision, error) {
	ds, err := t.Decide(ActionRevoke, []Request{{pkg, comp, digest}}, o)
	if err != nil {
		return Decision{}, err
	}
	return ds[0], nil
}

// pending is what one ledger file gets from one Decide.
type pendingFile struct {
	path   string
	origin string
	data   []byte // the bytes read under the lock
	id     fileID
	fold   *fold // folded data, with this command's decisions applied as they are made
	out    []Decision
}

// Decide records one decision per request, all of them or none, returning the first
// decision made for each request. Whatever the number of requests, each ledger file is
// read once and written once, under the lock next to it, and its folded state is cached.
// Tools are decided before the hooks that need them, so one call can approve both.
func (t *Trust) Decide(action Action, reqs []Request, o DecideOptions) ([]Decision, error) {
	if action != ActionApprove && action != ActionRevoke {
		return nil, fmt.Errorf("action %q is not approve or revoke", action)
	}
	if o.OnlyDigest != "" && (action != ActionRevoke || !validDigest(o.OnlyDigest)) {
		return nil, fmt.Errorf("%q cannot name the digest to revoke: give sha256:<64 hex> with revoke", o.OnlyDigest)
	}
	if _, err := t.newDecision(&model.Package{}, "", action, "", o); err != nil {
		return nil, err
	}
	order := dependenciesFirst(reqs)
	paths, files, err := t.pendingFiles(reqs, o)
	if err != nil {
		return nil, err
	}
	unlock, err := t.lockAll(files)
	if err != nil {
		return nil, err
	}
	defer unlock()
	for _, f := range files {
		if err := t.readLocked(f); err != nil {
			return nil, err
		}
	}

	viewOf := t.viewsOf(files)
	compOf := componentsByRef()

	first := make([]Decision, len(reqs))
	var blobs [][]byte
	for _, i := range order {
		r := reqs[i]
		f := files[paths[i]]
		ref := r.Pkg.Ref(r.Comp)
		cur := DigestOf(r.Comp)
		var ds []Decision
		var err error
		if action == ActionApprove {
			var bs [][]byte
			ds, bs, err = t.approval(r, ref, f, viewOf, compOf, o)
			blobs = append(blobs, bs...)
		} else {
			if r.Digest != cur {
				err = mismatch(ref, r.Digest, cur)
			} else {
				ds, err = t.revocation(r, ref, cur, f, o)
			}
		}
		if err != nil {
			return nil, err
		}
		for _, d := range ds {
			d.Ledger = f.origin
			f.fold.apply(d)
			f.out = append(f.out, d)
		}
		first[i] = ds[0]
		first[i].Ledger = f.origin
	}
	// The store first: an acknowledged approval always has its bytes to diff against.
	if err := t.store.putAll(blobs); err != nil {
		return nil, fmt.Errorf("cannot store the approved bytes: %w", err)
	}
	for _, f := range sortedFiles(files) {
		if err := t.appendLocked(f); err != nil {
			return nil, err
		}
	}
	return first, nil
}

// dependenciesFirst is the order requests are decided in: components that depend on
// nothing (tools) before those that do (hooks), so a hook's tool is approved first.
func dependenciesFirst(reqs []Request) []int {
	order := make([]int, len(reqs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		return len(reqs[order[a]].Comp.DependsOn) == 0 && len(reqs[order[b]].Comp.DependsOn) > 0
	})
	return order
}

// pendingFiles names the ledger each request is written to (paths[i] for reqs[i]) and
// one pending file for each ledger named.
func (t *Trust) pendingFiles(reqs []Request, o DecideOptions) ([]string, map[string]*pendingFile, error) {
	paths := make([]string, len(reqs))
	files := map[string]*pendingFile{}
	for i, r := range reqs {
		p, err := t.target(r.Pkg, o)
		if err != nil {
			return nil, nil, err
		}
		paths[i] = p
		if files[p] == nil {
			files[p] = &pendingFile{path: p, origin: t.origin(p)}
		}
	}
	return paths, files, nil
}

// viewsOf gives a package's decisions as the ledgers hold them now: a ledger being
// written is read from its locked, pending state; one that is only read (the team ledger
// of a personal decision) is read once and kept.
func (t *Trust) viewsOf(files map[string]*pendingFile) func(pkg *model.Package) (*view, error) {
	others := states{}
	return func(pkg *model.Package) (*view, error) {
		v := &view{}
		if f := files[t.PersonalLedger()]; f != nil {
			v.personal = formatLayer(f.fold.Comps[pkg.Name], string(pkg.Format), false)
		} else {
			s, err := t.stateOf(others, t.PersonalLedger(), false)
			if err != nil {
				return nil, err
			}
			if v.personal, err = s.comps(pkg); err != nil {
				return nil, err
			}
		}
		if tp := t.TeamLedgerFor(pkg); tp != "" {
			if f := files[tp]; f != nil {
				v.team = formatLayer(f.fold.Comps[pkg.Name], string(pkg.Format), true)
			} else {
				s, err := t.stateOf(others, tp, true)
				if err != nil {
					return nil, err
				}
				if v.team, err = s.comps(pkg); err != nil {
					return nil, err
				}
			}
		}
		return v, nil
	}
}

// componentsByRef finds a package's component by its ref, indexing each package once.
func componentsByRef() func(pkg *model.Package, ref string) *model.Component {
	byRef := map[*model.Package]map[string]*model.Component{}
	return func(pkg *model.Package, ref string) *model.Component {
		m := byRef[pkg]
		if m == nil {
			m = make(map[string]*model.Component, len(pkg.Components))
			for _, c := range pkg.Components {
				m[pkg.Ref(c)] = c
			}
			byRef[pkg] = m
		}
		return m[ref]
	}
}

func mismatch(ref, shown, now string) error {
	return fmt.Errorf("%w: %s was shown at %s but is now %s; nothing was recorded, review it again", ErrDigestMismatch, ref, digestOrNone(shown), digestOrNone(now))
}

func digestOrNone(d string) string {
	if d == "" {
		return "(no digest)"
	}
	return d
}

// approval checks one approval under the lock and builds its decision.
func (t *Trust) approval(r Request, ref string, f *pendingFile, viewOf func(*model.Package) (*view, error),
	compOf func(*model.Package, string) *model.Component, o DecideOptions) ([]Decision, [][]byte, error) {
	comp := r.Comp
	if reason := blockReason(r.Pkg, comp); reason != "" {
		return nil, nil, fmt.Errorf("%s cannot be approved: %s", ref, lowerFirst(reason))
	}
	canon, err := comp.Contract.Canonical()
	if err != nil {
		return nil, nil, fmt.Errorf("%s cannot be approved: its contract cannot be serialized: %w", ref, err)
	}
	sum := sha256.Sum256(canon)
	digest := "sha256:" + hex.EncodeToString(sum[:])
	if r.Digest != digest {
		return nil, nil, mismatch(ref, r.Digest, digest)
	}
	blobs, err := readClosure(r.Pkg, comp.Contract)
	if err != nil {
		return nil, nil, fmt.Errorf("%s cannot be approved: %w", ref, err)
	}
	v, err := viewOf(r.Pkg)
	if err != nil {
		return nil, nil, err
	}
	for _, dep := range comp.DependsOn {
		dc := compOf(r.Pkg, dep)
		if dc == nil {
			return nil, nil, fmt.Errorf("%s cannot be approved: it needs %s, which is not in the package", ref, dep)
		}
		if ds := t.ownStatus(r.Pkg, dc, v); ds.Authorization != model.Approved {
			return nil, nil, fmt.Errorf("%s cannot be approved: it needs %s approved at its current digest, and it is %s; approve the tool first", ref, dep, ds.Authorization)
		}
	}
	if f.fold.Team {
		if x, ok := f.fold.comp(r.Pkg, ref).lookup(digest); ok && x.D.Action == ActionRevoke {
			return nil, nil, fmt.Errorf("%s cannot be approved in the team ledger %s: it revokes %s, and in a team ledger a revoke of a digest wins over approvals of it wherever they sit", ref, f.path, digest)
		}
	}
	d, err := t.newDecision(r.Pkg, ref, ActionApprove, digest, o)
	if err != nil {
		return nil, nil, err
	}
	if b := v.judge(ref, digest).baseline; b != nil {
		d.Previous = b.Digest
	}
	if sg := r.Pkg.Signature; sg != nil && sg.Fingerprint != "" && (sg.Status == "verified" || sg.Status == "untrusted") {
		d.Signer, d.SignerStatus = sg.Fingerprint, sg.Status
	}
	for _, cf := range comp.Contract.Files {
		d.Files = append(d.Files, FileDigest{Path: cf.Path, SHA256: cf.SHA256, Size: cf.Size, Exec: cf.Exec, Link: cf.Link})
	}
	sort.Slice(d.Files, func(i, j int) bool { return d.Files[i].Path < d.Files[j].Path })
	return []Decision{d}, append([][]byte{canon}, blobs...), nil
}

// revocation builds the decisions of one revoke. In a team ledger an unscoped revoke is
// written as one digest-scoped revoke per digest the ledger has decided, plus the current
// one, so that no merge order can bring an approval back.
func (t *Trust) revocation(r Request, ref, cur string, f *pendingFile, o DecideOptions) ([]Decision, error) {
	if o.OnlyDigest != "" {
		d, err := t.newDecision(r.Pkg, ref, ActionRevoke, o.OnlyDigest, o)
		d.Scope = ScopeDigest
		return []Decision{d}, err
	}
	if !f.fold.Team || o.Target != "" {
		d, err := t.newDecision(r.Pkg, ref, ActionRevoke, cur, o)
		return []Decision{d}, err
	}
	set := map[string]bool{}
	if cur != "" {
		set[cur] = true
	}
	if c := f.fold.comp(r.Pkg, ref); c != nil {
		for dg, x := range c.Digests {
			if x.D.Action == ActionApprove && validDigest(dg) {
				set[dg] = true
			}
		}
	}
	if len(set) == 0 {
		d, err := t.newDecision(r.Pkg, ref, ActionRevoke, cur, o)
		return []Decision{d}, err
	}
	digests := make([]string, 0, len(set))
	for dg := range set {
		digests = append(digests, dg)
	}
	// The current digest first: it is the decision the caller gets back.
	sort.Slice(digests, func(i, j int) bool {
		if (digests[i] == cur) != (digests[j] == cur) {
			return digests[i] == cur
		}
		return digests[i] < digests[j]
	})
	var out []Decision
	for _, dg := range digests {
		d, err := t.newDecision(r.Pkg, ref, ActionRevoke, dg, o)
		if err != nil {
			return nil, err
		}
		d.Scope = ScopeDigest
		out = append(out, d)
	}
	return out, nil
}

func sortedFiles(m map[string]*pendingFile) []*pendingFile {
	out := make([]*pendingFile, 0, len(m))
	for _, f := range m {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

// lockAll takes the home's lock (it guards the store and the personal ledger) and then the
// lock next to each team ledger being changed, in path order, so two commands never wait
// for each other in a cycle.
func (t *Trust) lockAll(files map[string]*pendingFile) (func(), error) {
	unlocks := []func(){}
	release := func() {
		for i := len(unlocks) - 1; i >= 0; i-- {
			unlocks[i]()
		}
	}
	u, err := lockHome(t.opts.Home)
	if err != nil {
		return nil, err
	}
	unlocks = append(unlocks, u)
	for _, f := range sortedFiles(files) {
		if f.path == t.PersonalLedger() {
			continue
		}
		u, err := lockNextTo(f.path)
		if err != nil {
			release()
			return nil, err
		}
		unlocks = append(unlocks, u)
	}
	return release, nil
}

// readLocked reads a ledger about to be changed, once, and folds it: from the cache when
// it matches the bytes, else by parsing them.
func (t *Trust) readLocked(f *pendingFile) error {
	team := f.path != t.PersonalLedger()
	fh, id, err := openLedger(f.path)
	if err != nil {
		return err
	}
	if fh == nil {
		f.fold = newFold(team)
		return nil
	}
	defer fh.Close()
	data, err := readOpenLedger(f.path, fh)
	if err != nil {
		return err
	}
	f.data, f.id = data, id
	if int64(len(data)) == id.Size && tailOf(data) == id.Tail {
		if c := t.openCache(f.path, id, pinAll, team); c != nil {
			if fl, ok := c.full(); ok {
				f.fold = fl
				return nil
			}
		}
	}
	s := &ledgerState{path: f.path, origin: f.origin, team: team, pin: pinAll, t: t}
	if err := s.foldBytes(data); err != nil {
		return err
	}
	f.fold = s.fold
	return nil
}

// appendLocked writes f's new decisions after its old bytes, kept verbatim, replacing the
// file atomically, and caches the new fold. The old bytes parsed (or matched a cache of a
// parse) as a ledger whose decisions are [[decision]] tables, so new [[decision]] tables
// after a line break cannot change them; the new part alone is checked to read back.
func (t *Trust) appendLocked(f *pendingFile) error {
	if len(f.out) == 0 {
		return nil
	}
	var entries bytes.Buffer
	for _, d := range f.out {
		e, err := encodeDecision(d)
		if err != nil {
			return fmt.Errorf("cannot encode decision: %w", err)
		}
		entries.WriteByte('\n')
		entries.Write(e)
	}
	back, err := decodeLedger(f.path, append([]byte("schema_version = 1\n"), entries.Bytes()...))
	if err != nil || len(back) != len(f.out) {
		return fmt.Errorf("internal error: the new decisions would not read back (%v); nothing was written", err)
	}
	var buf bytes.Buffer
	buf.Grow(len(f.data) + entries.Len() + len(ledgerHeader) + 1)
	if len(bytes.TrimSpace(f.data)) == 0 {
		buf.WriteString(ledgerHeader)
	} else {
		buf.Write(f.data)
		if !bytes.HasSuffix(f.data, []byte("\n")) {
			buf.WriteByte('\n')
		}
	}
	buf.Write(entries.Bytes())
	if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
		return fmt.Errorf("cannot create the directory of ledger %s: %w", f.path, err)
	}
	if err := atomicfile.Write(f.path, buf.Bytes(), 0o644); err != nil {
		return err
	}
	if fh, st, err := atomicfile.OpenRegular(f.path); err == nil {
		if id, err := identify(fh, st); err == nil && id.Tail == tailOf(buf.Bytes()) && id.Size == int64(buf.Len()) {
			t.writeCache(f.path, id, pinAll, f.fold.Count, false, f.fold)
		}
		fh.Close()
	}
	return nil
}

func (t *Trust) origin(path string) string {
	if path == t.PersonalLedger() {
		return "personal"
	}
	return "team:" + path
}

// lockedLedgerName is the lock file next to a team ledger.
func lockNameFor(ledger string) string {
	return filepath.Join(filepath.Dir(ledger), "."+filepath.Base(ledger)+".lock")
}

// lockNextTo takes the exclusive lock next to a team ledger, which many homes share: the
// lock must live with the file, not in any one home.
func lockNextTo(ledger string) (func(), error) {
	dir := filepath.Dir(ledger)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cannot create the directory of ledger %s: %w", ledger, err)
	}
	return atomicfile.Lock(lockNameFor(ledger), filepath.Join(dir, "."+filepath.Base(ledger)+".*.tmp"))
}
