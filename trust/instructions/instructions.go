// Package instructions manages vouch-owned blocks of standing instructions in files an agent
// harness reads (AGENTS.md, CLAUDE.md): preview as a diff, apply, remove, never touching a
// byte outside the owned block.
//
// A block is
//
//	<!-- vouch:start ID -->
//	body
//	<!-- vouch:end ID -->
//
// with the target's line breaks. ID is BlockID(package, instruction). Blocks of other
// managers (<!-- dalo:start … -->, any <!-- NAME:start ID -->) are recognised, listed in
// the preview and never modified. Applying then removing a block returns the file byte
// for byte: vouch adds exactly one blank line before a new block and removes exactly what
// it added. The line-break style of added lines follows the file (see detectEOL); a UTF-8
// BOM, the final-newline state and every byte outside the block are kept.
//
// Layout decisions, chosen so removal can recompute exactly what apply added from the file
// alone:
//   - An empty file (or a BOM alone) gets the block and one line break, no blank line.
//   - A file ending in a line break gets a line break (the blank line), the block and a
//     line break. Blank lines already at the end stay: vouch adds its one blank line after
//     them rather than deleting bytes it does not own.
//   - A file without a final line break gets two line breaks, the block and none after
//     it, so it still has no final line break.
//   - Mixed line breaks: the style used by most lines; on a tie, the last line's.
//   - Removing a block from a file apply created leaves an empty file: vouch never
//     deletes a file.
//
// Markers are whole lines (leading and trailing blanks allowed); a marker quoted inside
// a line of prose is text. Damaged markers of any manager make apply and remove refuse,
// because the extent of some block, and so what is outside vouch's, is uncertain.
//
// Commit re-reads the file and compares its SHA-256 with the preview's just before the
// rename, under an flock on the destination's directory that serializes vouch writers;
// Record holds that lock on to the ledger append, so file and ledger change together (no
// lock on Windows, see dest_other.go). An editor racing inside that window is not
// detected (there is no lock editors honour). A crash between the write and the append
// leaves an intent that makes the block reported (intent.go). A
// target that is or passes through a symbolic link is shown with the file it resolves
// to and written only when that destination was confirmed (see dest.go).
package instructions

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"vouch/model"
)

// MaxTargetSize bounds how much of a target file is read: the file may be hostile too.
const MaxTargetSize = 16 << 20

// Target is a resolved instruction file.
type Target struct {
	Spec      string // what the person typed: codex, claude, or a path
	Path      string // absolute path
	AppliesTo string // plain language: "Codex (every session, all projects)"
	// Resolved is Path with every symbolic link resolved: the file a write changes. It
	// differs from Path when the target or one of its directories is a link (Linked).
	Resolved string
}

// ResolveTarget resolves codex ($CODEX_HOME/AGENTS.md, default ~/.codex/AGENTS.md), claude
// ($CLAUDE_CONFIG_DIR/CLAUDE.md, default ~/.claude/CLAUDE.md) or an explicit file path,
// and the file it names through any symbolic links (Resolved). AppliesTo describes the
// typed path: that is the name the agent reads.
func ResolveTarget(spec string) (Target, error) {
	t, err := resolveSpec(spec)
	if err != nil {
		return t, err
	}
	if t.Resolved, err = resolvePath(t.Path); err != nil {
		return t, fmt.Errorf("cannot resolve %s through its symbolic links: %v", t.Path, err)
	}
	if st, err := os.Stat(t.Resolved); err == nil && st.IsDir() {
		return t, fmt.Errorf("%s resolves to the directory %s; name an instruction file", t.Path, t.Resolved)
	}
	return t, nil
}

func resolveSpec(spec string) (Target, error) {
	t := Target{Spec: spec}
	name := strings.TrimSpace(spec)
	if name == "" {
		return t, errors.New("no instruction target given: use codex, claude or a file path")
	}
	for _, g := range globalFiles {
		if name == g.name {
			p, err := providerFile(g.client, g.file)
			if err != nil {
				return t, err
			}
			t.Path, t.AppliesTo = p, g.applies
			return t, nil
		}
	}
	p := spec
	if p == "~" || strings.HasPrefix(p, "~/") {
		home, err := os.UserHomeDir()
		if err != nil {
			return t, fmt.Errorf("cannot expand ~ in %q: %v", spec, err)
		}
		p = filepath.Join(home, p[1:])
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return t, fmt.Errorf("cannot resolve %q: %v", spec, err)
	}
	t.Path = abs
	if st, err := os.Stat(abs); err == nil && st.IsDir() {
		return t, fmt.Errorf("%s is a directory; name the instruction file, for example %s", abs, filepath.Join(abs, "AGENTS.md"))
	}
	// The same file as a provider's global file applies as widely as that one.
	for _, g := range globalFiles {
		if p, err := providerFile(g.client, g.file); err == nil && p == abs {
			t.AppliesTo = g.applies
			return t, nil
		}
	}
	dir := filepath.Dir(abs)
	switch filepath.Base(abs) {
	case "AGENTS.md":
		t.AppliesTo = "Agents that read AGENTS.md (Codex and others) while working in " + dir + " or below"
	case "CLAUDE.md":
		t.AppliesTo = "Claude Code sessions working in " + dir + " or below (project memory)"
	case "CLAUDE.local.md":
		t.AppliesTo = "Claude Code sessions working in " + dir + " or below (local project memory, usually not committed)"
	default:
		t.AppliesTo = "Whatever reads " + abs + "; vouch does not know of an agent that reads this file by itself"
	}
	return t, nil
}

// globalFiles are the instruction files a client reads in every session of its user, with
// the target name that selects each.
var globalFiles = []struct{ name, client, file, applies string }{
	{"codex", model.ClientCodex, "AGENTS.md", codexApplies},
	{"claude", model.ClientClaudeCode, "CLAUDE.md", claudeApplies},
}

const (
	codexApplies  = "Codex: every session of this user, in every project (global AGENTS.md in $CODEX_HOME)"
	claudeApplies = "Claude Code: every session of this user, in every project (user memory in $CLAUDE_CONFIG_DIR)"
)

func providerFile(client, file string) (string, error) {
	c, _ := model.LookupClient(client)
	base, err := c.Home(nil)
	if err != nil {
		return "", err
	}
	abs, err := filepath.Abs(filepath.Join(base, file))
	if err != nil {
		return "", err
	}
	return abs, nil
}

// Conflict is set when the owned block was edited by hand since vouch wrote it. The three
// versions are normalized for reading side by side: LF line breaks, no BOM, no outer
// line breaks. LastWritten is "" when vouch has no record of what it wrote; New is ""
// for a removal.
type Conflict struct {
	LastWritten, Current, New string
}

func newConflict(last, current, next string) *Conflict {
	return &Conflict{LastWritten: normalizeBody(last, "\n"), Current: normalizeBody(current, "\n"), New: normalizeBody(next, "\n")}
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

	// Confirmed is the destination the person confirmed writing through a symbolic link;
	// callers set it to Target.Resolved after showing it. Commit refuses a linked target
	// unless it equals the destination the target resolves to at write time.
	Confirmed string

	// Exists is false when the target file does not exist yet (apply creates it).
	Exists bool
	// Mode is the target's permission bits, kept by Commit (0644 for a new file).
	Mode fs.FileMode
	// EOL is the line break vouch writes: "\n" or "\r\n".
	EOL string
	// Present reports whether the target held this block before the change.
	Present bool
	// Foreign lists blocks of other managers in the target: shown, never modified.
	Foreign []Block
	// Owned lists vouch's other blocks in the target (other package instructions).
	Owned []Block
}

// Actions.
const (
	ActionApply  = "apply"
	ActionRemove = "remove"
)

// Errors Commit and the previews return, for errors.Is.
var (
	ErrChanged  = errors.New("the target file changed since the preview")
	ErrConflict = errors.New("the block was edited by hand since vouch wrote it")
	ErrTooLarge = errors.New("the target file is too large")
	ErrNotFile  = errors.New("the target is not a regular file")
)

// readTarget reads at most MaxTargetSize bytes of a regular file. A missing file is
// (nil, false, 0, nil).
func readTarget(path string) (data []byte, exists bool, mode fs.FileMode, err error) {
	// Stat before opening: opening a FIFO or device could block or never end.
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, 0, nil
	}
	if err != nil {
		return nil, false, 0, err
	}
	if !st.Mode().IsRegular() {
		return nil, true, 0, fmt.Errorf("%w: %s (%s)", ErrNotFile, path, st.Mode().Type())
	}
	if st.Size() > MaxTargetSize {
		return nil, true, 0, fmt.Errorf("%w: %s holds %d bytes, more than %d", ErrTooLarge, path, st.Size(), MaxTargetSize)
	}
	// Non-blocking, and the kind checked again on the opened file: a regular file swapped
	// for a FIFO after the stat must not hold the command.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, true, 0, err
	}
	defer f.Close()
	if fst, err := f.Stat(); err != nil || !fst.Mode().IsRegular() {
		return nil, true, 0, fmt.Errorf("%w: %s", ErrNotFile, path)
	}
	data, err = io.ReadAll(io.LimitReader(f, MaxTargetSize+1))
	if err != nil {
		return nil, true, 0, err
	}
	if len(data) > MaxTargetSize {
		return nil, true, 0, fmt.Errorf("%w: %s grew past %d bytes while being read", ErrTooLarge, path, MaxTargetSize)
	}
	return data, true, st.Mode().Perm(), nil
}

func hashOf(data []byte, exists bool) string {
	if !exists {
		return ""
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// ReadTarget reads the target file and scans it. A missing file gives no data and
// exists=false.
func ReadTarget(t Target) (data []byte, exists bool, blocks []Block, problems []Problem, err error) {
	data, exists, _, err = readTarget(t.Path)
	if err != nil {
		return nil, exists, nil, nil, err
	}
	blocks, problems = Scan(data)
	return data, exists, blocks, problems, nil
}

func newPreview(t Target, id, action string) (*Preview, []Block, error) {
	if t.Resolved == "" {
		r, err := resolvePath(t.Path)
		if err != nil {
			return nil, nil, fmt.Errorf("cannot resolve %s through its symbolic links: %v", t.Path, err)
		}
		t.Resolved = r
	}
	data, exists, mode, err := readTarget(t.Resolved)
	if err != nil {
		return nil, nil, err
	}
	blocks, problems := Scan(data)
	if len(problems) > 0 {
		return nil, nil, &MarkerError{Path: t.Path, Problems: problems}
	}
	if !exists {
		mode = 0o644
	}
	p := &Preview{Target: t, ID: id, Action: action, Before: data, BeforeHash: hashOf(data, exists),
		Exists: exists, Mode: mode, EOL: detectEOL(data)}
	for _, b := range blocks {
		switch {
		case b.Manager != Manager:
			p.Foreign = append(p.Foreign, b)
		case b.ID == id:
			p.Present = true
		default:
			p.Owned = append(p.Owned, b)
		}
	}
	return p, blocks, nil
}

func (p *Preview) finish() {
	p.NoChange = string(p.Before) == string(p.After) && (p.Exists || p.Action == ActionRemove)
	// The diff names the file that changes: through a link, its destination.
	name := p.Target.Path
	if p.Target.Linked() {
		name = p.Target.Resolved
	}
	before := name
	if !p.Exists {
		before = "/dev/null"
	}
	p.Diff = UnifiedDiff(p.Before, p.After, before, name)
}

// PreviewApply plans writing body as block id into t. lastWritten is the body vouch last
// wrote there ("" when unknown); when the block exists and differs from both lastWritten
// and body, it was edited by hand and the preview carries a Conflict. It returns a
// *MarkerError when the file's markers are damaged and ErrBodyMarker when body holds a
// marker line.
func PreviewApply(t Target, id, body, lastWritten string) (*Preview, error) {
	p, blocks, err := newPreview(t, id, ActionApply)
	if err != nil {
		return nil, err
	}
	if cur, ok := findBlock(blocks, id); ok {
		current := string(cur.Body(p.Before))
		if SameBody(current, body) {
			// Already holds this text; rewriting would only churn line breaks.
			if _, err := renderBlock(id, body, p.EOL); err != nil {
				return nil, err
			}
			p.After = p.Before
			p.finish()
			return p, nil
		}
		if lastWritten == "" || !SameBody(current, lastWritten) {
			p.Conflict = newConflict(lastWritten, current, body)
		}
	}
	after, err := applyBytes(p.Before, blocks, id, body)
	if err != nil {
		return nil, err
	}
	p.After = after
	p.finish()
	return p, nil
}

// PreviewRemove plans removing block id from t. lastWritten is the body vouch last wrote
// ("" when unknown): a block that differs from it was edited by hand, and removing it
// would lose those edits, so the preview carries a Conflict.
func PreviewRemove(t Target, id, lastWritten string) (*Preview, error) {
	p, blocks, err := newPreview(t, id, ActionRemove)
	if err != nil {
		return nil, err
	}
	if cur, ok := findBlock(blocks, id); ok {
		current := string(cur.Body(p.Before))
		if lastWritten == "" || !SameBody(current, lastWritten) {
			p.Conflict = newConflict(lastWritten, current, "")
		}
	}
	p.After = removeBytes(p.Before, blocks, id)
	p.finish()
	return p, nil
}

// Commit writes a preview atomically, keeping the file mode. It refuses when the file
// changed since the preview, when the target resolves to another file than it did then,
// when it is a symbolic link whose destination was not confirmed (Preview.Confirmed;
// a preview with nothing to write needs no confirmation), and when Conflict is set
// unless overwrite is true.
func Commit(p *Preview, overwrite bool) error {
	if p == nil {
		return errors.New("no preview to commit")
	}
	if p.Conflict != nil && !overwrite {
		return fmt.Errorf("%w: %s block %s; confirm overwriting to replace the edited text", ErrConflict, p.Target.Path, p.ID)
	}
	if p.NoChange {
		// Nothing to write: only check that the preview still holds.
		now, err := resolvePath(p.Target.Path)
		if err != nil {
			return err
		}
		data, exists, _, err := readTarget(now)
		if err != nil {
			return err
		}
		if now != p.Target.Resolved || exists != p.Exists || hashOf(data, exists) != p.BeforeHash {
			return fmt.Errorf("%w: %s; preview again", ErrChanged, p.Target.Path)
		}
		return nil
	}
	// Checked before anything is touched, the destination's directory included.
	if p.Target.Linked() && p.Confirmed != p.Target.Resolved {
		return fmt.Errorf("%w: %s points to %s; nothing was written", ErrLinkNotConfirmed, p.Target.Path, p.Target.Resolved)
	}
	d, err := openDest(p.Target, !p.Exists)
	if err != nil {
		return err
	}
	defer d.close()
	return commitTo(d, p)
}

// commitTo writes p through d, whose lock the caller holds: the file must still be
// what the preview read.
func commitTo(d *destDir, p *Preview) error {
	data, exists, mode, err := d.read()
	if err != nil {
		return err
	}
	if exists != p.Exists || hashOf(data, exists) != p.BeforeHash {
		return fmt.Errorf("%w: %s; preview again", ErrChanged, p.Target.Path)
	}
	if !exists {
		mode = p.Mode
	}
	return d.write(p.After, mode)
}
