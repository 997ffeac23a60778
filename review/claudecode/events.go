package claudecode

import (
	"strings"

	"vouch/model"
)

// eventInfo is what Claude Code does with one hook event.
type eventInfo struct {
	When string // when it fires, completing "Fires ..."
	// MatchOn is what the matcher is tested against; "" means the event has no matcher
	// support (a matcher there is silently ignored).
	MatchOn string
	Tool    bool // a tool event: `if` works, stdin carries tool_name and tool_input
	Block   bool // exit 2 blocks
	// Types lists the handler types the event accepts.
	Types string
	// Effects lists what the hook can do beyond the common JSON fields.
	Effects []string
	Stdin   string // the event's own stdin fields
	Codex   bool   // the Codex releases vouch models have the event
	// Since is the first modelled Claude Code release that runs the event ("" for every
	// modelled release); an older one ignores it with a warning.
	Since string
}

const (
	typesAll     = "command http mcp_tool prompt agent"
	typesNoModel = "command http mcp_tool"
	typesStart   = "command mcp_tool"
)

var events = map[string]eventInfo{
	"PreToolUse": {When: "before each tool call Claude makes, after Claude has chosen the arguments", MatchOn: "the tool name", Tool: true, Block: true, Types: typesAll, Codex: true,
		Effects: []string{"block the call (exit 2, or permissionDecision \"deny\")", "allow the call without asking the user (permissionDecision \"allow\")", "make Claude ask the user (\"ask\")", "rewrite the tool input (updatedInput)", "add context for Claude (additionalContext)"},
		Stdin:   "the tool name and the full tool input (for Bash, the command text; for Edit/Write, the file path and new content)"},
	"PostToolUse": {When: "after each tool call succeeds", MatchOn: "the tool name", Tool: true, Types: typesAll, Codex: true,
		Effects: []string{"rewrite the tool result Claude sees (updatedToolOutput)", "send a blocking reason back to Claude (decision \"block\")", "add context for Claude"},
		Stdin:   "the tool name, the tool input and the tool's response"},
	"PostToolUseFailure": {When: "after a tool call fails", MatchOn: "the tool name", Tool: true, Types: typesAll,
		Effects: []string{"send a reason back to Claude (decision \"block\")", "add context for Claude"},
		Stdin:   "the tool name, the tool input and the error"},
	"PostToolBatch": {When: "after a batch of parallel tool calls completes", Block: true, Types: typesAll,
		Effects: []string{"stop Claude from continuing (exit 2 or decision \"block\")"}, Stdin: "the batch of tool calls"},
	"PermissionRequest": {When: "when " + claudeSeen + " is about to show the user a permission prompt", MatchOn: "the tool name", Tool: true, Types: typesAll, Codex: true,
		Effects: []string{"answer the permission prompt for the user: allow or deny (decision.behavior)", "rewrite the tool input (updatedInput)"},
		Stdin:   "the tool name and the full tool input"},
	"PermissionDenied": {When: "after a tool call was denied", MatchOn: "the tool name", Tool: true, Types: typesAll,
		Effects: []string{"add context for Claude"}, Stdin: "the tool name, the tool input and the denial"},
	"Notification": {When: "when " + claudeSeen + " sends a notification (permission needed, idle…)", MatchOn: "the notification type", Types: typesNoModel,
		Stdin: "the notification message and type"},
	"UserPromptSubmit": {When: "when the user submits a prompt, before Claude sees it", Block: true, Types: typesAll, Codex: true,
		Effects: []string{"block the prompt (exit 2 or decision \"block\")", "add context: its plain stdout is added to what Claude reads"},
		Stdin:   "the full prompt text"},
	"UserPromptExpansion": {When: "when a slash command expands into a prompt", MatchOn: "the command name", Block: true, Types: typesAll,
		Effects: []string{"block the expansion (exit 2 or decision \"block\")", "add context: its plain stdout is added to what Claude reads"},
		Stdin:   "the command name and its expanded prompt"},
	"SessionStart": {When: "when a session starts, resumes, is cleared or compacted", MatchOn: "the start source (startup, resume, clear, compact, fork)", Types: typesStart, Codex: true,
		Effects: []string{"add context: its plain stdout is added to what Claude reads", "send a first user message (initialUserMessage), set files to watch, the session title, reload skills"},
		Stdin:   "the start source"},
	"SessionEnd": {When: "when a session ends (SessionEnd hooks share a 1.5 s budget)", MatchOn: "the end reason", Types: typesNoModel, Codex: true,
		Stdin: "the end reason"},
	"Stop": {When: "when Claude finishes responding", Block: true, Types: typesAll, Codex: true,
		Effects: []string{"keep Claude working instead of stopping (exit 2 or decision \"block\" with a reason Claude reads)"},
		Stdin:   "whether a stop hook is already active, and the last assistant message"},
	"StopFailure": {When: "when a turn ends because of an API error", MatchOn: "the error type (exact names only)", Types: typesNoModel,
		Stdin: "the error"},
	"SubagentStart": {When: "when a subagent starts", MatchOn: "the agent type", Types: typesNoModel, Codex: true,
		Effects: []string{"add context for the subagent"}, Stdin: "the agent type"},
	"SubagentStop": {When: "when a subagent finishes", MatchOn: "the agent type", Block: true, Types: typesAll, Codex: true,
		Effects: []string{"keep the subagent working (exit 2 or decision \"block\")"}, Stdin: "the agent type and its last message"},
	"PreCompact": {When: "before the conversation is compacted", MatchOn: "the trigger (manual, auto)", Block: true, Types: typesNoModel, Codex: true,
		Effects: []string{"block the compaction (exit 2 or decision \"block\")"}, Stdin: "the trigger and custom instructions"},
	"PostCompact":     {When: "after the conversation is compacted", MatchOn: "the trigger (manual, auto)", Types: typesNoModel, Codex: true, Stdin: "the trigger"},
	"PreModelSwitch":  {When: "before the model is switched", MatchOn: "(not documented)", Types: typesNoModel, Stdin: "the models"},
	"PostModelSwitch": {When: "after the model is switched", MatchOn: "(not documented)", Types: typesNoModel, Stdin: "the models"},
	"Setup": {When: "when " + claudeSeen + " runs its setup (--init, --maintenance)", MatchOn: "(not documented)", Types: typesStart,
		Effects: []string{"add context for Claude"}, Stdin: "the setup trigger"},
	"TeammateIdle": {When: "when an agent-team teammate is about to go idle", Block: true, Types: typesAll,
		Effects: []string{"keep the teammate working (exit 2)"}, Stdin: "the teammate"},
	"TaskCreated": {When: "when a task is created", Block: true, Types: typesAll,
		Effects: []string{"block the task's creation (exit 2)"}, Stdin: "the task"},
	"TaskCompleted": {When: "when a task is marked completed", Block: true, Types: typesAll,
		Effects: []string{"block the completion (exit 2)"}, Stdin: "the task"},
	"Elicitation": {When: "when an MCP server asks the user for input", MatchOn: "the MCP server name", Block: true, Types: typesNoModel,
		Effects: []string{"answer or refuse the request for the user"}, Stdin: "the server's request"},
	"ElicitationResult": {When: "after the user answers an MCP server's request", MatchOn: "the MCP server name", Block: true, Types: typesNoModel,
		Effects: []string{"change or block the answer"}, Stdin: "the request and the user's answer"},
	"ConfigChange": {When: "when a settings file changes during the session", MatchOn: "the settings source", Block: true, Types: typesNoModel,
		Effects: []string{"block the change from taking effect (exit 2; not for policy settings)"}, Stdin: "the source and the file"},
	"WorktreeCreate": {When: "when a worktree is to be created (the hook creates it)", Block: true, Types: typesNoModel,
		Effects: []string{"decide where the worktree is: any non-zero exit makes the creation fail"}, Stdin: "the worktree name"},
	"WorktreeRemove":     {When: "when a worktree is removed", Types: typesNoModel, Stdin: "the worktree path"},
	"InstructionsLoaded": {When: "when a CLAUDE.md or rules file is loaded into context", MatchOn: "(not documented)", Types: typesNoModel, Stdin: "the file path and why it was loaded"},
	"CwdChanged":         {When: "when the working directory changes", Types: typesNoModel, Stdin: "the old and new directory"},
	"FileChanged":        {When: "when a watched file changes on disk", MatchOn: "the file names to watch (exact names only)", Types: typesNoModel, Stdin: "the file path and change"},
	"DirectoryAdded":     {When: "when a directory is added to the session", MatchOn: "(not documented)", Types: typesNoModel, Stdin: "the directory"},
	"MessageDisplay":     {When: "when a message is displayed (command default timeout 10 s)", Types: typesNoModel, Stdin: "the message"},
	// New in model.ClaudeCode332: older releases ignore it with a warning. Prompt and agent handlers are
	// refused on it.
	"PreSkillShellCommand": {When: "before every inline `!` shell line of a skill or command runs", MatchOn: "the shell tool name (Bash, PowerShell)", Block: true, Types: typesNoModel, Since: model.ClaudeCode332,
		Effects: []string{"deny the shell line, ask the user, defer or block it"},
		Stdin:   "the shell tool name, the command text, the skill or command name, where it comes from and who invoked it"},
}

// knownEvent returns the canonical event name and whether name is exactly it.
func knownEvent(name string) (canon string, exact bool) {
	if _, ok := events[name]; ok {
		return name, true
	}
	for k := range events {
		if strings.EqualFold(k, name) {
			return k, false
		}
	}
	return "", false
}

// matcherKind says how Claude Code evaluates a matcher (its hooks docs, "Matcher
// patterns"): everything, an exact list, or an unanchored JavaScript regex.
func matcherKind(m string, narrow bool) (kind string, names []string) {
	if m == "" || m == "*" {
		return "all", nil
	}
	for _, r := range m {
		ok := r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '|'
		if !narrow {
			ok = ok || r == '-' || r == ' ' || r == ','
		}
		if !ok {
			return "regex", nil
		}
	}
	for _, n := range strings.FieldsFunc(m, func(r rune) bool { return r == '|' || r == ',' }) {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	return "exact", names
}

// defaultTimeout is the seconds Claude allows a handler when it sets none.
func defaultTimeout(event, typ string) int {
	switch typ {
	case "prompt":
		return 30
	case "agent":
		return 60
	}
	switch event {
	case "UserPromptSubmit":
		if typ == "command" {
			return 30
		}
	case "MessageDisplay":
		if typ == "command" {
			return 10
		}
	}
	return 600
}
