package ui

import (
	"fmt"
	"testing"
	"time"

	"vouch/internal/gen"
	"vouch/model"

	tea "charm.land/bubbletea/v2"
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
			t.Fatalf("visible rows out of order at %d: %v; all %v filter %q", i, tr.visible, tr.all, tr.filter.Value())
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

// batchPool is the packages the batch-sequence tests draw from: the hand-built fixture
// and generated packages, two of them sharing a name (a package row says where it lies
// once another of its name arrives).
func batchPool() []*model.Package {
	pool := fixturePackages()
	for i := range 6 {
		name := fmt.Sprintf("gen-%d", i)
		if i == 5 {
			name = "gen-0"
		}
		p := &model.Package{Format: model.FormatAgentPlugins, Name: name, Root: fmt.Sprintf("/src/gen/%d", i)}
		for j := range i % 4 {
			p.Components = append(p.Components, &model.Component{Kind: model.KindSkill, ID: fmt.Sprintf("s%d", j), Validity: model.Valid,
				Contract: &model.Contract{Kind: model.KindSkill, Fields: model.Fields{{Key: "n", Value: j}}}})
		}
		pool = append(pool, p)
	}
	return pool
}

// batchKeys are the keys the sequences press: moving, sorting, folding, filtering,
// dialogs and their answers, quitting.
var batchKeys = []string{"j", "k", "g", "G", "S", "c", "}", "{", "/", "g", "e", "n", "enter", "esc", "tab", "a", "A", "x", "y", "Y", "N", "space", "q", ":", "?", "f", "1", "5", "backspace"}

// runSequence plays ops as batches and keys on a fresh model, checking the tree after
// each step. The low four bits of an op byte pick what happens: a first batch (a load or reload starts),
// a later batch, an empty one, the previous batch again, a batch of an older load, a
// last batch, a batch without filter texts, or a key.
func runSequence(t *testing.T, ops []byte) {
	pool := batchPool()
	m := newTestModel(t, []*model.Package{}, 90, 24)
	next, prev := 0, []*model.Package(nil)
	take := func(b byte) []*model.Package {
		k := int(b>>4) % 4 // the high bits of an op: how many packages
		out := make([]*model.Package, 0, k)
		for range k {
			out = append(out, pool[next%len(pool)])
			next++
		}
		return out
	}
	for i, op := range ops {
		switch op & 0x0f {
		case 0:
			// A load or reload starts over with packages read again: new values.
			next = 0
			prev = take(op)
			for j, p := range prev {
				cp := *p
				prev[j] = &cp
			}
			m.loadGen++
			feedBatch(m, prev, true, false, false)
		case 1:
			prev = take(op)
			feedBatch(m, prev, false, false, false)
		case 2:
			feedBatch(m, nil, false, false, false)
		case 3:
			feedBatch(m, prev, false, false, false)
		case 4:
			msg := loadedMsg{gen: m.loadGen - 1, pkgs: take(op)}
			m.Update(msg)
		case 5:
			prev = take(op)
			feedBatch(m, prev, false, true, false)
		case 6:
			prev = take(op)
			feedBatch(m, prev, false, false, true)
		default:
			k := batchKeys[opKey(op)]
			_, cmd := m.Update(keyMsg(k))
			runQuick(m, cmd)
		}
		if t.Failed() {
			return
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("after op %d (%d) of %v: %v", i, op, ops, r)
				}
			}()
			checkTree(t, m)
		}()
	}
}

// runQuick runs a command's messages back into the model as run does, but gives up on
// one after a moment: the sequences press many keys, and cursor blinks only sleep.
func runQuick(m *Model, cmd tea.Cmd) {
	for depth := 0; cmd != nil && depth < 50; depth++ {
		ch := make(chan tea.Msg, 1)
		go func(c tea.Cmd) { ch <- c() }(cmd)
		var msg tea.Msg
		select {
		case msg = <-ch:
		case <-time.After(100 * time.Millisecond):
		}
		cmd = nil
		switch msg := msg.(type) {
		case tea.BatchMsg:
			for _, c := range msg {
				runQuick(m, c)
			}
		case nil, tea.QuitMsg:
		default:
			if isInternal(msg) {
				_, cmd = m.Update(msg)
			}
		}
	}
}

// Every batch shape, alone and after others, leaves a tree whose rows, visible rows,
// cursor and package index agree with the packages loaded.
func TestBatchShapes(t *testing.T) {
	for _, tc := range []struct {
		name string
		ops  []byte
	}{
		{"empty first batch", []byte{0x00, 0x01 | 0x20}},
		{"empty batch after packages", []byte{0x20, 2}},
		{"empty last batch", []byte{0x20, 5}},
		{"several empty batches", []byte{0x20, 2, 2, 0x11, 2, 5}},
		{"duplicate batch", []byte{0x20, 0x21, 3, 3}},
		{"batch of an older load", []byte{0x20, 0x34, 0x21}},
		{"later batch before any first", []byte{0x21, 0x31, 0x20}},
		{"batch after the last", []byte{0x20, 0x25, 0x21, 2}},
		{"batch without filter texts", []byte{0x20, 0x26, 0x21}},
		{"reload mid-stream", []byte{0x20, 0x21, 0x30, 0x21, 2, 0x25}},
		{"reload with nothing", []byte{0x30, 0x21, 0x00, 2, 0x00, 0x25}},
		{"filter then batches", []byte{keyOp("/"), keyOp("e"), 0x21, 2, 3, keyOp("enter")}},
		{"fold then batches", []byte{0x20, keyOp("c"), 0x21, 2, 0x25}},
		{"sort by risk then batches", []byte{0x20, keyOp("S"), 0x21, 2, 3, 0x20}},
		{"quit then batches", []byte{0x20, keyOp("q"), 0x21, 2, 0x30, 0x25}},
		{"dialog then reload", []byte{0x20, keyOp("j"), keyOp("a"), 0x30, keyOp("y"), 0x21}},
	} {
		t.Run(tc.name, func(t *testing.T) { runSequence(t, tc.ops) })
	}
}

// FuzzBatchesAndKeys plays arbitrary sequences of batches and keys: no panic, and the
// tree stays consistent after every step.
func FuzzBatchesAndKeys(f *testing.F) {
	f.Add([]byte{0x20, 2, 0x21, 3, 5})
	f.Add([]byte{0x20, keyOp("/"), keyOp("e"), 0x21, 2, 0x30, keyOp("S"), 0x25})
	f.Add([]byte{0x30, keyOp("c"), 0x21, 0x34, 2, keyOp("q"), 0x20, 2})
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 64 {
			ops = ops[:64]
		}
		runSequence(t, ops)
	})
}

// opKey is the index in batchKeys of the key op presses (its low four bits 7 to 15).
func opKey(op byte) int { return (int(op>>4)*9 + int(op&0x0f) - 7) % len(batchKeys) }

// keyOp is the op byte of runSequence that presses k.
func keyOp(k string) byte {
	for b := range 256 {
		if b&0x0f >= 7 && batchKeys[opKey(byte(b))] == k {
			return byte(b)
		}
	}
	panic("no op presses " + k)
}

// R pressed over and over while a load streams, with keys in between, as a running
// program would see it (run it with -race: the loader's goroutines run while keys are
// handled): every reload replaces the one before, none crashes, and the last one leaves
// every package of both sources in a consistent tree.
func TestReloadStorm(t *testing.T) {
	gend := t.TempDir()
	if err := gen.Generate(gend, 60); err != nil {
		t.Fatal(err)
	}
	m := New(Options{Sources: []string{"testdata/two-formats", gend}, Home: t.TempDir()})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	rt := newRuntime(t, m)
	defer rt.close()
	rt.exec(m.loadCmd())
	rt.until(func() bool { return len(m.data.pkgs) > 0 })
	for i := range 20 {
		rt.key("R")
		rt.drain(i % 3) // some batches of the reload arrive before the next key, some not
		rt.key(batchKeys[i%8])
		rt.key("R")
		checkTree(t, m)
	}
	rt.until(func() bool { return !m.loading })
	if len(m.data.pkgs) != 62 {
		t.Fatalf("after the storm: %d packages, want 62", len(m.data.pkgs))
	}
	checkTree(t, m)
}

// progRun runs a model as Bubble Tea does: commands in goroutines, their messages handed
// to Update one at a time, here on the test's goroutine.
type progRun struct {
	t    *testing.T
	m    *Model
	msgs chan tea.Msg
	done chan struct{}
}

func newRuntime(t *testing.T, m *Model) *progRun {
	return &progRun{t: t, m: m, msgs: make(chan tea.Msg, 64), done: make(chan struct{})}
}

func (r *progRun) close() { close(r.done) }

func (r *progRun) exec(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		msg := cmd()
		if b, ok := msg.(tea.BatchMsg); ok {
			for _, c := range b {
				r.exec(c)
			}
			return
		}
		if msg == nil || !isInternal(msg) {
			return
		}
		select {
		case r.msgs <- msg:
		case <-r.done:
		}
	}()
}

func (r *progRun) handle(msg tea.Msg) {
	_, cmd := r.m.Update(msg)
	r.exec(cmd)
}

func (r *progRun) key(k string) { r.handle(keyMsg(k)) }

// drain handles up to n messages that are already waiting.
func (r *progRun) drain(n int) {
	for range n {
		select {
		case msg := <-r.msgs:
			r.handle(msg)
		default:
			return
		}
	}
}

// until handles messages until cond holds.
func (r *progRun) until(cond func() bool) {
	r.t.Helper()
	deadline := time.After(patience(r.t))
	for !cond() {
		select {
		case msg := <-r.msgs:
			r.handle(msg)
		case <-deadline:
			r.t.Fatal("the condition never held")
		}
	}
}
