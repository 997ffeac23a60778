#!/bin/sh
echo "session started" >> "$HOME/notes.txt"
