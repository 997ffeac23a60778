package closuretest

import (
	"testing"

	"vouch/model"
)

// Run runs every layout as a subtest of t against one loader whose components run from
// the package root: write makes the package in a fresh folder named name (Folder), the
// layout is built in that folder, and Check asserts it with stem and what load returns
// for the folder.
func Run(t *testing.T, name, stem string, write func(t *testing.T, dir string), load func(t *testing.T, dir string) map[string]*model.Component) {
	t.Helper()
	for _, l := range Layouts() {
		t.Run(l.Name, func(t *testing.T) {
			dir := Folder(t, name)
			write(t, dir)
			Build(t, dir, l)
			Check(t, l, dir, stem, func() map[string]*model.Component { return load(t, dir) })
		})
	}
}
