package testtree

import "testing"

func TestFails(t *testing.T) {
	for _, tc := range []struct {
		name string
		fn   func(testing.TB)
		want bool
	}{
		{"returns", func(tb testing.TB) { tb.Helper() }, false},
		{"Fatal", func(tb testing.TB) { tb.Fatal("x") }, true},
		{"Fatalf", func(tb testing.TB) { tb.Fatalf("%s", "x") }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ranOn := false
			got := Fails(func(tb testing.TB) {
				tc.fn(tb)
				ranOn = true
			})
			if got != tc.want {
				t.Errorf("Fails = %v, want %v", got, tc.want)
			}
			// A fatal failure ends the helper there, as it ends a test.
			if ranOn == tc.want {
				t.Errorf("the code after the call ran: %v, want %v", ranOn, !tc.want)
			}
		})
	}
}
