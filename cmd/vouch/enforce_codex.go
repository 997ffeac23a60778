package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"vouch/enforce/codex"
	"vouch/model"
	rcodex "vouch/review/codex"
	"vouch/ui/display"
)

func newEnforceCodexCommand(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "codex",
		Short: "Make Codex run only approved plugin bytes, with its own hook trust",
		Long: model.ClientLabel(model.ClientCodex, codex.Version) + ` runs a plugin from the copy "codex plugin add" puts in its cache, and runs a
plugin hook only while [hooks.state."KEY"] in the user's config.toml holds both its definition
hash and the plugin's fingerprint; any byte changed in the plugin makes every hook of it
"modified", and Codex skips it. vouch keeps its own Codex marketplace, named "vouch", under its
home: "add" stages an approved plugin into it, installs NAME@vouch, checks that the cache copy
is the staged one, and writes that trust for the approved hooks and enabled = false for MCP
servers that are not approved.`,
		Example: `  vouch enforce codex add ./my-plugin
  vouch enforce codex remove my-plugin
  vouch enforce codex managed`,
	}
	cmd.AddCommand(newEnforceCodexAddCommand(a), newEnforceCodexRemoveCommand(a), newEnforceCodexManagedCommand(a))
	return cmd
}

type enforceCodexAddOptions struct {
	enforcePluginOptions
	partial bool
}

func newEnforceCodexAddCommand(a *app) *cobra.Command {
	opts := &enforceCodexAddOptions{enforcePluginOptions: enforcePluginOptions{app: a}}
	cmd := clientPluginCommand(&cobra.Command{
		Use:   "add [--client PATH] [--partial] [--json] SOURCE",
		Short: "Stage an approved Codex plugin into vouch's marketplace and trust exactly those bytes",
		Long: `SOURCE is a Codex plugin folder (.codex-plugin/plugin.json, or a Claude Code plugin, whose
manifest Codex reads), or NAME@MARKETPLACE of a plugin Codex has installed (its cache copy).
The plugin is staged only when every component Codex uses (hooks, MCP servers, apps, skills) is
approved now; otherwise nothing is written, what is missing is listed and the exit status is 1.
With --partial, hooks and MCP servers may be left unapproved: Codex then has no trust for those
hooks (it does not run them) and the servers are switched off with enabled = false.

Staging writes the approved bytes from the vouch store into a new folder renamed into
<home>/enforce/codex/marketplace/plugins/NAME. What Codex's fingerprint leaves out (__pycache__,
.venv, *.pyc, *.egg-info) or cannot hash (links) is refused, since Codex would run those bytes
without noticing a change. vouch then runs "codex plugin marketplace add" and "codex plugin add
NAME@vouch" with the codex program on PATH or --client (CODEX_HOME as set, default ~/.codex),
checks that the installed copy's fingerprint equals the staged folder's, and writes the trust
into CODEX_HOME/config.toml, keeping every other key, comment and table as it was. Without a
codex program it writes the trust (it binds the staged bytes only) and prints the commands.

Exit 0 when enforced; 1 when the plugin is not approved as required, what Codex installed is not
the staged copy, or config.toml could not be changed (a file that does not parse is named and
left as it is); 2 usage error.`,
		Example: `  vouch approve ./my-plugin 'my-plugin#hook:hooks/hooks.json:pre_tool_use:0:0' 'my-plugin#mcp-server:db'
  vouch enforce codex add ./my-plugin
  vouch enforce codex add --partial --client ~/bin/codex ./my-plugin`,
	}, "codex", &opts.enforcePluginOptions, func() error { return runEnforceCodexAdd(opts) })
	cmd.Flags().BoolVar(&opts.partial, "partial", false, "allow unapproved hooks (left untrusted) and MCP servers (switched off)")
	return cmd
}

// codexSource resolves SOURCE: a folder, or NAME@MARKETPLACE of Codex's cache.
func codexSource(source string) (string, error) {
	if st, err := os.Stat(source); err == nil && st.IsDir() {
		return source, nil
	}
	name, mk, ok := strings.Cut(source, "@")
	if !ok || name == "" || mk == "" || strings.ContainsAny(source, `/\`) {
		return "", fmt.Errorf("%s is not a folder; give a Codex plugin folder or NAME@MARKETPLACE of an installed plugin", source)
	}
	base := filepath.Join(rcodex.Home(), "plugins", "cache", mk, name)
	ents, err := os.ReadDir(base)
	if err != nil {
		return "", fmt.Errorf("Codex has no installed copy of %s (%s is missing)", source, base)
	}
	var dirs []string
	for _, e := range ents {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			dirs = append(dirs, e.Name())
		}
	}
	if len(dirs) != 1 {
		return "", fmt.Errorf("Codex's cache holds %d copies of %s under %s; give the folder of the one to enforce", len(dirs), source, base)
	}
	return filepath.Join(base, dirs[0]), nil
}

func runEnforceCodexAdd(opts *enforceCodexAddOptions) error {
	a := opts.app
	env, err := a.enforceEnv(opts.client, opts.json)
	if err != nil {
		return err
	}
	dir, err := codexSource(opts.plugin)
	if err != nil {
		return a.fail(2, "path-not-found", errSentence(err.Error()))
	}
	pkg, err := codex.PackageIn(env, dir)
	if err != nil {
		return a.fail(2, "not-a-codex-plugin", errSentence(err.Error()))
	}
	o, err := codex.EnvOptions(env, opts.partial)
	if err != nil {
		return a.fail(2, "client-not-found", errSentence(err.Error()))
	}
	res, err := codex.AddEnforced(env, pkg, o)
	var missing *codex.MissingError
	if errors.As(err, &missing) && opts.json {
		return a.fail(1, "not-approved", missing.Plugin+" was not enforced; not approved now: "+strings.Join(missing.Missing, ", ")+"; approve them (vouch approve), or pass --partial to leave unapproved hooks untrusted and servers off.")
	}
	if errors.As(err, &missing) {
		fmt.Fprintf(a.stderr, "vouch: %s was not enforced; not approved now:\n", display.Line(missing.Plugin))
		for _, m := range missing.Missing {
			fmt.Fprintf(a.stderr, "  %s\n", display.Line(m))
		}
		fmt.Fprintln(a.stderr, "  approve them (vouch approve), or pass --partial to leave unapproved hooks untrusted and servers off")
		return exitError{1}
	}
	if err != nil {
		return a.fail(1, "enforce", errSentence(err.Error()))
	}
	if opts.json {
		// A list the schema requires is [] when empty, never null.
		res.Trusted, res.ServersOff = append([]string{}, res.Trusted...), append([]string{}, res.ServersOff...)
		writeJSON(a.stdout, struct {
			docHead
			*codex.Added
		}{head("enforce codex add"), res})
		return nil
	}
	fmt.Fprintf(a.stdout, "staged %s into %s (fingerprint %s)\n", display.Line(pkg.Name), display.Line(res.Staged), display.Line(res.Fingerprint))
	if res.Installed != "" {
		fmt.Fprintf(a.stdout, "Codex installed %s at %s, the same bytes\n", display.Line(res.PluginID), display.Line(res.Installed))
	}
	fmt.Fprintf(a.stdout, "trusted %d hook(s) in %s; %d MCP server(s) switched off\n", len(res.Trusted), display.Line(filepath.Join(o.CodexHome, "config.toml")), len(res.ServersOff))
	printCommands(a, res.Commands)
	return nil
}

func printCommands(a *app, cmds []string) {
	if len(cmds) == 0 {
		return
	}
	fmt.Fprintln(a.stdout, "no codex program was found; run:")
	for _, c := range cmds {
		fmt.Fprintf(a.stdout, "  %s\n", display.Line(c))
	}
}

func newEnforceCodexRemoveCommand(a *app) *cobra.Command {
	opts := &enforcePluginOptions{app: a}
	return clientPluginCommand(&cobra.Command{
		Use:   "remove [--client PATH] [--json] NAME",
		Short: "Stop enforcing a Codex plugin: uninstall NAME@vouch and take vouch's trust out",
		Long: `Remove undoes "vouch enforce codex add" for the plugin NAME: it runs "codex plugin remove
NAME@vouch", takes vouch's [hooks.state] and server tables for it out of config.toml, deletes
its staged folder and marketplace entry, and forgets it. Without a codex program, while Codex
still has the plugin installed, it takes the trust of every hook of it away and switches every
MCP server of it off (nothing of those runs in the next session), prints the command to run,
and finishes when run again. Exit 0 when done; 1 when a file could not be changed or the
command must be run first; 2 usage error.`,
		Example: `  vouch enforce codex remove my-plugin`,
	}, "codex", opts, func() error { return runEnforceCodexRemove(opts) })
}

func runEnforceCodexRemove(opts *enforcePluginOptions) error {
	a := opts.app
	env, err := a.enforceEnv(opts.client, opts.json)
	if err != nil {
		return err
	}
	o, err := codex.EnvOptions(env, false)
	if err != nil {
		return a.fail(2, "client-not-found", errSentence(err.Error()))
	}
	res, err := codex.RemoveEnforced(env, opts.plugin, o)
	if err != nil {
		return a.fail(1, "enforce", errSentence(err.Error()))
	}
	if opts.json {
		writeJSON(a.stdout, struct {
			docHead
			*codex.Removed
		}{head("enforce codex remove"), res})
	} else if res.Done {
		fmt.Fprintf(a.stdout, "%s is no longer enforced in Codex\n", display.Line(res.PluginID))
	} else {
		fmt.Fprintf(a.stdout, "%s: every hook of it is untrusted and every MCP server of it off in config.toml\n", display.Line(res.PluginID))
		printCommands(a, res.Commands)
		fmt.Fprintln(a.stdout, "then run this again to finish")
	}
	if !res.Done {
		return exitError{1}
	}
	return nil
}

func newEnforceCodexManagedCommand(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "managed",
		Short: "Print what an administrator can add for Codex, and what holds without it",
		Long: `Managed prints, for ` + model.ClientLabel(model.ClientCodex, codex.Version) + `, what holds without admin files and what does not. Codex reads
hook trust only from the user's config.toml (a project's .codex/config.toml cannot trust a
hook), so a checked-in project file cannot make an enforced plugin's hooks run; no admin file
is needed for that. Codex's requirements.toml (/etc/codex/requirements.toml) has
allow_managed_hooks_only = true, which removes every plugin hook, vouch's included: it is a way
to stop plugin hooks altogether, not to enforce approvals, so vouch does not print it as one.`,
		Example: `  vouch enforce codex managed`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprint(a.stdout, codexManagedText)
			return nil
		},
	}
}

var codexManagedText = `# ` + model.ClientLabel(model.ClientCodex, codex.Version) + `: what holds without admin files
#
# Holds: hook trust is read only from the user's config.toml; a project's .codex/config.toml
# cannot trust a hook, so a checked-in project file cannot make an enforced plugin's hooks run.
# An enforced plugin's hooks run only from bytes vouch staged (any changed byte makes Codex
# skip them as "modified").
#
# Does not hold: "codex --dangerously-bypass-hook-trust" runs every enabled hook for one run;
# a plugin installed from another marketplace runs under its own trust ("vouch enforce status"
# names it); MCP servers and skills have no content binding in Codex, only switches, and a
# project the user trusts can turn a server back on in its .codex/config.toml ("vouch enforce
# status" names it; an untrusted project's file is ignored).
#
# /etc/codex/requirements.toml can set
#   allow_managed_hooks_only = true
# which removes all plugin hooks, vouch's included. vouch prints no requirements.toml that
# would enforce approvals: none was verified against ` + model.ClientLabel(model.ClientCodex, codex.Version) + `.
`
