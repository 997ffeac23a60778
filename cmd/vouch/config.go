package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/spf13/cobra"

	"vouch/internal/atomicfile"
)

// configPath is where a project keeps vouch's defaults, relative to a folder from the
// working directory up to the repository's top.
var configPath = filepath.Join(".vouch", "config.toml")

// maxConfigBytes bounds the read of a config file: it comes with a repository.
const maxConfigBytes = 256 << 10

// projectConfig is a project's .vouch/config.toml. Every key is optional; a flag given
// on the command line wins over its key.
type projectConfig struct {
	// Sources are the SOURCEs of validate, status and review when none is given.
	Sources []string `toml:"sources"`
	// Exclude are the --exclude patterns when no --exclude is given.
	Exclude []string `toml:"exclude"`
	// Ledger is the team ledger status, check, diff, stage and ledger read when --ledger
	// is not given. approve and revoke still record in the personal ledger unless told.
	Ledger string `toml:"ledger"`
	// Format is the --format of validate and status when neither --format nor --json is
	// given.
	Format string `toml:"format"`
}

// configKeys are the keys a config file may hold, in the order the help names them.
var configKeys = []string{"sources", "exclude", "ledger", "format"}

// loadedConfig is the config file a run uses, its paths resolved.
type loadedConfig struct {
	file    string // the file read; "" when there is none
	sources []string
	exclude []string
	ledger  string
	format  string
}

// config finds and reads the config file once per run: --config PATH, else
// .vouch/config.toml in the working directory or a folder above it up to the
// repository's top, none with --no-config. A file that does not parse, holds a key
// vouch does not know or a value it cannot use is an error (exit 2), never ignored.
func (a *app) config() (*loadedConfig, error) {
	if a.cfg != nil {
		return a.cfg, nil
	}
	if a.noConfig && a.configFile != "" {
		return nil, a.fail(2, "usage", "--config and --no-config contradict each other; give one of them.")
	}
	cfg := &loadedConfig{}
	file := a.configFile
	if file == "" && !a.noConfig {
		wd, err := os.Getwd()
		if err != nil {
			return nil, a.fail(2, "config", "Cannot find the working directory to look for "+configPath+": "+err.Error()+".")
		}
		file = findConfig(wd)
	}
	if file != "" {
		c, err := readConfig(file)
		if err != nil {
			return nil, a.fail(2, "config", err.Error())
		}
		cfg = resolveConfig(file, c)
	}
	a.cfg = cfg
	return cfg, nil
}

// findConfig looks for .vouch/config.toml in dir and each folder above it, up to the
// repository's top (the first folder holding .git). Outside a repository only dir
// itself is looked in: a file in a folder far above, such as /tmp, is not the project's.
func findConfig(dir string) string {
	top := gitTop(dir)
	for {
		p := filepath.Join(dir, configPath)
		if _, err := os.Lstat(p); err == nil {
			return p
		}
		parent := filepath.Dir(dir)
		if top == "" || dir == top || parent == dir {
			return ""
		}
		dir = parent
	}
}

// gitTop is the first folder from dir up that holds .git (a folder, or the file a
// worktree or submodule has), "" when there is none. It asks no git: vouch check reads
// the config too, before every tool call a harness dispatches.
func gitTop(dir string) string {
	for {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// readConfig reads and checks a config file strictly: unknown keys and values of the
// wrong type or outside their set are errors that name the file, the line and the key.
func readConfig(file string) (projectConfig, error) {
	var c projectConfig
	data, err := atomicfile.ReadRegular(file, maxConfigBytes)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return c, fmt.Errorf("The config file %s does not exist.", file)
		}
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return c, fmt.Errorf("Cannot read the config file %s: %v.", file, err)
	}
	md, err := toml.Decode(string(data), &c)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return c, fmt.Errorf("%s line %d: %s.", file, pe.Position.Line, strings.TrimSuffix(pe.Message, "."))
		}
		// A value of the wrong type: "toml: line N (last key "k"): incompatible types...".
		msg := strings.TrimPrefix(err.Error(), "toml: ")
		if m := typeErr.FindStringSubmatch(msg); m != nil {
			return c, fmt.Errorf("%s line %s: %s: %s.", file, m[1], m[2], m[3])
		}
		return c, fmt.Errorf("%s: %s.", file, msg)
	}
	// The decoder matches a key to a field ignoring case, so "Sources" would be read as
	// sources: every key must be spelled exactly as vouch names it.
	for _, k := range md.Keys() {
		if !slices.Contains(configKeys, k[0]) {
			return c, fmt.Errorf("%s: unknown key %q; a config file holds %s.", at(file, data, k[0]), k[0], strings.Join(configKeys, ", "))
		}
	}
	if keys := md.Undecoded(); len(keys) > 0 {
		// The first part is what is unknown: a table or dotted key under it is no better.
		return c, fmt.Errorf("%s: unknown key %q; a config file holds %s.", at(file, data, keys[0][0]), keys[0][0], strings.Join(configKeys, ", "))
	}
	if c.Format != "" && !validFormat(c.Format) {
		return c, fmt.Errorf("%s: format %q is not one of text, json, sarif, github.", at(file, data, "format"), c.Format)
	}
	for _, p := range c.Exclude {
		if err := checkPattern(p); err != nil {
			return c, fmt.Errorf("%s: exclude %s.", at(file, data, "exclude"), err)
		}
	}
	for _, s := range c.Sources {
		if s == "" || strings.ContainsRune(s, 0) {
			return c, fmt.Errorf("%s: sources holds %q, which is not a path.", at(file, data, "sources"), s)
		}
	}
	if strings.ContainsRune(c.Ledger, 0) || (md.IsDefined("ledger") && c.Ledger == "") {
		return c, fmt.Errorf("%s: ledger %q is not a path.", at(file, data, "ledger"), c.Ledger)
	}
	return c, nil
}

// typeErr takes apart the decoder's message for a value of the wrong type.
var typeErr = regexp.MustCompile(`^line (\d+) \(last key ("[^"]*")\): (.*)$`)

// at names a place in the config file: the file and the line key is set on, when found.
func at(file string, data []byte, key string) string {
	if n := keyLine(string(data), key); n > 0 {
		return file + " line " + strconv.Itoa(n)
	}
	return file
}

// keyLine is the first line that sets the top-level key: as `key = ...`, as a dotted
// `key.sub = ...`, or as a table header `[key]` / `[key.sub]` / `[[key]]`, bare or quoted.
// 0 when none does. It is for messages only; the file's meaning comes from the decoder.
func keyLine(text, key string) int {
	for i, line := range strings.Split(text, "\n") {
		s := strings.TrimSpace(line)
		if strings.HasPrefix(s, "[") {
			s = strings.Trim(strings.TrimSpace(strings.TrimLeft(s, "[")), "]")
		} else if eq := strings.IndexByte(s, '='); eq > 0 {
			s = s[:eq]
		} else {
			continue
		}
		if firstKey(strings.TrimSpace(s)) == key {
			return i + 1
		}
	}
	return 0
}

// firstKey is the first part of a dotted TOML key, unquoted.
func firstKey(s string) string {
	if s == "" {
		return ""
	}
	if q := s[0]; q == '"' || q == '\'' {
		if end := strings.IndexByte(s[1:], q); end >= 0 {
			if q == '"' {
				if u, err := strconv.Unquote(s[:end+2]); err == nil {
					return u
				}
			}
			return s[1 : end+1]
		}
		return ""
	}
	if dot := strings.IndexByte(s, '.'); dot >= 0 {
		s = s[:dot]
	}
	return strings.TrimSpace(s)
}

// resolveConfig makes the file's paths usable from the working directory: a relative
// path in it is relative to the project, the folder that holds .vouch (for a file given
// with --config outside a .vouch folder, the file's own folder), and is given back
// relative to the working directory where it can be, so reports print short paths.
func resolveConfig(file string, c projectConfig) *loadedConfig {
	abs, err := filepath.Abs(file)
	if err != nil {
		abs = file
	}
	base := filepath.Dir(abs)
	if filepath.Base(base) == ".vouch" {
		base = filepath.Dir(base)
	}
	wd, _ := os.Getwd()
	path := func(p string) string {
		if !filepath.IsAbs(p) {
			p = filepath.Join(base, filepath.FromSlash(p))
		}
		if wd != "" {
			if r, err := filepath.Rel(wd, p); err == nil {
				return r
			}
		}
		return p
	}
	out := &loadedConfig{file: file, exclude: c.Exclude, format: c.Format}
	for _, s := range c.Sources {
		out.sources = append(out.sources, path(s))
	}
	if c.Ledger != "" {
		out.ledger = path(c.Ledger)
	}
	return out
}

// validFormat reports whether f is one of the report formats validate and status print.
func validFormat(f string) bool {
	switch f {
	case "text", "json", "sarif", "github":
		return true
	}
	return false
}

// The commands each part of the config file applies to, by command path.
var (
	// sourceCommands take SOURCEs: they get --exclude, and the file's exclude.
	sourceCommands = map[string]bool{"validate": true, "status": true, "review": true, "approve": true, "revoke": true,
		"diff": true, "check": true, "stage": true, "instructions preview": true, "instructions apply": true,
		"instructions remove": true, "enforce claude add": true, "enforce codex add": true}
	// configSourceCommands review the file's sources when given no SOURCE.
	configSourceCommands = map[string]bool{"validate": true, "status": true, "review": true}
	// configLedgerCommands read the file's ledger as their --ledger; approve and revoke,
	// whose --ledger says where a decision is recorded, do not.
	configLedgerCommands = map[string]bool{"status": true, "check": true, "diff": true, "stage": true, "ledger": true}
)

// useConfig wires the config file and --exclude into every command that takes them.
// It wraps each command's argument check and run rather than its constructor, so a
// command's own code stays as it is: the file is read only by commands that use it (a
// broken file never stops vouch version), before the arguments are checked (its sources
// stand in for missing SOURCEs), and a flag given on the command line always wins.
func (a *app) useConfig(root *cobra.Command) {
	for path, c := range commandTree(root) {
		if !sourceCommands[path] && !configLedgerCommands[path] {
			continue
		}
		var exclude *[]string
		if sourceCommands[path] {
			exclude = c.Flags().StringArray("exclude", nil, excludeHelp)
		}
		if configSourceCommands[path] {
			check := c.Args
			c.Args = func(cmd *cobra.Command, args []string) error {
				if len(args) == 0 && !flagOn(cmd, "claude") {
					cfg, err := a.config()
					if err != nil {
						return err
					}
					if len(cfg.sources) > 0 {
						return nil
					}
				}
				if check == nil {
					return nil
				}
				return check(cmd, args)
			}
		}
		run := c.RunE
		c.RunE = func(cmd *cobra.Command, args []string) error {
			args, err := a.applyConfig(cmd, path, args, exclude)
			if err != nil {
				return err
			}
			return run(cmd, args)
		}
	}
}

// applyConfig sets what the config file says where the command line said nothing, and
// returns the arguments to run with.
func (a *app) applyConfig(cmd *cobra.Command, path string, args []string, exclude *[]string) ([]string, error) {
	cfg, err := a.config()
	if err != nil {
		return nil, err
	}
	if configSourceCommands[path] && len(args) == 0 && !flagOn(cmd, "claude") {
		args = cfg.sources
	}
	if configLedgerCommands[path] && cfg.ledger != "" && !cmd.Flags().Changed("ledger") {
		if err := cmd.Flags().Set("ledger", cfg.ledger); err != nil {
			return nil, err
		}
	}
	if f := cmd.Flags().Lookup("format"); f != nil && cfg.format != "" && !cmd.Flags().Changed("format") && !cmd.Flags().Changed("json") {
		if err := f.Value.Set(cfg.format); err != nil {
			return nil, err
		}
	}
	if exclude != nil {
		patterns := cfg.exclude
		if cmd.Flags().Changed("exclude") {
			// --exclude '' is how a command line says "none" over the config's list.
			patterns = nil
			for _, p := range *exclude {
				if p == "" {
					continue
				}
				if err := checkPattern(p); err != nil {
					return nil, a.fail(2, "usage", "--exclude "+err.Error()+".")
				}
				patterns = append(patterns, p)
			}
		}
		a.exclude = excludeMatcher(patterns)
	}
	return args, nil
}

// flagOn reports whether a bool flag of cmd is set.
func flagOn(cmd *cobra.Command, name string) bool {
	f := cmd.Flags().Lookup(name)
	return f != nil && f.Value.String() == "true"
}

// commandTree lists every command under root by its path ("approve", "ledger trust").
func commandTree(root *cobra.Command) map[string]*cobra.Command {
	out := map[string]*cobra.Command{}
	var walk func(c *cobra.Command, prefix string)
	walk = func(c *cobra.Command, prefix string) {
		for _, sub := range c.Commands() {
			out[prefix+sub.Name()] = sub
			walk(sub, prefix+sub.Name()+" ")
		}
	}
	walk(root, "")
	return out
}

// configTopic is "vouch help config": the config file, its keys and how flags win.
func configTopic() *cobra.Command {
	return &cobra.Command{
		Use:   "config",
		Short: "The project config file .vouch/config.toml: sources, exclude, ledger, format",
		Long: `A project can keep vouch's defaults in .vouch/config.toml. vouch looks for it in the
working directory and each folder above it up to the repository's top (outside a
repository, in the working directory only); --config PATH reads another file and
--no-config reads none. Every key is optional; a relative path in it is relative to the
folder that holds .vouch, wherever vouch runs from.

  sources   SOURCEs for validate, status and review when the command line gives none
  exclude   patterns the search below each SOURCE leaves out (as --exclude GLOB)
  ledger    the team ledger status, check, diff, stage and ledger read (as --ledger);
            approve and revoke still record in the personal ledger unless --ledger is given
  format    the output of validate and status: text, json, sarif or github (as --format)

A flag on the command line wins over its key: SOURCE arguments over sources, --exclude
over exclude (it replaces the list), --ledger over ledger, --format or --json over format.

The file is read strictly: a key vouch does not know, a value of the wrong type, a format
outside the four, or a pattern that is not a glob is an error (exit 2) naming the file and
the line, never ignored. A config file comes with the repository, as a team ledger does:
a change can edit it, so scripts/ci-gate reads none (it passes --no-config) and every
excluded folder is named in the report's search-excluded note.

Patterns: a GLOB without / matches a folder or file name at any depth (node_modules,
*.tar.gz); one with / matches the path from the SOURCE (vendor/*, /old, **/testdata), ** standing for
any number of folders. An excluded folder is not searched; a path given as SOURCE is
reviewed whatever the patterns say.`,
		Example: `  # .vouch/config.toml
  sources = ["plugins", ".claude/skills"]
  exclude = ["node_modules", "**/testdata"]
  ledger  = ".vouch/ledger.toml"
  format  = "text"

  vouch status                       # plugins and .claude/skills, less what exclude names
  vouch status --exclude '' plugins  # a flag wins: only plugins, nothing excluded
  vouch validate --no-config examples`,
	}
}
