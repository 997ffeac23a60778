#!/bin/sh
# Written by vouch's end-to-end check: each run appends which copy ran.
printf 'approved %s\n' "$CLAUDE_PLUGIN_ROOT" >> "$E2E_MARKS"
