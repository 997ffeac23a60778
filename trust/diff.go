package trust

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"

	"vouch/model"
)

// maxTextDiffBytes is the largest file given a line diff; larger ones get sizes, hashes
// and the first differing offset.
const maxTextDiffBytes = 1 << 20

// diffContext is the number of unchanged lines around each hunk.
const diffContext = 3

// FileDiff is the difference of one closure file between approval and now.
type FileDiff struct {
	Path                 string
	Change               string // added, removed, modified
	Unified              string // unified line diff for text files
	Binary               bool   // no line diff: binary or larger than 1 MiB (see Large)
	Large                bool
	OldSize, NewSize     int64
	OldSHA256, NewSHA256 string
	OldExec, NewExec     bool
	// FirstDifferentOffset is the first byte offset where binary or large contents differ
	// (-1 when not computed).
	FirstDifferentOffset int64
	// Error says why the bytes could not be compared (approved copy tampered, file unreadable).
	Error string
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
	d, ok := v.latest[key{pkg.Name, ref}]
	if !ok || d.Action != ActionApprove {
		return nil, nil
	}
	cur := ""
	if comp.Contract != nil {
		if cur, err = comp.Contract.Digest(); err != nil {
			return nil, err
		}
	}
	if cur == d.Digest {
		return nil, nil
	}
	old, err := t.loadContract(d.Digest)
	if err != nil {
		return nil, err
	}
	out := &Diff{Ref: ref, ApprovedDigest: d.Digest, CurrentDigest: cur}
	contract := comp.Contract
	if contract == nil {
		contract = &model.Contract{Kind: comp.Kind}
	}
	out.Fields, out.Files = compareContracts(old, contract)
	for i := range out.Files {
		fd := &out.Files[i]
		if fd.Change != "modified" || fd.OldSHA256 == fd.NewSHA256 {
			continue
		}
		oldB, err := t.store.get(fd.OldSHA256)
		if err != nil {
			return nil, err
		}
		var newB []byte
		if pkg.Reader == nil {
			fd.Error = "the current file cannot be read back"
			continue
		}
		newB, err = pkg.Reader.ReadFile(fd.Path)
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
	fd.Unified = UnifiedDiff("approved/"+fd.Path, "current/"+fd.Path, string(oldB), string(newB))
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

type lineOp struct {
	op   diffmatchpatch.Operation
	text string // one line, with its newline when it had one
}

// UnifiedDiff returns a unified diff (3 lines of context) of two texts, computed line by
// line with go-diff; "" when they are equal.
func UnifiedDiff(oldName, newName, a, b string) string {
	if a == b {
		return ""
	}
	dmp := diffmatchpatch.New()
	ca, cb, lines := dmp.DiffLinesToChars(a, b)
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(ca, cb, false), lines)
	var ops []lineOp
	for _, d := range diffs {
		for _, l := range splitLines(d.Text) {
			ops = append(ops, lineOp{d.Type, l})
		}
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", oldName, newName)
	// Walk hunks: a change plus diffContext equal lines each side, merging close changes.
	i := 0
	oldLine, newLine := 1, 1
	for i < len(ops) {
		if ops[i].op == diffmatchpatch.DiffEqual {
			oldLine++
			newLine++
			i++
			continue
		}
		start := max(i-diffContext, 0)
		for k := start; k < i; k++ { // context lines were counted; step back
			oldLine--
			newLine--
		}
		end := i
		for end < len(ops) {
			if ops[end].op != diffmatchpatch.DiffEqual {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].op == diffmatchpatch.DiffEqual {
				run++
			}
			if run < len(ops) && run-end <= 2*diffContext {
				end = run
				continue
			}
			end = min(end+diffContext, len(ops))
			break
		}
		var body strings.Builder
		oc, nc := 0, 0
		for _, o := range ops[start:end] {
			prefix := " "
			switch o.op {
			case diffmatchpatch.DiffDelete:
				prefix = "-"
				oc++
			case diffmatchpatch.DiffInsert:
				prefix = "+"
				nc++
			default:
				oc++
				nc++
			}
			body.WriteString(prefix + o.text)
			if !strings.HasSuffix(o.text, "\n") {
				body.WriteString("\n\\ No newline at end of file\n")
			}
		}
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n", hunkRange(oldLine, oc), hunkRange(newLine, nc))
		sb.WriteString(body.String())
		oldLine += oc
		newLine += nc
		i = end
	}
	return sb.String()
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start-1)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

func splitLines(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}
