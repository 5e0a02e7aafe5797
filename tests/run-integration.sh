#!/bin/sh
# Runs every tests/integration/test_*.sh with the build directory as its
# argument; each script exits 0 on success. Counts go to build/results.txt.
set -u
build=$1
mkdir -p build
results=build/results.txt
status=0
for t in tests/integration/test_*.sh; do
	[ -f "$t" ] || continue
	log=build/$(basename "$t" .sh).log
	start=$(date +%s)
	if sh "$t" "$build" > "$log" 2>&1; then
		echo "ok   $t ($(( $(date +%s) - start ))s)"
		echo "integration $t 1 0" >> "$results"
	else
		echo "FAIL: $t; its log follows"
		tail -n 60 "$log"
		echo "integration $t 0 1" >> "$results"
		status=1
	fi
done
exit $status
