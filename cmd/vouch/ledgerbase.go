package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"vouch/internal/atomicfile"

	"vouch/model"
	"vouch/report"
	"vouch/trust"
)

// maxBaseLedger bounds the base ledger read from a file or from git, as trust bounds
// the ledgers it reads itself.
const maxBaseLedger = 32 << 20

// gateLedger is the team ledger the gate rates against when the change under review may
// have edited it: the decisions of the base (a git revision or a file), the revokes the
// change added (a withdrawal only takes away), and the approvals the change added only
// with --allow-new-approvals. A pull request that edits a hook and appends its own
// approval would otherwise approve itself.
type gateLedger struct {
	file    string           // the ledger file to rate against; "" means the options' own
	head    string           // the team ledger as the change has it
	base    string           // what --ledger-base named, for messages
	added   []trust.Decision // approvals the change added
	refused []trust.Decision // approvals --refuse-automation left out
	cleanup func()
}

// newGateLedger builds the ledger to rate against from --ledger-base and
// --refuse-automation; with neither it changes nothing.
func (a *app) newGateLedger(opts *statusOptions) (*gateLedger, error) {
	g := &gateLedger{cleanup: func() {}}
	if opts.ledgerBase == "" && !opts.refuseAutomation {
		if opts.allowNewApprovals {
			return nil, a.fail(2, "usage", "--allow-new-approvals needs --ledger-base: without a base every approval in the ledger already counts.")
		}
		return g, nil
	}
	head, err := headLedgerPath(opts.ledger)
	if err != nil {
		return nil, a.fail(2, "usage", err.Error())
	}
	g.head = head
	headDs, err := readLedgerFile(head)
	if err != nil {
		return nil, a.fail(1, "ledger", err.Error())
	}
	use := headDs
	if opts.ledgerBase != "" {
		g.base = opts.ledgerBase
		data, err := readBaseLedger(opts.ledgerBase, head)
		if err != nil {
			return nil, a.fail(2, "ledger-base", err.Error())
		}
		baseDs, err := trust.ParseLedger("the base ledger "+opts.ledgerBase, data)
		if err != nil {
			return nil, a.fail(1, "ledger", err.Error())
		}
		use = baseDs
		for _, d := range trust.AddedDecisions(baseDs, headDs) {
			switch {
			case d.Action == trust.ActionRevoke:
				use = append(use, d) // taking an approval away needs no review to count
			case opts.allowNewApprovals:
				use = append(use, d)
				g.added = append(g.added, d)
			default:
				g.added = append(g.added, d)
			}
		}
	}
	if opts.refuseAutomation {
		kept := use[:0:0]
		for _, d := range use {
			if d.Action == trust.ActionApprove && d.ReviewerKind == trust.ReviewerAutomation {
				g.refused = append(g.refused, d)
				continue
			}
			kept = append(kept, d)
		}
		use = kept
	}
	data, err := trust.EncodeLedger(use)
	if err != nil {
		return nil, a.fail(1, "ledger", err.Error())
	}
	dir, err := os.MkdirTemp("", "vouch-gate-ledger-")
	if err != nil {
		return nil, a.fail(1, "write", fmt.Sprintf("cannot create a temporary directory for the gate's ledger: %v", err))
	}
	g.cleanup = func() { os.RemoveAll(dir) }
	g.file = filepath.Join(dir, "ledger.toml")
	if err := os.WriteFile(g.file, data, 0o600); err != nil {
		g.cleanup()
		return nil, a.fail(1, "write", fmt.Sprintf("cannot write %s: %v", g.file, err))
	}
	return g, nil
}

// headLedgerPath is the team ledger the change has: --ledger, else .vouch/ledger.toml at
// the top of the git work tree holding the current directory.
func headLedgerPath(ledger string) (string, error) {
	if ledger != "" {
		return filepath.Abs(ledger)
	}
	top, err := gitOutput("", "rev-parse", "--show-toplevel")
	if err != nil {
		return "", errors.New("--ledger-base and --refuse-automation need the team ledger: give --ledger FILE, or run inside the git work tree that holds .vouch/ledger.toml")
	}
	return filepath.Join(strings.TrimSpace(top), ".vouch", "ledger.toml"), nil
}

// readLedgerFile reads a ledger file as the gate sees it; a missing file is empty.
func readLedgerFile(path string) ([]trust.Decision, error) {
	data, err := atomicfile.ReadRegular(path, maxBaseLedger)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return trust.ParseLedger(path, data)
}

// readBaseLedger is the base ledger's bytes: the file base names when one exists, else the
// head ledger's path as it is in the git revision base (empty when the ledger did not
// exist there yet).
func readBaseLedger(base, head string) ([]byte, error) {
	if st, err := os.Stat(base); err == nil && !st.IsDir() {
		return atomicfile.ReadRegular(base, maxBaseLedger)
	}
	dir := filepath.Dir(head)
	for { // the ledger's folder may not exist yet: git runs from the nearest one that does
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			break
		}
		if parent := filepath.Dir(dir); parent != dir {
			dir = parent
		} else {
			break
		}
	}
	top, err := gitOutput(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("--ledger-base %q is not a file, and %s is not in a git work tree to read a revision from", base, head)
	}
	top = strings.TrimSpace(top)
	rel, err := relInside(top, head)
	if err != nil {
		return nil, err
	}
	if _, err := gitOutput(top, "rev-parse", "--verify", "--quiet", "--end-of-options", base+"^{commit}"); err != nil {
		return nil, fmt.Errorf("--ledger-base %q is neither a file nor a git revision of %s (in a shallow clone, fetch the base branch first)", base, top)
	}
	obj := base + ":" + filepath.ToSlash(rel)
	size, err := gitOutput(top, "cat-file", "-s", obj)
	if err != nil {
		return nil, nil // the ledger does not exist in the base: nothing was approved there
	}
	if n, err := strconv.ParseInt(strings.TrimSpace(size), 10, 64); err != nil || n > maxBaseLedger {
		return nil, fmt.Errorf("the base ledger %s is larger than %d MiB", obj, maxBaseLedger>>20)
	}
	out, err := gitOutput(top, "cat-file", "blob", obj)
	if err != nil {
		return nil, fmt.Errorf("cannot read the base ledger %s: %v", obj, err)
	}
	return []byte(out), nil
}

// relInside is p relative to top, both with symlinks resolved; an error when p lies
// outside top (a ledger git cannot hold).
func relInside(top, p string) (string, error) {
	rt, err := filepath.EvalSymlinks(top)
	if err != nil {
		rt = top
	}
	rp := p
	if r, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		rp = filepath.Join(r, filepath.Base(p))
	}
	rel, err := filepath.Rel(rt, rp)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("the team ledger %s lies outside the git work tree %s, so it has no base revision; give --ledger-base a file", p, top)
	}
	return rel, nil
}

// gitOutput runs git in dir (the current directory when ""), its stdout or an error
// holding its stderr.
func gitOutput(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return out.String(), nil
}

// label rewrites what the statuses say about the gate's ledger: decisions read from the
// temporary file are the team ledger's, as of the base; a component whose only approval
// the change added, or automation made under --refuse-automation, says so.
func (g *gateLedger) label(st report.Statuses) {
	if g.file == "" {
		return
	}
	origin := "team:" + g.head
	if g.base != "" {
		origin += " (as of " + g.base + ")"
	}
	for p, own := range st {
		for ref, s := range own {
			if s.Decision != nil && s.Decision.Ledger == "team:"+g.file {
				d := *s.Decision
				d.Ledger = origin
				s.Decision = &d
			}
			if s.Authorization != model.Approved && s.Digest != "" {
				for _, d := range g.added {
					if d.Package == p.Name && d.Component == ref && d.Digest == s.Digest && d.Action == trust.ActionApprove {
						s.Reason = fmt.Sprintf("Approved in this change, needs review of the ledger diff: %s approved it at %s, and only decisions on %s count.", decider(d), d.At.UTC().Format("2006-01-02T15:04:05Z"), g.base)
					}
				}
				for _, d := range g.refused {
					if d.Package == p.Name && d.Component == ref && d.Digest == s.Digest {
						s.Reason = fmt.Sprintf("Its approval was recorded by automation (%s), which --refuse-automation refuses.", decider(d))
					}
				}
			}
			own[ref] = s
		}
	}
}

// decider names who recorded a decision and how.
func decider(d trust.Decision) string {
	return fmt.Sprintf("%s (%s)", d.Reviewer, d.ReviewerKind)
}

// failures are the gate failures of the new decisions themselves: each approval the
// change added, named in full, so the ledger diff can be reviewed by what it holds.
func (g *gateLedger) failures(allowed bool) []gateFailure {
	if allowed {
		return nil
	}
	var out []gateFailure
	for _, d := range g.added {
		out = append(out, gateFailure{Reason: fmt.Sprintf("Approved in this change, needs review of the ledger diff: approve %s %s by %s at %s in %s.", d.Component, d.Digest, decider(d), d.At.UTC().Format("2006-01-02T15:04:05Z"), g.head)})
	}
	return out
}
