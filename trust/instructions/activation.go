package instructions

import (
	"errors"
	"fmt"
	"sort"
	"time"

	"vouch/model"
	"vouch/trust"
)

// Activation is one instruction activation in force: the latest decision for an
// instruction ref and a target file approves it.
type Activation struct {
	Decision trust.Decision
	Ref      string // component ref, <package>#instruction:<id>
	Target   string // absolute path, as recorded
}

// Activations returns the activations in force, given decisions newest first (as
// trust.Decisions returns them). Decisions without a target (a plain approve or revoke
// of the instruction) neither activate nor deactivate a block.
func Activations(decisions []trust.Decision) []Activation {
	seen := map[[2]string]bool{}
	var out []Activation
	for _, d := range decisions {
		if d.Target == "" {
			continue
		}
		k := [2]string{d.Component, d.Target}
		if seen[k] {
			continue
		}
		seen[k] = true
		if d.Action == trust.ActionApprove {
			out = append(out, Activation{Decision: d, Ref: d.Component, Target: d.Target})
		}
	}
	return out
}

// LastDecision returns the latest decision for ref at targetPath (decisions newest
// first), or nil.
func LastDecision(decisions []trust.Decision, ref, targetPath string) *trust.Decision {
	for i := range decisions {
		if d := decisions[i]; d.Component == ref && d.Target == targetPath {
			return &decisions[i]
		}
	}
	return nil
}

// LastWritten returns the text vouch last wrote for ref into targetPath: the stored body
// of the approval in force there. It returns "" with a nil error when there is none (never
// applied, or removed since), and "" with an error when the store lost or altered it;
// either way PreviewApply then treats any differing block as edited by hand.
func LastWritten(home string, decisions []trust.Decision, ref, targetPath string) (string, error) {
	d := LastDecision(decisions, ref, targetPath)
	if d == nil || d.Action != trust.ActionApprove {
		return "", nil
	}
	return StoredBody(home, d.Digest)
}

// States of an activation's block, as list reports them.
const (
	StatePresent     = "present"      // the file holds the block unchanged
	StateEdited      = "edited"       // the block differs from what vouch wrote
	StateMissing     = "missing"      // the file no longer holds the block
	StateDamaged     = "damaged"      // the file's markers are broken
	StateFileMissing = "file-missing" // the target file does not exist
	StateUnreadable  = "unreadable"   // the target cannot be read (not a file, too large...)
)

// CheckActivation reports whether the activation's target still holds its block as
// vouch wrote it, with a sentence explaining the state.
func CheckActivation(home string, a Activation) (state, detail string) {
	data, exists, blocks, problems, err := ReadTarget(Target{Spec: a.Target, Path: a.Target})
	switch {
	case err != nil:
		return StateUnreadable, err.Error()
	case !exists:
		return StateFileMissing, "The target file does not exist."
	}
	id := EncodeID(a.Ref)
	for _, p := range problems {
		if p.Manager == Manager && p.ID == id {
			return StateDamaged, p.Message
		}
	}
	for _, b := range blocks {
		if b.Manager != Manager || b.ID != id {
			continue
		}
		want, err := StoredBody(home, a.Decision.Digest)
		if err != nil {
			return StateEdited, "The approved text is not in the store, so the block cannot be compared: " + err.Error()
		}
		if SameBody(string(b.Body(data)), want) {
			return StatePresent, fmt.Sprintf("Unchanged, lines %d-%d.", b.StartLine, b.EndLine)
		}
		return StateEdited, fmt.Sprintf("Lines %d-%d differ from what vouch wrote.", b.StartLine, b.EndLine)
	}
	if len(problems) > 0 {
		return StateDamaged, problems[0].Message
	}
	return StateMissing, "The file no longer holds the block."
}

// ErrNotRecorded is wrapped by Record's error when the file was written but the ledger
// refused the decision; the message says whether the file could be restored.
var ErrNotRecorded = errors.New("the decision could not be recorded")

// Record writes a previewed change and records the decision that goes with it: approve
// with the target for an apply, revoke with the target for a removal. If the ledger
// refuses, the file is put back, because the file and the ledger must agree. The CLI and
// the console both activate and remove instructions through it.
//
// The destination's directory lock is held from the file check to the ledger append, so
// two writers of one target are serialized as whole operations: the second finds the file
// changed since its preview and refuses, and no block is lost. For an apply, an Intent
// is recorded before the write and cleared after the append (see intent.go), so a crash
// anywhere leaves no block, a recorded block, or a block FindUnrecorded reports.
func Record(tr *trust.Trust, pkg *model.Package, c *model.Component, p *Preview, overwrite bool, reviewerKind string) (trust.Decision, error) {
	if p == nil {
		return trust.Decision{}, errors.New("no preview to record")
	}
	if err := CheckTarget(p.Target, pkg); err != nil {
		return trust.Decision{}, err
	}
	ref, home := pkg.Ref(c), tr.Home()
	decide := func() (trust.Decision, error) {
		opts := trust.DecideOptions{ReviewerKind: reviewerKind, Target: p.Target.Path}
		if p.Action == ActionRemove {
			opts.Note = "instruction removed from " + p.Target.Path
			return tr.Revoke(pkg, c, trust.DigestOf(c), opts)
		}
		opts.Note = "instruction applied to " + p.Target.Path
		return tr.Approve(pkg, c, trust.DigestOf(c), opts)
	}
	if p.Conflict != nil && !overwrite {
		return trust.Decision{}, fmt.Errorf("%w: %s block %s; confirm overwriting to replace the edited text", ErrConflict, p.Target.Path, p.ID)
	}
	if p.NoChange {
		// Nothing to write: the ledger catches up with the file (an interrupted apply is
		// recorded now, or a removal the file already reflects).
		if err := Commit(p, overwrite); err != nil {
			return trust.Decision{}, err
		}
		d, err := decide()
		if err != nil {
			return d, fmt.Errorf("%w (%v); the file was not changed", ErrNotRecorded, err)
		}
		return d, ClearIntent(home, ref, p.Target.Path)
	}
	if p.Target.Linked() && p.Confirmed != p.Target.Resolved {
		return trust.Decision{}, fmt.Errorf("%w: %s points to %s; nothing was written", ErrLinkNotConfirmed, p.Target.Path, p.Target.Resolved)
	}
	dd, err := openDest(p.Target, !p.Exists)
	if err != nil {
		return trust.Decision{}, err
	}
	defer dd.close()
	if p.Action == ActionApply {
		blocks, _ := Scan(p.After)
		b, ok := findBlock(blocks, p.ID)
		if !ok {
			return trust.Decision{}, fmt.Errorf("the planned change to %s holds no block %s", p.Target.Path, p.ID)
		}
		in := Intent{Ref: ref, Target: p.Target.Path, ID: p.ID, Digest: trust.DigestOf(c), Body: string(b.Body(p.After)), At: time.Now().UTC()}
		if err := writeIntent(home, in); err != nil {
			return trust.Decision{}, err
		}
	}
	if err := commitTo(dd, p); err != nil {
		ClearIntent(home, ref, p.Target.Path)
		return trust.Decision{}, err
	}
	afterWrite()
	d, err := decide()
	if err != nil {
		if rerr := revertTo(dd, p); rerr != nil {
			// The intent stays: the block is in the file unrecorded, and list says so.
			return d, fmt.Errorf("%w (%v); the file was written and could not be restored: %v", ErrNotRecorded, err, rerr)
		}
		ClearIntent(home, ref, p.Target.Path)
		return d, fmt.Errorf("%w (%v); the file was restored", ErrNotRecorded, err)
	}
	// Recorded: should the delete fail, a leftover intent of a recorded decision reports
	// nothing.
	_ = ClearIntent(home, ref, p.Target.Path)
	return d, nil
}

// afterWrite is a test hook between the target write and the ledger append, where a
// crash used to leave a block nothing reported.
var afterWrite = func() {}

// InForce is one instruction block in force in a target file, as `vouch instructions
// list` reports it: an activation the ledger records, or a block an interrupted apply
// wrote and never recorded (Ledger "none", State StateUnrecorded), with what the file
// holds now (State, Detail: StateEdited when the block was edited by hand).
type InForce struct {
	Ref, Target, Digest string
	At                  time.Time
	Ledger              string
	State, Detail       string
}

// ListInForce lists every block in force, sorted by target then ref. It reads each
// target file and the store: callers run it off any interactive loop.
func ListInForce(home string, decisions []trust.Decision) []InForce {
	var out []InForce
	for _, act := range Activations(decisions) {
		d := act.Decision
		f := InForce{Ref: act.Ref, Target: act.Target, Digest: d.Digest, At: d.At, Ledger: d.Ledger}
		f.State, f.Detail = CheckActivation(home, act)
		out = append(out, f)
	}
	// Blocks an interrupted apply wrote and never recorded are in force too.
	unrecorded, _ := FindUnrecorded(home, decisions)
	for _, u := range unrecorded {
		f := InForce{Ref: u.Ref, Target: u.Target, Digest: u.Digest, At: u.At, Ledger: "none",
			State: StateUnrecorded, Detail: u.Detail()}
		replaced := false
		for i := range out {
			if out[i].Ref == u.Ref && out[i].Target == u.Target {
				out[i], replaced = f, true
			}
		}
		if !replaced {
			out = append(out, f)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Target != out[j].Target {
			return out[i].Target < out[j].Target
		}
		return out[i].Ref < out[j].Ref
	})
	return out
}
