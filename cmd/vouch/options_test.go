package main

import (
	"bytes"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// commandsByPath lists every command of the tree under its path ("approve",
// "ledger trust"), root excluded.
func commandsByPath(root *cobra.Command) map[string]*cobra.Command {
	out := map[string]*cobra.Command{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			out[strings.TrimPrefix(sub.CommandPath(), root.Name()+" ")] = sub
			walk(sub)
		}
	}
	walk(root)
	return out
}

// ownFlags are the flags a command defines itself: not --help, not the inherited --home.
func ownFlags(c *cobra.Command) []*pflag.Flag {
	var fs []*pflag.Flag
	c.NonInheritedFlags().VisitAll(func(f *pflag.Flag) {
		if f.Name != "help" {
			fs = append(fs, f)
		}
	})
	return fs
}

// Every flag of every command is bound to that command's own options value: setting one
// flag on one command changes no other flag anywhere in the tree. With a field shared
// on app (approve's --source-id once wrote the same variable as check's) or one options
// struct bound by several commands, setting the flag on one command shows up on another.
func TestFlagsBindOwnOptions(t *testing.T) {
	type row struct{ cmd, flag, value string }
	var rows []row
	for path, c := range commandsByPath((&app{}).rootCommand()) {
		for _, f := range ownFlags(c) {
			v := "sentinel-" + strings.ReplaceAll(path, " ", "-") + "-" + f.Name
			if f.Value.Type() == "bool" {
				v = "true"
			}
			rows = append(rows, row{path, f.Name, v})
		}
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].cmd+" "+rows[i].flag < rows[j].cmd+" "+rows[j].flag })
	// The commands whose flags used to share state must be among the rows.
	for _, want := range []string{"approve --source-id", "revoke --source-id", "diff --source-id", "check --source-id",
		"stage --source-id", "validate --source-id", "status --source-id", "instructions preview --source-id",
		"review --claude", "version --json", "ledger trust --yes", "ledger untrust --json", "instructions list --json"} {
		found := false
		for _, r := range rows {
			found = found || r.cmd+" --"+r.flag == want
		}
		if !found {
			t.Fatalf("no flag %s in the command tree", want)
		}
	}
	for _, r := range rows {
		t.Run(r.cmd+"/--"+r.flag, func(t *testing.T) {
			a := &app{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
			cmds := commandsByPath(a.rootCommand())
			if err := cmds[r.cmd].ParseFlags([]string{"--" + r.flag + "=" + r.value}); err != nil {
				t.Fatal(err)
			}
			want := r.value
			if strings.HasSuffix(cmds[r.cmd].Flags().Lookup(r.flag).Value.Type(), "Array") {
				want = "[" + want + "]" // a repeatable flag prints as a list
			}
			if got := cmds[r.cmd].Flags().Lookup(r.flag).Value.String(); got != want {
				t.Fatalf("vouch %s --%s=%s left the flag at %q", r.cmd, r.flag, r.value, got)
			}
			for path, c := range cmds {
				for _, f := range ownFlags(c) {
					if path == r.cmd && f.Name == r.flag {
						continue
					}
					if got := f.Value.String(); got != f.DefValue {
						t.Errorf("vouch %s --%s=%s changed vouch %s --%s from %q to %q: the two share a variable",
							r.cmd, r.flag, r.value, path, f.Name, f.DefValue, got)
					}
				}
			}
		})
	}
}
