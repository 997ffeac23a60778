package trust

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"time"
	"vouch/internal/atomicfile"

	"github.com/BurntSushi/toml"
)

// SchemaVersion is the only ledger schema this version reads and writes.
const SchemaVersion = 1

// maxLedgerBytes bounds a ledger read. A team ledger comes from a repository and may be
// hostile; a personal ledger of this size is years of decisions.
const maxLedgerBytes = 32 << 20

// ledgerHeader starts a new ledger file. Comments survive because vouch appends to the
// existing bytes rather than re-encoding the file.
const ledgerHeader = `# vouch trust ledger: append-only. An approval binds (package, component, digest); the last
# decision for a digest is its state (in a team ledger a revoke of a digest always wins).
# Written by "vouch approve" and "vouch revoke"; do not edit entries by hand.
schema_version = 1
`

type ledgerDoc struct {
	SchemaVersion *int       `toml:"schema_version"`
	Decision      []Decision `toml:"decision"`
}

// ledger is one parsed ledger file.
type ledger struct {
	path      string
	origin    string // "personal" or "team:<path>"
	decisions []Decision
	exists    bool
}

// readLedger reads and checks a ledger; a missing file is an empty ledger. Any other
// problem wraps ErrDamagedLedger and names the line when the parser knows it.
func readLedger(path, origin string) (*ledger, []byte, error) {
	l := &ledger{path: path, origin: origin}
	data, err := atomicfile.ReadRegular(path, maxLedgerBytes)
	if errors.Is(err, os.ErrNotExist) {
		return l, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read ledger %s: %w", path, err)
	}
	l.exists = true
	ds, err := parseLedger(path, data)
	if err != nil {
		return nil, nil, err
	}
	for i := range ds {
		ds[i].Ledger = origin
	}
	l.decisions = ds
	return l, data, nil
}

// parseLedger decodes ledger bytes and checks every decision.
func parseLedger(path string, data []byte) ([]Decision, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	ledgerParses.Add(1)
	return decodeLedger(path, data)
}

// decodeLedger is parseLedger without counting the work: for checking that decisions
// about to be appended read back, which costs what they weigh, not what the ledger does.
func decodeLedger(path string, data []byte) ([]Decision, error) {
	var doc ledgerDoc
	md, err := toml.Decode(string(data), &doc)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%w: %s:%d: %s; fix or move the file, vouch will not overwrite it", ErrDamagedLedger, path, pe.Position.Line, pe.Message)
		}
		return nil, fmt.Errorf("%w: %s: %v; fix or move the file, vouch will not overwrite it", ErrDamagedLedger, path, err)
	}
	if doc.SchemaVersion == nil {
		return nil, fmt.Errorf("%w: %s has no schema_version = 1 line; fix or move the file, vouch will not overwrite it", ErrDamagedLedger, path)
	}
	if *doc.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("%w: %s has schema_version = %d, this vouch reads only %d; use a newer vouch", ErrDamagedLedger, path, *doc.SchemaVersion, SchemaVersion)
	}
	if err := caseVariantKey(md); err != nil {
		return nil, fmt.Errorf("%w: %s: %v; fix or move the file, vouch will not overwrite it", ErrDamagedLedger, path, err)
	}
	// Decisions must be [[decision]] tables: vouch appends more of them, which an inline
	// array could not take.
	if md.IsDefined("decision") && md.Type("decision") != "ArrayHash" {
		return nil, fmt.Errorf("%w: %s: decision must be written as [[decision]] tables; fix or move the file, vouch will not overwrite it", ErrDamagedLedger, path)
	}
	for i, d := range doc.Decision {
		n := i + 1
		switch {
		case d.Action != ActionApprove && d.Action != ActionRevoke:
			return nil, fmt.Errorf("%w: %s: decision %d has action %q, not approve or revoke", ErrDamagedLedger, path, n, d.Action)
		case d.Package == "" || d.Component == "":
			return nil, fmt.Errorf("%w: %s: decision %d has no package or component", ErrDamagedLedger, path, n)
		case d.Format != "" && !validFormatName(d.Format):
			return nil, fmt.Errorf("%w: %s: decision %d has format %q, not a format name (lowercase letters, digits and hyphens)", ErrDamagedLedger, path, n, d.Format)
		case d.Action == ActionApprove && !validDigest(d.Digest):
			return nil, fmt.Errorf("%w: %s: decision %d approves %q, which is not a sha256:<64 hex> digest", ErrDamagedLedger, path, n, d.Digest)
		case d.Scope != "" && d.Scope != ScopeDigest:
			return nil, fmt.Errorf("%w: %s: decision %d has scope %q, not %q", ErrDamagedLedger, path, n, d.Scope, ScopeDigest)
		case d.Scope == ScopeDigest && (d.Action != ActionRevoke || !validDigest(d.Digest)):
			return nil, fmt.Errorf("%w: %s: decision %d is scoped to a digest but is not a revoke of a sha256:<64 hex> digest", ErrDamagedLedger, path, n)
		}
		for _, f := range d.Files {
			if f.Path == "" || f.Size < 0 || !(validHex(f.SHA256) || f.Link != "" && f.SHA256 == "") {
				return nil, fmt.Errorf("%w: %s: decision %d lists a file without a path, a size, or a sha256 of 64 hex (or a link target)", ErrDamagedLedger, path, n)
			}
		}
	}
	return doc.Decision, nil
}

// validFormatName reports whether s can be a package format as vouch writes it. A NUL
// or other byte in it could make one format's decisions answer for another's.
func validFormatName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// ValidDigest reports whether d is a contract digest as vouch writes it: "sha256:" and
// 64 lowercase hex digits.
func ValidDigest(d string) bool { return validDigest(d) }

func validDigest(d string) bool {
	h, ok := strings.CutPrefix(d, "sha256:")
	return ok && validHex(h)
}

func validHex(h string) bool {
	if len(h) != 64 {
		return false
	}
	for _, c := range h {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// encodeDecision renders one [[decision]] table.
func encodeDecision(d Decision) ([]byte, error) {
	var buf bytes.Buffer
	enc := toml.NewEncoder(&buf)
	enc.Indent = ""
	if err := enc.Encode(ledgerDoc{Decision: []Decision{d}}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// lockHome takes the exclusive lock that serializes every read-modify-write of the
// personal ledger and the store by processes sharing this home.
func lockHome(home string) (unlock func(), err error) {
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, fmt.Errorf("cannot create vouch home %s: %w", home, err)
	}
	return atomicfile.Lock(filepath.Join(home, "ledger.lock"), filepath.Join(home, ".ledger.toml.*.tmp"))
}

// Work counters, so tests can assert that a command's ledger cost does not grow with the
// number of refs (wall-clock assertions are not allowed in tests).
var ledgerReads, ledgerParses atomic.Int64

func countRead() { ledgerReads.Add(1) }

// ledgerKeys are the exact key names of a ledger, by their lower case.
var ledgerKeys = func() map[string]string {
	names := map[string]string{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || t == reflect.TypeOf(time.Time{}) {
			return
		}
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
			if name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			names[strings.ToLower(name)] = name
			walk(f.Type)
		}
	}
	walk(reflect.TypeOf(ledgerDoc{}))
	return names
}()

// caseVariantKey refuses a key that differs from one of the ledger's only in case. The
// TOML decoder matches such a key to the field when the exact key is absent, and lets
// one of the two replace the other when both are present: "Decision = [...]" beside the
// [[decision]] tables vouch appends would hide those decisions, a revocation among them,
// while the file still parses.
func caseVariantKey(md toml.MetaData) error {
	for _, k := range md.Keys() {
		for _, part := range k {
			if exact, ok := ledgerKeys[strings.ToLower(part)]; ok && exact != part {
				return fmt.Errorf("the key %q is %q in another case; TOML keys are case-sensitive and vouch reads only %q", k.String(), exact, exact)
			}
		}
	}
	return nil
}
