#!/bin/sh
# Refuses rm -rf of the home directory; lets every other command through.
input=$(cat)
case "$input" in
  *"rm -rf ~"*) echo "refused" >&2; exit 2 ;;
esac
exit 0
