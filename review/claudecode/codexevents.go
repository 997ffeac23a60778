package claudecode

import (
	"fmt"

	"vouch/model"
)

// codexOnlyEvents are hook events the Codex releases vouch models load from a Claude plugin's
// hooks that Claude Code (every release vouch models) does not have: a handler on one of them is
// ignored by Claude and runs in Codex, so it is shown and approvable, never hidden behind
// "unknown event".
var codexOnlyEvents = map[string]string{
	"PreModelRequest":  "before every request it sends to the model",
	"PostModelRequest": "after every model response arrives",
	"Interrupt":        "when the user interrupts the agent",
}

// codexOnlyHook adjusts a handler on a Codex-only event: valid, Claude's answer kept
// (it ignores the name), Codex's answer supported unless something else makes Codex skip
// it (another manifest, a rejected file, a handler type Codex skips).
func (l *loader) codexOnlyHook(c *model.Component, src *hookSource, event, typ string) {
	when, ok := codexOnlyEvents[event]
	if !ok {
		return
	}
	c.Validity = model.Valid
	for i := range c.Support {
		if c.Support[i].Provider != clientCodex {
			continue
		}
		s := &c.Support[i]
		switch {
		case (l.otherManifest != "" || src.codexSkip != "") && !l.codexSameHooks(src) || src.codexReject != "":
			// Codex does not read this source at all; the answer already says why.
		case typ == "prompt" || typ == "agent":
			s.Detail = fmt.Sprintf("Codex skips %s handlers (\"not supported yet\").", typ)
		case typ == "http":
			s.Detail = "Codex rejects http handlers."
		default:
			s.Status = model.Supported
			s.Detail = fmt.Sprintf("Codex runs it %s once the user trusts it; %s has no %s event and ignores it.", when, model.ClientLabel(clientClaude, l.opts.ClaudeVersion), event)
		}
	}
	for i, line := range c.Summary {
		if line == unknownEventLine {
			c.Summary[i] = fmt.Sprintf("%s ignores %s; %s runs this hook %s.", claudeSeen, event, codexSeen, when)
		}
	}
}
