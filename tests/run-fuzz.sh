#!/bin/sh
# Runs each libFuzzer target for $1 seconds over a scratch copy of its
# committed seed corpus (so new inputs do not pile into the repository).
# A crash, leak, sanitizer report or timeout fails the run; the reproducer
# is left in build/fuzz-artifacts/.
set -u
secs=$1
shift
mkdir -p build/fuzz-artifacts
results=build/results.txt
status=0
for bin in "$@"; do
	name=$(basename "$bin")
	seeds=tests/fuzz/corpus/${name#fuzz_}
	work=build/fuzz-work/$name
	rm -rf "$work"
	mkdir -p "$work"
	[ -d "$seeds" ] && cp -r "$seeds"/. "$work"/
	if "$bin" -max_total_time="$secs" -timeout=5 -rss_limit_mb=2048 \
		-artifact_prefix=build/fuzz-artifacts/"$name"- -print_final_stats=1 \
		"$work" > build/"$name".log 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' build/"$name".log)
		echo "ok   $name: ${runs:-?} inputs in ${secs}s"
		echo "fuzz $name 1 0" >> "$results"
	else
		tail -n 40 build/"$name".log
		echo "FAIL: $name"
		echo "fuzz $name 0 1" >> "$results"
		status=1
	fi
done
exit $status
