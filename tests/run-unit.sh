#!/bin/sh
# Runs each cmocka unit program given as an argument, shows its output only
# when it fails, and adds its counts to build/results.txt for the summary.
set -u
mkdir -p build
results=build/results.txt
status=0
for bin in "$@"; do
	out=$("$bin" 2>&1)
	rc=$?
	passed=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	failed=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	passed=${passed:-0}
	failed=${failed:-0}
	if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
		failed=1 # crashed or a sanitizer stopped it
	fi
	echo "unit $bin $passed $failed" >> "$results"
	if [ "$rc" -ne 0 ]; then
		printf '%s\n' "$out"
		echo "FAIL: $bin (exit $rc)"
		status=1
	else
		echo "ok   $bin: $passed passed"
	fi
done
exit $status
