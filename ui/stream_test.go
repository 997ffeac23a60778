package ui

import (
	"bytes"
	"maps"
	"slices"
	"strings"
	"testing"

	"vouch/internal/gen"
	"vouch/review"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// A large source streams in: the first frame shows its first packages and says it is
// still loading; later batches append in discovery order, rated, without moving the
// selection; the last one ends the "so far" header.
func TestStreamingLoadAppendsWithoutMovingTheSelection(t *testing.T) {
	dir := t.TempDir()
	const n = 300
	if err := gen.Generate(dir, n); err != nil {
		t.Fatal(err)
	}
	want, err := review.Open(review.Options{}, dir)
	if err != nil || len(want.Packages) != n {
		t.Fatalf("review.Open: %v, %d packages", err, len(want.Packages))
	}
	m := New(Options{Sources: []string{dir}, Home: t.TempDir()})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	msg := m.loadCmd()().(loadedMsg)
	if msg.last || len(msg.pkgs) == 0 || len(msg.pkgs) >= n {
		t.Fatalf("first batch: %d packages, last %v; want a first part of %d", len(msg.pkgs), msg.last, n)
	}
	m.Update(msg) // the test drives the following batches itself
	so := len(m.data.pkgs)
	if h := m.headerView(); !strings.Contains(h, "loading… "+plural(so, "package")+" so far") {
		t.Fatalf("header while streaming: %q", h)
	}
	if v := screen(m); !strings.Contains(v, want.Packages[0].Name) {
		t.Fatalf("first frame does not show the first package:\n%s", v)
	}
	press(t, m, "j", "j", "j")
	sel, _ := m.tree.selected()
	p0, c0, _, _ := m.selection()

	batches := 1
	for next := msg.next; next != nil; {
		bm := next().(loadedMsg)
		if len(bm.pkgs) == 0 && !bm.last {
			t.Fatal("an empty batch that is not the last")
		}
		before := len(m.data.pkgs)
		m.Update(bm)
		if got := len(m.data.pkgs); got != before+len(bm.pkgs) {
			t.Fatalf("batch of %d took the count from %d to %d", len(bm.pkgs), before, got)
		}
		if it, _ := m.tree.selected(); it != sel {
			t.Fatalf("batch %d moved the selection from %v to %v", batches, sel, it)
		}
		if p, c, _, _ := m.selection(); p != p0 || c != c0 {
			t.Fatalf("batch %d changed what is selected", batches)
		}
		batches++
		next = bm.next
	}
	if m.loading || len(m.data.pkgs) != n {
		t.Fatalf("after the last batch: loading %v, %d packages", m.loading, len(m.data.pkgs))
	}
	for i, p := range m.data.pkgs {
		if p.Root != want.Packages[i].Root {
			t.Fatalf("package %d is %s, review.Open has %s", i, p.Root, want.Packages[i].Root)
		}
		if _, ok := m.data.status[p]; !ok {
			t.Fatalf("package %s was never rated", p.Name)
		}
	}
	if len(m.tree.all) != len(itemsFor(m.data.pkgs)) {
		t.Fatalf("tree has %d rows, want %d", len(m.tree.all), len(itemsFor(m.data.pkgs)))
	}
	h := m.headerView()
	if strings.Contains(h, "loading") || !strings.Contains(h, plural(n, "package")) {
		t.Fatalf("header after loading: %q", h)
	}
	if m.data.nReview == 0 {
		t.Fatal("nothing needs review in a fresh home after streaming")
	}
}

// R while a load streams: the batches still coming from the first load are dropped and
// stop it; the reload replaces what is shown and streams in whole.
func TestReloadWhileStreamingDropsTheOldLoad(t *testing.T) {
	dir := t.TempDir()
	const n = 200
	if err := gen.Generate(dir, n); err != nil {
		t.Fatal(err)
	}
	m := New(Options{Sources: []string{dir}, Home: t.TempDir()})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	old := m.loadCmd()().(loadedMsg)
	m.Update(old)
	if old.last {
		t.Fatalf("first batch already the last (%d packages)", len(old.pkgs))
	}
	_, reload := m.Update(keyMsg("R"))
	if reload == nil {
		t.Fatal("R did nothing while streaming")
	}
	stale := old.next().(loadedMsg)
	before := len(m.data.pkgs)
	if _, cmd := m.Update(stale); cmd != nil || len(m.data.pkgs) != before {
		t.Fatalf("a batch of the replaced load was taken (%d → %d packages)", before, len(m.data.pkgs))
	}
	<-old.stream.ended // stopped: it returns without loading the rest
	run(t, m, reload)
	if m.loading || len(m.data.pkgs) != n {
		t.Fatalf("after the reload: loading %v, %d packages, want %d", m.loading, len(m.data.pkgs), n)
	}
	if !strings.Contains(m.flash, "Reloaded: "+plural(n, "package")) {
		t.Fatalf("flash after reload: %q", m.flash)
	}
}

// Through the Bubble Tea runtime, a source on disk streams in to its last batch.
func TestProgramStreamsASourceToTheEnd(t *testing.T) {
	dir := t.TempDir()
	if err := gen.Generate(dir, 150); err != nil {
		t.Fatal(err)
	}
	m := New(Options{Sources: []string{dir}, Home: t.TempDir()})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 30),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("150 packages ·"))
	}, teatest.WithDuration(patience(t)))
	tm.Send(keyMsg("q"))
	final := tm.FinalModel(t, teatest.WithFinalTimeout(patience(t))).(*Model)
	if final.loading || len(final.data.pkgs) != 150 {
		t.Fatalf("final model: loading %v, %d packages", final.loading, len(final.data.pkgs))
	}
}

// A streamed batch appends its rows and counts to what is shown; the result is what
// building every row and count again from all the packages gives, with the components
// sorted by risk, a package folded, or a filter typed while the load runs.
func TestAppendedBatchesMatchAFullRebuild(t *testing.T) {
	for name, keys := range map[string][]string{
		"plain":   nil,
		"by risk": {"S"},
		"folded":  {"j", "c"},
		"filter":  {"/", "s", "k", "i", "enter"},
		"reviews": {"j", "j", "a", "y"},
	} {
		t.Run(name, func(t *testing.T) {
			m := New(Options{Sources: []string{"mem"}, Home: t.TempDir(), Packages: largeSource(1100)})
			m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
			msg := m.loadCmd()().(loadedMsg)
			m.Update(msg)
			press(t, m, keys...)
			batches := 1
			for cmd := msg.next; cmd != nil; batches++ {
				msg = cmd().(loadedMsg)
				m.Update(msg)
				cmd = msg.next
			}
			if batches < 3 || len(m.data.pkgs) != 1100 || m.tree.appended < batches-1 {
				t.Fatalf("%d batches (%d appended), %d packages: the test needs appended batches", batches, m.tree.appended, len(m.data.pkgs))
			}
			all, visible, pkgRow, rowOf := slices.Clone(m.tree.all), slices.Clone(m.tree.visible), slices.Clone(m.tree.pkgRow), slices.Clone(m.tree.rowOf)
			counts := []int{m.data.nPackages, m.data.nReview, m.data.nChanged, m.data.nInvalid, m.data.nReviewed, m.data.nReviewable}
			progress := maps.Clone(m.data.progress)
			names := maps.Clone(m.data.names)
			sel, _ := m.tree.selected()

			m.tree.setItems(m.tree.order(itemsFor(m.data.pkgs)))
			m.recount()
			if !slices.Equal(all, m.tree.all) || !slices.Equal(visible, m.tree.visible) || !slices.Equal(pkgRow, m.tree.pkgRow) || !slices.Equal(rowOf, m.tree.rowOf) {
				t.Fatalf("rows appended batch by batch differ from a rebuild (%d/%d rows, %d/%d visible)", len(all), len(m.tree.all), len(visible), len(m.tree.visible))
			}
			if want := []int{m.data.nPackages, m.data.nReview, m.data.nChanged, m.data.nInvalid, m.data.nReviewed, m.data.nReviewable}; !slices.Equal(counts, want) {
				t.Fatalf("counts %v, rebuilt %v", counts, want)
			}
			if !maps.Equal(progress, m.data.progress) || !maps.Equal(names, m.data.names) {
				t.Fatal("per-package progress or name counts differ from a rebuild")
			}
			if now, _ := m.tree.selected(); now != sel {
				t.Fatalf("selection %v, after a rebuild %v", sel, now)
			}
		})
	}
}
