package codex

import (
	"strconv"

	"vouch/review/jsontext"
)

// Codex's hook events in the order Codex lists them (its protocol enum in the releases vouch models), with
// the snake_case label its trust keys and definition hashes use.
var hookEvents = []struct{ Name, Label string }{
	{"PreToolUse", "pre_tool_use"},
	{"PermissionRequest", "permission_request"},
	{"PostToolUse", "post_tool_use"},
	{"PreCompact", "pre_compact"},
	{"PostCompact", "post_compact"},
	{"SessionStart", "session_start"},
	{"SessionEnd", "session_end"},
	{"UserPromptSubmit", "user_prompt_submit"},
	{"SubagentStart", "subagent_start"},
	{"SubagentStop", "subagent_stop"},
	{"Stop", "stop"},
	// Loaded by the Codex releases vouch models (observed offline); not Claude Code events. Their
	// labels follow the snake_case rule of the others (the trust keys were not observed).
	{"PreModelRequest", "pre_model_request"},
	{"PostModelRequest", "post_model_request"},
	{"Interrupt", "interrupt"},
}

func eventLabel(name string) (string, int) {
	for i, e := range hookEvents {
		if e.Name == name {
			return e.Label, i
		}
	}
	return "", -1
}

// HookHandler is one handler of a matcher group as Codex parses it.
type HookHandler struct {
	Type          string // command, mcp_tool, prompt, agent
	Command       string
	HasTimeout    bool
	Timeout       uint64 // seconds as written
	Async         bool
	StatusMessage *string
	Server, Tool  string          // mcp_tool
	Input         *jsontext.Value // mcp_tool input (an object), nil when absent
	// Ignored names the fields Codex does not read (Claude Code's args, shell, if, once...).
	Ignored []string
	Off     int
}

// HookGroup is one matcher group.
type HookGroup struct {
	Matcher  *string
	Handlers []HookHandler
	Off      int
}

// HookEvent is one known event's groups, in file order.
type HookEvent struct {
	Name, Label string
	Groups      []HookGroup
	Off         int
}

// HooksFile is a parsed Codex hooks document.
type HooksFile struct {
	Description string
	Events      []HookEvent
	// Dropped are event names Codex does not know (Claude-only events): it drops them
	// silently, without a warning (observed on Codex).
	Dropped []string
}

// HooksError rejects a whole hooks document, as Codex does: its root denies unknown fields
// and every handler must parse, so one bad entry makes Codex skip the whole file.
type HooksError struct {
	Pointer string
	Off     int
	Msg     string
}

func (e *HooksError) Error() string { return e.Msg }

// ParseHooks reads a hooks document the way Codex was observed to:
// {"description"?, "hooks": {Event: [{matcher?, hooks: [handler]}]}}. A `$schema` or any
// other top-level field, events at the top level, an event value that is not an array, a
// handler without a known type (`http` included) or without a command, a negative or
// non-integer timeout: each rejects the whole document. Unknown events are dropped.
func ParseHooks(v *jsontext.Value) (*HooksFile, *HooksError) {
	fail := func(off int, msg string, ptr ...string) (*HooksFile, *HooksError) {
		return nil, &HooksError{Pointer: jsontext.Pointer(ptr...), Off: off, Msg: msg}
	}
	if v.Kind != jsontext.Object {
		return fail(v.Off, "the document is a JSON "+v.Kind.String()+", not an object")
	}
	out := &HooksFile{}
	var hooks *jsontext.Value
	for _, m := range v.Obj {
		switch m.Key {
		case "description":
			if m.Val.Kind != jsontext.String {
				return fail(m.KeyOff, "description is a "+m.Val.Kind.String()+", not a string", m.Key)
			}
			out.Description = m.Val.Str
		case "hooks":
			hooks = m.Val
		default:
			if _, i := eventLabel(m.Key); i >= 0 {
				return fail(m.KeyOff, "the event "+strconv.Quote(m.Key)+" sits at the top level; Codex expects events inside \"hooks\"", m.Key)
			}
			return fail(m.KeyOff, "unknown field "+strconv.Quote(m.Key)+", expected `description` or `hooks`", m.Key)
		}
	}
	if hooks == nil || hooks.Kind == jsontext.Null {
		return out, nil
	}
	if hooks.Kind != jsontext.Object {
		return fail(hooks.Off, "\"hooks\" is a "+hooks.Kind.String()+", not an object", "hooks")
	}
	seen := map[string]bool{}
	for _, m := range hooks.Obj {
		label, idx := eventLabel(m.Key)
		if idx < 0 {
			out.Dropped = append(out.Dropped, m.Key)
			continue
		}
		if seen[m.Key] {
			return fail(m.KeyOff, "the event "+strconv.Quote(m.Key)+" appears twice (duplicate field)", "hooks", m.Key)
		}
		seen[m.Key] = true
		if m.Val.Kind == jsontext.Null {
			continue
		}
		if m.Val.Kind != jsontext.Array {
			return fail(m.KeyOff, "the value of "+strconv.Quote(m.Key)+" is a "+m.Val.Kind.String()+", not an array of matcher groups", "hooks", m.Key)
		}
		ev := HookEvent{Name: m.Key, Label: label, Off: m.KeyOff}
		for gi, g := range m.Val.Arr {
			gp := []string{"hooks", m.Key, strconv.Itoa(gi)}
			if g.Kind != jsontext.Object {
				return fail(g.Off, "a matcher group is a "+g.Kind.String()+", not an object", gp...)
			}
			grp := HookGroup{Off: g.Off}
			if mm := g.Get("matcher"); mm != nil && mm.Val.Kind != jsontext.Null {
				if mm.Val.Kind != jsontext.String {
					return fail(mm.KeyOff, "matcher is a "+mm.Val.Kind.String()+", not a string", append(gp, "matcher")...)
				}
				s := mm.Val.Str
				grp.Matcher = &s
			}
			hs := g.Get("hooks")
			if hs == nil || hs.Val.Kind != jsontext.Array {
				// (guess) Codex's matcher group requires its handler list.
				return fail(g.Off, "a matcher group has no \"hooks\" array", append(gp, "hooks")...)
			}
			for hi, h := range hs.Val.Arr {
				hp := append(append([]string(nil), gp...), "hooks", strconv.Itoa(hi))
				hd, err := parseHandler(h, hp)
				if err != nil {
					return nil, err
				}
				grp.Handlers = append(grp.Handlers, hd)
			}
			ev.Groups = append(ev.Groups, grp)
		}
		out.Events = append(out.Events, ev)
	}
	// Codex lists events in its own order, not the file's.
	sortEvents(out.Events)
	return out, nil
}

func sortEvents(evs []HookEvent) {
	for i := 1; i < len(evs); i++ {
		for j := i; j > 0; j-- {
			_, a := eventLabel(evs[j-1].Name)
			_, b := eventLabel(evs[j].Name)
			if a <= b {
				break
			}
			evs[j-1], evs[j] = evs[j], evs[j-1]
		}
	}
}

// claudeOnlyFields are handler fields Claude Code reads and Codex ignores silently [obs T5].
var claudeOnlyFields = map[string]bool{"args": true, "shell": true, "if": true, "once": true, "asyncRewake": true, "rewakeMessage": true, "rewakeSummary": true, "model": true}

func parseHandler(h *jsontext.Value, ptr []string) (HookHandler, *HooksError) {
	fail := func(off int, msg string, tail ...string) (HookHandler, *HooksError) {
		return HookHandler{}, &HooksError{Pointer: jsontext.Pointer(append(append([]string(nil), ptr...), tail...)...), Off: off, Msg: msg}
	}
	if h.Kind != jsontext.Object {
		return fail(h.Off, "a handler is a "+h.Kind.String()+", not an object")
	}
	hd := HookHandler{Off: h.Off}
	tm := h.Get("type")
	if tm == nil {
		return fail(h.Off, "a handler has no \"type\"")
	}
	if tm.Val.Kind != jsontext.String {
		return fail(tm.KeyOff, "type is a "+tm.Val.Kind.String()+", not a string", "type")
	}
	hd.Type = tm.Val.Str
	switch hd.Type {
	case "command", "mcp_tool", "prompt", "agent":
	default:
		return fail(tm.KeyOff, "unknown handler type "+strconv.Quote(hd.Type)+" (Codex runs command and mcp_tool handlers; it does not know http)", "type")
	}
	str := func(key string) (string, bool, *HooksError) {
		m := h.Get(key)
		if m == nil || m.Val.Kind == jsontext.Null {
			return "", false, nil
		}
		if m.Val.Kind != jsontext.String {
			_, err := fail(m.KeyOff, key+" is a "+m.Val.Kind.String()+", not a string", key)
			return "", false, err
		}
		return m.Val.Str, true, nil
	}
	if m := h.Get("timeout"); m != nil && m.Val.Kind != jsontext.Null && (hd.Type == "command" || hd.Type == "mcp_tool") {
		n, err := strconv.ParseUint(m.Val.Str, 10, 64)
		if m.Val.Kind != jsontext.Number || err != nil {
			return fail(m.KeyOff, "timeout "+m.Val.Str+" is not a whole number of seconds from 0 up (Codex reads it as u64)", "timeout")
		}
		hd.HasTimeout, hd.Timeout = true, n
	}
	switch hd.Type {
	case "command":
		cmd, ok, err := str("command")
		if err != nil {
			return HookHandler{}, err
		}
		if !ok {
			return fail(h.Off, "a command handler has no \"command\"")
		}
		hd.Command = cmd
		for _, k := range []string{"commandWindows", "command_windows"} {
			if _, _, err := str(k); err != nil {
				return HookHandler{}, err
			}
		}
		if s, ok, err := str("statusMessage"); err != nil {
			return HookHandler{}, err
		} else if ok {
			hd.StatusMessage = &s
		}
		if m := h.Get("async"); m != nil && m.Val.Kind != jsontext.Null {
			if m.Val.Kind != jsontext.Bool {
				return fail(m.KeyOff, "async is a "+m.Val.Kind.String()+", not a boolean", "async")
			}
			hd.Async = m.Val.Bool
		}
	case "mcp_tool":
		var err *HooksError
		var ok bool
		if hd.Server, ok, err = str("server"); err != nil {
			return HookHandler{}, err
		} else if !ok {
			return fail(h.Off, "an mcp_tool handler has no \"server\"")
		}
		if hd.Tool, ok, err = str("tool"); err != nil {
			return HookHandler{}, err
		} else if !ok {
			return fail(h.Off, "an mcp_tool handler has no \"tool\"")
		}
		if m := h.Get("input"); m != nil && m.Val.Kind != jsontext.Null {
			if m.Val.Kind != jsontext.Object {
				return fail(m.KeyOff, "input is a "+m.Val.Kind.String()+", not an object", "input")
			}
			hd.Input = m.Val
		}
	}
	for _, m := range h.Obj {
		if claudeOnlyFields[m.Key] {
			hd.Ignored = append(hd.Ignored, m.Key)
		}
	}
	return hd, nil
}
