package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/spf13/cobra"

	"vouch/enforce"
	"vouch/enforce/claude"
	"vouch/enforce/codex"
	"vouch/model"
	"vouch/trust"
	"vouch/ui/display"
)

// enforceClient is one client's part of "vouch enforce": the subcommand it adds
// ("vouch enforce claude …", "vouch enforce codex …") and the enforce.Client that
// "enforce sync" and "enforce status" drive.
type enforceClient struct {
	command func(a *app) *cobra.Command
	client  enforce.Client
}

// enforceClients are the clients vouch enforces, in the order sync and status go through
// them and print them.
var enforceClients = []enforceClient{
	{command: newEnforceClaudeCommand, client: claude.Client{}},
	{command: newEnforceCodexCommand, client: codex.Enforcer{}},
}

func newEnforceCommand(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "enforce",
		Short: "Make Claude Code and Codex run only what you approved",
		Long: `Enforce turns approvals into what the clients run. Each client has one place that decides
which bytes run, and vouch owns it: for Claude Code, a directory marketplace named "vouch" under
the vouch home whose plugin folders are written only by staging approved bytes from the store
(` + model.ClientLabel(model.ClientClaudeCode, claude.Version) + ` reads such a plugin from that folder at every session start and loads
nothing of it once the folder is gone); for Codex, vouch's own marketplace and the hook trust
Codex keeps in config.toml. A plugin is staged only when every runnable component of it is
approved now. "vouch approve" and "vouch revoke" of an enforced plugin's component re-stage it,
so a revoke takes effect in the next session.`,
		Example: `  vouch approve ./my-plugin 'my-plugin#hook:PreToolUse:0:0'
  vouch enforce claude add ./my-plugin
  vouch enforce status`,
	}
	for _, c := range enforceClients {
		cmd.AddCommand(c.command(a))
	}
	cmd.AddCommand(newEnforceSyncCommand(a), newEnforceStatusCommand(a))
	return cmd
}

// enforceEnv opens the ledgers and fills what every client's enforcement works with.
// jsonOut is the command's --json: from here on its failures are printed as JSON too.
func (a *app) enforceEnv(clientCLI string, jsonOut bool) (*enforce.Env, error) {
	if jsonOut {
		a.jsonErrors = true
	}
	t, err := a.openTrust("", true)
	if err != nil {
		return nil, err
	}
	return &enforce.Env{
		Trust:  t,
		Layout: enforce.LayoutOf(t.Home()),
		Load: func(dir string) ([]*model.Package, error) {
			res, err := a.load([]string{dir}, "")
			if err != nil {
				return nil, err
			}
			return res.Packages, nil
		},
		Getenv:    os.Getenv,
		ClientCLI: clientCLI,
		Out:       a.stdout,
	}, nil
}

// enforcePluginOptions are what a client's add and remove both take: the plugin (add's
// SOURCE, remove's NAME), --client and --json.
type enforcePluginOptions struct {
	app    *app
	client string
	json   bool
	plugin string
}

// clientPluginCommand completes a client's add or remove command (cmd holds its texts)
// with the one argument, --client (the client's program, named program) and --json.
func clientPluginCommand(cmd *cobra.Command, program string, opts *enforcePluginOptions, run func() error) *cobra.Command {
	cmd.Args = cobra.ExactArgs(1)
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		opts.plugin = args[0]
		return run()
	}
	cmd.Flags().StringVar(&opts.client, "client", "", "the "+program+" program to run (default: "+program+" on PATH)")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print what was done as JSON")
	return cmd
}

// enforceAllOptions hold the --json flag of the commands that go through every client
// (sync, status).
type enforceAllOptions struct {
	app  *app
	json bool
}

// everyClientCommand completes sync or status with what both take: no arguments, --json,
// and the enforcement environment opened before run.
func everyClientCommand(a *app, cmd *cobra.Command, jsonHelp string, run func(opts *enforceAllOptions, env *enforce.Env) error) *cobra.Command {
	opts := &enforceAllOptions{app: a}
	cmd.Args = cobra.NoArgs
	cmd.RunE = func(*cobra.Command, []string) error {
		env, err := a.enforceEnv("", opts.json)
		if err != nil {
			return err
		}
		return run(opts, env)
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, jsonHelp)
	return cmd
}

func newEnforceSyncCommand(a *app) *cobra.Command {
	return everyClientCommand(a, &cobra.Command{
		Use:   "sync [--json]",
		Short: "Re-stage every enforced plugin from the ledger and rewrite the clients' entries",
		Long: `Sync goes through every enforced plugin of every client: a plugin whose staged components are
all still approved keeps (or gets back) its staged folder, written from the store; a plugin
with a component revoked, or no longer fully approved, loses its staged folder, so the client
loads nothing of it from the next session on. The clients' own entries are rewritten to match.
"vouch approve" and "vouch revoke" run it for enforced plugins. Exit 0 when done, 1 when a
client file could not be written.`,
		Example: `  vouch revoke ./my-plugin 'my-plugin#mcp-server:db'
  vouch enforce sync`,
	}, "print what changed as JSON", runEnforceSync)
}

func runEnforceSync(opts *enforceAllOptions, env *enforce.Env) error {
	a := opts.app
	changes, err := syncAll(env)
	if opts.json {
		writeJSON(a.stdout, struct {
			docHead
			Changes map[string][]enforce.Change `json:"changes"`
		}{head("enforce sync"), changes})
	} else {
		printChanges(a, changes)
	}
	if err != nil {
		return a.fail(1, "enforce-sync", errSentence(err.Error()))
	}
	return nil
}

// syncAll runs every client's Sync; a client that fails does not stop the others.
func syncAll(env *enforce.Env) (map[string][]enforce.Change, error) {
	out := map[string][]enforce.Change{}
	var first error
	for _, c := range enforceClients {
		cl := c.client
		ch, err := cl.Sync(env)
		out[cl.ID()] = append([]enforce.Change{}, ch...)
		if err != nil && first == nil {
			first = fmt.Errorf("%s: %w", cl.ID(), err)
		}
	}
	return out, first
}

func printChanges(a *app, changes map[string][]enforce.Change) {
	for _, c := range enforceClients {
		id := c.client.ID()
		for _, ch := range changes[id] {
			line := id + ": " + ch.Plugin + " " + ch.Action
			if ch.Detail != "" {
				line += " (" + ch.Detail + ")"
			}
			fmt.Fprintln(a.stdout, display.Line(line))
		}
	}
}

func newEnforceStatusCommand(a *app) *cobra.Command {
	return everyClientCommand(a, &cobra.Command{
		Use:   "status [--json]",
		Short: "Compare what the clients will run with what is approved",
		Long: `Status reads each client's own files (installs, settings in the client's precedence, Codex's
config and trust) and lists, per client, each enforced plugin beside what is approved, then
every way around enforcement it finds: a plugin that loads from outside vouch's marketplace, a
project settings file that turns a plugin back on, a staged folder that no longer matches the
store, an add that did not finish. Exit 0 when everything that will run is approved and staged
by vouch; 1 when anything else will run, with the reason; 2 usage error.`,
		Example: `  vouch enforce status
  vouch enforce status --json | jq '.clients[].problems'`,
	}, "print the status as JSON", runEnforceStatus)
}

func runEnforceStatus(opts *enforceAllOptions, env *enforce.Env) error {
	a := opts.app
	var reports []*enforce.Report
	failed := false
	for _, c := range enforceClients {
		cl := c.client
		r, err := cl.Status(env)
		if err != nil {
			r = &enforce.Report{Client: cl.ID(), Problems: []enforce.Problem{{Code: "status-failed", Message: errSentence(err.Error())}}}
		}
		r.Plugins, r.Problems = jsonList(r.Plugins), jsonList(r.Problems)
		failed = failed || r.Failed()
		reports = append(reports, r)
	}
	if opts.json {
		writeJSON(a.stdout, struct {
			docHead
			Clients []*enforce.Report `json:"clients"`
		}{head("enforce status"), reports})
	} else {
		printEnforceStatus(a, reports)
	}
	if failed {
		return exitError{1}
	}
	return nil
}

func printEnforceStatus(a *app, reports []*enforce.Report) {
	for _, r := range reports {
		fmt.Fprintf(a.stdout, "%s:\n", display.Line(r.Client))
		if len(r.Plugins) == 0 {
			fmt.Fprintln(a.stdout, "  no plugin is enforced")
		}
		for _, p := range r.Plugins {
			fmt.Fprintf(a.stdout, "  %s  %s  (from %s, read from %s)\n", display.Line(p.State), display.Line(p.Name), display.Line(p.Source), display.Line(p.Staged))
			for _, pr := range p.Problems {
				fmt.Fprintf(a.stdout, "    ! %s\n", display.Line(pr.Message))
			}
		}
		for _, pr := range r.Problems {
			fmt.Fprintf(a.stdout, "  ! %s\n", display.Line(pr.Message))
		}
	}
}

// syncEnforcedAfterDecision re-stages the enforced plugins of pkgs after approve or
// revoke, so a revoke takes effect in the next session with no other step. A package
// no client enforces costs one read of the state file.
func (a *app) syncEnforcedAfterDecision(t *trust.Trust, pkgs []string) error {
	st, err := enforce.LoadState(enforce.LayoutOf(t.Home()))
	if err != nil {
		return err
	}
	hit := false
	for _, c := range st.Clients {
		for _, e := range c {
			for _, p := range pkgs {
				hit = hit || e.Package == p
			}
		}
	}
	if !hit {
		return nil
	}
	env, err := a.enforceEnv("", false)
	if err != nil {
		return err
	}
	changes, err := syncAll(env)
	printChanges(&app{stdout: a.stderr}, changes)
	return err
}

// enforcedClients is how the console learns which packages a client enforces: from the
// enforcement record under home, each client whose finished add names the package and
// whose reviewed folder or staged folder is the package's root (the same folder by
// identity, so a link or another spelling of the path still matches). A record that
// cannot be read shows nothing as enforced; "vouch enforce status" is where it is
// reported. Answers are kept per package: the tree asks on every redraw of a row.
func enforcedClients(home string) func(*model.Package) []string {
	st, err := enforce.LoadState(enforce.LayoutOf(home))
	if err != nil {
		return nil
	}
	type dir struct {
		client, pkg string
		info        os.FileInfo
	}
	var dirs []dir
	for _, c := range enforceClients {
		id := c.client.ID()
		for _, e := range st.Entries(id) {
			if e.Phase != enforce.PhaseEnforced {
				continue
			}
			for _, d := range []string{e.Source, e.Staged} {
				if info, err := os.Stat(d); err == nil && info.IsDir() {
					dirs = append(dirs, dir{id, e.Package, info})
				}
			}
		}
	}
	if len(dirs) == 0 {
		return nil
	}
	var mu sync.Mutex
	seen := map[*model.Package][]string{}
	return func(p *model.Package) []string {
		mu.Lock()
		defer mu.Unlock()
		if ids, ok := seen[p]; ok {
			return ids
		}
		var ids []string
		if info, err := os.Stat(filepath.Clean(p.Root)); err == nil {
			for _, d := range dirs {
				if d.pkg == p.Name && os.SameFile(info, d.info) && (len(ids) == 0 || ids[len(ids)-1] != d.client) {
					ids = append(ids, d.client)
				}
			}
		}
		seen[p] = ids
		return ids
	}
}
