package ui

import (
	"regexp"
	"strconv"
	"strings"

	"vouch/model"
	"vouch/review/jsontext"
)

// A hook is approved for what it runs, so its file view opens on that: the script its
// command names, or, when the command is written inline, the handler where the hooks file
// declares it. The view's file list holds the component's closure first, then the file
// that declares the hook when the closure lacks it, then every other file of the package
// that some component binds, so a reviewer can open what a script reads without leaving.

// viewFiles is the file view's list: the closure (body file first), the declaring file,
// then the package's other bound files; closure is how many of them are the closure.
func viewFiles(p *model.Package, c *model.Component) (files []model.File, closure int) {
	files = closureFiles(c)
	if len(files) == 0 {
		// A hook that runs a tool (Dalo): what it runs is the tool's files.
		for _, ref := range c.DependsOn {
			if d := componentByRef(p, ref); d != nil {
				files = append(files, closureFiles(d)...)
			}
		}
	}
	closure = len(files)
	seen := map[string]bool{}
	for _, f := range files {
		seen[f.Path] = true
	}
	if decl := declaringFile(c); decl != "" && !seen[decl] {
		seen[decl] = true
		files = append(files, model.File{Path: decl})
	}
	for _, o := range p.Components {
		for _, f := range closureFiles(o) {
			if !seen[f.Path] {
				seen[f.Path] = true
				files = append(files, f)
			}
		}
	}
	return files, closure
}

func componentByRef(p *model.Package, ref string) *model.Component {
	for _, c := range p.Components {
		if p.Ref(c) == ref {
			return c
		}
	}
	return nil
}

// detailText is the text of c's display field key ("" when absent): a string, or the
// words of a list joined by spaces.
func detailText(c *model.Component, key string) string {
	for _, f := range c.Details {
		if f.Key != key {
			continue
		}
		switch v := f.Value.(type) {
		case string:
			return v
		case []string:
			return strings.Join(v, " ")
		}
	}
	return ""
}

// declaringFile is the file a hook is declared in, as its loader recorded it.
func declaringFile(c *model.Component) string {
	if c.Kind != model.KindHook {
		return ""
	}
	for _, k := range []string{"file", "source"} {
		if f := detailText(c, k); f != "" && !strings.HasPrefix(f, "(") {
			return f
		}
	}
	return ""
}

// rootVar is a reference to the package root in a command: ${CLAUDE_PLUGIN_ROOT},
// ${PLUGIN_ROOT}, ${CLAUDE_PLUGIN_ROOT:-$PLUGIN_ROOT}, $CLAUDE_PLUGIN_ROOT.
var rootVar = regexp.MustCompile(`\$\{[^}]*ROOT[^}]*\}|\$[A-Z_]*ROOT`)

// runsFile is the index in files of the file c's command (or a tool's entry) names, -1
// when it names none. A path written from the package root wins over a bare file name
// matched at the end of a path.
func runsFile(c *model.Component, files []model.File) int {
	var text []string
	for _, k := range []string{"command", "args", "entry", "argv"} {
		if t := detailText(c, k); t != "" {
			text = append(text, t)
		}
	}
	line := rootVar.ReplaceAllString(strings.Join(text, " "), "ROOT")
	line = strings.NewReplacer(`"`, " ", `'`, " ").Replace(line)
	line = strings.ReplaceAll(line, "ROOT /", "ROOT/")
	suffix := -1
	for _, tok := range strings.Fields(line) {
		tok = strings.TrimPrefix(strings.TrimPrefix(tok, "ROOT/"), "./")
		if tok == "" || tok == "ROOT" {
			continue
		}
		for i, f := range files {
			switch {
			case f.Path == tok:
				return i
			case suffix < 0 && strings.HasSuffix(f.Path, "/"+tok):
				suffix = i
			}
		}
	}
	return suffix
}

// hookTarget is where a hook's file view opens: the file it runs (line 0: the top), or
// its declaring file with a locator of the handler's line. ok is false when neither is
// in files.
func hookTarget(c *model.Component, files []model.File) (idx int, locate func([]byte) int, ok bool) {
	if i := runsFile(c, files); i >= 0 {
		return i, nil, true
	}
	decl := declaringFile(c)
	for i, f := range files {
		if decl != "" && f.Path == decl {
			return i, func(data []byte) int { return handlerLine(data, c) }, true
		}
	}
	return 0, nil, false
}

// handlerLine is the 1-based line where data (a hooks file or a manifest with inline
// hooks) declares c's handler, 0 when it cannot be found. The handler is found by its
// place, the event, group and handler numbers that end its id, and failing that by its
// command text.
func handlerLine(data []byte, c *model.Component) int {
	doc, _, err := jsontext.Parse(data, jsontext.Options{MaxDepth: 64, Lenient: true, AllowDuplicates: true})
	if err != nil || doc == nil {
		return 0
	}
	event, group, handler, byPlace := handlerPlace(c)
	cmd := detailText(c, "command")
	byCommand := 0
	var walk func(v *jsontext.Value, path []string) int
	walk = func(v *jsontext.Value, path []string) int {
		if byPlace && len(path) >= 4 && path[len(path)-2] == "hooks" && path[len(path)-1] == handler &&
			path[len(path)-3] == group && sameEvent(path[len(path)-4], event) && v.Kind == jsontext.Object {
			return v.Off
		}
		switch v.Kind {
		case jsontext.Object:
			if m := v.Get("command"); byCommand == 0 && cmd != "" && m != nil && m.Val.Kind == jsontext.String && m.Val.Str == cmd {
				byCommand = v.Off + 1 // +1: offset 0 is a real place; 0 means none
			}
			for _, m := range v.Obj {
				if off := walk(m.Val, append(path, m.Key)); off >= 0 {
					return off
				}
			}
		case jsontext.Array:
			for i, e := range v.Arr {
				if off := walk(e, append(path, strconv.Itoa(i))); off >= 0 {
					return off
				}
			}
		}
		return -1
	}
	off := walk(doc, nil)
	if off < 0 {
		if byCommand == 0 {
			return 0
		}
		off = byCommand - 1
	}
	return jsontext.Line(data, off)
}

// handlerPlace reads the event and the group and handler numbers a hook id ends with
// ("PreToolUse:0:1", "hooks/hooks.json:pre_tool_use:0:1").
func handlerPlace(c *model.Component) (event, group, handler string, ok bool) {
	parts := strings.Split(c.ID, ":")
	if len(parts) < 3 {
		return "", "", "", false
	}
	event, group, handler = parts[len(parts)-3], parts[len(parts)-2], parts[len(parts)-1]
	if _, err := strconv.Atoi(group); err != nil {
		return "", "", "", false
	}
	if _, err := strconv.Atoi(handler); err != nil {
		return "", "", "", false
	}
	if e := detailText(c, "event"); e != "" {
		event = e
	}
	return event, group, handler, true
}

// sameEvent compares event names across spellings (PreToolUse, pre_tool_use).
func sameEvent(a, b string) bool {
	norm := func(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "")) }
	return norm(a) == norm(b)
}
