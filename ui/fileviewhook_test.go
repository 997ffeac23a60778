package ui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
	"vouch/model"
)

const (
	hookScriptRef = "hookview#hook:PreToolUse:0:0"
	hookInlineRef = "hookview#hook:PreToolUse:0:1"
)

// hookViewModel loads the hookview fixture (a Claude Code plugin: one hook runs a
// script, one has its command inline) at w×h.
func hookViewModel(t *testing.T, w, h int) *Model {
	t.Helper()
	return diskModel(t, w, h, filepath.Join("testdata", "hookview"))
}

// lineOf is the 1-based line of the first line of file holding sub.
func lineOf(t *testing.T, file, sub string) int {
	t.Helper()
	for i, l := range strings.Split(testtree.ReadFile(t, file), "\n") {
		if strings.Contains(l, sub) {
			return i + 1
		}
	}
	t.Fatalf("%s holds no %q", file, sub)
	return 0
}

// f on a hook opens what it runs: the script its command names; for a command written
// inline, the hooks file on the handler's line, marked.
func TestFileViewOpensWhatAHookRuns(t *testing.T) {
	m := hookViewModel(t, 120, 30)
	selectRef(t, m, hookScriptRef)
	press(t, m, "f")
	fv := m.fileView()
	if fv == nil || fv.loaded == nil {
		t.Fatal("f opened nothing on the hook")
	}
	if got := fv.files[fv.idx].Path; got != "scripts/check.sh" || fv.top != 0 {
		t.Fatalf("opened %s at top %d, want scripts/check.sh at the top", got, fv.top)
	}
	if !strings.Contains(screen(m), "scripts/check.sh  (file ") {
		t.Errorf("the title does not name the script:\n%s", screen(m))
	}
	press(t, m, "q")

	selectRef(t, m, hookInlineRef)
	press(t, m, "f")
	fv = m.fileView()
	want := lineOf(t, filepath.Join("testdata", "hookview", "hooks", "hooks.json"), "echo inline-handler")
	if got := fv.files[fv.idx].Path; got != "hooks/hooks.json" || fv.at != want {
		t.Fatalf("opened %s at line %d, want hooks/hooks.json at line %d", got, fv.at, want)
	}
	v := screen(m)
	if !strings.Contains(v, "▶") || !strings.Contains(v, fmt.Sprintf("line %d declares %s", want, hookInlineRef)) {
		t.Errorf("the handler's line is not marked and said:\n%s", v)
	}
}

// handlerLine finds a handler by its place (event, group, handler) and, when the id says
// nothing, by its command; a file it cannot read gives 0, never a panic.
func TestHandlerLine(t *testing.T) {
	doc := []byte("{\"hooks\": {\n \"pre_tool_use\": [\n  {\"hooks\": [\n   {\"command\": \"a\"},\n   {\"command\": \"b\"}\n  ]}\n ]\n}}\n")
	cases := []struct {
		id, event, cmd string
		data           []byte
		want           int
	}{
		{id: "PreToolUse:0:1", event: "PreToolUse", data: doc, want: 5},
		{id: "hooks/hooks.json:pre_tool_use:0:0", event: "PreToolUse", data: doc, want: 4},
		{id: "odd-id", cmd: "b", data: doc, want: 5},
		{id: "PreToolUse:0:9", cmd: "zzz", data: doc, want: 0},
		{id: "PreToolUse:0:0", event: "PreToolUse", data: []byte("{\"hooks\": ["), want: 0},
		{id: "PreToolUse:0:0", event: "PreToolUse", data: []byte("\xff\xfe{}"), want: 0},
	}
	for _, c := range cases {
		comp := hookComp(c.id, c.event, c.cmd)
		if got := handlerLine(c.data, comp); got != c.want {
			t.Errorf("%s: line %d, want %d", c.id, got, c.want)
		}
	}
}

func FuzzHandlerLine(f *testing.F) {
	f.Add([]byte(`{"hooks":{"PreToolUse":[{"hooks":[{"command":"x"}]}]}}`), "PreToolUse:0:0", "x")
	f.Add([]byte(`[[[[[[`), "a:b:c", "")
	f.Fuzz(func(t *testing.T, data []byte, id, cmd string) {
		n := handlerLine(data, hookComp(id, "", cmd))
		if n < 0 || n > strings.Count(string(data), "\n")+1 {
			t.Fatalf("line %d outside the file", n)
		}
	})
}

func hookComp(id, event, cmd string) *model.Component {
	c := &model.Component{Kind: model.KindHook, ID: id}
	if event != "" {
		c.Details = append(c.Details, model.Field{Key: "event", Value: event})
	}
	if cmd != "" {
		c.Details = append(c.Details, model.Field{Key: "command", Value: cmd})
	}
	return c
}

// A hook that runs a tool (Dalo) has no files of its own: f opens the tool's script, and
// the title counts it as what the hook binds.
func TestFileViewHookRunsItsTool(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 100, 30)
	selectRef(t, m, hookRef)
	if why := m.openFileReason(); why != "" {
		t.Fatalf("f is off on a hook that runs a tool: %s", why)
	}
	press(t, m, "f")
	fv := m.fileView()
	if fv == nil || fv.loaded == nil || fv.files[fv.idx].Path != "plugins/design-review/context.mjs" || fv.closure != 1 {
		t.Fatalf("f on the hook opened %+v", fv)
	}
	if !strings.Contains(screen(m), "(file 1 of 1 of "+hookRef+")") {
		t.Errorf("title:\n%s", screen(m))
	}
}
