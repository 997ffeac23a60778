#!/usr/bin/env bash
# End-to-end run of the review console in a real terminal: tmux starts `vouch review
# examples` with a temporary home, a component is approved by key presses only, the
# console quits, and `vouch status --json` must report the component approved. A second
# session opens a tool's file and scrolls it, filters by a command string, copies a REF,
# and approves a hook with its tool in one dialog; a third approves a whole package in one;
# a fourth opens a plugin folder with two formats twenty times and presses R twenty times.
# Needs go and tmux; installs nothing. Uses its own tmux socket, so no user session is touched.
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
sock="$work/tmux.sock"
session=vouch-e2e
cleanup() {
  tmux -S "$sock" kill-server >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
# A session that outlives every console: killing the last session ends the tmux server,
# and the next new-session can then race the server's exit ("server exited unexpectedly").
tmux -S "$sock" new-session -d -s keep "sleep 3600"

fail() {
  echo "tmux-review-e2e: $*" >&2
  echo "---- last screen ----" >&2
  tmux -S "$sock" capture-pane -p -t "$session" >&2 2>/dev/null || true
  exit 1
}

screen() { tmux -S "$sock" capture-pane -p -t "$session" 2>/dev/null || true; }

# wait_for TEXT: poll the screen until TEXT appears (60 s: a loaded machine is slow to draw).
wait_for() {
  for _ in $(seq 1 600); do
    if screen | grep -qF -- "$1"; then return 0; fi
    sleep 0.1
  done
  fail "timed out waiting for: $1"
}

keys() { tmux -S "$sock" send-keys -t "$session" "$@"; }

# console SIZE HOME SOURCE: a fresh tmux session running `vouch review SOURCE` with HOME
# in a terminal of SIZE (WxH); the exit status is written to $work/exit.
console() {
  rm -f "$work/exit"
  tmux -S "$sock" kill-session -t "$session" >/dev/null 2>&1 || true
  tmux -S "$sock" new-session -d -x "${1%x*}" -y "${1#*x}" -s "$session" \
    "cd '$PWD' && TERM=xterm-256color '$work/vouch' --home '$2' review '$3'; echo \$? > '$work/exit'; sleep 60"
}

# quit WHAT: press q; the console must exit 0 within 10 s (WHAT names it in a failure).
quit() {
  keys -l 'q'
  for _ in $(seq 1 100); do
    [ -f "$work/exit" ] && break
    sleep 0.1
  done
  [ -f "$work/exit" ] || fail "$1 did not quit on q"
  code=$(cat "$work/exit")
  [ "$code" = 0 ] || fail "$1 exited $code"
}

# loaded: wait until the console has read every source. While it loads, the header says
# "loading… N packages so far"; keys sent before the end act on the rows there so far
# (a filter set then shows a package that arrives later, but no row was selected in it).
loaded() { wait_for " reviewed · "; }

# filter TEXT: set the console's filter to TEXT.
filter() {
  keys -l '/'
  keys -l "$1"
  keys Enter
  wait_for "/$1"
}

# enter_keeps TEXT WHAT: Enter must not confirm the dialog that shows TEXT.
enter_keeps() {
  keys Enter
  sleep 0.3
  screen | grep -qF "$1" || fail "Enter closed the $2"
}

# approved HOME SOURCE REF...: vouch status --json must report every REF approved.
approved() {
  local h=$1 src=$2
  shift 2
  "$work/vouch" --home "$h" status --json "$src" > "$work/status.json" || true
  for r in "$@"; do
    (cd "$work" && go run check.go status.json "$r") || fail "status --json does not show $r approved"
  done
}

echo "building vouch"
go build -o "$work/vouch" ./cmd/vouch
cat > "$work/check.go" <<'GO'
package main

import (
	"encoding/json"
	"fmt"
	"os"
)

func main() {
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	var rep struct {
		Packages []struct {
			Components []struct {
				Ref           string `json:"ref"`
				Authorization string `json:"authorization"`
			} `json:"components"`
		} `json:"packages"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		fmt.Println("status --json did not decode:", err)
		os.Exit(1)
	}
	for _, p := range rep.Packages {
		for _, c := range p.Components {
			if c.Ref == os.Args[2] {
				fmt.Println(c.Ref, c.Authorization)
				if c.Authorization == "approved" {
					os.Exit(0)
				}
				os.Exit(1)
			}
		}
	}
	fmt.Println(os.Args[2], "not in the status report")
	os.Exit(1)
}
GO
home="$work/home"
ref='@acme/web-notes#tool:clip'

console 120x40 "$home" examples
loaded

# Filter to the package, select its tool, approve it.
filter 'web-notes'
keys -l 'g'
keys -l 'j'
wait_for "▶   tool:clip"
keys -l 'a'
wait_for "Approve $ref?"
enter_keeps "Approve $ref?" confirmation
keys -l 'y'
wait_for "Approved $ref."
wait_for "✓ approved"
quit "the console"
approved "$home" examples/splice/web-notes "$ref"

# Second session: a copy of the Dalo example whose tool script is long enough to scroll.
# Open the tool's file, scroll it, go back; then approve the hook with its tool in one
# dialog (issue 15.1, 15.2).
dr="$work/design-review"
cp -r examples/dalo/design-review "$dr"
for i in $(seq 1 80); do echo "// padding line $i" >> "$dr/plugins/design-review/context.mjs"; done
console 100x30 "$home" "$dr"
loaded
keys -l 'g'
keys -l 'n' # the next component approvable now: the tool, before its hook
wait_for "tool:context"
keys -l 'f'
wait_for "(file 1 of 1 of design-review#tool:context)"
wait_for "1 │ // Portable handler"
screen | grep -qF "padding line 80" && fail "the end of the file shows before scrolling"
keys -l 'G'
wait_for "padding line 80"
keys Space
keys -l 'g'
wait_for "1 │ // Portable handler"
keys -l 'q'
wait_for "[1 Overview]"

# Filter by a command string, and copy the tool's REF (OSC 52, written by vouch).
filter 'node'
wait_for "tool:context"
keys -l 'g'
# With a filter set, n moves between its matches: the hook (which runs the tool with
# node) is the first, the tool the second.
keys -l 'n'
keys -l 'n'
keys -l 'y'
wait_for "Copied the REF design-review#tool:context"
keys Escape
sleep 0.3 # ESC then '/' at once would read as alt+/

filter 'hook:'
keys -l 'g'
keys -l 'j'
keys -l 'a'
wait_for "and what it needs (2)?"
enter_keeps "and what it needs (2)?" "group confirmation"
keys -l 'y'
wait_for "Approved design-review#tool:context, design-review#hook:review-context."
quit "the second console"
approved "$home" "$dr" 'design-review#tool:context' 'design-review#hook:review-context'

# Third session, a fresh home: approve every approvable component of the package in one
# scrollable dialog (issue 15.2).
home3="$work/home3"
console 100x30 "$home3" "$dr"
loaded
keys -l 'g'
keys -l 'A'
wait_for "Approve 4 components of design-review?"
keys -l 'G'
wait_for "lines "
enter_keeps "Approve 4 components of design-review?" "package confirmation"
keys -l 'y'
wait_for "Approved 4 components."
wait_for "4 of 4 reviewed"
quit "the third console"
approved "$home3" "$dr" 'design-review#tool:context' 'design-review#hook:review-context' 'design-review#skill:design-review'
# Fourth: a plugin folder both clients read (two packages at one root) opens cleanly
# several times in a row, then survives R pressed over and over while it reloads.
two=ui/testdata/two-formats
for run in $(seq 1 20); do
  console 100x30 "$work/home4" "$two"
  wait_for "tidy-guard"
  if [ "$run" = 20 ]; then
    # The last key is R: a key after the last reload would clear its status line.
    for _ in $(seq 1 20); do keys -l 'j'; keys -l 'R'; done
    wait_for "Reloaded: 2 packages"
  fi
  quit "launch $run of the two-format plugin"
done
echo "tmux-review-e2e: ok"
