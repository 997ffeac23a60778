// Package trust records and evaluates explicit decisions about package components. An
// approval binds to the digest of a component's canonical contract; the approved bytes
// are kept in a content-addressed store so later changes can be diffed. Selecting or
// validating a package never authorizes anything: only a decision recorded here does.
package trust

import (
	"errors"
	"time"

	"vouch/model"
)

// Action is what a decision does.
type Action string

const (
	ActionApprove Action = "approve"
	ActionRevoke  Action = "revoke"
)

// Decision is one [[decision]] entry of a ledger.
type Decision struct {
	Action       Action    `toml:"action" json:"action"`
	Package      string    `toml:"package" json:"package"`
	Component    string    `toml:"component" json:"component"` // the component ref
	Digest       string    `toml:"digest" json:"digest"`
	Previous     string    `toml:"previous,omitempty" json:"previous,omitempty"`
	Reviewer     string    `toml:"reviewer" json:"reviewer"`
	ReviewerKind string    `toml:"reviewer_kind" json:"reviewer_kind"` // human | automation
	At           time.Time `toml:"at" json:"at"`
	Note         string    `toml:"note,omitempty" json:"note,omitempty"`
	Target       string    `toml:"target,omitempty" json:"target,omitempty"` // instruction activations
	// Ledger is where the decision was read from ("personal" or "team:<path>"); not stored.
	Ledger string `toml:"-" json:"ledger"`
}

// Status is the third answer for one component, with what explains it.
type Status struct {
	Ref           string              `json:"ref"`
	Authorization model.Authorization `json:"authorization"`
	Digest        string              `json:"digest"`             // current contract digest, "" when none
	Decision      *Decision           `json:"decision,omitempty"` // the decision in force
	Reason        string              `json:"reason,omitempty"`   // why blocked / changed, one sentence
	Changes       []string            `json:"changes,omitempty"`  // short summary for changed
}

// Options open a Trust.
type Options struct {
	Home       string // resolved home directory (see ResolveHome)
	TeamLedger string // explicit team ledger file; "" means look for .vouch/ledger.toml near the source
	Reviewer   string // default $USER
	Now        func() time.Time
}

// Trust is an opened personal ledger (+ optional team ledger) and content store.
type Trust struct {
	opts Options
}

// ErrDamagedLedger is wrapped by errors about a ledger that does not parse.
var ErrDamagedLedger = errors.New("damaged ledger")

// ResolveHome returns the home directory: flag, else $VOUCH_HOME, else $XDG_DATA_HOME/vouch,
// else ~/.local/share/vouch.
func ResolveHome(flag string) (string, error) { return flag, nil }

// Open opens the ledgers (creating nothing until the first write).
func Open(opts Options) (*Trust, error) { return &Trust{opts: opts}, nil }

// Evaluate returns the status of every component of pkg, by ref.
func (t *Trust) Evaluate(pkg *model.Package) map[string]Status { return map[string]Status{} }

// DecideOptions describe one decision.
type DecideOptions struct {
	Note         string
	ReviewerKind string // human | automation
	Target       string // instruction activation target
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
}

// Explain returns what approving (or revoking) comp would grant (or withdraw).
func (t *Trust) Explain(pkg *model.Package, comp *model.Component, action Action) Grant {
	return Grant{}
}

// Approve records an approval of comp at its current digest and stores its bytes.
func (t *Trust) Approve(pkg *model.Package, comp *model.Component, o DecideOptions) (Decision, error) {
	return Decision{}, errors.New("not implemented")
}

// Revoke records a revocation of comp.
func (t *Trust) Revoke(pkg *model.Package, comp *model.Component, o DecideOptions) (Decision, error) {
	return Decision{}, errors.New("not implemented")
}

// FileDiff is the difference of one closure file between approval and now.
type FileDiff struct {
	Path                 string
	Change               string // added, removed, modified
	Unified              string // unified line diff for text files
	Binary               bool
	OldSize, NewSize     int64
	OldSHA256, NewSHA256 string
	FirstDifferentOffset int64
}

// FieldDiff is the difference of one contract field.
type FieldDiff struct {
	Key      string
	Old, New string // canonical JSON of the values, "" when absent
}

// Diff is what changed since approval.
type Diff struct {
	Ref            string
	ApprovedDigest string
	CurrentDigest  string
	Fields         []FieldDiff
	Files          []FileDiff
}

// Diff computes what changed in comp since its approval (nil Diff when it has none).
func (t *Trust) Diff(pkg *model.Package, comp *model.Component) (*Diff, error) {
	return nil, errors.New("not implemented")
}

// Decisions returns every decision of every ledger read, newest first.
func (t *Trust) Decisions() ([]Decision, error) { return nil, nil }
