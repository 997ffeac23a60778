package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"vouch/enforce/claude"
	"vouch/model"
	"vouch/ui/display"
)

// The guard plugin's handlers. Claude Code [claude.Version] lets a tool call through when a
// PreToolUse hook exits 1, crashes or times out, so the MCP handler never exits 1:
// every error of its own, a panic included, is a refusal (exit 2 and a deny decision)
// that names the reason.
func newHookCommand(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "hook",
		Short: "The guard plugin's hook handlers (Claude Code runs these; they read the hook JSON on stdin)",
		Long: `The handlers of the guard plugin vouch installs with "vouch enforce claude add". ` + model.ClientLabel(model.ClientClaudeCode, claude.Version) + `
runs them with the hook's JSON on stdin:
  claude-pre-tool-use        PreToolUse mcp__.*: refuses (exit 2 and a deny decision) a call to an
                             MCP server that is not approved now; any error is a refusal.
  claude-session-start       SessionStart: a message listing what loads outside vouch.
  claude-user-prompt-submit  UserPromptSubmit (--strict): exit 2 while anything does.`,
		Example: `  echo '{"hook_event_name":"PreToolUse","tool_name":"mcp__plugin_p_db__q","mcp_server":{"name":"plugin:p:db"}}' | vouch hook claude-pre-tool-use`,
	}
	for _, h := range []struct {
		use, short string
		run        func(a *app, in claude.HookInput) int
	}{
		{"claude-pre-tool-use", "Refuse an MCP call to a server not approved now (exit 2), else exit 0", hookPreToolUse},
		{"claude-session-start", "Print a SessionStart message listing what loads outside vouch", hookSessionStart},
		{"claude-user-prompt-submit", "Exit 2 while anything loads outside vouch (the guard's --strict)", hookUserPromptSubmit},
	} {
		h := h
		cmd.AddCommand(&cobra.Command{
			Use:     h.use,
			Short:   h.short,
			Example: "  vouch hook " + h.use + " < hook-input.json",
			Args:    cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				if code := runHook(a, h.use, h.run); code != 0 {
					return exitError{code}
				}
				return nil
			},
		})
	}
	return cmd
}

// runHook reads the hook input and runs a handler; a failure before or inside it is a
// refusal for the PreToolUse handler and a message for the others.
func runHook(a *app, name string, run func(a *app, in claude.HookInput) int) (code int) {
	refuse := func(reason string) int {
		if name == "claude-pre-tool-use" {
			return denyCall(a, reason)
		}
		fmt.Fprintln(a.stderr, "vouch: "+display.Line(reason))
		if name == "claude-user-prompt-submit" {
			return 2
		}
		return 0
	}
	defer func() {
		if r := recover(); r != nil {
			code = refuse(fmt.Sprintf("vouch's guard failed (%v), so the call is refused", r))
		}
	}()
	data, err := io.ReadAll(io.LimitReader(a.stdin, claude.MaxHookInput+1))
	if err != nil {
		return refuse("cannot read the hook input: " + err.Error())
	}
	if len(data) > claude.MaxHookInput {
		return refuse(fmt.Sprintf("the hook input is larger than %d bytes", claude.MaxHookInput))
	}
	in, err := claude.ParseHookInput(data)
	if err != nil {
		return refuse(err.Error())
	}
	return run(a, in)
}

// denyCall refuses the call both ways Claude Code honours: the deny decision on stdout
// and exit 2 with the reason on stderr.
func denyCall(a *app, reason string) int {
	reason = "vouch: " + display.Line(reason)
	writeJSON(a.stdout, map[string]any{"hookSpecificOutput": map[string]string{
		"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason}})
	fmt.Fprintln(a.stderr, reason)
	return 2
}

func hookPreToolUse(a *app, in claude.HookInput) int {
	env, err := a.enforceEnv("", false)
	if err != nil {
		return denyCall(a, err.Error())
	}
	p, err := claude.PathsFrom(os.Getenv)
	if err != nil {
		return denyCall(a, err.Error())
	}
	if ok, reason := claude.PreToolUse(env, p, in); !ok {
		return denyCall(a, reason)
	}
	return 0
}

// unvouched lists what loads outside vouch in the session's folder. A failure to find out
// is itself the one line of the list, so the session is told rather than left silent.
func unvouched(a *app, in claude.HookInput) []string {
	list, err := readUnvouched(a, in)
	if err != nil {
		return []string{"vouch could not check what loads outside it: " + err.Error()}
	}
	return list
}

func readUnvouched(a *app, in claude.HookInput) ([]string, error) {
	env, err := a.enforceEnv("", false)
	if err != nil {
		return nil, err
	}
	p, err := claude.PathsFrom(os.Getenv)
	if err != nil {
		return nil, err
	}
	cwd := in.Cwd
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	return claude.Unvouched(env, p, cwd)
}

func hookSessionStart(a *app, in claude.HookInput) int {
	list := unvouched(a, in)
	if len(list) == 0 {
		return 0
	}
	for i := range list {
		list[i] = "- " + display.Line(list[i])
	}
	msg := "vouch does not vouch for what follows; it loads in this session:\n" + strings.Join(list, "\n")
	writeJSON(a.stdout, map[string]any{"systemMessage": msg,
		"hookSpecificOutput": map[string]string{"hookEventName": "SessionStart", "additionalContext": msg}})
	return 0
}

func hookUserPromptSubmit(a *app, in claude.HookInput) int {
	list := unvouched(a, in)
	if len(list) == 0 {
		return 0
	}
	fmt.Fprintln(a.stderr, "vouch (strict): prompts are blocked while this loads outside vouch:")
	for _, l := range list {
		fmt.Fprintln(a.stderr, "- "+display.Line(l))
	}
	return 2
}
