#!/bin/sh
# Records `mcpb validate` 2.1.2's verdict for every case into oracle.txt (run offline:
# unshare -n). MCPB is the path of an @anthropic-ai/mcpb@2.1.2 install's mcpb binary; it
# is never a dependency of vouch or of its tests.
set -eu
cd "$(dirname "$0")"
: "${MCPB:?set MCPB to the mcpb 2.1.2 binary}"
"$MCPB" --version | grep -qx 2.1.2
for d in cases/*/; do
  n=$(basename "$d")
  if unshare -n "$MCPB" validate "$d" >/dev/null 2>&1; then v=valid; else v=invalid; fi
  echo "$n $v"
done > oracle.txt
