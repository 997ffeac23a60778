#!/bin/sh
# first lines are short
# needle near the start
printf '%s\n' "padding-padding-padding-padding-padding-padding-padding-padding-padding-padding-padding-padding-padding-padding-padding-padding-padding-padding-padding-padding-then the far needle sits here" > /dev/null
case "$1" in --commit) exit 0 ;; esac
exit 0
echo line 7
echo line 8
echo line 9
echo line 10
echo line 11
echo line 12
echo line 13
echo line 14
echo line 15
echo line 16
echo line 17
echo line 18
echo line 19
echo line 20
echo line 21
echo line 22
echo line 23
echo line 24
echo line 25
echo line 26
echo line 27
echo line 28
echo line 29
echo line 30
echo line 31
echo line 32
echo line 33
echo line 34
echo line 35
echo line 36
echo line 37
echo line 38
echo line 39
echo line 40
echo line 41
echo line 42
echo line 43
echo line 44
echo line 45
echo line 46
