#!/bin/sh
# Runs every tests/integration/test_*.sh with the build directory as its
# argument; each script exits 0 on success. Counts go to build/results.txt.
#
# Two lanes. The scripts named in $waiting spend most of their wall time
# waiting on a real-world clock (Discord's 41,250 ms heartbeat over 150 s)
# with the bot nearly idle, so they run in a second lane while the others
# run in the first. The ngircd flood scripts stay in the first lane: beside
# a script that saturates both cores (test_discord_overload), the fairness
# check of test_irc_fair failed once (the quiet user's roll unanswered). Each script
# uses its own free ports and temporary directory, so the two never share
# anything but the machine. Set INTEGRATION_LANES=1 to run all in one lane.
set -u
build=$1
mkdir -p build
results=build/results.txt
waiting="test_discord_soak"

# One script: its verdict line, its counts, and its log's tail on failure.
one() {
	t=$1
	log=build/$(basename "$t" .sh).log
	start=$(date +%s)
	if sh "$t" "$build" > "$log" 2>&1; then
		echo "ok   $t ($(( $(date +%s) - start ))s)"
		echo "integration $t 1 0" >> "$results"
		return 0
	fi
	# The log's tail is printed in one write so the other lane's lines do
	# not land inside it.
	{ echo "FAIL: $t; its log follows"; tail -n 60 "$log"; } > "$log.tail"
	cat "$log.tail"
	echo "integration $t 0 1" >> "$results"
	return 1
}

in_waiting() {
	case " $waiting " in *" $1 "*) return 0 ;; esac
	return 1
}

lane2_pid=
if [ "${INTEGRATION_LANES:-2}" -ge 2 ]; then
	(
		s=0
		for name in $waiting; do
			t=tests/integration/$name.sh
			[ -f "$t" ] || continue
			one "$t" || s=1
		done
		exit $s
	) &
	lane2_pid=$!
	trap 'kill "$lane2_pid" 2>/dev/null; exit 130' INT TERM
fi

status=0
for t in tests/integration/test_*.sh; do
	[ -f "$t" ] || continue
	if [ -n "$lane2_pid" ] && in_waiting "$(basename "$t" .sh)"; then
		continue
	fi
	one "$t" || status=1
done
if [ -n "$lane2_pid" ]; then
	wait "$lane2_pid" || status=1
fi
exit $status
