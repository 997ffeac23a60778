package main

import (
	"fmt"
	"strings"
	"vouch/model"
	"vouch/ui/display"

	"github.com/spf13/cobra"
)

// diffOptions are diff's flags and arguments.
type diffOptions struct{ refOptions }

func newDiffCommand(a *app) *cobra.Command {
	opts := &diffOptions{refOptions{app: a}}
	cmd := &cobra.Command{
		Use: "diff [--json] [--ledger FILE] SOURCE REF",
		Example: `  vouch diff examples/dalo/design-review 'design-review#tool:context'
  vouch diff --json ./plugins/lint 'lint#mcp-server:lint' | jq '.files'`,
		Short: "Show what changed in a component since its approval (exit 1 when changed)",
		Long: `Compares the approved contract and files (kept in the vouch store) with the source now:
a field-by-field contract diff and a unified line diff of each changed file (sizes, hashes
and the first differing byte for binary or large files). Exit 0 when the approval still
matches, 1 otherwise. With --json the same is one JSON document on stdout
(schemas/vouch/commands-v1.schema.json), for every status, with the exit status unchanged.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.source, opts.ref = args[0], args[1]
			return runDiff(opts)
		},
	}
	bindRefFlags(cmd, &opts.refOptions, "print the diff as JSON")
	return cmd
}

func runDiff(opts *diffOptions) error {
	a, source, jsonOut := opts.app, opts.source, opts.json
	t, tg, err := opts.resolve()
	if err != nil {
		return err
	}
	statuses, err := t.Statuses(tg.pkg)
	if err != nil {
		return a.fail(1, "ledger", errSentence(err.Error()))
	}
	st := statuses[tg.ref]
	name := display.Line(tg.shown)
	doc := newDiffDoc(tg.ref, st)
	switch st.Authorization {
	case model.Approved:
		if jsonOut {
			writeJSON(a.stdout, doc)
			return nil
		}
		fmt.Fprintf(a.stdout, "%s is unchanged since its approval (%s).\n", name, st.Digest)
		return nil
	case model.Changed:
	default:
		reason := st.Reason
		if reason == "" {
			reason = "There is no approval to compare with."
		}
		if jsonOut {
			doc.Reason = reason
			writeJSON(a.stdout, doc)
		}
		return a.fail(1, string(st.Authorization), fmt.Sprintf("%s is %s: %s", name, st.Authorization, display.Line(midSentence(reason))))
	}
	d, err := t.Diff(tg.pkg, tg.comp)
	if err != nil {
		return a.fail(1, "diff", errSentence(err.Error()))
	}
	if d == nil {
		return a.fail(1, "diff", name+" changed but no diff could be computed.")
	}
	if jsonOut {
		doc.add(d)
		for _, dep := range tg.comp.DependsOn {
			if ds := statuses[dep]; ds.Authorization != model.Approved {
				doc.Tools = append(doc.Tools, requireDoc{Ref: dep, Authorization: string(ds.Authorization)})
			}
		}
		writeJSON(a.stdout, doc)
		return exitError{1}
	}
	w := a.stdout
	fmt.Fprintf(w, "%s changed since its approval\n  approved %s (by %s, %s ledger)\n  current  %s\n", name, d.ApprovedDigest,
		display.Line(d.ApprovedBy.Reviewer), ledgerLabel(d.ApprovedBy.Ledger), digestOrNone(d.CurrentDigest))
	if d.NotStored {
		fmt.Fprintln(w, "\nThe approved contract and bytes are not in this vouch store (the approval was made in another home);")
		fmt.Fprintln(w, "the changed files below are named from the file digests the approval recorded, without line diffs or contract fields.")
	}
	if len(d.Fields) > 0 {
		fmt.Fprintln(w, "\ncontract fields:")
		for _, f := range d.Fields {
			fmt.Fprintf(w, "  %s: %s → %s\n", display.Line(f.Key), fieldOrAbsent(f.Old), fieldOrAbsent(f.New))
		}
	}
	for _, dep := range tg.comp.DependsOn {
		if ds := statuses[dep]; ds.Authorization != model.Approved {
			fmt.Fprintf(w, "\nIts tool %s is %s: run \"vouch diff %s %s\" to see how.\n", display.Line(dep), ds.Authorization, source, display.Line(dep))
		}
	}
	if len(d.Files) > 0 {
		fmt.Fprintln(w, "\nfiles:")
	}
	for _, f := range d.Files {
		p := display.Line(f.Path)
		switch f.Change {
		case "added", "removed":
			verb, link, size, sum, exec := "added   ", f.NewLink, f.NewSize, f.NewSHA256, f.NewExec
			if f.Change == "removed" {
				verb, link, size, sum, exec = "removed ", f.OldLink, f.OldSize, f.OldSHA256, f.OldExec
			}
			if link != "" {
				fmt.Fprintf(w, "  %s %s  symlink -> %s\n", verb, p, display.Line(link))
			} else {
				fmt.Fprintf(w, "  %s %s  %d bytes  sha256:%s%s\n", verb, p, size, sum, execSuffix(exec))
			}
		case "modified":
			if f.OldLink != "" || f.NewLink != "" {
				fmt.Fprintf(w, "  modified %s\n    %s → %s\n", p, linkOrFile(f.OldLink), linkOrFile(f.NewLink))
				continue
			}
			fallthrough
		default:
			fmt.Fprintf(w, "  modified %s\n", p)
			if f.OldExec != f.NewExec {
				fmt.Fprintf(w, "    executable: %v → %v\n", f.OldExec, f.NewExec)
			}
			switch {
			case f.Error != "":
				fmt.Fprintf(w, "    %s\n", display.Line(f.Error))
			case f.Binary:
				kind := "binary"
				if f.Large {
					kind = "larger than 16 MiB"
				}
				fmt.Fprintf(w, "    %s: %d bytes sha256:%s → %d bytes sha256:%s, first difference at byte %d\n",
					kind, f.OldSize, f.OldSHA256, f.NewSize, f.NewSHA256, f.FirstDifferentOffset)
			case f.Unified != "":
				for _, l := range strings.SplitAfter(strings.TrimSuffix(f.Unified, "\n"), "\n") {
					fmt.Fprintf(w, "    %s\n", display.Line(strings.TrimSuffix(l, "\n")))
				}
			}
		}
	}
	return exitError{1}
}
