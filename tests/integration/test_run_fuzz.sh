#!/bin/sh
# tests/run-fuzz.sh's verdicts, with stand-ins for libFuzzer targets: a
# timeout whose input then runs alone in time (a wait for a core under
# SCHED_IDLE) lets the target fuzz on and pass; one whose input is slow
# alone too fails, as does a crash; a clean run passes.
set -u
repo=$(pwd)
fails=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# A stand-in target, in the way run-fuzz.sh calls libFuzzer: a directory
# argument is a fuzzing run, a file argument one input run alone. $1 is
# its behaviour: clean, waited (a timeout on its first run, then clean),
# slow (a timeout, and its input spins alone) or crash.
fake() {
	cat > "$tmp/bin/fuzz_$1" <<FAKE
#!/bin/sh
prefix=""
last=""
for a in "\$@"; do
	case \$a in
	-artifact_prefix=*) prefix=\${a#-artifact_prefix=} ;;
	-*) ;;
	*) last=\$a ;;
	esac
done
if [ -f "\$last" ]; then
	[ "$1" = slow ] && while :; do :; done
	echo "Executed \$last in 1 ms"
	exit 0
fi
n=\$(cat "$tmp/calls_$1" 2> /dev/null || echo 0)
echo \$((n + 1)) > "$tmp/calls_$1"
case "$1:\$n" in
waited:0 | slow:0)
	echo x > "\${prefix}timeout-0123"
	echo "ALARM: working on the last Unit for 6 seconds"
	exit 70 ;;
crash:*)
	echo x > "\${prefix}crash-0123"
	exit 77 ;;
esac
echo "stat::number_of_executed_units: 40"
exit 0
FAKE
	chmod +x "$tmp/bin/fuzz_$1"
}

# expect NAME STATUS LINE: run-fuzz.sh on the stand-in NAME must exit
# STATUS and print LINE as its verdict line (the last line).
expect() {
	rm -rf "$tmp/run"
	mkdir "$tmp/run"
	out=$(cd "$tmp/run" && FUZZ_UNIT_CPU=1 sh "$repo/tests/run-fuzz.sh" 2 "$tmp/bin/fuzz_$1" 2>&1)
	rc=$?
	got=$(printf '%s\n' "$out" | tail -n 1)
	if [ "$rc" -ne "$2" ] || [ "$got" != "$3" ]; then
		echo "FAIL: $1: status $rc (want $2); output:"
		printf '%s\n' "$out"
		echo "--- wanted last line: $3"
		fails=$((fails + 1))
	else
		echo "ok   $1"
	fi
}

mkdir "$tmp/bin"
for f in clean waited slow crash; do
	fake "$f"
done
expect clean 0 "ok   fuzz_clean: 40 inputs in 2s"
expect waited 0 "ok   fuzz_waited: 40 inputs in 2s (1 timeout(s) were waits for a core: the input ran alone in time)"
if [ -e "$tmp/run/build/fuzz-artifacts/fuzz_waited-timeout-0123" ]; then
	echo "FAIL: waited: the reproducer of a wait for a core was kept"
	fails=$((fails + 1))
fi
expect slow 1 "FAIL: fuzz_slow"
if ! grep -q "is slow alone too" "$tmp/run/build/fuzz_slow.log" ||
	[ ! -e "$tmp/run/build/fuzz-artifacts/fuzz_slow-timeout-0123" ]; then
	echo "FAIL: slow: the log does not say so, or the reproducer is gone"
	fails=$((fails + 1))
fi
expect crash 1 "FAIL: fuzz_crash"
[ "$fails" -eq 0 ]
