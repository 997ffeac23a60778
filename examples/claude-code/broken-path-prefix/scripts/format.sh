#!/bin/sh
# Formats the file Claude just edited (reads the PostToolUse event on stdin).
exit 0
