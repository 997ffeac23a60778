package main

import (
	"fmt"
	"vouch/ui/display"

	"github.com/spf13/cobra"
)

// stageOptions are stage's flags and arguments.
type stageOptions struct {
	refOptions
	dir string // DIR
}

func newStageCommand(a *app) *cobra.Command {
	opts := &stageOptions{refOptions: refOptions{app: a}}
	cmd := &cobra.Command{
		Use:   "stage [--json] [--ledger FILE] SOURCE REF DIR",
		Short: "Write exactly the approved closure of a component into DIR, for a harness that runs approved bytes only",
		Long: `Checks REF as "vouch check" does (its digest recomputed from the bytes on disk now must be
approved) and then writes its approved closure into DIR from the vouch store: every file with
the approved bytes and exec bit, every symlink recreated as a link with its approved target,
nothing else. A hook is staged with its tool's closure. Paths inside DIR are the paths the
contract records, relative to the package (a Dalo tool's files stay under plugins/<name>/),
so a harness runs DIR/<entry> and the entry can import nothing it was not approved with.

DIR must not exist or be empty: vouch never overwrites. The closure is written into a
temporary directory beside DIR and renamed onto it, so DIR holds all of it or none.
What the approval cannot bind (a program on PATH, a package a launcher downloads) is
printed on stderr, as check does. Exit 0 when staged; 1 when REF is not approved, DIR is
not empty or the store is damaged; 2 usage error or missing path. With --json what was
written (and what is not covered) is one JSON document on stdout
(schemas/vouch/commands-v1.schema.json).`,
		Example: `  vouch stage ./my-source 'my-pack#tool:lint' /tmp/lint-approved
  node /tmp/lint-approved/plugins/my-pack/tools/lint.mjs`,
		Args: cobra.ExactArgs(3),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.source, opts.ref, opts.dir = args[0], args[1], args[2]
			return runStage(opts)
		},
	}
	bindRefFlags(cmd, &opts.refOptions, "print what was staged as JSON")
	return cmd
}

func runStage(opts *stageOptions) error {
	a, jsonOut := opts.app, opts.json
	t, tg, err := opts.resolve()
	if err != nil {
		return err
	}
	if !jsonOut {
		printNotCovered(a.stderr, "", tg.comp.NotCovered)
	}
	staged, err := t.Stage(tg.pkg, tg.comp, opts.dir)
	if err != nil {
		return a.fail(1, "stage", errSentence(err.Error()))
	}
	if jsonOut {
		writeJSON(a.stdout, stageDoc{docHead: head("stage"), Ref: tg.ref, Dir: staged.Dir, Files: jsonList(staged.Files),
			Skipped: jsonList(staged.Skipped), NotCovered: jsonList(tg.comp.NotCovered)})
		return nil
	}
	fmt.Fprintf(a.stdout, "staged %s into %s (%d entries)\n", display.Line(tg.shown), display.Line(staged.Dir), len(staged.Files))
	return nil
}
