package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"
	"mvdan.cc/sh/v3/shell"
)

// pagedCommands print text long enough to page, and say when a run prints it: their
// machine formats never go through a pager, nor does the gate's report, whose failures
// go to stderr beside it and would be drawn over the pager's screen.
var pagedCommands = map[string]func(cmd *cobra.Command) bool{
	"validate": textFormat,
	"status":   func(cmd *cobra.Command) bool { return textFormat(cmd) && !flagOn(cmd, "require-approved") },
	"diff":     func(cmd *cobra.Command) bool { return !flagOn(cmd, "json") },
	"ledger":   func(cmd *cobra.Command) bool { return !flagOn(cmd, "json") },
}

// textFormat reports whether a report command prints text.
func textFormat(cmd *cobra.Command) bool {
	f := cmd.Flags().Lookup("format")
	return !flagOn(cmd, "json") && (f == nil || f.Value.String() == "" || f.Value.String() == "text")
}

// usePager sends the text output of the paged commands through the pager. Commands are
// wrapped, not edited, as useConfig does; useConfig runs first, so a format the config
// file sets is known here.
func (a *app) usePager(root *cobra.Command) {
	for path, c := range commandTree(root) {
		want, ok := pagedCommands[path]
		if !ok {
			continue
		}
		run := c.RunE
		c.RunE = func(cmd *cobra.Command, args []string) error {
			if want(cmd) {
				a.pageStdout()
			}
			return run(cmd, args)
		}
	}
}

// pager is the pager text output goes through: started at the first write, so a run
// that prints nothing (or fails first) starts none, and the progress line is gone
// before the pager draws.
type pager struct {
	app     *app
	term    *os.File // the terminal stdout was
	started bool
	proc    *exec.Cmd
	in      io.WriteCloser
	gone    bool // the pager stopped reading (the person quit it)
	signals chan os.Signal
}

// pageStdout puts the pager in front of stdout when stdout is a terminal and no
// --no-pager was given. Output to a file or a pipe is never paged.
func (a *app) pageStdout() {
	if a.noPager || a.pager != nil {
		return
	}
	f, ok := a.stdout.(*os.File)
	if !ok || !term.IsTerminal(f.Fd()) {
		return
	}
	a.pager = &pager{app: a, term: f}
	a.stdout = a.pager
}

// pagerCommand is the pager to run: $VOUCH_PAGER, else $PAGER, else less -FRX when it is
// on PATH ("" for none). A variable that is set but empty, or is "cat", means no pager.
func pagerCommand() string {
	for _, k := range []string{"VOUCH_PAGER", "PAGER"} {
		if v, ok := os.LookupEnv(k); ok {
			if v = strings.TrimSpace(v); v == "cat" {
				return ""
			}
			return v
		}
	}
	if _, err := exec.LookPath("less"); err == nil {
		return "less -FRX"
	}
	return ""
}

func (p *pager) Write(b []byte) (int, error) {
	if !p.started {
		p.started = true
		p.start()
	}
	if p.in == nil {
		return p.term.Write(b)
	}
	if p.gone {
		return len(b), nil
	}
	if _, err := p.in.Write(b); err != nil {
		// The person quit the pager before the end: what is left is not wanted, and
		// leaving early is no failure of the command, whose exit status stands.
		p.gone = true
	}
	return len(b), nil
}

// start runs the pager; when it cannot start, output goes to the terminal directly,
// with one line on stderr that says why.
func (p *pager) start() {
	line := pagerCommand()
	if line == "" {
		return
	}
	args, err := shell.Fields(line, os.Getenv)
	if err == nil && len(args) == 0 {
		return
	}
	if err == nil {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Stdout = p.term
		cmd.Stderr = p.app.stderr
		// As git does: less and lv, unless told otherwise, quit when the text fits on
		// one screen, keep colours and leave the text on the screen when they quit.
		cmd.Env = os.Environ()
		if _, ok := os.LookupEnv("LESS"); !ok {
			cmd.Env = append(cmd.Env, "LESS=FRX")
		}
		if _, ok := os.LookupEnv("LV"); !ok {
			cmd.Env = append(cmd.Env, "LV=-c")
		}
		var in io.WriteCloser
		if in, err = cmd.StdinPipe(); err == nil {
			if err = cmd.Start(); err == nil {
				p.proc, p.in = cmd, in
				// An interrupt is the pager's to handle (less stops a search on it): vouch
				// waits for the pager to end, so the shell's prompt never lands on its screen.
				p.signals = make(chan os.Signal, 1)
				signal.Notify(p.signals, os.Interrupt)
				return
			}
		}
	}
	fmt.Fprintf(p.app.stderr, "vouch: the pager %q could not start (%v); printing directly (--no-pager, or PAGER=cat, says so).\n", line, err)
}

// stopPager ends the pager, if one was started: the end of its input, then the wait for
// the person to quit it. stdout is the terminal again afterwards.
func (a *app) stopPager() {
	p := a.pager
	if p == nil {
		return
	}
	a.pager, a.stdout = nil, p.term
	if p.proc == nil {
		return
	}
	p.in.Close()
	_ = p.proc.Wait()
	signal.Stop(p.signals)
}
