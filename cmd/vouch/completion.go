package main

import (
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"vouch/model"
	"vouch/review"
)

// refCommands take SOURCE then one or more REFs; their REFs are completed from the
// packages found in the SOURCE already typed. stage takes a DIR after one REF.
var refCommands = map[string]struct{ maxRefs int }{
	"approve": {-1}, "revoke": {-1}, "diff": {1}, "check": {1}, "stage": {1},
	"preview": {1}, "apply": {1}, "remove": {1},
}

// addCompletion wires shell completion: SOURCE completes as a path, REF from the source.
// It walks the command tree rather than editing each command so that a command added
// later gets it by being named in refCommands.
func (a *app) addCompletion(root *cobra.Command) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		spec, ok := refCommands[c.Name()]
		if !ok || c.ValidArgsFunction != nil {
			return
		}
		c.ValidArgsFunction = func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			if len(args) == 0 {
				return nil, cobra.ShellCompDirectiveDefault // SOURCE: files and directories
			}
			refs := len(args) - 1
			if spec.maxRefs >= 0 && refs >= spec.maxRefs {
				if c.Name() == "stage" && refs == 1 {
					return nil, cobra.ShellCompDirectiveFilterDirs
				}
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return completeRefs(args[0], args[1:], toComplete), cobra.ShellCompDirectiveNoFileComp
		}
	}
	walk(root)
}

// completeRefs lists the refs of SOURCE that start with prefix and are not typed yet.
// Loading never runs package code and reads within the usual limits; a source that
// cannot be read completes nothing rather than printing an error into the shell.
func completeRefs(source string, typed []string, prefix string) []string {
	if _, err := os.Stat(source); err != nil {
		return nil
	}
	res, err := review.Open(review.Options{}, source)
	if err != nil {
		return nil
	}
	seen := map[string]bool{}
	for _, t := range typed {
		seen[t] = true
	}
	names := map[string]int{}
	for _, p := range res.Packages {
		names[p.Name]++
	}
	var out []string
	for _, p := range res.Packages {
		for _, c := range p.Components {
			ref := p.Ref(c)
			if names[p.Name] > 1 {
				// Packages sharing a name (one folder read by two clients) share plain
				// refs: offer the one that names the package.
				ref = p.QualifiedRef(c)
			}
			if seen[ref] || !strings.HasPrefix(ref, prefix) || !shellSafe(ref) {
				continue
			}
			seen[ref] = true
			out = append(out, ref)
		}
	}
	sort.Strings(out)
	return out
}

// shellSafe keeps refs whose text a shell completion script can print as is: package
// names are package text, and a control character or newline in a candidate would be
// written straight into the user's terminal line.
func shellSafe(ref string) bool {
	for _, r := range ref {
		if r < 0x20 || r == 0x7f || model.IsHiddenRune(r) {
			return false
		}
	}
	return true
}
