package main

import "github.com/spf13/cobra"

// exitCodesTopic is "vouch help exit-codes": what each exit status means, per command,
// in one place a CI author can read.
func exitCodesTopic() *cobra.Command {
	return &cobra.Command{
		Use:   "exit-codes",
		Short: "What vouch's exit statuses mean, command by command",
		Long: `Every command exits 0, 1 or 2; data goes to stdout, one-sentence errors to stderr
(JSON under --json).

  0  success: the report was printed, the package is valid, the component is approved,
     the decision was recorded.
  1  the answer is no, or the work was not finished:
       validate   an error diagnostic anywhere, nothing found, a SOURCE not searched
                  completely (a folder that cannot be listed, a search bound reached)
       status     a SOURCE not reviewed completely; with --require-approved, any package
                  invalid or any runnable component not approved as it is (with
                  --ledger-base, an approval the change added counts only with
                  --allow-new-approvals)
       review     without a terminal, as status: nothing found is exit 1
       diff       the component changed since its approval
       check      the component is not approved at the bytes on disk now
       approve, revoke, stage, instructions, ledger
                  refused (a digest that moved, a damaged ledger, a target edited by hand)
     and for every command: a write that failed (a full disk, a read-only home), with
     the path it went to.
  2  usage error (an unknown flag, a malformed --integrity, a config file that cannot be
     used: an unknown key, a bad value) or a path that does not exist.`,
		Example: `  vouch help exit-codes
  vouch status --require-approved plugins/ || echo "gate failed with $?"`,
	}
}
