package ui

import (
	"fmt"
	"sort"
	"testing"
	"time"

	"vouch/internal/gen"
	"vouch/model"

	tea "charm.land/bubbletea/v2"
)

// largeSource builds n packages of five components each, the shape loaders produce.
func largeSource(n int) []*model.Package {
	base := fixturePackages()
	out := make([]*model.Package, 0, n)
	for i := 0; i < n; i++ {
		src := base[i%len(base)]
		p := *src
		p.Name = fmt.Sprintf("%s-%04d", src.Name, i)
		p.Components = nil
		for _, c := range src.Components {
			cc := *c
			p.Components = append(p.Components, &cc)
		}
		out = append(out, &p)
	}
	return out
}

// BenchmarkFirstFrame measures New, the load command (trust evaluation of 1,000
// packages against an empty ledger), the window size and the first View.
func BenchmarkFirstFrame(b *testing.B) {
	pkgs := largeSource(1000)
	home := b.TempDir()
	for b.Loop() {
		m := New(Options{Sources: []string{"large"}, Home: home, Packages: pkgs})
		m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
		m.Update(m.loadCmd()())
		_ = m.View()
	}
}

func benchKey(b *testing.B, keys ...string) {
	m := newTestModel(b, largeSource(1000), 160, 48)
	msgs := make([]tea.KeyPressMsg, len(keys))
	for i, k := range keys {
		msgs[i] = keyMsg(k)
	}
	durations := make([]time.Duration, 0, b.N)
	i := 0
	for b.Loop() {
		start := time.Now()
		m.Update(msgs[i%len(msgs)])
		_ = m.View()
		durations = append(durations, time.Since(start))
		i++
	}
	sort.Slice(durations, func(a, c int) bool { return durations[a] < durations[c] })
	if len(durations) > 0 {
		b.ReportMetric(float64(durations[len(durations)*99/100].Microseconds()), "p99-µs")
	}
}

// BenchmarkKeyMoveDown is one j press through Update and View.
func BenchmarkKeyMoveDown(b *testing.B) { benchKey(b, "j") }

// BenchmarkKeySwitchTab is one tab press (Overview → Capabilities → …) through Update and View.
func BenchmarkKeySwitchTab(b *testing.B) { benchKey(b, "tab") }

// BenchmarkFirstFrameFromDisk streams 1,000 generated Agent Plugins packages through
// review.Stream and trust: the time until the first frame that shows packages. (The very
// first frame, "Loading…", is drawn before the load command even starts.) The rest of
// the load is stopped and waited for outside the timer, so it does not slow the next
// iteration.
func BenchmarkFirstFrameFromDisk(b *testing.B) {
	dir := b.TempDir()
	if err := gen.Generate(dir, 1000); err != nil {
		b.Fatal(err)
	}
	home := b.TempDir()
	shown := 0
	for b.Loop() {
		m := New(Options{Sources: []string{dir}, Home: home})
		m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
		msg := m.loadCmd()().(loadedMsg)
		m.Update(msg)
		if m.loadErr != nil || len(m.data.pkgs) == 0 {
			b.Fatalf("first frame has %d packages, err %v", len(m.data.pkgs), m.loadErr)
		}
		_ = m.View()
		b.StopTimer()
		shown += len(m.data.pkgs)
		msg.stream.stop()
		<-msg.stream.ended
		b.StartTimer()
	}
	b.ReportMetric(float64(shown)/float64(b.N), "pkgs-in-first-frame")
}

// BenchmarkAllLoadedFromDisk is the same load followed to its last batch: the time until
// the console shows all 1,000 packages.
func BenchmarkAllLoadedFromDisk(b *testing.B) {
	dir := b.TempDir()
	if err := gen.Generate(dir, 1000); err != nil {
		b.Fatal(err)
	}
	home := b.TempDir()
	batches := 0
	for b.Loop() {
		m := New(Options{Sources: []string{dir}, Home: home})
		m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
		for cmd := m.loadCmd(); cmd != nil; {
			msg := cmd().(loadedMsg)
			m.Update(msg)
			_ = m.View()
			batches++
			cmd = msg.next
		}
		if m.loadErr != nil || len(m.data.pkgs) != 1000 || m.loading {
			b.Fatalf("loaded %d packages, err %v, still loading %v", len(m.data.pkgs), m.loadErr, m.loading)
		}
	}
	b.ReportMetric(float64(batches)/float64(b.N), "batches")
}

// BenchmarkFilterKeystroke types one character into the filter and draws the frame, on
// 1,000 packages (the filter text of each row is built once, then searched).
func BenchmarkFilterKeystroke(b *testing.B) {
	m := newTestModel(b, largeSource(1000), 160, 48)
	m.Update(keyMsg("/"))
	keys := []tea.KeyPressMsg{keyMsg("n"), keyMsg("o"), {Code: tea.KeyBackspace}, {Code: tea.KeyBackspace}}
	i := 0
	for b.Loop() {
		m.Update(keys[i%len(keys)])
		_ = m.View()
		i++
	}
}

// BenchmarkFileViewHighlight escapes and highlights a 64 KiB script (the most
// the view highlights), the work the file view's load command does off the update loop.
func BenchmarkFileViewHighlight(b *testing.B) {
	text := longScript(1500)
	for len(text) < maxHighlightBytes-200 {
		text += "// more\n"
	}
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		highlight("context.mjs", text, true)
	}
}
