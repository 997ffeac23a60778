package skills

import (
	"crypto/sha256"
	"strings"
	"sync"
	"sync/atomic"

	"vouch/model"
)

// One folder is read by several formats (a plugin with both .claude-plugin/ and
// .codex-plugin/ over one skills/ folder is loaded by the Claude Code and the Codex
// loader, and an Agent Plugins view may read it too), and each of them parses every
// SKILL.md. The hidden-content scan, when it needs a full markdown parse, is most of
// that work and depends on the text alone, so its answer is kept by the text's digest
// and the line it starts on: the second format to read a skill gets the first one's scan.
type scanKey struct {
	sum   [sha256.Size]byte
	first int
}

type scanResult struct {
	hidden   []model.HiddenContent
	degraded bool
}

var (
	scanMemo    sync.Map // scanKey -> scanResult
	scanEntries atomic.Int64
)

// maxScanMemo bounds the answers kept; past it, scans are simply not remembered.
const maxScanMemo = 1 << 14

// memoScan is scanHidden through the memo. Every caller gets its own copy of the slice
// (Parse rewrites its elements when it detaches them), and the memo keeps copies of the
// strings, never slices of a file's text.
func memoScan(markdown string, firstLine int) ([]model.HiddenContent, bool) {
	s := newHiddenScan(markdown, firstLine)
	// A text that needs no parse is scanned in about the time its digest would take.
	if out, ok := s.withoutParse(false); ok {
		return out, s.degraded
	}
	key := scanKey{sha256.Sum256([]byte(markdown)), firstLine}
	if r, ok := scanMemo.Load(key); ok {
		res := r.(scanResult)
		return append([]model.HiddenContent(nil), res.hidden...), res.degraded
	}
	hidden, degraded := s.parse(), s.degraded
	if scanEntries.Load() < maxScanMemo {
		kept := make([]model.HiddenContent, len(hidden))
		for i, h := range hidden {
			h.Kind, h.Text = strings.Clone(h.Kind), strings.Clone(h.Text)
			kept[i] = h
		}
		if _, loaded := scanMemo.LoadOrStore(key, scanResult{kept, degraded}); !loaded {
			scanEntries.Add(1)
		}
	}
	return hidden, degraded
}
