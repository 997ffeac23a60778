package netrisk

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"

	"vouch/model"
)

// A runnable component's network risk is read from two places: the command line its
// format declares (a hook's command, a server's command, args and env, a URL), and the
// text of the bundled scripts that line names (the file a hook runs with bash or node).
// Attach is one pass over a loaded package, so every format gets it without its loader
// knowing; it adds capabilities only, never changes a contract, so no digest moves.

// runs are the component kinds that start something: a process, a script, a module.
var runs = map[model.Kind]bool{
	model.KindHook: true, model.KindMCPServer: true, model.KindLSPServer: true, model.KindMonitor: true,
	model.KindTool: true, model.KindExecutable: true, model.KindHookModule: true,
}

// lineKeys are the contract fields that hold what a component runs or reaches.
var lineKeys = map[string]bool{
	"command": true, "commandWindows": true, "command_windows": true, "args": true, "argv": true, "env": true,
	"url": true, "mcp_config": true, "headersHelper": true,
}

// pathKeys name a file the component runs, relative to the package root; "file" counts
// only for components that are that file (a bin/ executable, a hook module), since a
// hook's "file" is the hooks.json that declares it.
var pathKeys = map[string]bool{"entry": true, "server.entry_point": true, "command_file": true}

// Bounds: a script larger than maxScript is not read (a bundled binary or a generated
// bundle is not a script a reviewer reads either, and the reason is said); a component's
// closure is searched for named files only up to maxNamed files.
const (
	maxScript = 1 << 20
	maxNamed  = 4096
)

// Attach adds, to each runnable component of p, what its command line and the bundled
// scripts it runs do on the network: a remote-code capability (code fetched and run) and a
// network capability (hosts reached, network tools run). Hosts the component already
// declares a network capability for are not repeated. Scripts are read through p.Reader,
// each once per package.
func Attach(p *model.Package) {
	texts := map[string]*script{}
	for _, c := range p.Components {
		if !runs[c.Kind] || c.Contract == nil && len(c.Files) == 0 {
			continue
		}
		line, paths := commandOf(c)
		var found []sourced
		for _, f := range Scan(line) {
			found = append(found, sourced{f, ""})
		}
		for _, f := range namedFiles(c, line, paths) {
			s := texts[f.Path]
			if s == nil {
				s = readScript(p, f)
				texts[f.Path] = s
			}
			for _, fd := range s.found {
				found = append(found, sourced{fd, f.Path})
			}
		}
		c.Capabilities = append(riskCaps(c, found), c.Capabilities...)
	}
}

// sourced is a finding and the bundled file it is in ("" for the command line itself).
type sourced struct {
	Finding
	file string
}

type script struct{ found []Finding }

// readScript scans one bundled file's text; a file that cannot be read, is too large or
// is binary gives nothing.
func readScript(p *model.Package, f model.File) *script {
	s := &script{}
	if p.Reader == nil || f.IsLink() || f.Size > maxScript {
		return s
	}
	data, err := p.Reader.ReadFile(f.Path)
	if err != nil || len(data) > maxScript || bytes.IndexByte(data[:min(len(data), 8<<10)], 0) >= 0 {
		return s
	}
	for _, fd := range Scan(string(data)) {
		// The findings outlive the file's text: copies, so the text can be freed.
		fd.Text, fd.What, fd.Host = strings.Clone(fd.Text), strings.Clone(fd.What), strings.Clone(fd.Host)
		s.found = append(s.found, fd)
	}
	return s
}

// commandOf is the text of what c runs (one line per value) and the package paths its
// contract names as the file it runs.
func commandOf(c *model.Component) (string, []string) {
	var b strings.Builder
	var paths []string
	if c.Contract == nil {
		return "", nil
	}
	for _, f := range c.Contract.Fields {
		switch {
		case f.Key == "mcp_config":
			// An MCP Bundle's launch: its command and args are one line.
			for _, k := range []string{"command", "args", "env"} {
				if v, ok := field(f.Value, k); ok {
					b.WriteString(words(v))
					b.WriteByte(' ')
				}
			}
			b.WriteByte('\n')
		case f.Key == "args" || f.Key == "argv":
			// The arguments continue the command's line: "npx" then "-y pkg@1".
			s := b.String()
			b.Reset()
			b.WriteString(strings.TrimSuffix(s, "\n") + " " + words(f.Value) + "\n")
		case lineKeys[f.Key]:
			strs(f.Value, func(s string) { b.WriteString(s); b.WriteByte('\n') })
		case pathKeys[f.Key] || f.Key == "file" && (c.Kind == model.KindExecutable || c.Kind == model.KindHookModule):
			strs(f.Value, func(s string) { paths = append(paths, s) })
		}
	}
	return b.String(), paths
}

// words is v's strings joined by spaces, as one command line.
func words(v any) string {
	var ws []string
	strs(v, func(s string) { ws = append(ws, s) })
	return strings.Join(ws, " ")
}

// field is the value under key in a map or field list.
func field(v any, key string) (any, bool) {
	switch v := v.(type) {
	case map[string]any:
		x, ok := v[key]
		return x, ok
	case model.Fields:
		return v.Get(key)
	case []model.Field:
		return model.Fields(v).Get(key)
	}
	return nil, false
}

// strs calls fn with every string inside v (strings, lists, maps, fields), keys of maps
// excluded except where they are the value (env names are not commands).
func strs(v any, fn func(string)) {
	switch v := v.(type) {
	case string:
		fn(v)
	case []string:
		for _, s := range v {
			fn(s)
		}
	case []any:
		for _, e := range v {
			strs(e, fn)
		}
	case map[string]string:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			fn(v[k])
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			strs(v[k], fn)
		}
	case model.Fields:
		for _, f := range v {
			strs(f.Value, fn)
		}
	case []model.Field:
		for _, f := range v {
			strs(f.Value, fn)
		}
	}
}

// namedFiles are the files of c's closure that its command line names as a path
// (${CLAUDE_PLUGIN_ROOT}/scripts/x.sh, ./bin/server, "$PLUGIN_ROOT"/hooks/run.py) or that
// its contract names as the file it runs.
func namedFiles(c *model.Component, line string, paths []string) []model.File {
	var out []model.File
	for i, f := range c.Files {
		if i >= maxNamed {
			break
		}
		if f.IsLink() {
			continue
		}
		if slices.Contains(paths, f.Path) || names(line, f.Path) || slices.ContainsFunc(paths, func(p string) bool { return strings.HasSuffix(f.Path, "/"+strings.TrimPrefix(p, "./")) }) {
			out = append(out, f)
		}
	}
	return out
}

// names reports whether line names the package path rel: as a word of its own, or after
// a root placeholder or ./ ("${X}/rel", "$X/rel", "\"${X}\"/rel", "./rel"), and followed by
// the end of the word. "scripts/x.js" does not name the root file "x.js".
func names(line, rel string) bool {
	for i := 0; ; {
		j := strings.Index(line[i:], rel)
		if j < 0 {
			return false
		}
		j += i
		i = j + 1
		end := j + len(rel)
		if end < len(line) && !strings.ContainsRune(" \t\n\"');|&)`", rune(line[end])) {
			continue
		}
		before := line[:j]
		if before == "" || strings.ContainsRune(" \t\n\"'=:(`", rune(before[len(before)-1])) {
			return true
		}
		if !strings.HasSuffix(before, "/") {
			continue
		}
		dir := strings.TrimSuffix(before, "/")
		if strings.HasSuffix(dir, "}") || strings.HasSuffix(dir, "\"") || strings.HasSuffix(dir, "ROOT") || strings.HasSuffix(dir, "__dirname") {
			return true
		}
		if d := strings.TrimSuffix(dir, "."); d != dir && (d == "" || strings.ContainsRune(" \t\n\"'=:(`", rune(d[len(d)-1]))) {
			return true // ./rel
		}
	}
}

// riskCaps turns findings into at most two capabilities, remote code first. A host c
// already declares a network capability for is known and left out.
func riskCaps(c *model.Component, found []sourced) []model.Capability {
	known := map[string]bool{}
	for _, cp := range c.Capabilities {
		if cp.Kind == model.CapNetwork || cp.Kind == model.CapRemoteConnect {
			for _, s := range cp.Scope {
				known[strings.ToLower(s)] = true
			}
		}
	}
	var remote, network []sourced
	seen := map[string]bool{}
	for _, f := range found {
		if f.Kind == Network && f.Host != "" && known[f.Host] {
			continue
		}
		k := string(f.Kind) + "\x00" + f.What + "\x00" + f.file
		if seen[k] {
			continue
		}
		seen[k] = true
		if f.Kind == RemoteCode {
			remote = append(remote, f)
		} else {
			network = append(network, f)
		}
	}
	var out []model.Capability
	if len(remote) > 0 {
		out = append(out, model.Capability{Kind: model.CapRemoteCode, Scope: scope(remote, false), Detail: "Fetches code over the network and runs it: " + sentence(remote) + "."})
	}
	if len(network) > 0 {
		out = append(out, model.Capability{Kind: model.CapNetwork, Scope: scope(network, true), Detail: "Reaches the network: " + sentence(network) + "."})
	}
	return out
}

// scope is what the capability names: the hosts (for network) or the matched commands,
// with the file they are in.
func scope(fs []sourced, hosts bool) []string {
	var out []string
	for _, f := range fs {
		s := f.Text
		if hosts && f.Host != "" {
			s = f.Host
		}
		if f.file != "" {
			s += " (" + f.file + ")"
		}
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// sentence joins what each finding says, naming the file it is in.
func sentence(fs []sourced) string {
	parts := make([]string, 0, len(fs))
	for _, f := range fs {
		where := "in its command"
		if f.file != "" {
			where = "in " + f.file
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", f.What, where))
	}
	return strings.Join(parts, "; ")
}
