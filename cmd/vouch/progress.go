package main

import (
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/x/term"
)

// The progress line's pace: nothing for a run shorter than progressDelay (most runs:
// a line that flashes and vanishes only distracts), then a redraw at most every
// progressEvery, which is a few times a second.
const (
	defaultProgressDelay = 700 * time.Millisecond
	defaultProgressEvery = 250 * time.Millisecond
)

// progress is the line a long run keeps on stderr while it reads its sources: how many
// packages it has read so far, redrawn in place and erased when reading ends, so that
// nothing of it is left between the report's lines. It holds only vouch's own words and
// a count, never package text.
type progress struct {
	w     io.Writer
	count atomic.Int64
	stop  chan struct{}
	done  chan struct{}
}

// startProgress starts the line, or returns nil when there must be none: stderr is not
// a terminal (a pipe, a CI log), the terminal cannot erase a line (TERM=dumb), --quiet
// was given, or the command prints a machine format, whose reader wants stderr quiet.
func (a *app) startProgress() *progress {
	if a.quiet || a.machine || a.jsonErrors || os.Getenv("TERM") == "dumb" {
		return nil
	}
	f, ok := a.stderr.(*os.File)
	if !ok || !term.IsTerminal(f.Fd()) {
		return nil
	}
	delay, every := a.progressDelay, a.progressEvery
	if delay == 0 {
		delay = defaultProgressDelay
	}
	if every == 0 {
		every = defaultProgressEvery
	}
	p := &progress{w: f, stop: make(chan struct{}), done: make(chan struct{})}
	go p.run(delay, every)
	return p
}

// add counts packages read.
func (p *progress) add(n int) {
	if p != nil {
		p.count.Add(int64(n))
	}
}

// end erases the line, if one was drawn, and returns once it is gone.
func (p *progress) end() {
	if p == nil {
		return
	}
	close(p.stop)
	<-p.done
}

func (p *progress) run(delay, every time.Duration) {
	defer close(p.done)
	wait := time.NewTimer(delay)
	defer wait.Stop()
	select {
	case <-p.stop:
		return
	case <-wait.C:
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	last := int64(-1)
	for {
		if n := p.count.Load(); n != last {
			last = n
			unit := "packages"
			if n == 1 {
				unit = "package"
			}
			fmt.Fprintf(p.w, "\r\x1b[Kvouch: reading sources… %d %s so far", n, unit)
		}
		select {
		case <-p.stop:
			fmt.Fprint(p.w, "\r\x1b[K")
			return
		case <-tick.C:
		}
	}
}
