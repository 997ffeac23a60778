package instructions

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"vouch/internal/atomicfile"
	"vouch/trust"
)

// Intents close the window between writing a block and recording it. Record writes an
// intent (ref, target, digest and the exact body) into the vouch home, synced, before it
// writes the target, and deletes it only after the ledger holds the decision. A process
// killed in between leaves the intent behind, so a block vouch wrote but never recorded
// is found by Unrecorded and reported by "instructions list" and "status" instead of
// passing for text the person wrote; "instructions remove" (or applying again) clears
// it. An intent whose block is not in its target (killed before the write) or whose
// decision is in the ledger (killed before the delete) reports nothing: it is stale, and
// the next apply or remove of that ref and target replaces or deletes it.

// Intent is a block vouch is about to write, recorded before the write.
type Intent struct {
	Ref    string    `json:"ref"`
	Target string    `json:"target"` // Target.Path, as the ledger records it
	ID     string    `json:"id"`     // block id
	Digest string    `json:"digest"` // the instruction's contract digest
	Body   string    `json:"body"`   // the text written into the block
	At     time.Time `json:"at"`
}

// maxIntents bounds how many intent files are read; maxIntentSize bounds each one (a
// body is at most a target's size).
const (
	maxIntents    = 4096
	maxIntentSize = MaxTargetSize + 64<<10
)

// IntentDir is where intents live in a vouch home.
func IntentDir(home string) string { return filepath.Join(home, "instructions", "intents") }

func intentPath(home, ref, target string) string {
	sum := sha256.Sum256([]byte(ref + "\x00" + target))
	return filepath.Join(IntentDir(home), hex.EncodeToString(sum[:])+".json")
}

// writeIntent stores in atomically and durably: after it returns, a crash keeps it.
func writeIntent(home string, in Intent) error {
	dir := IntentDir(home)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("cannot record the intent to write %s: %w", in.Target, err)
	}
	data, err := json.Marshal(in)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(intentPath(home, in.Ref, in.Target), data, 0o600); err != nil {
		return fmt.Errorf("cannot record the intent to write %s: %w", in.Target, err)
	}
	return nil
}

// ClearIntent deletes the intent for ref and target, if any.
func ClearIntent(home, ref, target string) error {
	err := os.Remove(intentPath(home, ref, target))
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// Intents reads the intents in home, oldest first. Unreadable or undecodable files are
// skipped: an intent only ever adds a report, so losing one never hides a recorded block.
func Intents(home string) ([]Intent, error) {
	dir := IntentDir(home)
	f, err := os.Open(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	names, err := f.Readdirnames(maxIntents + 1)
	f.Close()
	if err != nil && err != io.EOF {
		return nil, err
	}
	var out []Intent
	for _, n := range names {
		if !strings.HasSuffix(n, ".json") || strings.HasPrefix(n, ".") {
			continue
		}
		in, err := readIntent(filepath.Join(dir, n))
		if err != nil {
			continue
		}
		out = append(out, in)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.Before(out[j].At) })
	return out, nil
}

func readIntent(path string) (Intent, error) {
	var in Intent
	st, err := os.Lstat(path)
	if err != nil {
		return in, err
	}
	if !st.Mode().IsRegular() || st.Size() > maxIntentSize {
		return in, fmt.Errorf("%s is not an intent file", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return in, err
	}
	if err := json.Unmarshal(data, &in); err != nil {
		return in, err
	}
	if in.Ref == "" || in.ID == "" || !filepath.IsAbs(in.Target) {
		return in, fmt.Errorf("%s lacks a ref, an id or an absolute target", path)
	}
	return in, nil
}

// Unrecorded is a block vouch wrote whose decision never reached the ledger.
type Unrecorded struct {
	Intent
	StartLine, EndLine int
}

// StateUnrecorded is the list state of a block vouch wrote without recording it.
const StateUnrecorded = "unrecorded"

// Detail says what happened and what to do, for list and status.
func (u Unrecorded) Detail() string {
	return fmt.Sprintf("Lines %d-%d hold a block vouch wrote at %s, but the ledger has no record of it (the apply was interrupted); run vouch instructions remove to take it out, or apply again to record it.",
		u.StartLine, u.EndLine, u.At.UTC().Format("2006-01-02T15:04:05Z"))
}

// FindUnrecorded returns the intents of home whose block is in its target with the
// intended text while the ledger (decisions, newest first) does not hold the approval of
// that digest at that target as the decision in force.
func FindUnrecorded(home string, decisions []trust.Decision) ([]Unrecorded, error) {
	ins, err := Intents(home)
	if err != nil {
		return nil, err
	}
	var out []Unrecorded
	for _, in := range ins {
		if d := LastDecision(decisions, in.Ref, in.Target); d != nil && d.Action == trust.ActionApprove && d.Digest == in.Digest {
			continue // recorded; the intent outlived its delete
		}
		if b, ok := blockHolding(in.Target, in.ID, in.Body); ok {
			out = append(out, Unrecorded{Intent: in, StartLine: b.StartLine, EndLine: b.EndLine})
		}
	}
	return out, nil
}

// blockHolding reports the block id in the file at path when it holds body.
func blockHolding(path, id, body string) (Block, bool) {
	data, exists, blocks, _, err := ReadTarget(Target{Spec: path, Path: path})
	if err != nil || !exists {
		return Block{}, false
	}
	b, ok := findBlock(blocks, id)
	if !ok || !SameBody(string(b.Body(data)), body) {
		return Block{}, false
	}
	return b, true
}

// IntentFor returns the intent for ref at target when its block is unrecorded, for a
// removal to use as the text vouch last wrote there.
func IntentFor(home string, decisions []trust.Decision, ref, target string) (Unrecorded, bool) {
	us, _ := FindUnrecorded(home, decisions)
	for _, u := range us {
		if u.Ref == ref && u.Target == target {
			return u, true
		}
	}
	return Unrecorded{}, false
}
