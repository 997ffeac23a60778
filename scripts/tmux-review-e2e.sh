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

echo "building vouch"
go build -o "$work/vouch" ./cmd/vouch
home="$work/home"
ref='@acme/web-notes#tool:clip'

tmux -S "$sock" new-session -d -x 120 -y 40 -s "$session" \
  "cd '$PWD' && TERM=xterm-256color '$work/vouch' --home '$home' review examples; echo \$? > '$work/exit'; sleep 60"

wait_for "need review"

# Filter to the package, select its tool, approve it.
keys -l '/'
keys -l 'web-notes'
keys Enter
wait_for "/web-notes"
keys -l 'g'
keys -l 'j'
wait_for "▶   tool:clip"
keys -l 'a'
wait_for "Approve $ref?"
# Enter must not confirm.
keys Enter
sleep 0.3
screen | grep -qF "Approve $ref?" || fail "Enter closed the confirmation"
keys -l 'y'
wait_for "Approved $ref."
wait_for "✓ approved"
keys -l 'q'

for _ in $(seq 1 100); do
  [ -f "$work/exit" ] && break
  sleep 0.1
done
[ -f "$work/exit" ] || fail "the console did not quit on q"
code=$(cat "$work/exit")
[ "$code" = 0 ] || fail "vouch review exited $code"

"$work/vouch" --home "$home" status --json examples/splice/web-notes > "$work/status.json" || true
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
(cd "$work" && go run check.go status.json "$ref") || fail "status --json does not show $ref approved"

# Second session: a copy of the Dalo example whose tool script is long enough to scroll.
# Open the tool's file, scroll it, go back; then approve the hook with its tool in one
# dialog (issue 15.1, 15.2).
dr="$work/design-review"
cp -r examples/dalo/design-review "$dr"
for i in $(seq 1 80); do echo "// padding line $i" >> "$dr/plugins/design-review/context.mjs"; done
rm -f "$work/exit"
tmux -S "$sock" kill-session -t "$session" >/dev/null 2>&1 || true
tmux -S "$sock" new-session -d -x 100 -y 30 -s "$session" \
  "cd '$PWD' && TERM=xterm-256color '$work/vouch' --home '$home' review '$dr'; echo \$? > '$work/exit'; sleep 60"
wait_for "need review"
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
keys -l '/'
keys -l 'node'
keys Enter
wait_for "/node"
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

keys -l '/'
keys -l 'hook:'
keys Enter
wait_for "/hook:"
keys -l 'g'
keys -l 'j'
keys -l 'a'
wait_for "and what it needs (2)?"
keys Enter
sleep 0.3
screen | grep -qF "and what it needs (2)?" || fail "Enter closed the group confirmation"
keys -l 'y'
wait_for "Approved design-review#tool:context, design-review#hook:review-context."
keys -l 'q'
for _ in $(seq 1 100); do
  [ -f "$work/exit" ] && break
  sleep 0.1
done
[ -f "$work/exit" ] || fail "the second console did not quit on q"
"$work/vouch" --home "$home" status --json "$dr" > "$work/status2.json" || true
for r in 'design-review#tool:context' 'design-review#hook:review-context'; do
  (cd "$work" && go run check.go status2.json "$r") || fail "status --json does not show $r approved"
done

# Third session, a fresh home: approve every approvable component of the package in one
# scrollable dialog (issue 15.2).
home3="$work/home3"
rm -f "$work/exit"
tmux -S "$sock" kill-session -t "$session" >/dev/null 2>&1 || true
tmux -S "$sock" new-session -d -x 100 -y 30 -s "$session" \
  "cd '$PWD' && TERM=xterm-256color '$work/vouch' --home '$home3' review '$dr'; echo \$? > '$work/exit'; sleep 60"
wait_for "need review"
keys -l 'g'
keys -l 'A'
wait_for "Approve 4 components of design-review?"
keys -l 'G'
wait_for "lines "
keys Enter
sleep 0.3
screen | grep -qF "Approve 4 components of design-review?" || fail "Enter closed the package confirmation"
keys -l 'y'
wait_for "Approved 4 components."
wait_for "4 of 4 reviewed"
keys -l 'q'
for _ in $(seq 1 100); do
  [ -f "$work/exit" ] && break
  sleep 0.1
done
[ -f "$work/exit" ] || fail "the third console did not quit on q"
"$work/vouch" --home "$home3" status --json "$dr" > "$work/status3.json" || true
for r in 'design-review#tool:context' 'design-review#hook:review-context' 'design-review#skill:design-review'; do
  (cd "$work" && go run check.go status3.json "$r") || fail "status --json does not show $r approved after A"
done
# Fourth: a plugin folder both clients read (two packages at one root) opens cleanly
# several times in a row, then survives R pressed over and over while it reloads.
two=ui/testdata/two-formats
for run in $(seq 1 20); do
  rm -f "$work/exit"
  tmux -S "$sock" kill-session -t "$session" >/dev/null 2>&1 || true
  tmux -S "$sock" new-session -d -x 100 -y 30 -s "$session" \
    "cd '$PWD' && TERM=xterm-256color '$work/vouch' --home '$work/home4' review '$two'; echo \$? > '$work/exit'; sleep 60"
  wait_for "tidy-guard"
  if [ "$run" = 20 ]; then
    # The last key is R: a key after the last reload would clear its status line.
    for _ in $(seq 1 20); do keys -l 'j'; keys -l 'R'; done
    wait_for "Reloaded: 2 packages"
  fi
  keys -l 'q'
  for _ in $(seq 1 100); do
    [ -f "$work/exit" ] && break
    sleep 0.1
  done
  [ -f "$work/exit" ] || fail "launch $run of the two-format plugin did not quit on q"
  code=$(cat "$work/exit")
  [ "$code" = 0 ] || fail "launch $run of the two-format plugin exited $code"
done
echo "tmux-review-e2e: ok"
