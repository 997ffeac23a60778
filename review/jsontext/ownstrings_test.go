package jsontext

import (
	"testing"
	"unsafe"
)

// TestOwnStrings: with OwnStrings the tree's strings (names and values, escaped or not)
// equal those of a plain parse, and none lies inside the parsed text, so keeping one
// does not keep the text alive.
func TestOwnStrings(t *testing.T) {
	text := `{"name": "demo", "servers": {"db": {"command": "./bin/db", "args": ["--x", "caf\u00e9"]}}}`
	plain, _, err := ParseString(text, Limits)
	if err != nil {
		t.Fatal(err)
	}
	o := Limits
	o.OwnStrings = true
	own, _, err := ParseString(text, o)
	if err != nil {
		t.Fatal(err)
	}
	lo := uintptr(unsafe.Pointer(unsafe.StringData(text)))
	hi := lo + uintptr(len(text))
	inside := func(s string) bool {
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		return len(s) > 0 && p >= lo && p < hi
	}
	var walk func(a, b *Value)
	n := 0
	walk = func(a, b *Value) {
		if a.Kind != b.Kind || a.Str != b.Str || len(a.Arr) != len(b.Arr) || len(a.Obj) != len(b.Obj) {
			t.Fatalf("trees differ at offset %d", a.Off)
		}
		if inside(b.Str) {
			t.Errorf("string %q is a slice of the text", b.Str)
		}
		if b.Kind == String {
			n++
		}
		for i := range a.Arr {
			walk(a.Arr[i], b.Arr[i])
		}
		for i := range a.Obj {
			if a.Obj[i].Key != b.Obj[i].Key || inside(b.Obj[i].Key) {
				t.Errorf("name %q differs or is a slice of the text", b.Obj[i].Key)
			}
			walk(a.Obj[i].Val, b.Obj[i].Val)
		}
	}
	walk(plain, own)
	if n != 4 {
		t.Fatalf("walked %d strings, want 4", n)
	}
	if !inside(plain.Get("name").Val.Str) {
		t.Fatal("a plain parse no longer slices the text: the test checks nothing")
	}
}
