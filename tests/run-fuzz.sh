#!/bin/sh
# Runs each libFuzzer target for $1 seconds over a scratch copy of its
# committed seed corpus (so new inputs do not pile into the repository),
# as many at once as there are cores. A crash, leak, sanitizer report or
# slow input fails the run; the reproducer is left in build/fuzz-artifacts/.
#
# A slow input is one that needs more than $FUZZ_UNIT_CPU seconds of CPU
# (default 5) run alone. libFuzzer's -timeout counts wall-clock time, and
# make test runs these beside the integration scripts under SCHED_IDLE,
# where a target can wait seconds for a core between two inputs: so when
# libFuzzer reports a timeout, its input is run again alone under a CPU
# time limit (ulimit -t). An input that finishes in it was the scheduler's
# wait, not the target's: its reproducer is removed, the log says so, and
# the target fuzzes on for the seconds left (three such waits at most). One
# that does not finish fails the run.
set -u
secs=$1
shift
unit_cpu=${FUZZ_UNIT_CPU:-5}
mkdir -p build/fuzz-artifacts build/fuzz-status
results=build/results.txt
jobs=$(nproc 2>/dev/null || echo 1)

# Whether the input $2 runs through target $1 alone within unit_cpu
# seconds of CPU; what it printed is added to the log $3.
alone_in_time() {
	(
		ulimit -t "$unit_cpu" 2> /dev/null || exit 2
		exec "$1" -timeout=0 -rss_limit_mb=2048 "$2"
	) >> "$3" 2>&1
}

# One target: its verdict goes to build/fuzz-status/NAME (0 or 1).
one() {
	bin=$1
	name=$(basename "$bin")
	seeds=tests/fuzz/corpus/${name#fuzz_}
	work=build/fuzz-work/$name
	log=build/$name.log
	end=$(($(date +%s) + secs))
	left=$secs
	waits=0
	rm -rf "$work" "$log"
	mkdir -p "$work"
	[ -d "$seeds" ] && cp -r "$seeds"/. "$work"/
	while :; do
		rm -f build/fuzz-artifacts/"$name"-timeout-*
		"$bin" -max_total_time="$left" -timeout="$unit_cpu" -timeout_exitcode=70 \
			-error_exitcode=77 -rss_limit_mb=2048 \
			-artifact_prefix=build/fuzz-artifacts/"$name"- -print_final_stats=1 \
			"$work" >> "$log" 2>&1
		rc=$?
		[ "$rc" -eq 0 ] && break
		input=$(ls build/fuzz-artifacts/"$name"-timeout-* 2> /dev/null | head -n 1)
		if [ "$rc" -ne 70 ] || [ -z "$input" ] || [ "$waits" -ge 3 ]; then
			echo 1 > build/fuzz-status/"$name"
			return
		fi
		echo "run-fuzz: timeout reported; running $input alone, at most ${unit_cpu} s of CPU" >> "$log"
		if ! alone_in_time "$bin" "$input" "$log"; then
			echo "run-fuzz: $input is slow alone too: the target's, not the scheduler's" >> "$log"
			echo 1 > build/fuzz-status/"$name"
			return
		fi
		echo "run-fuzz: $input finished alone in time: the timeout was a wait for a core" >> "$log"
		rm -f "$input"
		waits=$((waits + 1))
		left=$((end - $(date +%s)))
		[ "$left" -ge 1 ] || break
	done
	echo 0 > build/fuzz-status/"$name"
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
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' build/"$name".log |
			awk '{ n += $1 } END { print n + 0 }')
		waited=$(grep -c '^run-fuzz: .* finished alone in time' build/"$name".log)
		extra=""
		[ "$waited" -gt 0 ] && extra=" ($waited timeout(s) were waits for a core: the input ran alone in time)"
		echo "ok   $name: $runs inputs in ${secs}s$extra"
		echo "fuzz $name 1 0" >> "$results"
	else
		tail -n 40 build/"$name".log
		echo "FAIL: $name"
		echo "fuzz $name 0 1" >> "$results"
		status=1
	fi
done
exit $status
