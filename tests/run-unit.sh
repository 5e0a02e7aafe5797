#!/bin/sh
# Runs each cmocka unit program given as an argument, shows its output only
# when it fails, and adds its counts to build/results.txt for the summary.
#
# As many programs run at once as there are cores (UNIT_JOBS overrides it):
# the longest ones mostly wait (a PostgreSQL server started and stopped, a
# second to pass), and each uses its own temporary directories and free
# ports. The programs named in $long start first, so that no long one is
# left to run alone at the end; the others follow in the order given.
# Their verdicts, each with its time, are printed in the order given, once
# all are done.
set -u
# What systemd gives a service is not the tests' to inherit: a run of this
# under a unit would otherwise make each delver here a service.
unset INVOCATION_ID JOURNAL_STREAM NOTIFY_SOCKET WATCHDOG_USEC WATCHDOG_PID
out=build/unit-out

# One program, by its place in the list: its output and exit status.
if [ "${1:-}" = --one ]; then
	start=$(date +%s)
	"$3" > "$out/$2.out" 2>&1
	echo $? > "$out/$2.rc"
	echo $(($(date +%s) - start)) > "$out/$2.secs"
	exit 0
fi

# The longest first (under ASan+UBSan on a 2-core machine: test_hidden
# about 140 s of CPU, the PostgreSQL ones a minute or more of waiting).
long="test_hidden test_store_pg test_persist test_hidden_play test_persist_pg
test_undo"

results=build/results.txt
jobs=${UNIT_JOBS:-$(nproc 2>/dev/null || echo 1)}
rm -rf "$out"
mkdir -p "$out"

# Each program keeps its place in the list given (its verdict's place);
# the long ones are handed out first, in $long's order.
n=0
for bin in "$@"; do
	n=$((n + 1))
	printf '%s %s\n' "$n" "$bin"
done > "$out/given"
{
	for name in $long; do
		grep "/$name\$" "$out/given"
	done
	grep -v -E "/($(echo $long | tr ' ' '|'))\$" "$out/given"
} > "$out/order"
xargs -P "$jobs" -n 2 sh "$0" --one < "$out/order"

status=0
n=0
for bin in "$@"; do
	n=$((n + 1))
	rc=$(cat "$out/$n.rc" 2>/dev/null || echo 1)
	o=$(cat "$out/$n.out" 2>/dev/null)
	passed=$(printf '%s\n' "$o" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	failed=$(printf '%s\n' "$o" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	passed=${passed:-0}
	failed=${failed:-0}
	if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
		failed=1 # crashed or a sanitizer stopped it
	fi
	echo "unit $bin $passed $failed" >> "$results"
	if [ "$rc" -ne 0 ]; then
		printf '%s\n' "$o"
		echo "FAIL: $bin (exit $rc)"
		status=1
	else
		echo "ok   $bin: $passed passed ($(cat "$out/$n.secs" 2>/dev/null)s)"
	fi
done
exit $status
