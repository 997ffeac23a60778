#!/bin/sh
# Reads the PreToolUse event on stdin; denies `git push --force`.
input=$(cat)
case "$input" in
  *"git push --force"*|*"git push -f"*)
    printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"force pushes are not allowed"}}\n'
    ;;
esac
exit 0
