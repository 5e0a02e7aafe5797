#!/bin/sh
# make test's phases (the Makefile's test target runs this with MAKE,
# TEST_J and SANITIZE_TEST in the environment): the build, the integration
# scripts, lint, the unit tests, the sanitized unit tests and the fuzz
# smoke runs; each phase's wall time is printed as it ends. Every phase
# runs even when an earlier one failed (a failed build stops them all);
# the exit status is 1 when any failed.
#
# The integration scripts mostly wait on clocks with the cores idle, and
# most of the later phases is building: so while the scripts run, lint and
# the three test trees are built beside them, one after another, at idle
# priority (SCHED_IDLE, else nice 19): a core only when no other process
# wants it, so the scripts see the machine as if nothing else ran. When
# the scripts end, that build is stopped, and each later phase builds what
# it still needs at the normal priority (make keeps what was built; a
# busy machine, where an idle-priority build gets no core, is no slower
# than building afterwards).
set -u
make=${MAKE:-make}
j=${TEST_J:-}
san=${SANITIZE_TEST:-address,undefined}
dir=build/test-phases

# The build beside the scripts ("run-test.sh --beside PARENT GROUPED"):
# SIGTERM stops the make under way, which stops its compilers and removes
# what they left half-written. Lint's exit status goes to $dir/lint. It
# never outlives PARENT (make test's shell, which a SIGKILL or a lost
# terminal ends without its traps): a watcher stops it then, its whole
# process group when GROUPED is 1 (it leads a group of its own).
if [ "${1:-}" = --beside ]; then
	parent=$2
	grouped=$3
	child=""
	(
		while kill -0 "$parent" 2> /dev/null; do sleep 2; done
		if [ "$grouped" = 1 ]; then kill -TERM -$$; else kill -TERM $$; fi
	) < /dev/null > /dev/null 2>&1 &
	watch=$!
	trap 'kill "$watch" 2> /dev/null' EXIT
	trap '[ -n "$child" ] && kill -TERM "$child" 2> /dev/null; [ -n "$child" ] && wait "$child"; exit 143' TERM
	for step in lint unit sanitize fuzz; do
		case $step in
		lint) $make lint > "$dir/lint.out" 2>&1 & ;;
		unit) $make $j unit-bins >> "$dir/beside.log" 2>&1 & ;;
		sanitize) $make $j SANITIZE="$san" unit-bins >> "$dir/beside.log" 2>&1 & ;;
		fuzz) $make $j fuzz >> "$dir/beside.log" 2>&1 & ;;
		esac
		child=$!
		wait "$child"
		rc=$?
		child=""
		[ $step = lint ] && echo $rc > "$dir/lint"
		[ $rc = 0 ] || [ $step = lint ] || exit 1
	done
	exit 0
fi

rm -rf "$dir"
mkdir -p "$dir"
status=0

# phase NAME COMMAND...: runs COMMAND, prints how long it took, and
# counts its failure in $status.
phase() {
	ph_name=$1
	shift
	ph_t0=$(date +%s)
	"$@"
	ph_rc=$?
	echo "make test: $ph_name took $(($(date +%s) - ph_t0)) s"
	[ $ph_rc = 0 ] || status=1
	return $ph_rc
}

phase build $make $j integration-deps || exit 1

if command -v chrt > /dev/null 2>&1 && chrt --idle 0 true 2> /dev/null; then
	idle="chrt --idle 0"
else
	idle="nice -n 19"
fi
# In a process group of its own (setsid), so that one signal stops all of
# it, lint's clang-format too.
grouped=0
command -v setsid > /dev/null 2>&1 && idle="setsid $idle" && grouped=1
$idle sh "$0" --beside $$ $grouped < /dev/null > /dev/null 2>&1 &
beside=$!
stop_beside() {
	kill -TERM "-$beside" 2> /dev/null || kill -TERM "$beside" 2> /dev/null
}
trap 'stop_beside' EXIT
trap 'exit 130' INT TERM HUP

phase integration $make $j integration
stop_beside
wait "$beside"

if [ -s "$dir/lint" ]; then
	cat "$dir/lint.out"
	[ "$(cat "$dir/lint")" = 0 ] || status=1
else
	phase lint $make lint
fi
phase unit $make $j unit
phase unit-sanitize $make $j unit-sanitize
phase fuzz $make $j fuzz-run
sh tests/summary.sh || status=1
exit $status
