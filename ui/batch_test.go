package ui

import (
	"testing"

	"vouch/model"
)

// feedBatch hands the model one batch of the current load, built as the loader builds it
// (rated and with its filter texts), or without the filter texts when bare is set.
func feedBatch(m *Model, pkgs []*model.Package, first, last, bare bool) {
	msg := loadedMsg{gen: m.loadGen, first: first, last: last, pkgs: pkgs, status: evaluate(m.trust, pkgs)}
	if !bare {
		msg.chunk = buildHays(pkgs)
	}
	m.Update(msg)
}

// A batch that brings no package (a stream's last one often does) after packages were
// shown leaves the rows as they are.
func TestEmptyBatchAfterPackagesKeepsTheRows(t *testing.T) {
	pkgs := fixturePackages()
	m := newTestModel(t, []*model.Package{}, 100, 30)
	feedBatch(m, pkgs[:1], true, false, false)
	before := len(m.tree.all)
	feedBatch(m, nil, false, true, false)
	if len(m.tree.all) != before || len(m.tree.visible) != before {
		t.Fatalf("an empty batch changed the rows: %d of %d → %d, %d", before, before, len(m.tree.all), len(m.tree.visible))
	}
	checkTree(t, m)
}

// checkTree asserts what every batch and key must leave true: each row names a package
// and component that exist, without a filter or folds every package's rows are there in
// order, the visible rows are rows of all in order, the cursor and top are in range, the
// package row index matches, and a frame renders.
func checkTree(t testing.TB, m *Model) {
	t.Helper()
	tr, pkgs := m.tree, m.data.pkgs
	for i, it := range tr.all {
		if it.pkg < 0 || it.pkg >= len(pkgs) || it.comp < -1 || it.comp >= len(pkgs[it.pkg].Components) {
			t.Fatalf("row %d names %v, outside %d packages", i, it, len(pkgs))
		}
	}
	if want := len(itemsFor(pkgs)); len(tr.all) != want {
		t.Fatalf("%d rows for %d packages, want %d", len(tr.all), len(pkgs), want)
	}
	for i := 1; i < len(tr.visible); i++ {
		if tr.visible[i] <= tr.visible[i-1] {
			t.Fatalf("visible rows out of order at %d: %v", i, tr.visible[i-1:i+1])
		}
	}
	for _, v := range tr.visible {
		if v < 0 || v >= len(tr.all) {
			t.Fatalf("visible row %d outside %d rows", v, len(tr.all))
		}
	}
	if tr.filter.Value() == "" && len(tr.folded) == 0 && len(tr.visible) != len(tr.all) {
		t.Fatalf("no filter, no folds: %d of %d rows visible", len(tr.visible), len(tr.all))
	}
	if len(tr.visible) == 0 {
		if tr.cursor != 0 {
			t.Fatalf("cursor %d with no visible row", tr.cursor)
		}
	} else if tr.cursor < 0 || tr.cursor >= len(tr.visible) || tr.top < 0 || tr.top > tr.cursor {
		t.Fatalf("cursor %d, top %d with %d visible rows", tr.cursor, tr.top, len(tr.visible))
	}
	for p, r := range tr.pkgRow {
		if p < len(pkgs) && (int(r) >= len(tr.all) || tr.all[r] != (item{pkg: p, comp: -1})) {
			t.Fatalf("pkgRow[%d] = %d does not hold the package row", p, r)
		}
	}
	if tr.rowOf != nil && len(tr.rowOf) != len(tr.all) {
		t.Fatalf("rowOf has %d entries for %d rows", len(tr.rowOf), len(tr.all))
	}
	_ = screen(m)
}
