package main

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"vouch/model"
	"vouch/trust"
	"vouch/trust/instructions"
	"vouch/ui/display"
)

func newInstructionsCommand(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use: "instructions",
		Example: `  vouch instructions preview --target claude ./source 'design-review#instruction:design-context'
  vouch instructions list`,
		Short: "Preview, apply and remove standing instructions in AGENTS.md / CLAUDE.md",
		Long: `Standing instructions are text a package asks an agent to read in every session. vouch writes
one into a target file inside its own block,

  <!-- vouch:start <package>#instruction:<id> -->
  ...instruction text...
  <!-- vouch:end <package>#instruction:<id> -->

and never touches a byte outside that block: removing it returns the file byte for byte. Blocks
of other managers (<!-- dalo:start ... -->) are shown and left alone.

--target is a file path, codex ($CODEX_HOME/AGENTS.md, default ~/.codex/AGENTS.md) or claude
($CLAUDE_CONFIG_DIR/CLAUDE.md, default ~/.claude/CLAUDE.md). Each target is written separately;
vouch never copies text from one target to another. Applying records an approval with the target
in the ledger; removing records a revocation. Recommended instructions stay inactive until
applied here: approving their package never activates them.`,
	}
	cmd.AddCommand(newInstrPreviewCommand(a), newInstrApplyCommand(a),
		newInstrRemoveCommand(a), newInstrListCommand(a))
	return cmd
}

// instrOptions are the flags and arguments of instructions preview, apply or remove: one
// command each, one value each, the same fields because the three run the same code
// (preview binds no --yes, --follow-symlink or --overwrite, so those stay false).
type instrOptions struct {
	app       *app
	action    string // preview, apply or remove: which command this is
	source    string // SOURCE
	ref       string // REF
	target    string // --target: a path, codex or claude
	yes       bool   // --yes
	overwrite bool   // --overwrite
	follow    bool   // --follow-symlink: writing to the file a linked target resolves to is confirmed
	sourceID  string // --source-id
	json      bool   // --json
}

// newInstrCommand is the part of preview, apply and remove that is the same: the
// arguments and the flags all three take.
func newInstrCommand(opts *instrOptions, use, short, long string) *cobra.Command {
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Long:  long,
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.source, opts.ref = args[0], args[1]
			return runInstructions(opts)
		},
	}
	cmd.Flags().StringVar(&opts.target, "target", "", "instruction file: a path, codex or claude (required)")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the preview and what was done as JSON (apply and remove need --yes with it)")
	cmd.Flags().StringVar(&opts.sourceID, "source-id", "validation", "source identity used in Dalo references")
	_ = cmd.MarkFlagRequired("target")
	return cmd
}

func newInstrPreviewCommand(a *app) *cobra.Command {
	opts := &instrOptions{app: a, action: "preview"}
	cmd := newInstrCommand(opts, "preview [--json] --target FILE|codex|claude SOURCE REF",
		"Show the diff applying an instruction would make, without writing anything",
		`Preview prints where the instruction would apply and a unified diff of the whole target file,
before and after. Nothing is written. Exit status: 0 the change can be applied; 1 it would be
refused (damaged markers, a block edited by hand); 2 usage error. With --json, preview, apply
and remove print one JSON document (schemas/vouch/commands-v1.schema.json): the preview and,
for apply and remove, whether the file was written and the decision recorded.`)
	cmd.Example = `  vouch instructions preview --target codex examples/dalo/design-review 'design-review#instruction:design-context'
  vouch instructions preview --json --target ./AGENTS.md ./source 'design-review#instruction:design-context'`
	return cmd
}

func newInstrApplyCommand(a *app) *cobra.Command {
	opts := &instrOptions{app: a, action: "apply"}
	cmd := newInstrCommand(opts, "apply --target FILE|codex|claude [--yes] [--json] [--overwrite] SOURCE REF",
		"Write an instruction into its vouch block in the target file and record the activation",
		`Apply shows the preview, asks for y at a terminal, then writes the block (atomically, keeping the
file's mode, line breaks and BOM) and records an approval with the target in the ledger. It refuses
if the file changed since the preview, if its markers are damaged, or if the block was edited by
hand since vouch wrote it (unless --overwrite). Without a terminal, --yes is required.

A target that is a symbolic link (or lies in a linked directory) is shown with the file it resolves
to, and vouch writes that file only when you confirm it: at a terminal the question names it;
without one, pass --follow-symlink with --yes. The link itself is kept. A target inside the
package under review is refused.`)
	cmd.Flags().BoolVar(&opts.yes, "yes", false, "apply without asking (required without a terminal)")
	cmd.Flags().BoolVar(&opts.follow, "follow-symlink", false, "write to the file a symbolic-link target resolves to (required with --yes for such a target)")
	cmd.Flags().BoolVar(&opts.overwrite, "overwrite", false, "replace a block that was edited by hand")
	cmd.Example = `  vouch instructions preview --target codex ./source 'design-review#instruction:design-context'
  vouch instructions apply --target ./AGENTS.md --yes ./source 'design-review#instruction:design-context'`
	return cmd
}

func newInstrRemoveCommand(a *app) *cobra.Command {
	opts := &instrOptions{app: a, action: "remove"}
	cmd := newInstrCommand(opts, "remove --target FILE|codex|claude [--yes] [--json] SOURCE REF",
		"Remove an instruction's vouch block from the target file and record the revocation",
		`Remove shows the diff, asks for y at a terminal, deletes the block and the line breaks vouch
added with it, and records a revocation with the target in the ledger. A block edited by hand is
only removed with --overwrite. Without a terminal, --yes is required. A symbolic-link target is
handled as for apply (--follow-symlink).`)
	cmd.Flags().BoolVar(&opts.yes, "yes", false, "remove without asking (required without a terminal)")
	cmd.Flags().BoolVar(&opts.follow, "follow-symlink", false, "write to the file a symbolic-link target resolves to (required with --yes for such a target)")
	cmd.Flags().BoolVar(&opts.overwrite, "overwrite", false, "remove a block even though it was edited by hand")
	cmd.Example = `  vouch instructions remove --target ./AGENTS.md ./source 'design-review#instruction:design-context'
  vouch instructions remove --target codex --yes ./source 'design-review#instruction:design-context'`
	return cmd
}

// instrContext is what preview, apply and remove share.
type instrContext struct {
	target      instructions.Target
	pkg         *model.Package
	comp        *model.Component
	ref, id     string
	body        string
	tr          *trust.Trust
	home        string
	lastWritten string
	active      *trust.Decision // the latest decision for (ref, target), nil when none
	unrecorded  bool            // the target holds a block of ref that an interrupted apply never recorded
}

func runInstructions(opts *instrOptions) error {
	a, action := opts.app, opts.action
	if opts.json {
		a.jsonErrors = true
		if action != "preview" && !opts.yes {
			return a.fail(2, "needs-yes", "--json prints what was written for a program to read, so vouch does not ask; add --yes after reading the preview.")
		}
	}
	// A person at the terminal may still agree to overwrite a hand-edited block.
	overwrite := opts.overwrite
	ic, err := instrPrepare(opts)
	if err != nil {
		return err
	}
	var p *instructions.Preview
	if action == "remove" {
		last := ic.lastWritten
		if last == "" {
			// No record of what vouch wrote here: the package's current text is the best
			// baseline; anything else in the block counts as a hand edit.
			last = ic.body
		}
		p, err = instructions.PreviewRemove(ic.target, ic.id, last)
	} else {
		p, err = instructions.PreviewApply(ic.target, ic.id, ic.body, ic.lastWritten)
	}
	if err != nil {
		return a.instrError(err)
	}
	doc := newInstrDoc(action, ic, p)
	printDoc := func() {
		if opts.json {
			writeJSON(a.stdout, doc)
		}
	}
	if !opts.json {
		a.printPreview(ic, p)
	}
	if action == "preview" {
		printDoc()
		if p.Conflict != nil {
			return a.fail(1, "instruction-edited", "The block in "+p.Target.Path+" was edited by hand since vouch wrote it; apply would need --overwrite.")
		}
		return nil
	}

	digest := ic.comp.Contract.MustDigest()
	recorded := ic.active != nil && ic.active.Action == trust.ActionApprove && ic.active.Digest == digest
	if action == "remove" {
		recorded = ic.active == nil || ic.active.Action == trust.ActionRevoke
	}
	if ic.unrecorded {
		recorded = false
	}
	if p.NoChange && recorded {
		// An intent left by an interrupted apply whose block is gone reports nothing; it
		// is cleared here so the home does not keep it.
		_ = instructions.ClearIntent(ic.home, ic.ref, ic.target.Path)
		if opts.json {
			printDoc()
			return nil
		}
		fmt.Fprintln(a.stdout, "Nothing to do: the file and the ledger already agree.")
		return nil
	}
	if p.Conflict != nil && !overwrite {
		if !a.stdinIsTerminal() || opts.json {
			printDoc()
			return a.fail(1, "instruction-edited", "The block in "+p.Target.Path+" was edited by hand since vouch wrote it; nothing was written. Keep the edits, or pass --overwrite to replace them.")
		}
		if !a.ask("The block was edited by hand. Overwrite those edits? [y/N] ") {
			fmt.Fprintln(a.stdout, "Nothing was written.")
			return exitError{1}
		}
		overwrite = true
	}
	linked := p.Target.Linked() && !p.NoChange
	if !opts.yes {
		if !a.stdinIsTerminal() {
			return a.fail(2, "confirmation-required", action+" asks for confirmation; without a terminal, pass --yes after reading the preview.")
		}
		q := "Write this change to " + p.Target.Path + "? [y/N] "
		if linked {
			q = "Write this change to " + safe(p.Target.Resolved) + " (the file the symbolic link " + safe(p.Target.Path) + " points to)? [y/N] "
		}
		if p.NoChange {
			q = "Record this in the ledger? [y/N] "
		}
		if !a.ask(q) {
			fmt.Fprintln(a.stdout, "Nothing was written.")
			return exitError{1}
		}
		// The question named the destination: that is its confirmation.
		p.Confirmed = p.Target.Resolved
	} else if opts.follow {
		p.Confirmed = p.Target.Resolved
	} else if linked {
		printDoc()
		return a.fail(1, "target-is-symlink", safe(p.Target.Path)+" is a symbolic link to "+safe(p.Target.Resolved)+"; nothing was written. Read the preview, then pass --follow-symlink with --yes to write to "+safe(p.Target.Resolved)+" (the link is kept), or name a regular file.")
	}
	kind := trust.ReviewerHuman
	if !a.stdinIsTerminal() {
		// Confirmed by --yes, not by a person at a terminal (as vouch approve records it).
		kind = trust.ReviewerAutomation
	}
	d, err := instructions.Record(ic.tr, ic.pkg, ic.comp, p, overwrite, kind)
	if err != nil {
		if errors.Is(err, instructions.ErrNotRecorded) {
			return a.fail(1, "ledger-write-failed", strings.ToUpper(err.Error()[:1])+err.Error()[1:]+".")
		}
		return a.instrError(err)
	}
	if opts.json {
		doc.Written, doc.Recorded, doc.Decision = !p.NoChange, true, &d
		printDoc()
		return nil
	}
	switch {
	case p.NoChange:
		fmt.Fprintf(a.stdout, "Recorded %s of %s for %s (the file already matched).\n", map[string]string{"apply": "the activation", "remove": "the removal"}[action], safe(ic.ref), ic.target.Path)
	case action == "apply":
		fmt.Fprintf(a.stdout, "Applied %s to %s and recorded the approval.\n", safe(ic.ref), ic.target.Path)
	default:
		fmt.Fprintf(a.stdout, "Removed %s from %s and recorded the revocation.\n", safe(ic.ref), ic.target.Path)
	}
	return nil
}

func instrPrepare(opts *instrOptions) (*instrContext, error) {
	a, source, ref := opts.app, opts.source, opts.ref
	// Resolved before anything is shown: the preview names the file a link leads to.
	target, err := instructions.ResolveTarget(opts.target)
	if err != nil {
		return nil, a.fail(2, "bad-target", strings.TrimSuffix(err.Error(), ".")+".")
	}
	pkgName, rest, ok := strings.Cut(ref, "#")
	kind, id, ok2 := strings.Cut(rest, ":")
	if !ok || !ok2 || pkgName == "" || id == "" {
		return nil, a.fail(2, "bad-ref", "REF must look like <package>#instruction:<id>, for example design-review#instruction:design-context.")
	}
	if model.Kind(kind) != model.KindInstruction {
		return nil, a.fail(2, "bad-ref", safe(ref)+" is a "+safe(kind)+", not an instruction; only instructions are written to instruction files.")
	}
	res, err := a.load([]string{source}, opts.sourceID)
	if err != nil {
		return nil, err
	}
	ic := &instrContext{target: target, ref: ref, id: instructions.BlockID(pkgName, id)}
	var available []string
	for _, p := range res.Packages {
		for _, c := range p.Components {
			if c.Kind != model.KindInstruction {
				continue
			}
			available = append(available, p.Ref(c))
			if p.Name == pkgName && c.ID == id {
				if ic.comp != nil {
					return nil, a.fail(2, "ambiguous-ref", safe(ref)+" names instructions in more than one package of "+source+"; review one source at a time.")
				}
				ic.pkg, ic.comp = p, c
			}
		}
	}
	if ic.comp == nil {
		msg := safe(ref) + " is not an instruction in " + source
		if len(available) > 0 {
			sort.Strings(available)
			for i := range available {
				available[i] = safe(available[i])
			}
			msg += "; its instructions are " + strings.Join(available, ", ")
		}
		return nil, a.fail(2, "unknown-ref", msg+".")
	}
	if err := instructions.CheckTarget(target, ic.pkg); err != nil {
		return nil, a.fail(1, "target-inside-package", strings.TrimSuffix(display.Line(err.Error()), ".")+"; nothing was written.")
	}
	if ic.comp.Validity != model.Valid || ic.comp.Contract == nil || len(ic.comp.Contract.Files) == 0 {
		return nil, a.fail(1, "instruction-blocked", safe(ref)+" is "+string(ic.comp.Validity)+" and cannot be activated; run vouch validate "+source+" for the reason.")
	}
	if ic.body, err = instructions.Body(ic.pkg, ic.comp); err != nil {
		return nil, a.fail(1, "instruction-unreadable", err.Error())
	}
	if ic.home, err = trust.ResolveHome(a.home); err != nil {
		return nil, a.fail(2, "no-home", err.Error())
	}
	if ic.tr, err = trust.Open(trust.Options{Home: ic.home}); err != nil {
		return nil, a.fail(1, "ledger-unreadable", err.Error())
	}
	decisions, err := ic.tr.Decisions()
	if err != nil {
		return nil, a.fail(1, "ledger-unreadable", err.Error())
	}
	ic.active = instructions.LastDecision(decisions, ref, target.Path)
	if u, ok := instructions.IntentFor(ic.home, decisions, ref, target.Path); ok {
		// An interrupted apply wrote this block and never recorded it: the intent holds
		// the text vouch wrote, so removing or replacing it is not a hand edit.
		ic.lastWritten = u.Body
		ic.unrecorded = true
		return ic, nil
	}
	// What vouch last wrote there is the approved text in the store. If the store lost it,
	// any difference counts as a hand edit: the safe side.
	if ic.lastWritten, err = instructions.LastWritten(ic.home, decisions, ref, target.Path); err != nil && a.jsonErrors {
		writeJSON(a.stderr, map[string]any{"warning": map[string]string{"code": "instruction-baseline-missing", "message": fmt.Sprintf("The text last written to %s is not in the store (%v); a changed block will count as edited by hand.", target.Path, err)}})
	} else if err != nil {
		fmt.Fprintf(a.stderr, "vouch: the text last written to %s is not in the store (%v); a changed block will count as edited by hand.\n", target.Path, err)
	}
	return ic, nil
}

func (a *app) instrError(err error) error {
	var me *instructions.MarkerError
	switch {
	case errors.As(err, &me) && a.jsonErrors:
		var ps []string
		for _, p := range me.Problems {
			ps = append(ps, fmt.Sprintf("line %d: %s", p.Line, p.Message))
		}
		return a.fail(1, "damaged-markers", fmt.Sprintf("%s has damaged managed-block markers; nothing was written. Repair them first: %s.", me.Path, strings.Join(ps, "; ")))
	case errors.As(err, &me):
		fmt.Fprintf(a.stderr, "vouch: %s has damaged managed-block markers; nothing was written. Repair them first:\n", me.Path)
		for _, p := range me.Problems {
			fmt.Fprintf(a.stderr, "  line %d: %s\n", p.Line, display.Line(p.Message))
		}
		return exitError{1}
	case errors.Is(err, instructions.ErrChanged):
		return a.fail(1, "target-changed", strings.TrimSuffix(err.Error(), ".")+"; nothing was written.")
	case errors.Is(err, instructions.ErrConflict):
		return a.fail(1, "instruction-edited", strings.TrimSuffix(err.Error(), ".")+".")
	case errors.Is(err, instructions.ErrLinkNotConfirmed):
		return a.fail(1, "target-is-symlink", strings.TrimSuffix(display.Line(err.Error()), ".")+"; pass --follow-symlink to confirm that destination.")
	case errors.Is(err, instructions.ErrInsidePackage):
		return a.fail(1, "target-inside-package", strings.TrimSuffix(display.Line(err.Error()), ".")+"; nothing was written.")
	case errors.Is(err, instructions.ErrBodyMarker):
		return a.fail(1, "instruction-has-marker", strings.TrimSuffix(display.Line(err.Error()), ".")+"; vouch will not write it, because it would forge or break a managed block.")
	}
	return a.fail(1, "instruction-write-failed", strings.TrimSuffix(display.Line(err.Error()), ".")+".")
}

func (a *app) printPreview(ic *instrContext, p *instructions.Preview) {
	w := a.stdout
	fmt.Fprintf(w, "Target:     %s\n", p.Target.Path)
	if p.Target.Linked() {
		// The destination comes from a link the package's repository may have planted.
		fmt.Fprintf(w, "Writes to:  %s\n", safe(p.Target.Resolved))
		fmt.Fprintf(w, "            (%s is a symbolic link, or lies in a linked directory: vouch writes the file it\n             resolves to, shown above, and keeps the link; check that this is the file you mean)\n", safe(p.Target.Path))
	}
	fmt.Fprintf(w, "Applies to: %s\n", p.Target.AppliesTo)
	fmt.Fprintf(w, "Block:      <!-- vouch:start %s -->\n", display.Line(p.ID))
	state := "does not exist yet; apply creates it (and its directory)"
	if p.Exists {
		eol := "LF"
		if p.EOL == "\r\n" {
			eol = "CRLF"
		}
		state = fmt.Sprintf("%d bytes, %s line breaks", len(p.Before), eol)
		if len(p.Before) >= 3 && string(p.Before[:3]) == "\xEF\xBB\xBF" {
			state += ", UTF-8 BOM"
		}
	}
	fmt.Fprintf(w, "File:       %s\n", state)
	var change string
	switch {
	case p.Action == "remove" && !p.Present:
		change = "the block is not in the file; nothing to remove"
	case p.Action == "remove":
		change = "remove the block and the line breaks vouch added with it"
	case p.NoChange:
		change = "the file already holds this text; nothing to write"
	case p.Present:
		change = "replace the block's text in place"
	default:
		change = "append the block after one blank line"
	}
	fmt.Fprintf(w, "Change:     %s\n", change)
	if ic.unrecorded {
		fmt.Fprintln(w, "Unrecorded: the block in the file was written by an apply that was interrupted before the ledger recorded it")
	}
	if len(p.Foreign) > 0 {
		fmt.Fprintln(w, "Blocks of other managers (shown, never modified):")
		for _, b := range p.Foreign {
			fmt.Fprintf(w, "  %s %s, lines %d-%d\n", display.Line(b.Manager), display.Line(b.ID), b.StartLine, b.EndLine)
		}
	}
	if len(p.Owned) > 0 {
		fmt.Fprintln(w, "Other vouch blocks (left as they are):")
		for _, b := range p.Owned {
			fmt.Fprintf(w, "  %s, lines %d-%d\n", display.Line(b.ID), b.StartLine, b.EndLine)
		}
	}
	if c := p.Conflict; c != nil {
		fmt.Fprintln(w, "\nThe block was edited by hand since vouch wrote it.")
		last := c.LastWritten
		if last == "" {
			last = "(unknown: the ledger holds no record of what vouch wrote here)\n"
		}
		section := func(title, text string) {
			fmt.Fprintf(w, "--- %s\n%s", title, display.String(text))
			if !strings.HasSuffix(text, "\n") {
				fmt.Fprintln(w)
			}
		}
		section("last written by vouch", last)
		section("now in the file", c.Current)
		if p.Action == "apply" {
			section("new text", c.New)
		}
	}
	if p.Diff != "" {
		fmt.Fprintln(w)
		fmt.Fprint(w, display.String(p.Diff))
	}
}

// activeBlock is one instruction activation in force, for list.
type activeBlock struct {
	Ref    string `json:"ref"`
	Target string `json:"target"`
	Digest string `json:"digest"`
	At     string `json:"at"`
	Ledger string `json:"ledger"`
	State  string `json:"state"` // present, edited, missing, damaged, file-missing, unreadable, unrecorded
	Detail string `json:"detail"`
}

// instrListOptions are instructions list's flags.
type instrListOptions struct {
	app  *app
	json bool // --json
}

func newInstrListCommand(a *app) *cobra.Command {
	opts := &instrListOptions{app: a}
	cmd := &cobra.Command{
		Use: "list [--json]",
		Example: `  vouch instructions list
  vouch instructions list --json | jq '.[].target'`,
		Short: "List every instruction block the ledger says is active, and whether its file still holds it",
		Long: `List reads the ledgers for instruction activations in force (the latest decision for each
instruction and target is an approval) and checks each target file: present (unchanged), edited
(changed by hand), missing (the block is gone), damaged (markers broken), file-missing or
unreadable. A block that an interrupted apply wrote but never recorded in the ledger is listed
too, as unrecorded: "instructions remove" takes it out, applying again records it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runInstrList(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print JSON (schemas/vouch/commands-v1.schema.json)")
	return cmd
}

func runInstrList(opts *instrListOptions) error {
	a, jsonOut := opts.app, opts.json
	a.jsonErrors = jsonOut
	home, err := trust.ResolveHome(a.home)
	if err != nil {
		return a.fail(2, "no-home", err.Error())
	}
	tr, err := trust.Open(trust.Options{Home: home})
	if err != nil {
		return a.fail(1, "ledger-unreadable", err.Error())
	}
	decisions, err := tr.Decisions()
	if err != nil {
		return a.fail(1, "ledger-unreadable", err.Error())
	}
	out := []activeBlock{}
	for _, f := range instructions.ListInForce(home, decisions) {
		out = append(out, activeBlock{Ref: f.Ref, Target: f.Target, Digest: f.Digest, At: f.At.UTC().Format("2006-01-02T15:04:05Z"), Ledger: f.Ledger, State: f.State, Detail: f.Detail})
	}
	if jsonOut {
		writeJSON(a.stdout, instrListDoc{docHead: head("instructions list"), Instructions: out})
		return nil
	}
	if len(out) == 0 {
		fmt.Fprintln(a.stdout, "No instruction is active.")
		return nil
	}
	for _, b := range out {
		fmt.Fprintf(a.stdout, "%s\n  target: %s\n  state:  %s. %s\n  since:  %s (%s ledger)\n", safe(b.Ref), safe(b.Target), b.State, safe(b.Detail), b.At, safe(b.Ledger))
	}
	return nil
}
