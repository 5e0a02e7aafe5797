#!/bin/sh
# Runs each libFuzzer target for $1 seconds over a scratch copy of its
# committed seed corpus (so new inputs do not pile into the repository),
# as many at once as there are cores. A crash, leak, sanitizer report or
# timeout fails the run; the reproducer is left in build/fuzz-artifacts/.
set -u
secs=$1
shift
mkdir -p build/fuzz-artifacts build/fuzz-status
results=build/results.txt
jobs=$(nproc 2>/dev/null || echo 1)

# One target: its verdict goes to build/fuzz-status/NAME (0 or 1).
one() {
	bin=$1
	name=$(basename "$bin")
	seeds=tests/fuzz/corpus/${name#fuzz_}
	work=build/fuzz-work/$name
	rm -rf "$work"
	mkdir -p "$work"
	[ -d "$seeds" ] && cp -r "$seeds"/. "$work"/
	if "$bin" -max_total_time="$secs" -timeout=5 -rss_limit_mb=2048 \
		-artifact_prefix=build/fuzz-artifacts/"$name"- -print_final_stats=1 \
		"$work" > build/"$name".log 2>&1; then
		echo 0 > build/fuzz-status/"$name"
	else
		echo 1 > build/fuzz-status/"$name"
	fi
}

rm -f build/fuzz-status/*
running=0
for bin in "$@"; do
	one "$bin" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait
		running=0
	fi
done
wait

status=0
for bin in "$@"; do
	name=$(basename "$bin")
	if [ "$(cat build/fuzz-status/"$name" 2>/dev/null)" = 0 ]; then
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
