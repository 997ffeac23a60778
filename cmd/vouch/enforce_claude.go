package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"vouch/enforce"
	"vouch/enforce/claude"
	"vouch/model"
	"vouch/trust"
	"vouch/ui/display"
)

func newEnforceClaudeCommand(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "claude",
		Short: "Make Claude Code load plugins only from approved bytes vouch staged",
		Long: model.ClientLabel(model.ClientClaudeCode, claude.Version) + ` reads a plugin of a directory marketplace from the marketplace's folder at
every session start and loads nothing of it once that folder is gone. vouch keeps such a
marketplace, named "vouch", under its home; "add" stages an approved plugin into it, installs
NAME@vouch and turns every other install of NAME off in the user's settings.json.`,
		Example: `  vouch enforce claude add ./my-plugin
  vouch enforce claude add my-plugin@some-marketplace
  vouch enforce claude remove my-plugin`,
	}
	cmd.AddCommand(newEnforceClaudeAddCommand(a), newEnforceClaudeRemoveCommand(a),
		newEnforceClaudeDenyCommand(a, true), newEnforceClaudeDenyCommand(a, false), newEnforceClaudeManagedCommand(a))
	return cmd
}

type enforceClaudeAddOptions struct {
	enforcePluginOptions
	strict bool
}

func newEnforceClaudeAddCommand(a *app) *cobra.Command {
	opts := &enforceClaudeAddOptions{enforcePluginOptions: enforcePluginOptions{app: a}}
	cmd := clientPluginCommand(&cobra.Command{
		Use:   "add [--client PATH] [--strict] [--json] SOURCE",
		Short: "Stage an approved Claude Code plugin into vouch's marketplace and run it from there only",
		Long: `SOURCE is a Claude Code plugin folder, or NAME@MARKETPLACE of a plugin Claude Code has installed
(as "vouch status --claude" finds it). The plugin is staged only when every runnable component
of it (hooks, MCP and LSP servers, executables, monitors) is approved now and every file Claude
Code reads from it is bound by an approval; otherwise nothing is written, what is missing is
listed and the exit status is 1.

Staging writes the approved bytes from the vouch store (hashes verified, links as links, exec
bits kept) into a new folder renamed into <home>/enforce/claude-code/plugins/NAME. vouch then
runs "claude plugin marketplace add" (once) and "claude plugin install NAME@vouch" (and the
guard plugin vouch-guard@vouch, first time), with the claude program on PATH or --client; when
there is none it prints those commands. In the user's settings.json every other NAME@… is set
to false (remove puts the old values back). The guard refuses MCP calls to servers not approved
now and lists at session start what loads outside vouch; --strict also blocks every prompt
while anything does.

Exit 0 when staged; 1 when the plugin is not fully approved or a client file could not be
changed (a settings file that does not parse is named and left as it is); 2 usage error.`,
		Example: `  vouch approve ./my-plugin 'my-plugin#hook:PreToolUse:0:0' 'my-plugin#mcp-server:db'
  vouch enforce claude add ./my-plugin`,
	}, "claude", &opts.enforcePluginOptions, func() error { return runEnforceClaudeAdd(opts) })
	cmd.Flags().BoolVar(&opts.strict, "strict", false, "make the guard block every prompt while anything loads outside vouch")
	return cmd
}

// claudeEnv opens what every "enforce claude" subcommand works with: the enforcement
// environment and Claude Code's paths (a Claude Code home that cannot be resolved is exit 2).
func (a *app) claudeEnv(clientCLI string, jsonOut bool) (*enforce.Env, claude.Paths, error) {
	env, err := a.enforceEnv(clientCLI, jsonOut)
	if err != nil {
		return nil, claude.Paths{}, err
	}
	p, err := claude.PathsFrom(os.Getenv)
	if err != nil {
		return nil, claude.Paths{}, a.fail(2, "claude-home", err.Error())
	}
	return env, p, nil
}

func runEnforceClaudeAdd(opts *enforceClaudeAddOptions) error {
	a := opts.app
	env, p, err := a.claudeEnv(opts.client, opts.json)
	if err != nil {
		return err
	}
	folder, err := claude.ResolveSource(p, opts.plugin)
	if err != nil {
		return a.fail(2, "path-not-found", err.Error())
	}
	if st, err := os.Stat(folder); err != nil || !st.IsDir() {
		return a.fail(2, "path-not-found", folder+" is not a folder; give a Claude Code plugin folder or NAME@MARKETPLACE of an installed plugin.")
	}
	if opts.client != "" {
		if info, err := os.Stat(opts.client); err != nil || info.IsDir() || info.Mode()&0o111 == 0 {
			return a.fail(2, "path-not-found", "--client "+opts.client+" is not an executable program; give the path of Claude Code's claude program.")
		}
	}
	g, err := guardOf(env, opts.strict)
	if err != nil {
		return a.fail(1, "enforce", err.Error())
	}
	res, err := claude.Add(env, p, folder, g)
	var refused *claude.Refused
	if errors.As(err, &refused) && opts.json {
		return a.fail(1, "not-approved", refused.Error()+": "+strings.ReplaceAll(strings.TrimSpace(refused.Plan.Why()), "\n", "; "))
	}
	if errors.As(err, &refused) {
		fmt.Fprintf(a.stderr, "vouch: %s\n", display.Line(refused.Error()))
		for _, line := range strings.Split(strings.TrimSpace(refused.Plan.Why()), "\n") {
			fmt.Fprintf(a.stderr, "  %s\n", display.Line(line))
		}
		return exitError{1}
	}
	if err != nil {
		return a.fail(1, "enforce", errSentence(err.Error()))
	}
	if opts.json {
		writeJSON(a.stdout, struct {
			docHead
			claudePluginDoc
			Staged   string   `json:"staged"`
			Entries  int      `json:"entries"`
			Disabled []string `json:"disabled"`
		}{head("enforce claude add"), enforcedClaudePlugin(res.Name), res.Staged, res.Files, append([]string{}, res.Disabled...)})
		return nil
	}
	fmt.Fprintf(a.stdout, "staged %s into %s (%d entries); %s loads it as %s@%s\n", display.Line(res.Name), display.Line(res.Staged), res.Files, model.ClientLabel(model.ClientClaudeCode, claude.Version), display.Line(res.Name), claude.Marketplace)
	for _, id := range res.Disabled {
		fmt.Fprintf(a.stdout, "turned off %s in %s\n", display.Line(id), display.Line(p.Settings))
	}
	return nil
}

// claudePluginDoc names, in the --json of add and remove, the plugin acted on: its name
// and the id Claude Code installs it under from vouch's marketplace.
type claudePluginDoc struct {
	Plugin   string `json:"plugin"`
	PluginID string `json:"plugin_id"`
}

func enforcedClaudePlugin(name string) claudePluginDoc {
	return claudePluginDoc{Plugin: name, PluginID: name + "@" + claude.Marketplace}
}

// guardOf is how the guard plugin calls this vouch: its own program, resolved, and the
// home in use.
func guardOf(env *enforce.Env, strict bool) (claude.Guard, error) {
	exe, err := os.Executable()
	if err != nil {
		return claude.Guard{}, fmt.Errorf("cannot find the vouch program for the guard's hooks: %w", err)
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	if p := os.Getenv("VOUCH_GUARD_PROGRAM"); p != "" {
		exe = p
	}
	return claude.Guard{Program: exe, Home: env.Trust.Home(), Strict: strict}, nil
}

func newEnforceClaudeRemoveCommand(a *app) *cobra.Command {
	opts := &enforcePluginOptions{app: a}
	return clientPluginCommand(&cobra.Command{
		Use:   "remove [--client PATH] [--json] NAME",
		Short: "Stop enforcing a Claude Code plugin and turn its original install back on",
		Long: `Remove undoes "vouch enforce claude add" for the plugin NAME: it runs "claude plugin uninstall
NAME@vouch" (or prints it when no claude program is found), puts back every value vouch changed
in the user's settings.json for it (the original install is enabled again as it was), deletes
its staged folder and forgets it. Exit 0 when done; 1 when NAME is not enforced or a client
file could not be changed; 2 usage error.`,
		Example: `  vouch enforce claude remove my-plugin`,
	}, "claude", opts, func() error { return runEnforceClaudeRemove(opts) })
}

func runEnforceClaudeRemove(opts *enforcePluginOptions) error {
	a := opts.app
	env, p, err := a.claudeEnv(opts.client, opts.json)
	if err != nil {
		return err
	}
	if err := claude.Remove(env, p, opts.plugin); err != nil {
		return a.fail(1, "enforce", errSentence(err.Error()))
	}
	if opts.json {
		writeJSON(a.stdout, struct {
			docHead
			claudePluginDoc
		}{head("enforce claude remove"), enforcedClaudePlugin(opts.plugin)})
		return nil
	}
	fmt.Fprintf(a.stdout, "%s is no longer enforced; its other installs are as they were before\n", display.Line(opts.plugin))
	return nil
}

type enforceClaudeDenyOptions struct {
	app  *app
	deny bool
}

func newEnforceClaudeDenyCommand(a *app, deny bool) *cobra.Command {
	opts := &enforceClaudeDenyOptions{app: a, deny: deny}
	cmd := &cobra.Command{
		Use:   "deny-unapproved",
		Short: "Refuse, in the user's settings, every MCP server of a plugin installed outside vouch that is not approved, and turn such plugins off",
		Long: `Plugins installed outside vouch are the user's business until asked. deny-unapproved (opt-in)
adds to the user's settings.json a deniedMcpServers entry {"serverName": "plugin:P:S"} for every
MCP server of an installed plugin that vouch does not enforce and that is not approved now
(` + model.ClientLabel(model.ClientClaudeCode, claude.Version) + ` never starts such a server, and a project's settings cannot undo it; the
bare server name has no effect), and sets enabledPlugins to false for each such plugin.
"vouch enforce claude allow" undoes exactly what it added. Exit 0 when done; 1 when the
settings file could not be changed (one that does not parse is named and left as it is).`,
		Example: `  vouch enforce claude deny-unapproved
  vouch enforce claude allow`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runEnforceClaudeDeny(opts) },
	}
	if !deny {
		cmd.Use = "allow"
		cmd.Short = "Undo deny-unapproved: remove the entries it added and turn those plugins back on"
		cmd.Long = `Allow removes the deniedMcpServers entries "vouch enforce claude deny-unapproved" added to the
user's settings.json (entries written by anyone else stay) and gives every plugin it turned
off its value from before. Exit 0 when done; 1 when the settings file could not be changed.`
		cmd.Example = `  vouch enforce claude allow`
	}
	return cmd
}

func runEnforceClaudeDeny(opts *enforceClaudeDenyOptions) error {
	a := opts.app
	env, p, err := a.claudeEnv("", false)
	if err != nil {
		return err
	}
	run, verb := claude.Allow, "allowed again"
	if opts.deny {
		run, verb = claude.DenyUnapproved, "denied"
	}
	res, err := run(env, p)
	if err != nil {
		return a.fail(1, "enforce", errSentence(err.Error()))
	}
	for _, s := range res.Servers {
		fmt.Fprintf(a.stdout, "%s %s\n", verb, display.Line(s))
	}
	for _, id := range res.Disabled {
		what := "turned off"
		if !opts.deny {
			what = "restored"
		}
		fmt.Fprintf(a.stdout, "%s %s\n", what, display.Line(id))
	}
	if len(res.Servers)+len(res.Disabled) == 0 {
		fmt.Fprintln(a.stdout, "nothing to change")
	}
	return nil
}

type enforceClaudeManagedOptions struct{ app *app }

func newEnforceClaudeManagedCommand(a *app) *cobra.Command {
	opts := &enforceClaudeManagedOptions{app: a}
	return &cobra.Command{
		Use:   "managed",
		Short: "Print the managed-settings.json that makes enforcement hold against a project's settings",
		Long: `A checked-in project .claude/settings.json can turn a plugin the user turned off back on, and
"disableAllHooks" back off; user settings cannot stop that. Managed settings can (Claude Code
` + claude.Version + `; only an administrator can write them, on Linux ` + claude.ManagedPath + `).
This prints, for the plugins enforced now:
  strictKnownMarketplaces  only vouch's marketplace loads, installed plugins of others included
  allowManagedHooksOnly    no plugin hook runs except those of the plugins enabled below
  enabledPlugins           the guard and every enforced plugin, force-enabled
  deniedMcpServers         every server of a plugin outside vouch not approved now
Nothing is written. Exit 0.`,
		Example: `  vouch enforce claude managed | sudo tee ` + claude.ManagedPath,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			env, p, err := opts.app.claudeEnv("", false)
			if err != nil {
				return err
			}
			doc, err := claude.Managed(env, p)
			if err != nil {
				return opts.app.fail(1, "enforce", errSentence(err.Error()))
			}
			_, err = opts.app.stdout.Write(doc)
			return err
		},
	}
}

// markEnforced notes "enforced" on each installed Claude Code plugin that vouch staged
// (its folder is in vouch's marketplace and the enforcement record names it), so
// "status --claude" shows which installs run only approved bytes.
func (a *app) markEnforced(pkgs []*model.Package) {
	home, err := trust.ResolveHome(a.home)
	if err != nil {
		return
	}
	l := enforce.LayoutOf(home)
	st, err := enforce.LoadState(l)
	if err != nil {
		return
	}
	for _, p := range pkgs {
		if p.Format != model.FormatClaudeCode {
			continue
		}
		for _, e := range st.Entries(claude.ClientID) {
			if filepath.Clean(p.Root) == filepath.Clean(claude.PluginDir(l, e.Name)) && e.Phase == enforce.PhaseEnforced {
				p.Diagnostics = append(p.Diagnostics, model.Diagnostic{Code: "claude-enforced", Severity: model.SeverityInfo, Boundary: model.BoundaryPackage,
					Message: "Enforced: vouch staged this folder from approved bytes (from " + e.Source + "); Claude Code " + claude.Version + " loads the plugin only from here, and vouch re-stages or removes it on every approve and revoke."})
			}
		}
	}
}
