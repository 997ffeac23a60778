package closure

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"vouch/internal/lazyre"
	"vouch/model"
)

// Process is how a runnable component starts, as its format declares it, with the
// format's placeholders already expanded (${PLUGIN_ROOT}, ${CLAUDE_PLUGIN_ROOT}...).
// NotCoveredBy reads it; nothing is run.
type Process struct {
	// Command is the program as declared: one token.
	Command string
	// Bundled is true when Command names a file of the package (./bin/server): its bytes
	// are in the closure, so it is not looked up on PATH.
	Bundled bool
	// Interpreter is the #! line of a bundled command (Result.Interpreters), "" when it
	// has none: the kernel runs that program, which is not part of the package.
	Interpreter string
	// Args are the arguments, expanded. An interpreter a format picks by name (a Dalo
	// tool's runtime "node") is a bare Command like any other: found on PATH.
	Args []string
	// Env holds the variables the component sets, in declaration order, values expanded.
	// Inherit holds the names it receives from the user's environment (Dalo's env list).
	Env     []EnvVar
	Inherit []string
	// Root is the package root as the client sees it (absolute); Cwd is the directory the
	// process starts in (absolute, "" for Root); Data is the per-plugin data directory
	// (absolute, "" when the format has none).
	Root, Cwd, Data string
	// DataName is how the format spells the data directory in messages ("${PLUGIN_DATA}").
	DataName string
	// Starts says when the process starts, for messages ("the server starts").
	Starts string
	// Vars are the variables a shell line finds set when it runs (the client's own, such
	// as CLAUDE_PLUGIN_ROOT), with the values findings are classified by (marker paths).
	// Every other variable comes from the user's environment: a word that uses one names
	// nothing vouch can place. Only NotCoveredByShell reads it.
	Vars map[string]string
}

// EnvVar is one environment variable a component sets.
type EnvVar struct{ Name, Value string }

// codeEnv are the variables that make a runtime or the dynamic loader load code named in
// their value (or change which program a bare name finds). DYLD_* is matched by prefix.
var codeEnv = map[string]string{
	"NODE_OPTIONS":      "makes node load the modules and flags it names (--require, --import)",
	"NODE_PATH":         "adds directories node resolves modules from",
	"PYTHONPATH":        "adds directories Python imports modules from",
	"PYTHONSTARTUP":     "names a file Python runs at interactive start",
	"PYTHONHOME":        "replaces Python's standard library location",
	"PYTHONUSERBASE":    "changes where Python finds user site-packages (and their .pth files)",
	"LD_PRELOAD":        "makes the dynamic loader load the libraries it names into the process",
	"LD_LIBRARY_PATH":   "adds directories the dynamic loader loads libraries from",
	"LD_AUDIT":          "makes the dynamic loader load the audit libraries it names",
	"PERL5OPT":          "adds options (such as -M modules) to every perl run",
	"PERL5LIB":          "adds directories perl loads modules from",
	"PERLLIB":           "adds directories perl loads modules from",
	"RUBYOPT":           "adds options (such as -r libraries) to every ruby run",
	"RUBYLIB":           "adds directories ruby loads libraries from",
	"JAVA_TOOL_OPTIONS": "adds options (such as -javaagent) to every JVM",
	"_JAVA_OPTIONS":     "adds options (such as -javaagent) to every JVM",
	"JDK_JAVA_OPTIONS":  "adds options to the java launcher",
	"BASH_ENV":          "names a file bash runs before any non-interactive script",
	"ENV":               "names a file sh runs at start",
	"PATH":              "changes which program every bare command name finds",
}

// LoadsCode reports whether setting the variable name can make a process load code, and
// says how. Names are compared as Windows does, without case.
func LoadsCode(name string) (string, bool) {
	up := strings.ToUpper(name)
	if how, ok := codeEnv[up]; ok {
		return how, true
	}
	if strings.HasPrefix(up, "DYLD_") {
		return "makes the macOS dynamic loader load libraries it names", true
	}
	return "", false
}

// Launch is a launcher invocation that downloads a package at start.
type Launch struct {
	Launcher string // "npx", "pnpm dlx", "uvx"...
	Spec     string // the package as given ("x@latest", "black==24.1.0")
	Package  string // its name
	Version  string // the version asked for, "" when none
	Pinned   bool   // Version names exactly one release
	Registry string // "npm", "PyPI", or "a URL" for specs that are URLs
}

var (
	exactSemver = lazyre.New(`^v?\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)
	exactPEP440 = lazyre.New(`^\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?$`)
)

// launcherKinds: the launcher's name (and sub-command) → the ecosystem it downloads from
// and the flags that take a value; the package flag names the package when given.
type launcherKind struct {
	name     string
	sub      []string // leading arguments that make the command a launcher ("dlx")
	python   bool
	pkgFlags []string // flags whose value is the package spec
	valFlags []string // other flags that take a value
}

var launchers = map[string][]launcherKind{
	"npx":  {{name: "npx", pkgFlags: []string{"-p", "--package"}, valFlags: []string{"-c", "--call", "--registry", "--cache", "--userconfig", "-w", "--workspace"}}},
	"pnpx": {{name: "pnpx", pkgFlags: []string{"-p", "--package"}}},
	"bunx": {{name: "bunx", pkgFlags: []string{"-p", "--package"}}},
	"npm":  {{name: "npm exec", sub: []string{"exec"}, pkgFlags: []string{"-p", "--package"}, valFlags: []string{"-c", "--call", "--registry", "-w", "--workspace"}}, {name: "npm x", sub: []string{"x"}, pkgFlags: []string{"-p", "--package"}}},
	"pnpm": {{name: "pnpm dlx", sub: []string{"dlx"}, pkgFlags: []string{"--package"}}, {name: "pnpm exec", sub: []string{"exec"}}},
	"yarn": {{name: "yarn dlx", sub: []string{"dlx"}, pkgFlags: []string{"-p", "--package"}}},
	"bun":  {{name: "bun x", sub: []string{"x"}, pkgFlags: []string{"-p", "--package"}}},
	"uvx":  {{name: "uvx", python: true, pkgFlags: []string{"--from"}, valFlags: []string{"--with", "-w", "--python", "-p", "--index", "--index-url"}}},
	"uv":   {{name: "uv tool run", sub: []string{"tool", "run"}, python: true, pkgFlags: []string{"--from"}, valFlags: []string{"--with", "-w", "--python", "-p", "--index", "--index-url"}}},
	"pipx": {{name: "pipx run", sub: []string{"run"}, python: true, pkgFlags: []string{"--spec"}, valFlags: []string{"--python", "--index-url", "--pip-args"}}},
}

// Launcher recognises a command that downloads and runs a package at start (npx, bunx,
// pnpm dlx, yarn dlx, uvx, uv tool run, pipx run, npm exec) and parses the package it
// fetches. ok is false for anything else, and for "pnpm exec" (it runs installed code).
func Launcher(command string, args []string) (Launch, bool) {
	base := path.Base(strings.ReplaceAll(command, "\\", "/"))
	base = strings.TrimSuffix(strings.TrimSuffix(base, ".cmd"), ".exe")
	for _, k := range launchers[base] {
		if len(args) < len(k.sub) {
			continue
		}
		match := true
		for i, s := range k.sub {
			if args[i] != s {
				match = false
			}
		}
		if !match || k.name == "pnpm exec" {
			continue
		}
		rest := args[len(k.sub):]
		spec := ""
		for i := 0; i < len(rest); i++ {
			a := rest[i]
			if a == "--" {
				if spec == "" && i+1 < len(rest) {
					spec = rest[i+1]
				}
				break
			}
			if strings.HasPrefix(a, "-") {
				name, val, hasVal := strings.Cut(a, "=")
				if slices.Contains(k.pkgFlags, name) {
					if !hasVal && i+1 < len(rest) {
						val = rest[i+1]
						i++
					}
					if spec == "" {
						spec = val
					}
					continue
				}
				if slices.Contains(k.valFlags, name) && !hasVal {
					i++
				}
				continue
			}
			if spec == "" {
				spec = a
			}
			break
		}
		if spec == "" {
			return Launch{}, false
		}
		l := Launch{Launcher: k.name, Spec: spec}
		if k.python {
			l.Registry = "PyPI"
			l.Package, l.Version, l.Pinned = pythonSpec(spec)
		} else {
			l.Registry = "npm"
			l.Package, l.Version, l.Pinned = npmSpec(spec)
		}
		if strings.Contains(spec, "://") || strings.HasPrefix(spec, "git+") || strings.HasPrefix(spec, "github:") {
			l.Registry, l.Package, l.Version, l.Pinned = "a URL", spec, "", false
		}
		return l, true
	}
	return Launch{}, false
}

// npmSpec splits name@version (a scope's leading @ is part of the name).
func npmSpec(s string) (name, version string, pinned bool) {
	at := strings.LastIndex(s, "@")
	if at <= 0 {
		return s, "", false
	}
	name, version = s[:at], s[at+1:]
	return name, version, exactSemver.MatchString(version)
}

// pythonSpec splits name==version (pip) or name@version (uvx); extras stay in the name.
func pythonSpec(s string) (name, version string, pinned bool) {
	if n, v, ok := strings.Cut(s, "=="); ok {
		return strings.TrimSpace(n), strings.TrimSpace(v), exactPEP440.MatchString(strings.TrimSpace(v))
	}
	if n, v, ok := strings.Cut(s, "@"); ok && !strings.Contains(v, "/") {
		return n, v, exactPEP440.MatchString(v)
	}
	if i := strings.IndexAny(s, "<>=!~"); i > 0 {
		return s[:i], s[i:], false
	}
	return s, "", false
}

// NotCoveredBy lists what the process depends on that no approval of the package can
// bind. The order is stable: the program, the package a launcher fetches, paths named in
// arguments, variables that load code, paths named in variables, the data directory.
func NotCoveredBy(p Process) []model.NotCovered {
	var out []model.NotCovered
	seen := map[string]bool{}
	add := func(kind, subject, detail string) {
		k := kind + "\x00" + subject
		if seen[k] {
			return
		}
		seen[k] = true
		out = append(out, model.NotCovered{Kind: kind, Subject: subject, Detail: detail})
	}
	starts := p.Starts
	if starts == "" {
		starts = "it starts"
	}
	dataName := p.DataName
	if dataName == "" {
		dataName = "the data directory"
	}
	if p.Command != "" && !p.Bundled && !strings.ContainsAny(p.Command, "/\\") {
		add(model.NotCoveredPathProgram, p.Command, fmt.Sprintf("%s is looked up on the user's PATH when %s; which program that is, and its version, is outside this approval.", p.Command, starts))
	}
	if p.Bundled && p.Interpreter != "" {
		prog, args := interpreter(p.Interpreter)
		switch {
		case prog == "":
		case path.Base(prog) == "env" && len(args) > 0:
			add(model.NotCoveredPathProgram, args[0], fmt.Sprintf("%s starts with #!%s, so %s is looked up on the user's PATH when %s; which program that is, and its version, is outside this approval.", p.Command, p.Interpreter, args[0], starts))
		case !within(p.Root, path.Clean(prog)):
			add(model.NotCoveredPathProgram, prog, fmt.Sprintf("%s starts with #!%s, so the program %s, outside the package, runs it; that program is not part of this approval.", p.Command, p.Interpreter, prog))
		}
	}
	if l, ok := Launcher(p.Command, p.Args); ok {
		switch {
		case l.Pinned:
			add(model.NotCoveredPinned, l.Spec, fmt.Sprintf("%s downloads %s pinned to version %s from %s when %s (or takes it from its cache); those bytes are not part of this approval.", l.Launcher, l.Package, l.Version, registryName(l.Registry), starts))
		case l.Version == "" || l.Version == "latest":
			what := "with no version"
			if l.Version == "latest" {
				what = "at @latest"
			}
			add(model.NotCoveredFetch, l.Spec, fmt.Sprintf("%s downloads %s %s from %s when %s: it runs whatever is published then, not what you approve here.", l.Launcher, l.Package, what, registryName(l.Registry), starts))
		default:
			add(model.NotCoveredFetch, l.Spec, fmt.Sprintf("%s downloads %s at %q, which is not one fixed version, from %s when %s: it runs whatever matches then, not what you approve here.", l.Launcher, l.Package, l.Version, registryName(l.Registry), starts))
		}
	}
	cwd := p.Cwd
	if cwd == "" {
		cwd = p.Root
	}
	usesData := p.Data != "" && within(p.Data, cwd)
	for _, a := range p.Args {
		for _, tok := range pathTokens(a, false) {
			switch where(tok, p.Root, cwd, p.Data) {
			case outside:
				add(model.NotCoveredOutside, tok, fmt.Sprintf("The argument %q names %s, outside the package; whatever is there when %s is not part of this approval.", a, tok, starts))
			case inData:
				usesData = true
			}
		}
	}
	for _, e := range p.Env {
		if how, ok := LoadsCode(e.Name); ok {
			add(model.NotCoveredCodeEnv, e.Name, fmt.Sprintf("It sets %s=%s, which %s; code loaded that way is not part of this approval unless it is a file of the package.", e.Name, e.Value, how))
		}
		for _, tok := range pathTokens(e.Value, strings.HasSuffix(strings.ToUpper(e.Name), "PATH")) {
			switch where(tok, p.Root, cwd, p.Data) {
			case outside:
				add(model.NotCoveredOutside, tok, fmt.Sprintf("The variable %s names %s, outside the package; whatever is there when %s is not part of this approval.", e.Name, tok, starts))
			case inData:
				usesData = true
			}
		}
	}
	for _, n := range p.Inherit {
		if how, ok := LoadsCode(n); ok {
			add(model.NotCoveredCodeEnv, n, fmt.Sprintf("It receives %s from your environment, which %s; what your environment holds there is not part of this approval.", n, how))
		}
	}
	if usesData {
		add(model.NotCoveredPluginData, dataName, fmt.Sprintf("It uses %s (%s), which the client and the process write at run time; nothing there is part of this approval, so code loaded from it is not covered.", dataName, p.Data))
	}
	return out
}

// Shebang returns the #! line of data (without "#!", trimmed), if it has one.
func Shebang(data []byte) (string, bool) {
	if len(data) < 2 || data[0] != '#' || data[1] != '!' {
		return "", false
	}
	line := data[2:]
	if len(line) > 256 {
		line = line[:256]
	}
	if i := strings.IndexAny(string(line), "\r\n"); i >= 0 {
		line = line[:i]
	}
	return strings.TrimSpace(string(line)), true
}

// interpreter splits a #! line into the program and its arguments; "env -S a b" and
// "env -i a" name a as the program looked up.
func interpreter(line string) (string, []string) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return "", nil
	}
	args := f[1:]
	if path.Base(f[0]) == "env" {
		for len(args) > 0 && strings.HasPrefix(args[0], "-") {
			args = args[1:]
		}
		for len(args) > 0 && strings.Contains(args[0], "=") {
			args = args[1:] // env NAME=value prog
		}
	}
	return f[0], args
}

func registryName(r string) string {
	if r == "a URL" {
		return "that URL"
	}
	return "the " + r + " registry"
}

type place int

const (
	inPackage place = iota
	outside
	inData
)

// pathTokens picks out the parts of a value that read as file paths: the value itself,
// the part after "=" of an --option=value, whitespace-separated words of a variable's
// value and, for *PATH variables, each list element. URLs and scoped package names are
// not paths.
func pathTokens(v string, list bool) []string {
	var words []string
	for _, w := range strings.Fields(v) {
		if list {
			words = append(words, strings.Split(w, ":")...)
		} else {
			words = append(words, w)
		}
	}
	var out []string
	for _, w := range words {
		if strings.HasPrefix(w, "-") {
			if _, val, ok := strings.Cut(w, "="); ok {
				w = val
			} else {
				continue
			}
		}
		if w == "" || strings.Contains(w, "://") || strings.HasPrefix(w, "@") {
			continue
		}
		if strings.HasPrefix(w, "/") || strings.HasPrefix(w, "~") || w == "." || w == ".." || strings.Contains(w, "/") {
			out = append(out, w)
		}
	}
	return out
}

// where places a path token: absolute ones as they are, relative ones against cwd, both
// cleaned lexically ("${PLUGIN_ROOT}/../x" leaves the package).
func where(tok, root, cwd, data string) place {
	if strings.HasPrefix(tok, "~") {
		return outside
	}
	p := tok
	if !strings.HasPrefix(p, "/") {
		p = path.Join(cwd, p)
	}
	p = path.Clean(p)
	if data != "" && within(data, p) {
		return inData
	}
	if root != "" && within(root, p) {
		return inPackage
	}
	return outside
}

// within reports whether p is base or below it (both absolute, cleaned).
func within(base, p string) bool {
	base = path.Clean(base)
	return p == base || strings.HasPrefix(p, strings.TrimSuffix(base, "/")+"/")
}

// Below reports whether the absolute path p is root or below it after cleaning, and its
// root-relative path: "<root>/../x" is outside, as the kernel resolves it.
func Below(root, p string) (string, bool) {
	c := path.Clean(p)
	if !within(root, c) {
		return "", false
	}
	rel := strings.TrimPrefix(strings.TrimPrefix(c, path.Clean(root)), "/")
	if rel == "" {
		rel = "."
	}
	return rel, true
}
