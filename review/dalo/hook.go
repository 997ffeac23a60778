package dalo

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"

	"vouch/model"
	"vouch/review/internal/prose"
)

// combo is one admitted subject/phase pair and what each provider does with it.
type combo struct {
	subject, phase string
	effects        []string
	claudeEvent    string
	codexEvent     string
	compat         string // exact or mapped
}

// admitted is the table of admitted combinations of hook kinds and providers, as the reference implementation (hook.rs) has it.
var admitted = []combo{
	{"session", "end", []string{"observe"}, "SessionEnd", "SessionEnd", "exact"},
	{"user_prompt", "before", []string{"observe", "add_context", "allow_deny"}, "UserPromptSubmit", "UserPromptSubmit", "mapped"},
	{"tool_call", "before", []string{"observe", "add_context", "allow_deny", "rewrite_input"}, "PreToolUse", "PreToolUse", "mapped"},
	{"tool_call", "after", []string{"observe", "add_context", "replace_output"}, "PostToolUse|PostToolUseFailure", "PostToolUse", "mapped"},
	{"workflow", "completion_attempt", []string{"observe", "continue_workflow"}, "Stop", "Stop", "mapped"},
}

func findCombo(subject, phase string) *combo {
	for i := range admitted {
		if admitted[i].subject == subject && admitted[i].phase == phase {
			return &admitted[i]
		}
	}
	return nil
}

// fieldInfo is a bindable event field: its type and where it exists.
type fieldInfo struct {
	typ       string
	available func(subject, phase string) bool
	sends     string // what the tool learns, in plain language
}

var eventFields = map[string]fieldInfo{
	"session.id":              {"string", always, "the session id"},
	"session.cwd":             {"path", always, "the session working directory"},
	"actor.kind":              {"string", always, "whether the main agent or a subagent is acting"},
	"actor.id":                {"string", always, "the acting agent's id"},
	"session.permission_mode": {"string", func(_, ph string) bool { return ph != "end" }, "the session's permission mode"},
	"transcript.path": {"path", func(s, _ string) bool { return s == "session" || s == "workflow" },
		"the path of the session transcript (it can read the whole conversation)"},
	"session.end_reason": {"string", func(s, ph string) bool { return s == "session" && ph == "end" }, "why the session ended"},
	"prompt.text": {"string", func(s, _ string) bool { return s == "user_prompt" },
		"the text of every prompt typed (the tool sees every prompt)"},
	"tool.call_id": {"string", func(s, _ string) bool { return s == "tool_call" }, "the tool call's id"},
	"tool.name":    {"string", func(s, _ string) bool { return s == "tool_call" }, "the name of the tool being called"},
	"workflow.already_continued": {"boolean", func(s, ph string) bool { return s == "workflow" && ph == "completion_attempt" },
		"whether the turn was already continued once"},
	"workflow.last_message": {"string", func(s, ph string) bool { return s == "workflow" && ph == "completion_attempt" },
		"the agent's last message of the turn"},
}

func always(string, string) bool { return true }

// buildHooks turns every [[hook]] into a component and fills Package.Providers.
func (s *source) buildHooks(p *loaded, tools map[string]*builtTool, manifestFile string) {
	seen := map[string]bool{}
	var hooks []*model.Component
	for i, h := range p.man.Hooks {
		ptr := fmt.Sprintf("/hook/%d", i)
		if seen[h.ID] {
			p.pkg.Diagnostics = append(p.pkg.Diagnostics, manifestDiag(manifestFile, "hook-duplicate-id", ptr+"/id", 0,
				"two hooks use the id %q; hook ids must be unique within a package", h.ID))
			continue
		}
		seen[h.ID] = true
		hc := &hookCheck{h: h, tool: tools[h.Tool], file: manifestFile, ptr: ptr, where: fmt.Sprintf("hook %q", h.ID)}
		cb := hc.check()
		c := hc.component(p, cb)
		p.pkg.Components = append(p.pkg.Components, c)
		hooks = append(hooks, c)
	}
	p.pkg.Providers = providerReports(hooks)
}

// hookCheck is one [[hook]] while the descriptor's rules are applied to it.
type hookCheck struct {
	h     hookDesc
	tool  *builtTool // the tool it names; nil when the package declares none of that id
	file  string     // the manifest
	ptr   string
	where string // the hook as messages name it
	diags []model.Diagnostic
}

func (hc *hookCheck) bad(code, field, format string, args ...any) {
	pt := hc.ptr
	if field != "" {
		pt += "/" + field
	}
	hc.diags = append(hc.diags, componentDiag(hc.file, code, pt, "dalo §hook", format, args...))
}

// check applies every rule of the hook descriptor, and returns the admitted combination
// of its subject and phase (nil when there is none).
func (hc *hookCheck) check() *combo {
	h, where := hc.h, hc.where
	if hc.tool == nil {
		hc.bad("hook-tool-missing", "tool", "%s names the tool %q, which this package does not declare", where, h.Tool)
	}
	cb := findCombo(h.Subject, h.Phase)
	if cb == nil {
		hc.bad("hook-subject-phase-not-admitted", "phase", "%s: subject %q with phase %q is not an admitted combination", where, h.Subject, h.Phase)
	} else if !slices.Contains(cb.effects, h.Effect) {
		hc.bad("hook-effect-not-admitted", "effect", "%s: effect %q is not admitted for %s/%s (admitted: %s)", where, h.Effect, h.Subject, h.Phase, strings.Join(cb.effects, ", "))
	}
	hc.checkPolicy()
	if h.Matcher != nil {
		hc.checkMatcher()
	}
	hc.checkBindings()
	return cb
}

// checkPolicy holds failure_policy, requirement and fallback to the effect they go with.
func (hc *hookCheck) checkPolicy() {
	h, where := hc.h, hc.where
	if h.FailurePolicy == "fail_closed" {
		ok := (h.Phase == "before" && (h.Effect == "allow_deny" || h.Effect == "rewrite_input")) ||
			(h.Phase == "completion_attempt" && h.Effect == "continue_workflow")
		if !ok {
			hc.bad("hook-fail-closed-not-allowed", "failure_policy", "%s: fail_closed is allowed only for pre-action allow_deny/rewrite_input or completion continue_workflow", where)
		}
	}
	if (h.Effect == "observe" || h.Effect == "replace_output") && h.FailurePolicy != "report" {
		hc.bad("hook-failure-policy-must-report", "failure_policy", "%s: effect %s requires failure_policy = \"report\"", where, h.Effect)
	}
	switch {
	case h.Requirement == "optional" && h.Fallback != "omit":
		hc.bad("hook-optional-needs-fallback", "fallback", "%s is optional and must declare fallback = \"omit\"", where)
	case h.Requirement == "required" && h.Fallback != "":
		hc.bad("hook-required-forbids-fallback", "fallback", "%s is required and must not declare a weakening fallback", where)
	}
}

// checkMatcher holds the matcher to the tool_call subject and its names to their limits.
func (hc *hookCheck) checkMatcher() {
	h, where := hc.h, hc.where
	if h.Subject != "tool_call" {
		hc.bad("hook-matcher-not-tool-call", "matcher", "%s: matcher is valid only for the tool_call subject", where)
	}
	if len(h.Matcher.ToolNames) > maxHookList {
		hc.bad("hook-matcher-limit", "matcher/tool_names", "%s has more than %d matcher tool names", where, maxHookList)
	}
	names := map[string]bool{}
	for j, n := range h.Matcher.ToolNames {
		if len(n) == 0 || len(n) > 512 || strings.IndexFunc(n, unicode.IsControl) >= 0 {
			hc.bad("hook-matcher-invalid-name", fmt.Sprintf("matcher/tool_names/%d", j), "%s: matcher tool name %q must be 1-512 bytes without control characters", where, n)
		}
		if names[n] {
			hc.bad("hook-matcher-duplicate-name", fmt.Sprintf("matcher/tool_names/%d", j), "%s lists the matcher tool name %q twice", where, n)
		}
		names[n] = true
	}
}

// checkBindings holds each binding to an event field the subject and phase have, and to
// an input of the tool of the same type; every required input must be bound.
func (hc *hookCheck) checkBindings() {
	h, where := hc.h, hc.where
	if len(h.Bindings) > maxHookList {
		hc.bad("hook-bindings-limit", "bindings", "%s has more than %d bindings", where, maxHookList)
	}
	bound := map[string]bool{}
	for j, b := range h.Bindings {
		f := fmt.Sprintf("bindings/%d", j)
		fi, known := eventFields[b.Field]
		if !known {
			hc.bad("hook-binding-unknown-field", f+"/field", "%s binds the unknown event field %q", where, b.Field)
		} else if !fi.available(h.Subject, h.Phase) {
			hc.bad("hook-binding-field-unavailable", f+"/field", "%s: the field %s does not exist for %s/%s", where, b.Field, h.Subject, h.Phase)
		}
		if bound[b.Input] {
			hc.bad("hook-binding-duplicate-input", f+"/input", "%s binds the input %q more than once", where, b.Input)
		}
		bound[b.Input] = true
		if hc.tool != nil {
			hc.checkBindingInput(f, b, fi, known)
		}
	}
	if hc.tool != nil {
		for _, in := range hc.tool.desc.Inputs {
			if in.required() && !bound[in.Name] {
				hc.bad("hook-binding-required-unbound", "bindings", "%s does not bind the required input %q of tool %q", where, in.Name, h.Tool)
			}
		}
	}
}

// checkBindingInput holds one binding to an input the tool declares, of the field's type.
func (hc *hookCheck) checkBindingInput(f string, b bindingDesc, fi fieldInfo, known bool) {
	in, declared := hc.tool.inputs[b.Input]
	switch {
	case !declared:
		hc.bad("hook-binding-undeclared-input", f+"/input", "%s binds %q, which tool %q does not declare", hc.where, b.Input, hc.h.Tool)
	case in.Type == "integer":
		hc.bad("hook-binding-integer-input", f+"/input", "%s binds the integer input %q; no event field is an integer", hc.where, b.Input)
	case known && in.Type != fi.typ:
		hc.bad("hook-binding-type-mismatch", f, "%s binds %s (a %s) to the %s input %q", hc.where, b.Field, fi.typ, in.Type, b.Input)
	}
}

// component builds the hook's component: invalid with its diagnostics, else its support
// per client (unsupported when no client can run it) and its contract, which includes
// its tool's digest.
func (hc *hookCheck) component(p *loaded, cb *combo) *model.Component {
	h, tool := hc.h, hc.tool
	c := &model.Component{Kind: model.KindHook, ID: h.ID, Requirement: h.Requirement, Diagnostics: hc.diags}
	toolRef := model.Ref(p.pkg.Name, model.KindTool, h.Tool)
	c.DependsOn = []string{toolRef}
	var td *toolDesc
	if tool != nil {
		td = &tool.desc
	}
	c.Summary = hookSummary(h, td)
	if tool != nil {
		// The hook runs its tool: what the tool's approval cannot bind, neither can this.
		c.NotCovered = tool.comp.NotCovered
	}
	c.Capabilities = hookCapabilities(h)
	c.Details = hookDetails(h, toolRef)
	if len(hc.diags) > 0 {
		c.Validity = model.Invalid
		return c
	}
	c.Support = hookSupport(h, cb)
	c.Validity = model.Valid
	if !anySupported(c.Support) {
		hc.unsupported(p, c)
	}
	if tool.comp.Contract != nil {
		c.Contract = hookContract(h, toolRef, tool.comp.Contract.MustDigest())
	}
	return c
}

// unsupported marks a well-formed hook no client can run. A required hook nobody can
// run blocks the package (the reference validator rejects it); an optional one is
// omitted visibly.
func (hc *hookCheck) unsupported(p *loaded, c *model.Component) {
	c.Validity = model.Unsupported
	sev, boundary := model.SeverityWarning, model.BoundaryComponent
	if hc.h.Requirement == "required" {
		sev, boundary = model.SeverityError, model.BoundaryPackage
	}
	d := model.Diagnostic{
		Code: "hook-unsupported", Severity: sev, Boundary: boundary, File: hc.file,
		Pointer: hc.ptr, Phase: phaseContract, Spec: "dalo §hook",
		Message: fmt.Sprintf("%s is well-formed but neither Claude Code %s nor Codex %s can run it as declared: %s.", hc.where, ClaudeBaseline, CodexBaseline, strings.TrimSuffix(c.Support[0].Detail, ".")),
	}
	if boundary == model.BoundaryPackage {
		p.pkg.Diagnostics = append(p.pkg.Diagnostics, d)
	} else {
		c.Diagnostics = append(c.Diagnostics, d)
	}
}

func anySupported(ss []model.Support) bool {
	for _, s := range ss {
		if s.Status == model.Supported {
			return true
		}
	}
	return false
}

// hookSupport applies the provider audience rules to an admitted combination.
func hookSupport(h hookDesc, cb *combo) []model.Support {
	claude := model.Support{Provider: model.ClientClaudeCode, Version: ClaudeBaseline, Status: model.Supported}
	codex := model.Support{Provider: model.ClientCodex, Version: CodexBaseline, Status: model.Supported}
	claude.Detail = fmt.Sprintf("Runs on %s (%s).", cb.claudeEvent, cb.compat)
	codex.Detail = fmt.Sprintf("Runs on %s (%s).", cb.codexEvent, cb.compat)
	if h.Effect == "replace_output" {
		claude.Detail = "Runs on PostToolUse only (mapped); PostToolUseFailure accepts context but no replacement."
		codex.Status = model.NotSupported
		codex.Detail = "Codex " + CodexBaseline + " cannot replace a tool's output; output replacement targets Claude PostToolUse only."
	}
	if h.Subject == "session" && h.Phase == "end" && h.ErrorVisibility == "model_and_user" {
		msg := "No adapter can deliver model-visible diagnostics after SessionEnd; declare error_visibility = \"user\"."
		claude.Status, claude.Detail = model.NotSupported, msg
		codex.Status, codex.Detail = model.NotSupported, msg
	}
	if h.Subject == "workflow" && h.Phase == "completion_attempt" && h.ErrorVisibility == "model_and_user" && h.FailurePolicy != "fail_closed" {
		claude.Status = model.NotSupported
		claude.Detail = "Claude's Stop context resumes the turn, so a report or fail_open failure cannot promise model_and_user delivery; use error_visibility = \"user\", or fail_closed when continuation is intended."
	}
	return []model.Support{claude, codex}
}

// providerReports is the package-level verdict per provider: a required hook that a
// provider cannot run blocks it; optional ones are listed and omitted.
func providerReports(hooks []*model.Component) []model.ProviderReport {
	var out []model.ProviderReport
	// The package-level verdict keeps the spec's provider names (claude, codex); each
	// hook's support answer is keyed by the client registry's id.
	for _, prov := range []struct{ name, client, base string }{{"claude", model.ClientClaudeCode, ClaudeBaseline}, {"codex", model.ClientCodex, CodexBaseline}} {
		r := model.ProviderReport{Provider: prov.name, Baseline: prov.base, Status: model.NotApplicable, UnsupportedHooks: []string{}}
		if len(hooks) > 0 {
			r.Status = model.Supported
		}
		for _, h := range hooks {
			ok := false
			for _, s := range h.Support {
				if s.Provider == prov.client && s.Status == model.Supported {
					ok = true
				}
			}
			if ok {
				continue
			}
			r.UnsupportedHooks = append(r.UnsupportedHooks, h.ID)
			if h.Requirement == "required" {
				r.Status = model.NotSupported
			}
		}
		sort.Strings(r.UnsupportedHooks)
		out = append(out, r)
	}
	return out
}

// hookContract binds the event, the effect, the failure behaviour, the data sent to the
// tool and the tool's own digest: changed tool bytes change the hook's digest too.
func hookContract(h hookDesc, toolRef, toolDigest string) *model.Contract {
	var bindings []any
	for _, b := range h.Bindings {
		bindings = append(bindings, map[string]any{"input": b.Input, "field": b.Field})
	}
	if bindings == nil {
		bindings = []any{}
	}
	matcher := []string{}
	if h.Matcher != nil {
		matcher = append(matcher, h.Matcher.ToolNames...)
	}
	return &model.Contract{
		Kind: model.KindHook,
		Fields: model.Fields{
			{Key: "schema_version", Value: h.SchemaVersion},
			{Key: "tool", Value: toolRef},
			{Key: "tool_digest", Value: toolDigest},
			{Key: "subject", Value: h.Subject},
			{Key: "phase", Value: h.Phase},
			{Key: "effect", Value: h.Effect},
			{Key: "matcher", Value: matcher},
			{Key: "bindings", Value: bindings},
			{Key: "timeout_ms", Value: h.TimeoutMS},
			{Key: "failure_policy", Value: h.FailurePolicy},
			{Key: "retry", Value: h.Retry},
			{Key: "error_visibility", Value: h.ErrorVisibility},
			{Key: "blocking_scope", Value: h.BlockingScope},
			{Key: "requirement", Value: h.Requirement},
			{Key: "fallback", Value: h.Fallback},
		},
	}
}

func hookDetails(h hookDesc, toolRef string) model.Fields {
	fs := model.Fields{
		{Key: "tool", Value: toolRef},
		{Key: "event", Value: h.Subject + " / " + h.Phase},
		{Key: "effect", Value: h.Effect},
		{Key: "requirement", Value: h.Requirement},
		{Key: "timeout_ms", Value: h.TimeoutMS},
		{Key: "failure_policy", Value: h.FailurePolicy},
		{Key: "error_visibility", Value: h.ErrorVisibility},
		{Key: "retry", Value: h.Retry},
		{Key: "blocking_scope", Value: h.BlockingScope},
	}
	if h.Fallback != "" {
		fs = append(fs, model.Field{Key: "fallback", Value: h.Fallback})
	}
	if h.Matcher != nil {
		names := "all covered tool calls"
		if len(h.Matcher.ToolNames) > 0 {
			names = strings.Join(h.Matcher.ToolNames, ", ")
		}
		fs = append(fs, model.Field{Key: "matcher", Value: names})
	}
	var bs []string
	for _, b := range h.Bindings {
		bs = append(bs, b.Field+" → "+b.Input)
	}
	if len(bs) > 0 {
		fs = append(fs, model.Field{Key: "bindings", Value: bs})
	}
	return fs
}

func when(h hookDesc) string {
	target := "every tool call"
	if h.Matcher != nil && len(h.Matcher.ToolNames) > 0 {
		target = "calls to " + strings.Join(h.Matcher.ToolNames, ", ")
	}
	switch h.Subject + "/" + h.Phase {
	case "session/end":
		return "when a session ends"
	case "user_prompt/before":
		return "before every user prompt"
	case "tool_call/before":
		return "before " + target
	case "tool_call/after":
		return "after " + target
	case "workflow/completion_attempt":
		return "when the agent tries to finish its turn"
	}
	return fmt.Sprintf("on %s/%s", h.Subject, h.Phase)
}

func actionNoun(h hookDesc) string {
	switch h.Subject {
	case "user_prompt":
		return "the prompt"
	case "tool_call":
		return "the tool call"
	}
	return "the action"
}

func effectText(h hookDesc) string {
	switch h.Effect {
	case "observe":
		return "only observes and cannot change anything"
	case "add_context":
		return "may add text to the model's context"
	case "allow_deny":
		return "may block " + actionNoun(h)
	case "rewrite_input":
		return "may rewrite the tool call's input before it runs"
	case "replace_output":
		return "may replace the tool output the model sees"
	case "continue_workflow":
		return "may make the agent keep working instead of finishing"
	}
	return "has the effect " + h.Effect
}

func failureText(h hookDesc) string {
	to := "the user"
	if h.ErrorVisibility == "model_and_user" {
		to = "the model and the user"
	}
	switch h.FailurePolicy {
	case "fail_open":
		return "if it fails, " + actionNoun(h) + " goes ahead and the failure is reported to " + to
	case "fail_closed":
		if h.Phase == "completion_attempt" {
			return "if it fails, the agent is asked to keep working and the failure is reported to " + to
		}
		return "if it fails, " + actionNoun(h) + " is denied and the failure is reported to " + to
	}
	return "if it fails, the failure is reported to " + to
}

// hookSummary is the sentence a reviewer reads first: when it runs, what it runs, what
// data it receives, what it may do and what happens when it fails.
func hookSummary(h hookDesc, t *toolDesc) []string {
	runs := fmt.Sprintf("runs tool %q", h.Tool)
	if t != nil {
		runs = runsWith(*t)
	}
	var sends []string
	for _, b := range h.Bindings {
		if fi, ok := eventFields[b.Field]; ok {
			sends = append(sends, fi.sends)
		}
	}
	receives := "receives no bound event fields"
	if len(sends) > 0 {
		receives = "receives " + prose.List(sends, "and", "")
	}
	first := strings.Join([]string{when(h), runs, receives, effectText(h), failureText(h)}, "; ")
	out := []string{sentence(first)}
	out = append(out, "Like every hook it also gets the harness's raw event JSON on stdin, which this draft does not normalize"+rawEventNote(h)+".")
	if h.Requirement == "optional" {
		out = append(out, "It is optional: where a provider cannot run it, it is visibly omitted.")
	} else {
		out = append(out, "It is required: a provider that cannot run it cannot activate the package.")
	}
	out = append(out, fmt.Sprintf("It may run for up to %s per event and is never retried.", millis(h.TimeoutMS)))
	return out
}

func rawEventNote(h hookDesc) string {
	switch h.Subject {
	case "user_prompt":
		return " (for a prompt, that includes the prompt text)"
	case "tool_call":
		return " (for a tool call, that includes the tool's input)"
	}
	return ""
}

func millis(ms int64) string {
	if ms%1000 == 0 {
		if ms == 1000 {
			return "1 second"
		}
		return fmt.Sprintf("%d seconds", ms/1000)
	}
	return fmt.Sprintf("%d ms", ms)
}

func hookCapabilities(h hookDesc) []model.Capability {
	caps := []model.Capability{{
		Kind: model.CapHook, Scope: []string{h.Subject + "/" + h.Phase, h.Effect},
		Detail: sentence(fmt.Sprintf("Intercepts %s and %s", strings.TrimPrefix(strings.TrimPrefix(when(h), "when "), "on "), effectText(h))),
	}}
	switch h.Effect {
	case "add_context":
		caps = append(caps, model.Capability{Kind: model.CapModelContext, Scope: []string{h.Subject + "/" + h.Phase},
			Detail: "Adds text that the model reads as context."})
	case "replace_output":
		caps = append(caps, model.Capability{Kind: model.CapModelContext, Scope: []string{h.Subject + "/" + h.Phase},
			Detail: "Replaces tool output that the model reads."})
	case "continue_workflow":
		caps = append(caps, model.Capability{Kind: model.CapModelContext, Scope: []string{h.Subject + "/" + h.Phase},
			Detail: "Gives the model a reason to keep working."})
	}
	var fields []string
	for _, b := range h.Bindings {
		if fi, ok := eventFields[b.Field]; ok {
			fields = append(fields, b.Field)
			if b.Field == "transcript.path" {
				caps = append(caps, model.Capability{Kind: model.CapFilesystemRead, Scope: []string{"transcript.path"},
					Detail: "Receives the path of the session transcript, so the tool can read the whole conversation."})
			}
			_ = fi
		}
	}
	if len(fields) > 0 {
		var sends []string
		for _, f := range fields {
			sends = append(sends, eventFields[f].sends)
		}
		caps = append(caps, model.Capability{Kind: model.CapHook, Scope: fields,
			Detail: sentence("Sends the tool " + prose.List(sends, "and", ""))})
	}
	return caps
}
