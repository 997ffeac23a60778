package main

import (
	"path/filepath"
	"testing"
)

// review without a terminal prints the status report and exits as status does: 1 when
// nothing was found, 0 when packages were.
func TestReviewWithoutTerminalExitsLikeStatus(t *testing.T) {
	empty := t.TempDir()
	ex := filepath.Join("..", "..", "examples", "skills", "roll-dice")
	for _, tc := range []struct {
		src  string
		want int
	}{{empty, 1}, {ex, 0}} {
		for _, cmd := range []string{"review", "status"} {
			if code, _, errOut := runVouch(t, t.TempDir(), cmd, tc.src); code != tc.want {
				t.Errorf("%s %s: exit %d, want %d\n%s", cmd, tc.src, code, tc.want, errOut)
			}
		}
	}
}
