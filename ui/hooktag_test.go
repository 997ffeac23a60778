package ui

import (
	"testing"

	"vouch/model"
)

// Every hook row says its event, matcher and effect.
func TestHookTag(t *testing.T) {
	hook := func(details model.Fields, caps ...model.Capability) *model.Component {
		return &model.Component{Kind: model.KindHook, ID: "h", Details: details, Capabilities: caps}
	}
	cases := []struct {
		c    *model.Component
		want string
	}{
		{hook(model.Fields{{Key: "event", Value: "PreToolUse"}, {Key: "matcher", Value: "Bash"}},
			model.Capability{Kind: model.CapHook, Scope: []string{"PreToolUse", "matcher Bash", "can-block"}}), "PreToolUse Bash can-block"},
		{hook(model.Fields{{Key: "event", Value: "Stop"}, {Key: "matcher", Value: "(none: every occurrence)"}},
			model.Capability{Kind: model.CapHook, Scope: []string{"Stop", "it can make the agent continue"}}), "Stop"},
		{hook(nil, model.Capability{Kind: model.CapHook, Scope: []string{"UserPromptSubmit", "block"}}), "UserPromptSubmit block"},
		{hook(model.Fields{{Key: "event", Value: "user_prompt / before"}}), "user_prompt/before"},
		{&model.Component{Kind: model.KindTool, Details: model.Fields{{Key: "event", Value: "x"}}}, ""},
	}
	for _, tc := range cases {
		if got := hookTag(tc.c); got != tc.want {
			t.Errorf("hookTag = %q, want %q", got, tc.want)
		}
	}
}
