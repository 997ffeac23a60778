#!/bin/sh
# Illustrative gate: allows everything, prints one portable result.
printf '{"kind":"allow"}'
