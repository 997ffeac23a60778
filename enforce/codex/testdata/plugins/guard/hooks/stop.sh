#!/bin/sh
# Says which copy of the plugin ran it (the end-to-end check reads GUARD_MARKER).
echo "stop hook ran from $0" >> "${GUARD_MARKER:-/dev/null}"
