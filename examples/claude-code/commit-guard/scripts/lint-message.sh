#!/bin/sh
# Placeholder: a real plugin would check the commit message format here.
exit 0
