package ui

import (
	"slices"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// timedKey is a key press and when it was sent.
type timedKey struct {
	key  string
	sent time.Time
}

// BenchmarkKeyWhileLoading presses j and k in turn while n generated packages stream in
// from disk, with a small runtime of its own shaped like Bubble Tea's: one loop takes
// messages in turn (Update, then View), commands run on their own goroutines and send
// what they return back to the loop. A key's latency is from its send to the end of the
// View after its Update, so it includes the wait behind a batch being drawn: what a
// person feels while the tree fills. Reported: the keys' p50/p99/max, the batches'
// p99 (Update and View of one batch), and how many keys a load took.
func BenchmarkKeyWhileLoading(b *testing.B) {
	forDiskSources(b, func(b *testing.B, n int, dir, home string) {
		var keys, batches, idle []time.Duration
		for b.Loop() {
			k, bt, id := loadWithKeys(b, dir, home, n)
			keys, batches, idle = append(keys, k...), append(batches, bt...), append(idle, id...)
		}
		percentiles(b, keys)
		// The baseline, from the same runs: the same keys once the load has ended.
		slices.Sort(idle)
		b.ReportMetric(float64(idle[len(idle)*99/100].Microseconds()), "loaded-p99-µs")
		b.ReportMetric(float64(idle[len(idle)/2].Microseconds()), "loaded-p50-µs")
		b.ReportMetric(float64(len(keys))/float64(b.N), "keys/load")
		if len(batches) > 0 {
			slices.Sort(batches)
			b.ReportMetric(float64(batches[len(batches)*99/100].Microseconds()), "batch-p99-µs")
		}
	})
}

// loadWithKeys runs one load of dir with keys pressed during it, and returns the keys'
// latencies, the batches' Update-and-View times, and the same keys' times once loaded.
func loadWithKeys(b *testing.B, dir, home string, n int) (keys, batches, loaded []time.Duration) {
	m := New(Options{Sources: []string{dir}, Home: home})
	m.common.highlightBudget = 0
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	msgs := make(chan tea.Msg, 256)
	var loading atomic.Bool
	loading.Store(true)
	var exec func(cmd tea.Cmd)
	exec = func(cmd tea.Cmd) {
		if cmd == nil {
			return
		}
		go func() {
			switch msg := cmd().(type) {
			case tea.BatchMsg:
				for _, c := range msg {
					exec(c)
				}
			case nil:
			default:
				if isInternal(msg) {
					msgs <- msg
				}
			}
		}()
	}
	exec(m.loadCmd())
	// A person types a key, sees it answered, and types the next: the next key is sent
	// 20 ms after the last one was drawn (50 keys a second at most), never into a queue
	// of keys the loop has not reached.
	stop, handled := make(chan struct{}), make(chan struct{}, 1)
	go func() {
		for i := 0; ; i++ {
			k := "j"
			if i%2 == 1 {
				k = "k"
			}
			select {
			case msgs <- timedKey{k, time.Now()}:
			case <-stop:
				return
			}
			select {
			case <-handled:
			case <-stop:
				return
			}
			select {
			case <-time.After(20 * time.Millisecond):
			case <-stop:
				return
			}
		}
	}()
	deadline := time.After(10 * time.Minute)
	for loading.Load() {
		var msg tea.Msg
		select {
		case msg = <-msgs:
		case <-deadline:
			b.Fatalf("the load of %d packages did not end", n)
		}
		switch msg := msg.(type) {
		case timedKey:
			_, cmd := m.Update(keyMsg(msg.key))
			_ = m.View()
			keys = append(keys, time.Since(msg.sent))
			exec(cmd)
			handled <- struct{}{}
		case loadedMsg:
			start := time.Now()
			_, cmd := m.Update(msg)
			_ = m.View()
			batches = append(batches, time.Since(start))
			exec(cmd)
			if msg.last || msg.err != nil {
				loading.Store(false)
			}
		default:
			_, cmd := m.Update(msg)
			exec(cmd)
		}
	}
	close(stop)
	if len(m.data.pkgs) != n {
		b.Fatalf("loaded %d of %d packages", len(m.data.pkgs), n)
	}
	for i := 0; i < 100; i++ {
		k := "j"
		if i%2 == 1 {
			k = "k"
		}
		start := time.Now()
		m.Update(keyMsg(k))
		_ = m.View()
		loaded = append(loaded, time.Since(start))
	}
	return keys, batches, loaded
}
