#!/bin/sh
# Rolls N dice with M sides: roll.sh 2d6
set -eu
n=${1%d*}; m=${1#*d}
i=0; total=0
while [ "$i" -lt "${n:-1}" ]; do
  r=$(( $(od -An -N2 -tu2 /dev/urandom) % m + 1 ))
  echo "die $((i+1)): $r"; total=$((total + r)); i=$((i+1))
done
echo "total: $total"
