package ui

import (
	"reflect"
	"testing"
	"unsafe"

	"vouch/model"
)

// field is field i of the struct v points to, readable although it is unexported.
func field(v reflect.Value, i int) any {
	f := v.Elem().Field(i)
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Interface()
}

// A reload replaces the whole of a load's data: no field still holds what the old load
// built (its packages, statuses, caches, the filter's index, the counts), and each is
// what a fresh console that loaded the new packages holds. Every field is checked, so a
// field added to data later is checked too, once the test fills it before the reload.
func TestReloadLeavesNothingOfTheOldLoad(t *testing.T) {
	diags := func() []model.Diagnostic {
		return []model.Diagnostic{{Code: "source-note", Severity: model.SeverityWarning, Message: "A note about the source."}}
	}
	start := func(pkgs []*model.Package) *Model {
		return loadedConsole(t, Options{Sources: []string{"examples"}, Home: t.TempDir(), Packages: pkgs, SourceDiagnostics: diags()}, 120, 30)
	}
	m := start(fixturePackages())
	// Fill what a load's data caches: a skill's Content tab asks whether its body is slow
	// to render; the text search builds the body index and a search records its scan.
	press(t, m, "j", "j", "j", "3")
	press(t, m, "/", "tab", "r", "i", "s", "k", "enter", "esc", "g")
	old := m.data
	ov := reflect.ValueOf(&old)
	typ := ov.Elem().Type()
	for i := range typ.NumField() {
		f := typ.Field(i)
		switch f.Type.Kind() {
		case reflect.Map, reflect.Slice, reflect.Pointer, reflect.Struct, reflect.Func:
			if ov.Elem().Field(i).IsZero() {
				t.Fatalf("data.%s was never filled before the reload: fill it, or the test cannot see it left behind", f.Name)
			}
		}
	}

	fresh := fixturePackages()
	m.opts.Packages, m.opts.SourceDiagnostics = fresh, diags() // what the sources hold now
	run(t, m, m.loadCmd())
	want := start(fresh)

	nv, wv := reflect.ValueOf(&m.data), reflect.ValueOf(&want.data)
	for i := range typ.NumField() {
		f := typ.Field(i)
		got, was := field(nv, i), field(ov, i)
		switch f.Name {
		case "env":
			if got != was {
				t.Error("data.env, the same for every load, was replaced")
			}
			continue
		case "gen":
			if got != old.gen+1 {
				t.Errorf("data.gen %v after a reload of generation %d", got, old.gen)
			}
			continue
		}
		switch k := f.Type.Kind(); k {
		case reflect.Map, reflect.Slice, reflect.Pointer, reflect.Func:
			if g := nv.Elem().Field(i); !g.IsNil() && g.Pointer() == ov.Elem().Field(i).Pointer() {
				t.Errorf("data.%s still holds the old load's %s", f.Name, k)
			}
		}
		if w := field(wv, i); !reflect.DeepEqual(got, w) {
			t.Errorf("data.%s after the reload is %v, a fresh load has %v", f.Name, got, w)
		}
	}
}
