package trust

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
	"unsafe"

	"vouch/model"
)

// maxTextDiffBytes is the largest file given a line diff; larger ones get sizes, hashes
// and the first differing offset. The diff's work and memory grow with the lines of the
// two files, not with a timeout (linediff.go), so this bound is what keeps it small.
const maxTextDiffBytes = 16 << 20

// FileDiff is the difference of one closure file between approval and now.
type FileDiff struct {
	Path                 string
	Change               string // added, removed, modified
	Unified              string // unified line diff for text files
	Binary               bool   // no line diff: binary or larger than 16 MiB (see Large)
	Large                bool
	OldSize, NewSize     int64
	OldSHA256, NewSHA256 string
	OldExec, NewExec     bool
	// OldLink and NewLink are the targets of a symlink entry ("" for a file).
	OldLink, NewLink string
	// FirstDifferentOffset is the first byte offset where binary or large contents differ
	// (-1 when not computed).
	FirstDifferentOffset int64
	// Error says why the bytes could not be compared (approved copy tampered, file unreadable).
	Error string
	// NotStored: the approved bytes are not in this store (a teammate approved them).
	NotStored bool
}

// FieldDiff is the difference of one contract field.
type FieldDiff struct {
	Key      string
	Old, New string // canonical JSON of the values, "" when absent
}

// Diff is what changed since approval.
type Diff struct {
	Ref            string
	ApprovedDigest string
	CurrentDigest  string
	Fields         []FieldDiff
	Files          []FileDiff
	// ApprovedBy is the approval compared against.
	ApprovedBy Decision
	// NotStored: the approved contract is not in this store, so Files come from the file
	// digests the approval recorded and Fields are unknown (empty).
	NotStored bool
}

// Diff computes what changed in comp since its approval (nil Diff when it has none: no
// approval in force, or the approval matches the current digest). The approved side comes
// from the store; an entry that no longer matches its hash is an error wrapping
// ErrTamperedStore.
func (t *Trust) Diff(pkg *model.Package, comp *model.Component) (*Diff, error) {
	v, err := t.view(pkg)
	if err != nil {
		return nil, err
	}
	ref := pkg.Ref(comp)
	cur := ""
	if comp.Contract != nil {
		if cur, err = comp.Contract.Digest(); err != nil {
			return nil, err
		}
	}
	j := v.judge(ref, cur)
	if j.inForce != nil || j.baseline == nil {
		return nil, nil // approved or revoked at this digest, or never approved
	}
	d := *j.baseline
	out := &Diff{Ref: ref, ApprovedDigest: d.Digest, CurrentDigest: cur, ApprovedBy: d}
	old, err := t.loadContract(d.Digest)
	if err != nil {
		if !errors.Is(err, ErrNotStored) || len(d.Files) == 0 {
			return nil, err
		}
		// A teammate's approval: this store never held its bytes, but the decision names
		// every file it approved with its digest, so changed files can still be named.
		old = contractFromDecision(d, comp.Kind)
		out.NotStored = true
	}
	contract := comp.Contract
	if contract == nil {
		contract = &model.Contract{Kind: comp.Kind}
	}
	out.Fields, out.Files = compareContracts(old, contract)
	if old.filesOnly {
		out.Fields = nil
	}
	for i := range out.Files {
		fd := &out.Files[i]
		if fd.Change != "modified" || fd.OldSHA256 == fd.NewSHA256 || fd.OldLink != "" || fd.NewLink != "" {
			continue // links have no bytes: the targets are the change
		}
		// The current file is read and hashed while the store entry is read and checked:
		// each is a pass over up to 16 MiB, and they share nothing.
		type current struct {
			b   []byte
			err error
		}
		cur := make(chan current, 1)
		go func() {
			if pkg.Reader == nil {
				cur <- current{}
				return
			}
			b, err := pkg.Reader.ReadFile(fd.Path)
			cur <- current{b, err}
		}()
		oldB, err := t.store.get(fd.OldSHA256)
		newRead := <-cur
		if errors.Is(err, ErrNotStored) {
			fd.Error = "the approved bytes are not in this vouch store (approved by " + d.Reviewer + " in the " + strings.TrimPrefix(d.Ledger, "team:") + " ledger), so only the digests can be compared"
			fd.NotStored = true
			continue
		}
		if err != nil {
			return nil, err
		}
		if pkg.Reader == nil {
			fd.Error = "the current file cannot be read back"
			continue
		}
		newB, err := newRead.b, newRead.err
		if err != nil {
			fd.Error = fmt.Sprintf("cannot read the current file: %v", err)
			continue
		}
		sum := sha256.Sum256(newB)
		fd.NewSHA256, fd.NewSize = hex.EncodeToString(sum[:]), int64(len(newB))
		compareBytes(fd, oldB, newB)
	}
	return out, nil
}

// compareBytes fills the line diff, or the binary summary, of one modified file.
func compareBytes(fd *FileDiff, oldB, newB []byte) {
	fd.Large = len(oldB) > maxTextDiffBytes || len(newB) > maxTextDiffBytes
	fd.Binary = fd.Large || isBinary(oldB) || isBinary(newB)
	if fd.Binary {
		fd.FirstDifferentOffset = firstDifference(oldB, newB)
		return
	}
	// The diff reads the bytes as text in place: both slices are this call's own (read
	// from the store and from the package) and nothing writes them again, so the 16 MiB
	// copies string() would make are skipped.
	fd.Unified = UnifiedDiff("approved/"+fd.Path, "current/"+fd.Path, bytesAsString(oldB), bytesAsString(newB))
}

func isBinary(b []byte) bool { return bytes.IndexByte(b, 0) >= 0 || !utf8.Valid(b) }

func firstDifference(a, b []byte) int64 {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return int64(i)
		}
	}
	if len(a) == len(b) {
		return -1
	}
	return int64(n)
}

// bytesAsString views b as a string without copying it; b must never change afterwards.
func bytesAsString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
