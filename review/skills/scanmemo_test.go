package skills

import (
	"reflect"
	"testing"
)

// TestMemoScan: a remembered scan answers exactly what a fresh one does, and no caller
// can change what the next one gets.
func TestMemoScan(t *testing.T) {
	md := "# t\n\n<!-- hidden note -->\n\n[x]: https://example.com\n\nText with a <span>tag</span>.\n"
	want, wantDeg := scanHidden(md, 5)
	first, deg1 := memoScan(md, 5)
	if len(want) == 0 || !reflect.DeepEqual(first, want) || deg1 != wantDeg {
		t.Fatalf("first scan %v, want %v", first, want)
	}
	first[0].Text = "changed by a caller"
	second, deg2 := memoScan(md, 5)
	if !reflect.DeepEqual(second, want) || deg2 != wantDeg {
		t.Fatalf("remembered scan %v, want %v", second, want)
	}
	other, _ := memoScan(md, 9) // the line it starts on is part of the answer
	if other[0].Line == want[0].Line {
		t.Errorf("a scan starting on another line reports the same lines: %v", other)
	}
}
