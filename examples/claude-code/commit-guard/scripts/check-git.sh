#!/bin/sh
# Reads the PreToolUse event on stdin and blocks force pushes (exit 2 tells Claude why).
input=$(cat)
case "$input" in
  *"git push --force"*|*"git push -f"*)
    echo "commit-guard: force pushes are blocked; push without --force." >&2
    exit 2 ;;
esac
if [ "$1" = "--commit" ]; then
  "$(dirname "$0")/lint-message.sh" || exit 2
fi
exit 0
