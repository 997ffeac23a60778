// Package enforce makes the clients run only what was approved. Each client has one
// place that decides which bytes run (Claude Code: a directory marketplace read in place
// each session; Codex: its plugin cache and the trust it keeps in config.toml), and vouch
// owns that place: it fills its own marketplace only by staging approved bytes from the
// store, and writes the client's own switches so that nothing else of an enforced plugin
// runs. This package holds what every client shares: the layout under vouch's data
// directory, the state file that records which plugins are enforced (and an add that
// did not finish), the plan that decides whether a plugin may be staged, and the staging
// of a whole plugin folder. Each client's writers live in a subpackage.
package enforce

import (
	"io"
	"path/filepath"

	"vouch/model"
	"vouch/trust"
)

// Layout is where enforcement keeps its files: <vouch home>/enforce. Each client has a
// folder of its own below it (enforce/claude-code, enforce/codex) holding its
// marketplace, and state.json beside them records what is enforced.
type Layout struct{ Root string }

// LayoutOf is the layout under a vouch home.
func LayoutOf(home string) Layout { return Layout{Root: filepath.Join(home, "enforce")} }

// ClientDir is the folder a client's marketplace and staged plugins live in.
func (l Layout) ClientDir(client string) string { return filepath.Join(l.Root, client) }

// StateFile is the record of enforced plugins.
func (l Layout) StateFile() string { return filepath.Join(l.Root, "state.json") }

// Env is what a client's Sync and Status work with. The command layer fills it: the
// opened ledgers, the layout, a loader for package folders (review.Open with the
// command's options, so enforce does not choose limits), the environment, and where the
// client's CLI is.
type Env struct {
	Trust  *trust.Trust
	Layout Layout
	// Load reads the packages of one folder, as "vouch validate" would.
	Load   func(dir string) ([]*model.Package, error)
	Getenv func(string) string
	// ClientCLI is the client's command-line program ("" = look it up on PATH).
	ClientCLI string
	// Out receives what a person should read or run (the client commands vouch could not
	// run itself).
	Out io.Writer
}

// Client is one client's enforcement, as "vouch enforce sync" and "vouch enforce
// status" drive it. Each client package provides one; the command layer lists them.
type Client interface {
	// ID is the client's id as reports name it (model's client registry: "claude-code",
	// "codex").
	ID() string
	// Sync re-stages every enforced plugin from the ledger (or removes the staged copy of
	// one no longer approved) and rewrites the client's entries to match.
	Sync(env *Env) ([]Change, error)
	// Status compares what the client's own files say will run with what is approved.
	Status(env *Env) (*Report, error)
}

// Change is one thing Sync did (or found already done) for a plugin.
type Change struct {
	Plugin string `json:"plugin"`
	// Action is "staged", "unchanged", "removed" (its staged folder is gone: nothing of
	// it runs), or "settings" (a client file was rewritten).
	Action string `json:"action"`
	Detail string `json:"detail,omitempty"`
}

// Report is one client's enforcement status.
type Report struct {
	Client  string         `json:"client"`
	Plugins []PluginStatus `json:"plugins"`
	// Problems are the ways around enforcement found in the client's files (a plugin
	// that loads outside vouch's marketplace, a project override, a half-done add); any
	// problem makes "vouch enforce status" exit 1.
	Problems []Problem `json:"problems"`
}

// PluginStatus is one enforced plugin as the client will load it.
type PluginStatus struct {
	Name   string `json:"name"`
	Source string `json:"source"` // the folder it was reviewed from
	Staged string `json:"staged"` // the folder the client reads
	// State is "enforced" (the staged folder matches the store and every runnable
	// component it holds is approved), "pending" (an add that did not finish) or
	// "broken" (see Problems).
	State    string    `json:"state"`
	Problems []Problem `json:"problems,omitempty"`
}

// Problem is one finding that exits 1: a stable code and a sentence.
type Problem struct {
	Code    string `json:"code"`
	Subject string `json:"subject,omitempty"` // the plugin, server or file it is about
	Message string `json:"message"`
}

// Failed reports whether the report holds any problem.
func (r *Report) Failed() bool {
	if len(r.Problems) > 0 {
		return true
	}
	for _, p := range r.Plugins {
		if len(p.Problems) > 0 || p.State != "enforced" {
			return true
		}
	}
	return false
}
