#!/bin/sh
echo "checked" >&2
