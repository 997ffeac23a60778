package loadertest

import (
	"testing"

	"vouch/model"
)

func TestFind(t *testing.T) {
	ds := []model.Diagnostic{{Code: "a", Message: "first"}, {Code: "ab"}, {Code: "a", Message: "second"}}
	for _, tc := range []struct {
		code string
		want *model.Diagnostic
	}{
		{"a", &ds[0]},
		{"ab", &ds[1]},
		{"b", nil},
		{"", nil},
	} {
		if got := Find(ds, tc.code); got != tc.want {
			t.Errorf("Find(%q) = %+v, want %+v", tc.code, got, tc.want)
		}
	}
	if Find(nil, "a") != nil {
		t.Error("Find in no diagnostics found one")
	}
}
