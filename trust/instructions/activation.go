package instructions

import (
	"errors"
	"fmt"

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
func Record(tr *trust.Trust, pkg *model.Package, c *model.Component, p *Preview, overwrite bool, reviewerKind string) (trust.Decision, error) {
	if p != nil {
		if err := CheckTarget(p.Target, pkg); err != nil {
			return trust.Decision{}, err
		}
	}
	if err := Commit(p, overwrite); err != nil {
		return trust.Decision{}, err
	}
	opts := trust.DecideOptions{ReviewerKind: reviewerKind, Target: p.Target.Path}
	var d trust.Decision
	var err error
	if p.Action == ActionRemove {
		opts.Note = "instruction removed from " + p.Target.Path
		d, err = tr.Revoke(pkg, c, trust.DigestOf(c), opts)
	} else {
		opts.Note = "instruction applied to " + p.Target.Path
		d, err = tr.Approve(pkg, c, trust.DigestOf(c), opts)
	}
	if err == nil {
		return d, nil
	}
	if rerr := Revert(p); rerr != nil {
		return d, fmt.Errorf("%w (%v); the file was written and could not be restored: %v", ErrNotRecorded, err, rerr)
	}
	return d, fmt.Errorf("%w (%v); the file was restored", ErrNotRecorded, err)
}
