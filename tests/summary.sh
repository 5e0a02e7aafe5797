#!/bin/sh
# Prints the closing line of a test run from build/results.txt.
set -u
awk '{p += $3; f += $4} END {printf "%d passed, %d failed\n", p, f; exit (f > 0)}' build/results.txt
