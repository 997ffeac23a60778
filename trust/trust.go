// Package trust records and evaluates explicit decisions about package components. An
// approval binds (package, component, digest), the digest of a component's canonical
// contract, so several digests of one component can be approved at once (two installed
// copies, two versions); the approved bytes are kept in a content-addressed store so later
// changes can be diffed, and each approval also lists its files with their digests, so a
// teammate whose store lacks the bytes still learns which files changed. Selecting or
// validating a package never authorizes anything: only a decision recorded here does.
//
// Files under a home directory:
//
//	ledger.toml               the personal ledger (append-only [[decision]] tables)
//	ledger.lock               flock'd around every read-modify-write of it and the store
//	store/sha256/ab/cdef...   approved canonical contracts and closure files (0444)
//	cache/ledger-*.fold       folded ledger state, rebuilt whenever a ledger changes (cache.go)
//	trusted-ledgers.toml      discovered team ledgers this home honours, pinned (pins.go)
//
// A team ledger (.vouch/ledger.toml in the reviewed source's repository, or a file named
// with --ledger) is read too; it is locked by .ledger.toml.lock next to it, since many
// homes share it. For each digest the personal ledger's decision wins over the team's; a
// personal decision about another digest never masks a team approval of this one. In the
// personal ledger the last decision for a digest is its state ("last" is the position in
// the file, never the clock: an append-only log under a lock is ordered even when clocks
// are not); in a team ledger a revoke of a digest wins wherever it sits, because merges
// reorder lines (fold.go).
//
// Whatever the number of refs, a command reads each ledger once and appends to it once
// (Decide), and the gate (Check) reads the cached fold of the one package it rates.
//
// Components that cannot be approved are "blocked" with a Reason: invalid or rejected
// ones, ones every provider refuses, ones in a package missing a required member, and
// inert data without a contract (extensions, member and dependency references), whose
// Reason starts with "nothing to approve".
package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"vouch/model"
)

// Action is what a decision does.
type Action string

const (
	ActionApprove Action = "approve"
	ActionRevoke  Action = "revoke"
)

// Reviewer kinds.
const (
	ReviewerHuman      = "human"
	ReviewerAutomation = "automation"
)

// Decision is one [[decision]] entry of a ledger.
type Decision struct {
	Action    Action `toml:"action" json:"action"`
	Package   string `toml:"package" json:"package"`
	Component string `toml:"component" json:"component"` // the component ref
	// Format is the format of the package the decision was made in (a folder read by two
	// clients gives two packages that can share a name and refs). Decisions written before
	// it existed have none and count for every format (see fold.go).
	Format       string    `toml:"format,omitempty" json:"format,omitempty"`
	Digest       string    `toml:"digest" json:"digest"`
	Previous     string    `toml:"previous,omitempty" json:"previous,omitempty"`
	Reviewer     string    `toml:"reviewer" json:"reviewer"`
	ReviewerKind string    `toml:"reviewer_kind" json:"reviewer_kind"` // human | automation
	At           time.Time `toml:"at" json:"at"`
	Note         string    `toml:"note,omitempty" json:"note,omitempty"`
	Target       string    `toml:"target,omitempty" json:"target,omitempty"` // instruction activations
	// Scope is "digest" on a revoke that withdraws only Digest; a revoke without it
	// withdraws every digest of the component (see fold.go for team ledgers).
	Scope string `toml:"scope,omitempty" json:"scope,omitempty"`
	// Files are the closure files an approval granted, with their digests, so a teammate
	// whose store lacks the bytes can still be told which files changed. Decisions written
	// before this field existed have none.
	Files []FileDigest `toml:"files,omitempty" json:"files,omitempty"`
	// Signer is the sha256 fingerprint of the certificate whose signature over the
	// package's bytes was valid when the approval was made (an MCP Bundle's), and
	// SignerStatus whether it chained to the user's signing roots ("verified") or not
	// ("untrusted"). Evidence of who published what was approved, never a reason it is
	// approved; both are empty for an unsigned or badly signed package.
	Signer       string `toml:"signer,omitempty" json:"signer,omitempty"`
	SignerStatus string `toml:"signer_status,omitempty" json:"signer_status,omitempty"`
	// Ledger is where the decision was read from ("personal" or "team:<path>"); not stored.
	Ledger string `toml:"-" json:"ledger"`
}

// FileDigest is one approved file as a decision records it.
type FileDigest struct {
	Path   string `toml:"path" json:"path"`
	SHA256 string `toml:"sha256,omitempty" json:"sha256,omitempty"` // "" for a link
	Size   int64  `toml:"size" json:"size"`
	Exec   bool   `toml:"exec,omitempty" json:"exec,omitempty"`
	Link   string `toml:"link,omitempty" json:"link,omitempty"` // a symlink's target
}

// DigestOf is comp's contract digest, "" when it has none: what a caller that shows a
// component passes to Approve or Revoke.
func DigestOf(comp *model.Component) string {
	if comp == nil || comp.Contract == nil {
		return ""
	}
	return comp.Contract.MustDigest()
}

// Status is the third answer for one component, with what explains it.
type Status struct {
	Ref           string              `json:"ref"`
	Authorization model.Authorization `json:"authorization"`
	Digest        string              `json:"digest"`             // current contract digest, "" when none
	Decision      *Decision           `json:"decision,omitempty"` // the decision in force
	Reason        string              `json:"reason,omitempty"`   // why blocked / changed, one sentence
	Changes       []string            `json:"changes,omitempty"`  // short summary for changed
	// ChangedFiles are the closure files (slash paths in the package) whose bytes, mode or
	// link differ from the approved ones, or that were added or removed: where a reviewer
	// of a changed component starts reading.
	ChangedFiles []string `json:"changed_files,omitempty"`
	// Needs lists the refs this component depends on (a hook's tool) that are not approved
	// at their current digest. A hook whose own approval is current but whose tool is not
	// is reported blocked with Needs set: approving the tool again restores it.
	Needs []string `json:"needs,omitempty"`
}

// Options open a Trust.
type Options struct {
	Home       string // resolved home directory (see ResolveHome)
	TeamLedger string // explicit team ledger file; "" means look for .vouch/ledger.toml near the source
	// TrustLedger counts every decision of TeamLedger. Without it TeamLedger is held to
	// the pin of `vouch ledger trust`, as a discovered team ledger is: a file named on
	// the command line can come from anywhere (a pull request's checkout), so its
	// approvals count only up to what this home trusted, and its revokes at once.
	TrustLedger bool
	Reviewer    string // default $USER
	Now         func() time.Time
}

// Trust is an opened personal ledger (+ optional team ledger) and content store.
type Trust struct {
	opts  Options
	store store
	pins  pinMemo
	// memo holds ledger states already folded by this Trust, by path; each is used only
	// while its file's identity is unchanged.
	memoMu sync.Mutex
	memo   map[string]*ledgerState
}

// ErrDamagedLedger is wrapped by errors about a ledger that does not parse.
var ErrDamagedLedger = errors.New("damaged ledger")

// ResolveHome returns the home directory: flag, else $VOUCH_HOME, else $XDG_DATA_HOME/vouch,
// else ~/.local/share/vouch.
func ResolveHome(flag string) (string, error) {
	pick := func(p string) (string, error) {
		abs, err := filepath.Abs(p)
		if err != nil {
			return "", fmt.Errorf("cannot resolve vouch home %s: %w", p, err)
		}
		return abs, nil
	}
	if flag != "" {
		return pick(flag)
	}
	if v := os.Getenv("VOUCH_HOME"); v != "" {
		return pick(v)
	}
	// XDG: a relative XDG_DATA_HOME is invalid and must be ignored.
	if x := os.Getenv("XDG_DATA_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "vouch"), nil
	}
	h, err := os.UserHomeDir()
	if err != nil || h == "" {
		return "", errors.New("cannot find a vouch home: set --home, $VOUCH_HOME or $XDG_DATA_HOME")
	}
	return filepath.Join(h, ".local", "share", "vouch"), nil
}

// DataDir is where ${PLUGIN_DATA} points for display: <home>/data, one directory per
// plugin below it. Nothing creates it during review.
func DataDir(home string) string {
	if home == "" {
		return ""
	}
	return filepath.Join(home, "data")
}

// Open opens the ledgers (creating nothing until the first write). A personal or explicit
// team ledger that does not parse is an error wrapping ErrDamagedLedger.
func Open(opts Options) (*Trust, error) {
	if opts.Home == "" {
		return nil, errors.New("no vouch home given")
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Reviewer == "" {
		opts.Reviewer = os.Getenv("USER")
	}
	if opts.Reviewer == "" {
		if u, err := user.Current(); err == nil {
			opts.Reviewer = u.Username
		}
	}
	if opts.Reviewer == "" {
		opts.Reviewer = "unknown"
	}
	if opts.TeamLedger != "" {
		abs, err := filepath.Abs(opts.TeamLedger)
		if err != nil {
			return nil, err
		}
		opts.TeamLedger = abs
	}
	t := &Trust{opts: opts, store: store{root: filepath.Join(opts.Home, "store")}}
	// A damaged ledger is refused here, before anything is rated against it; the fold is
	// cached, so this costs a stat and a tail read when the ledger has not changed.
	if _, err := t.personalState(); err != nil {
		return nil, err
	}
	if opts.TeamLedger != "" {
		if _, err := t.teamState(opts.TeamLedger); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// Home is the resolved home directory.
func (t *Trust) Home() string { return t.opts.Home }

// PersonalLedger is the path of the personal ledger.
func (t *Trust) PersonalLedger() string { return filepath.Join(t.opts.Home, "ledger.toml") }

// TeamLedgerFor returns the team ledger that applies to pkg: Options.TeamLedger, else the
// first .vouch/ledger.toml found walking up from the package root to the repository root
// (a directory holding .git) or the filesystem root, if this home trusts it; "" otherwise.
//
// A ledger found next to a package arrives with the package: a hostile repository could
// ship one approving its own tools. So a discovered ledger counts only after the person
// trusted it once (`vouch ledger trust FILE`); until then UntrustedTeamLedger names it.
func (t *Trust) TeamLedgerFor(pkg *model.Package) string {
	if t.opts.TeamLedger != "" {
		return t.opts.TeamLedger
	}
	if pkg == nil || pkg.Root == "" {
		return ""
	}
	if p := FindTeamLedger(pkg.Root); p != "" && t.IsTrustedTeamLedger(p) {
		return p
	}
	return ""
}

// UntrustedTeamLedger returns the team ledger found for pkg that this home does not trust
// (its decisions are ignored), or "".
func (t *Trust) UntrustedTeamLedger(pkg *model.Package) string {
	if t.opts.TeamLedger != "" || pkg == nil || pkg.Root == "" {
		return ""
	}
	if p := FindTeamLedger(pkg.Root); p != "" && !t.IsTrustedTeamLedger(p) {
		return p
	}
	return ""
}

func canonicalPath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

func FindTeamLedger(start string) string {
	dir, err := filepath.Abs(start)
	if err != nil {
		return ""
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		dir = filepath.Dir(dir) // a Splice archive or bundle file
	}
	for {
		p := filepath.Join(dir, ".vouch", "ledger.toml")
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// personalState is the personal ledger, folded.
func (t *Trust) personalState() (*ledgerState, error) {
	return t.loadState(t.PersonalLedger(), "personal", false, pinAll, true)
}

// teamState is a team ledger, folded under the trust pinned to it (all of it when it was
// named with --ledger).
func (t *Trust) teamState(path string) (*ledgerState, error) {
	pin := pinAll
	if path != t.opts.TeamLedger || !t.opts.TrustLedger {
		var ok bool
		if pin, ok = t.pinFor(path); !ok {
			pin = pinOf(nil) // never trusted: no approval counts, revokes still do
		}
	}
	return t.loadState(path, "team:"+path, true, pin, true)
}

// states reads ledgers once per path for one command.
type states map[string]*ledgerState

func (t *Trust) stateOf(cache states, path string, team bool) (*ledgerState, error) {
	if s, ok := cache[path]; ok {
		return s, nil
	}
	var s *ledgerState
	var err error
	if team {
		s, err = t.teamState(path)
	} else {
		s, err = t.personalState()
	}
	if err != nil {
		return nil, err
	}
	cache[path] = s
	return s, nil
}

// view reads the team ledger for pkg and the personal ledger.
func (t *Trust) view(pkg *model.Package) (*view, error) {
	return t.viewFrom(pkg, states{})
}

// viewFrom is view with the ledgers read through cache, so that rating many packages
// (EvaluateAll) reads each ledger file once.
func (t *Trust) viewFrom(pkg *model.Package, cache states) (*view, error) {
	v := &view{}
	if tp := t.TeamLedgerFor(pkg); tp != "" {
		s, err := t.stateOf(cache, tp, true)
		if err != nil {
			return nil, err
		}
		if v.team, err = s.comps(pkg); err != nil {
			return nil, err
		}
	}
	s, err := t.stateOf(cache, t.PersonalLedger(), false)
	if err != nil {
		return nil, err
	}
	if v.personal, err = s.comps(pkg); err != nil {
		return nil, err
	}
	return v, nil
}

// Evaluate returns the status of every component of pkg, by ref. When a ledger cannot be
// read, every component is blocked with the reason; use Statuses to get the error.
func (t *Trust) Evaluate(pkg *model.Package) map[string]Status {
	m, _ := t.Statuses(pkg)
	return m
}

// Statuses is Evaluate with the error that made every component blocked, if any.
func (t *Trust) Statuses(pkg *model.Package) (map[string]Status, error) {
	v, err := t.view(pkg)
	return t.statusesFrom(pkg, v, err), err
}

// EvaluateAll is Evaluate for many packages at once: each ledger file is read and folded
// once for all the packages that share it, not once per package.
func (t *Trust) EvaluateAll(pkgs []*model.Package) map[*model.Package]map[string]Status {
	m, _ := t.evaluateAll(pkgs)
	return m
}

// evaluateAll is EvaluateAll with the error that blocked each package, if any.
func (t *Trust) evaluateAll(pkgs []*model.Package) (map[*model.Package]map[string]Status, map[*model.Package]error) {
	cache := states{}
	type folded struct {
		v   *view
		err error
	}
	views := map[string]folded{} // by team ledger, package name and format
	byPkg := make([]folded, len(pkgs))
	for i, p := range pkgs {
		k := t.TeamLedgerFor(p) + "\x00" + p.Name + "\x00" + string(p.Format)
		f, ok := views[k]
		if !ok {
			f.v, f.err = t.viewFrom(p, cache)
			views[k] = f
		}
		byPkg[i] = f
	}
	// The views are read-only from here; digesting every contract is the costly part, so
	// packages are rated in parallel.
	results := make([]map[string]Status, len(pkgs))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = t.statusesFrom(pkgs[i], byPkg[i].v, byPkg[i].err)
			}
		}()
	}
	for i := range pkgs {
		next <- i
	}
	close(next)
	wg.Wait()
	out := make(map[*model.Package]map[string]Status, len(pkgs))
	errs := map[*model.Package]error{}
	for i, p := range pkgs {
		out[p] = results[i]
		if byPkg[i].err != nil {
			errs[p] = byPkg[i].err
		}
	}
	return out, errs
}

// statusesFrom rates pkg against v, or blocks every component when the ledgers behind v
// could not be read.
func (t *Trust) statusesFrom(pkg *model.Package, v *view, err error) map[string]Status {
	if err != nil {
		out := map[string]Status{}
		for _, c := range pkg.Components {
			st := Status{Ref: pkg.Ref(c), Authorization: model.Blocked, Reason: "the ledger cannot be read: " + err.Error() + "."}
			if c.Contract != nil {
				st.Digest = c.Contract.MustDigest()
			}
			out[st.Ref] = st
		}
		return out
	}
	return t.evaluate(pkg, v)
}

func (t *Trust) evaluate(pkg *model.Package, v *view) map[string]Status {
	out := make(map[string]Status, len(pkg.Components))
	for _, c := range pkg.Components {
		st := t.ownStatus(pkg, c, v)
		out[st.Ref] = st
	}
	// A hook is only as good as its tool: dependencies are checked after every own status.
	for _, c := range pkg.Components {
		ref := pkg.Ref(c)
		out[ref] = withDependencies(c, out[ref], out)
	}
	return out
}

// withDependencies is st, c's own status, lowered by the own statuses of what c depends
// on (own holds at least those).
func withDependencies(c *model.Component, st Status, own map[string]Status) Status {
	if st.Authorization == model.Blocked || len(c.DependsOn) == 0 {
		return st
	}
	var why []string
	for _, dep := range c.DependsOn {
		ds, ok := own[dep]
		if !ok {
			st.Needs = append(st.Needs, dep)
			why = append(why, dep+" is not in the package")
			continue
		}
		if ds.Authorization != model.Approved {
			st.Needs = append(st.Needs, dep)
			why = append(why, dep+" is "+string(ds.Authorization))
		}
	}
	if len(why) == 0 {
		return st
	}
	if st.Authorization == model.Approved {
		st.Authorization = model.Blocked
		st.Reason = "Its approval stands but " + strings.Join(why, " and ") + "; approve it again to restore this component."
	} else if st.Reason == "" {
		st.Reason = "Approve " + strings.Join(st.Needs, " and ") + " first (" + strings.Join(why, ", ") + ")."
	}
	return st
}

// ownStatus is a component's status from its own decisions, ignoring dependencies.
func (t *Trust) ownStatus(pkg *model.Package, c *model.Component, v *view) Status {
	st := Status{Ref: pkg.Ref(c)}
	var digestErr error
	if c.Contract != nil {
		st.Digest, digestErr = c.Contract.Digest()
	}
	j := v.judge(st.Ref, st.Digest)
	reason := blockReason(pkg, c)
	if reason == "" && digestErr != nil {
		reason = "Its contract cannot be serialized (" + digestErr.Error() + "); report this to the vouch maintainers."
	}
	switch {
	case j.inForce != nil:
		st.Decision = j.inForce
	case j.baseline != nil:
		st.Decision = j.baseline
	default:
		st.Decision = j.latest
	}
	switch {
	case reason != "":
		st.Authorization = model.Blocked
		st.Reason = reason
	case j.inForce != nil && j.inForce.Action == ActionApprove:
		st.Authorization = model.Approved
	case j.inForce != nil:
		st.Authorization = model.Revoked
	case j.baseline != nil:
		st.Authorization = model.Changed
		st.Changes, st.ChangedFiles = t.changeSummary(c, *j.baseline)
		st.Reason = "It changed since it was approved: " + strings.Join(st.Changes, ", ") + "."
	case j.latest != nil:
		// Decisions exist, but every approval was withdrawn.
		st.Authorization = model.Revoked
	default:
		st.Authorization = model.Unreviewed
	}
	return st
}

// blockReason says why comp can never be approved as it stands, or "".
func blockReason(pkg *model.Package, c *model.Component) string {
	if pkg.Rejected {
		for _, s := range c.Support {
			if s.Status == model.Supported {
				return "The package is rejected, so nothing in it can be approved, although " + model.ClientName(s.Provider) + " loads this component (see the package's diagnostics)."
			}
		}
		return "The package is rejected: nothing in it is usable."
	}
	for _, d := range pkg.Diagnostics {
		if d.IsError() && (d.Boundary == model.BoundaryPackage || d.Boundary == model.BoundarySource) {
			msg := strings.TrimSuffix(d.Message, ".") + "."
			if strings.HasPrefix(msg, "The package") {
				return msg
			}
			return "The package is invalid: " + msg
		}
	}
	for _, r := range pkg.Members {
		if r.Requirement == "required" && r.Status != "resolved" {
			return "The required member " + r.Ref + " is " + r.Status + "."
		}
	}
	if c.Validity != model.Valid {
		return "The component is " + string(c.Validity) + "."
	}
	if c.Contract == nil {
		switch c.Kind {
		case model.KindMember, model.KindDependency:
			return "Nothing to approve: a reference; approve the component it names."
		case model.KindExtension:
			return "Nothing to approve: inert data that no client runs."
		}
		if len(c.DependsOn) > 0 {
			return "It cannot be approved until " + strings.Join(c.DependsOn, ", ") + " is valid: its contract includes that component's digest."
		}
		// A runnable component without a contract (its file list could not be completed)
		// is blocked for the reason its own errors give, never shown as inert.
		for _, d := range c.Diagnostics {
			if d.IsError() {
				return "It cannot be approved: " + strings.TrimSuffix(d.Message, ".") + "."
			}
		}
		return "Nothing to approve: the component has no contract."
	}
	if len(c.Support) > 0 {
		any := false
		for _, s := range c.Support {
			if s.Status == model.Supported {
				return ""
			}
			if s.Status == model.NotSupported {
				any = true
			}
		}
		if any {
			return "No provider supports it as declared."
		}
	}
	return ""
}

// storedContract is the canonical contract as stored, decoded for diffs.
type storedContract struct {
	Version string                     `json:"contract"`
	Kind    string                     `json:"kind"`
	Fields  map[string]json.RawMessage `json:"fields"`
	Files   []model.File               `json:"files"`
	// filesOnly: rebuilt from a decision's file list, the fields are unknown.
	filesOnly bool
}

// contractFromDecision is what an approval records of its contract when the store does
// not hold it: the files and their digests, no fields (Fields stays nil to say so).
func contractFromDecision(d Decision, kind model.Kind) *storedContract {
	sc := &storedContract{Version: model.ContractVersion, Kind: string(kind), filesOnly: true}
	for _, f := range d.Files {
		sc.Files = append(sc.Files, model.File{Path: f.Path, SHA256: f.SHA256, Size: f.Size, Exec: f.Exec, Link: f.Link})
	}
	return sc
}

// loadContract reads the approved canonical contract from the store.
func (t *Trust) loadContract(digest string) (*storedContract, error) {
	h, ok := strings.CutPrefix(digest, "sha256:")
	if !ok {
		return nil, fmt.Errorf("%q is not a sha256 digest", digest)
	}
	data, err := t.store.get(h)
	if err != nil {
		return nil, err
	}
	var sc storedContract
	if err := json.Unmarshal(data, &sc); err != nil {
		return nil, fmt.Errorf("%w: the stored contract %s does not decode: %v", ErrTamperedStore, digest, err)
	}
	return &sc, nil
}

// compareContracts lists field and file differences between the approved and current contract.
func compareContracts(old *storedContract, cur *model.Contract) ([]FieldDiff, []FileDiff) {
	var fields []FieldDiff
	seen := map[string]bool{}
	if old.Version != model.ContractVersion {
		fields = append(fields, FieldDiff{Key: "(contract version)", Old: old.Version, New: model.ContractVersion})
	}
	if old.Kind != string(cur.Kind) {
		fields = append(fields, FieldDiff{Key: "(kind)", Old: old.Kind, New: string(cur.Kind)})
	}
	for _, f := range cur.Fields {
		seen[f.Key] = true
		nb, err := model.CanonicalJSON(f.Value)
		if err != nil {
			nb = []byte(fmt.Sprintf("<%v>", err))
		}
		ob, ok := old.Fields[f.Key]
		if !ok {
			fields = append(fields, FieldDiff{Key: f.Key, New: string(nb)})
		} else if string(ob) != string(nb) {
			fields = append(fields, FieldDiff{Key: f.Key, Old: string(ob), New: string(nb)})
		}
	}
	var removed []string
	for k := range old.Fields {
		if !seen[k] {
			removed = append(removed, k)
		}
	}
	sort.Strings(removed)
	for _, k := range removed {
		fields = append(fields, FieldDiff{Key: k, Old: string(old.Fields[k])})
	}

	oldFiles := map[string]model.File{}
	for _, f := range old.Files {
		oldFiles[f.Path] = f
	}
	var files []FileDiff
	curPaths := map[string]bool{}
	cf := append([]model.File(nil), cur.Files...)
	sort.Slice(cf, func(i, j int) bool { return cf[i].Path < cf[j].Path })
	for _, f := range cf {
		curPaths[f.Path] = true
		o, ok := oldFiles[f.Path]
		switch {
		case !ok:
			files = append(files, FileDiff{Path: f.Path, Change: "added", NewSize: f.Size, NewSHA256: f.SHA256, NewExec: f.Exec, NewLink: f.Link, FirstDifferentOffset: -1})
		case o.SHA256 != f.SHA256 || o.Exec != f.Exec || o.Link != f.Link:
			files = append(files, FileDiff{Path: f.Path, Change: "modified", OldSize: o.Size, NewSize: f.Size,
				OldSHA256: o.SHA256, NewSHA256: f.SHA256, OldExec: o.Exec, NewExec: f.Exec, OldLink: o.Link, NewLink: f.Link, FirstDifferentOffset: -1})
		}
	}
	var gone []model.File
	for _, f := range old.Files {
		if !curPaths[f.Path] {
			gone = append(gone, f)
		}
	}
	sort.Slice(gone, func(i, j int) bool { return gone[i].Path < gone[j].Path })
	for _, f := range gone {
		files = append(files, FileDiff{Path: f.Path, Change: "removed", OldSize: f.Size, OldSHA256: f.SHA256, OldExec: f.Exec, OldLink: f.Link, FirstDifferentOffset: -1})
	}
	return fields, files
}

// changeSummary is the short list of what changed, for status reports, and the files
// that changed.
func (t *Trust) changeSummary(c *model.Component, approved Decision) ([]string, []string) {
	if c.Contract == nil {
		return []string{"the contract was removed"}, nil
	}
	old, err := t.loadContract(approved.Digest)
	if err != nil {
		if errors.Is(err, ErrTamperedStore) {
			return []string{"contract changed (the approved copy in the store was tampered with)"}, nil
		}
		if len(approved.Files) == 0 {
			return []string{"contract changed (the approved contract is not in the store)"}, nil
		}
		// A teammate's approval: the decision names its files, so changed files can be
		// named even without the bytes.
		old = contractFromDecision(approved, c.Kind)
	}
	fields, files := compareContracts(old, c.Contract)
	if old.filesOnly {
		fields = nil
	}
	var out, changed []string
	for _, f := range fields {
		switch {
		case f.Old == "":
			out = append(out, f.Key+" added")
		case f.New == "":
			out = append(out, f.Key+" removed")
		default:
			out = append(out, f.Key+" changed")
		}
	}
	for _, f := range files {
		changed = append(changed, f.Path)
		switch {
		case f.Change == "modified" && f.OldLink != f.NewLink && f.OldLink != "" && f.NewLink != "":
			out = append(out, f.Path+" retargeted")
		case f.Change == "modified" && f.OldLink != f.NewLink:
			out = append(out, f.Path+" replaced (file or symlink)")
		case f.Change == "modified" && f.OldSHA256 == f.NewSHA256:
			out = append(out, f.Path+" exec bit changed")
		default:
			out = append(out, f.Path+" "+f.Change)
		}
	}
	if len(out) == 0 {
		out = []string{"contract changed"}
	}
	return out, changed
}

// DecideOptions describe one decision.
type DecideOptions struct {
	Note         string
	ReviewerKind string // human | automation; "" means human
	Target       string // instruction activation target
	// Team records the decision in the team ledger (Options.TeamLedger, else the one found
	// near the package) instead of the personal ledger.
	Team bool
	// OnlyDigest limits a revoke to this one digest; "" revokes every digest of the component.
	OnlyDigest string
}

// Grant describes exactly what an approval grants or a revocation withdraws, for the
// confirmation a person reads before saying yes.
type Grant struct {
	Ref      string
	Kind     model.Kind
	Digest   string
	Fields   model.Fields
	Files    []model.File
	Summary  []string
	Requires []Status // a hook's tool status
	// Blocked is non-empty when the action cannot be taken, with the reason.
	Blocked string
	// Affected lists refs that lose their approved dependency (revoking a tool).
	Affected []string
	// Status is the component's status now.
	Status Status
	// NotCovered is what the component depends on that this approval cannot bind.
	NotCovered []model.NotCovered
	// Signature is who signed the package's bytes, shown beside the approval (nil when
	// the format has no signatures). It is evidence; it grants nothing.
	Signature *model.Signature
}

// Explain returns what approving (or revoking) comp would grant (or withdraw).
func (t *Trust) Explain(pkg *model.Package, comp *model.Component, action Action) Grant {
	statuses, err := t.Statuses(pkg)
	return t.explain(pkg, comp, action, statuses, err)
}

// ExplainAll is Explain for many components, rating each package once: what a command
// deciding many refs shows before it asks.
func (t *Trust) ExplainAll(reqs []Request, action Action) []Grant {
	var pkgs []*model.Package
	seen := map[*model.Package]bool{}
	for _, r := range reqs {
		if !seen[r.Pkg] {
			seen[r.Pkg] = true
			pkgs = append(pkgs, r.Pkg)
		}
	}
	rated, errs := t.evaluateAll(pkgs)
	out := make([]Grant, len(reqs))
	for i, r := range reqs {
		out[i] = t.explain(r.Pkg, r.Comp, action, rated[r.Pkg], errs[r.Pkg])
	}
	return out
}

func (t *Trust) explain(pkg *model.Package, comp *model.Component, action Action, statuses map[string]Status, err error) Grant {
	ref := pkg.Ref(comp)
	g := Grant{Ref: ref, Kind: comp.Kind, Summary: comp.Summary, NotCovered: comp.NotCovered, Signature: pkg.Signature}
	if comp.Contract != nil {
		g.Digest = comp.Contract.MustDigest()
		g.Fields = comp.Contract.Fields
		g.Files = comp.Contract.Files
	}
	g.Status = statuses[ref]
	switch action {
	case ActionApprove:
		for _, dep := range comp.DependsOn {
			ds, ok := statuses[dep]
			if !ok {
				ds = Status{Ref: dep, Authorization: model.Blocked, Reason: "It is not in the package."}
			}
			g.Requires = append(g.Requires, ds)
		}
		switch {
		case err != nil:
			g.Blocked = err.Error()
		case g.Status.Authorization == model.Blocked && len(g.Status.Needs) == 0:
			g.Blocked = g.Status.Reason
		case len(g.Status.Needs) > 0:
			g.Blocked = needsReason(g.Status, statuses)
		}
	case ActionRevoke:
		if err != nil {
			g.Blocked = err.Error()
		}
		g.Affected = dependents(pkg, ref)
	}
	return g
}

func needsReason(st Status, statuses map[string]Status) string {
	var parts []string
	for _, n := range st.Needs {
		s, ok := statuses[n]
		if !ok {
			parts = append(parts, n+" is not in the package")
			continue
		}
		parts = append(parts, n+" is "+string(s.Authorization))
	}
	return "It needs its tool approved at its current digest first: " + strings.Join(parts, ", ") + "."
}

// dependents lists the components of pkg whose DependsOn includes ref.
func dependents(pkg *model.Package, ref string) []string {
	var out []string
	for _, c := range pkg.Components {
		for _, d := range c.DependsOn {
			if d == ref {
				out = append(out, pkg.Ref(c))
				break
			}
		}
	}
	return out
}

// readClosure reads every contract file through the package reader and checks it still
// has the size and hash the contract records, so the store only ever holds what was reviewed.
func readClosure(pkg *model.Package, c *model.Contract) ([][]byte, error) {
	out := make([][]byte, 0, len(c.Files))
	for _, f := range c.Files {
		if f.IsLink() {
			// A link has no bytes; what it holds is compared when the reader can say.
			if lr, ok := pkg.Reader.(model.LinkReader); ok {
				target, err := lr.ReadLink(f.Path)
				if err != nil {
					return nil, fmt.Errorf("cannot read the symlink %s: %w", f.Path, err)
				}
				if target != f.Link {
					return nil, fmt.Errorf("the symlink %s changed on disk since the package was loaded (it now points to %s, not %s); review it again", f.Path, target, f.Link)
				}
			}
			continue
		}
		if pkg.Reader == nil {
			return nil, errors.New("the package's files cannot be read back, so its bytes cannot be stored")
		}
		data, err := pkg.Reader.ReadFile(f.Path)
		if err != nil {
			return nil, fmt.Errorf("cannot read %s: %w", f.Path, err)
		}
		sum := sha256.Sum256(data)
		if hex.EncodeToString(sum[:]) != f.SHA256 || int64(len(data)) != f.Size {
			return nil, fmt.Errorf("%s changed on disk since the package was loaded; review it again", f.Path)
		}
		out = append(out, data)
	}
	return out, nil
}

// target returns the ledger file a decision is written to and its origin label.
func (t *Trust) target(pkg *model.Package, o DecideOptions) (string, error) {
	if !o.Team {
		return t.PersonalLedger(), nil
	}
	if p := t.TeamLedgerFor(pkg); p != "" {
		return p, nil
	}
	return "", errors.New("no team ledger was found (.vouch/ledger.toml in the source's repository); name one with --ledger FILE")
}

func (t *Trust) newDecision(pkg *model.Package, ref string, a Action, digest string, o DecideOptions) (Decision, error) {
	kind := o.ReviewerKind
	if kind == "" {
		kind = ReviewerHuman
	}
	if kind != ReviewerHuman && kind != ReviewerAutomation {
		return Decision{}, fmt.Errorf("reviewer kind %q is not human or automation", kind)
	}
	return Decision{
		Action: a, Package: pkg.Name, Format: string(pkg.Format), Component: ref, Digest: digest,
		Reviewer: t.opts.Reviewer, ReviewerKind: kind, At: t.opts.Now().UTC().Truncate(time.Second),
		Note: o.Note, Target: o.Target,
	}, nil
}

// Check is the dispatch-time gate. The caller loads pkg from disk just before, so the
// contract's file digests are those of the bytes on disk now (every loader hashes the
// bytes it read); Check returns the status: Authorization is Approved only when the
// decision in force approves exactly that digest (and, for a hook, its tool is approved
// too). Reading the closure a second time here would only move the moment of the answer
// by the length of a load, which a file can change after as well as before; it is not
// done, so the gate hashes each file once.
//
// Only the component and what it depends on are rated, with the same rules as Statuses
// (the last component of a ref rates it, as in Statuses' map, and each one of that ref
// lowers it by its dependencies), not every component of the package.
func (t *Trust) Check(pkg *model.Package, ref string) (Status, error) {
	var comps []*model.Component
	last := make(map[string]*model.Component, len(pkg.Components))
	for _, c := range pkg.Components {
		r := pkg.Ref(c)
		last[r] = c
		if r == ref {
			comps = append(comps, c)
		}
	}
	if len(comps) == 0 {
		return Status{Ref: ref}, fmt.Errorf("%s is not a component of package %s", ref, pkg.Name)
	}
	v, err := t.view(pkg)
	if err != nil {
		return t.statusesFrom(pkg, v, err)[ref], err
	}
	own := map[string]Status{ref: t.ownStatus(pkg, last[ref], v)}
	for _, c := range comps {
		for _, dep := range c.DependsOn {
			if dc, ok := last[dep]; ok {
				if _, done := own[dep]; !done {
					own[dep] = t.ownStatus(pkg, dc, v)
				}
			}
		}
	}
	st := own[ref]
	for _, c := range comps {
		st = withDependencies(c, st, own)
	}
	return st, nil
}

// Decisions returns every decision of the personal ledger and the team ledger
// (Options.TeamLedger, else the one found above the working directory), newest first.
func (t *Trust) Decisions() ([]Decision, error) {
	var all []Decision
	p, _, err := readLedger(t.PersonalLedger(), "personal")
	if err != nil {
		return nil, err
	}
	for i := len(p.decisions) - 1; i >= 0; i-- {
		all = append(all, p.decisions[i])
	}
	team := t.opts.TeamLedger
	if team == "" {
		if wd, err := os.Getwd(); err == nil {
			if p := FindTeamLedger(wd); p != "" && t.IsTrustedTeamLedger(p) {
				team = p
			}
		}
	}
	if team != "" {
		l, data, err := readLedger(team, "team:"+team)
		if err != nil {
			return nil, err
		}
		ds := l.decisions
		// A discovered ledger lists only what was trusted: decisions appended since are
		// pending, and instruction activations are computed from this list too.
		if team != t.opts.TeamLedger {
			pin, _ := t.pinFor(team)
			pre, ok := pinnedPrefix(team, data, pin)
			if !ok || len(pre) > len(ds) || !reflect.DeepEqual(pre, stripLedger(ds[:len(pre)])) {
				pre = nil
			}
			ds = ds[:len(pre)]
		}
		for i := len(ds) - 1; i >= 0; i-- {
			all = append(all, ds[i])
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].At.After(all[j].At) })
	return all, nil
}

// stripLedger returns ds without their (unstored) Ledger labels, to compare with a parse.
func stripLedger(ds []Decision) []Decision {
	out := make([]Decision, len(ds))
	for i, d := range ds {
		d.Ledger = ""
		out[i] = d
	}
	return out
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	s = strings.TrimSuffix(s, ".")
	if len(s) > 1 && s[1] >= 'a' && s[1] <= 'z' {
		return strings.ToLower(s[:1]) + s[1:]
	}
	return s
}
