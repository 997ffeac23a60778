// Package instructions manages vouch-owned blocks of standing instructions in files an agent
// harness reads (AGENTS.md, CLAUDE.md): preview as a diff, apply, remove, never touching a
// byte outside the owned block.
package instructions

import "errors"

// Target is a resolved instruction file.
type Target struct {
	Spec      string // what the person typed: codex, claude, or a path
	Path      string // absolute path
	AppliesTo string // plain language: "Codex (every session, all projects)"
}

// ResolveTarget resolves codex ($CODEX_HOME/AGENTS.md, default ~/.codex/AGENTS.md), claude
// ($CLAUDE_CONFIG_DIR/CLAUDE.md, default ~/.claude/CLAUDE.md) or an explicit file path.
func ResolveTarget(spec string) (Target, error) { return Target{}, errors.New("not implemented") }

// Conflict is set when the owned block was edited by hand since vouch wrote it.
type Conflict struct {
	LastWritten, Current, New string
}

// Preview is a planned change to one target file, computed before any write.
type Preview struct {
	Target     Target
	ID         string // block id (package and instruction)
	Action     string // apply | remove
	Before     []byte
	After      []byte
	Diff       string // unified diff of the whole file, before → after
	BeforeHash string // sha256 of Before; Commit refuses if the file no longer has it
	Conflict   *Conflict
	NoChange   bool
}

// Commit writes a preview atomically, keeping the file mode. It refuses when the file
// changed since the preview, and when Conflict is set unless overwrite is true.
func Commit(p *Preview, overwrite bool) error { return errors.New("not implemented") }
