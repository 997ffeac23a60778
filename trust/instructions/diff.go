package instructions

import "vouch/trust"

// UnifiedDiff renders a unified diff of a target file before and after a change; the
// one implementation lives in trust, shared with package file diffs.
func UnifiedDiff(before, after []byte, nameBefore, nameAfter string) string {
	return trust.UnifiedDiff(nameBefore, nameAfter, string(before), string(after))
}
