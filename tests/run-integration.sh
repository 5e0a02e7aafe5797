#!/bin/sh
# Runs every tests/integration/test_*.sh with the build directory as its
# argument; each script exits 0 on success. Counts go to build/results.txt,
# each script's output to build/NAME.log.
#
# Most scripts spend their wall time waiting on a clock (Discord's
# heartbeat, a stream of interactions at a set rate, IRC's flood rate,
# identify spacing) with the bot nearly idle, and each uses its own free
# ports and temporary directory; so they run in $INTEGRATION_LANES lanes
# at once (4 by default; 1 runs them one after another). Each lane takes
# the next script nobody has taken yet (a claim is a mkdir, which is
# atomic), the longest first, so the lanes end close together whatever
# the machine's speed.
#
# The scripts in $first run one after another before the lanes start: two
# load both cores for seconds on end (thousands of interactions at hundreds
# a second, each to be answered within Discord's 3 s, which many other
# scripts check too); in the two that start several delver processes on
# one PostgreSQL server, a process took more than 20 s to be granted its
# identify slot when other lanes ran beside them on a loaded machine;
# test_discord_zlib's fake compresses a 256 MB zip bomb while the bot's
# heartbeats wait for their ACKs (a zombie reconnect beside other lanes).
# The scripts in $alone either load the machine in bursts (a few hundred
# interactions a second) or check something such a burst beside them can
# break (the fairness check of test_irc_fair failed once beside
# test_discord_overload: the quiet user's roll unanswered): two of them
# never run at the same time; a lane that holds the "alone" claim runs one,
# the others meanwhile take the rest.
#
# $INTEGRATION_BESIDE, if set, is a command run beside the scripts, from
# the first to the last, on the CPU they leave idle: under SCHED_IDLE
# (chrt --idle), so that a script's bot, fake server or client always runs
# first when it has work. make test gives it the builds and the fuzz smoke
# runs, which have no clock to meet. Its output is printed when the
# scripts are done, and its failure fails the run.
set -u
# What systemd gives a service is not the tests' to inherit: a run of this
# under a unit would otherwise make each delver here a service.
unset INVOCATION_ID JOURNAL_STREAM NOTIFY_SOCKET WATCHDOG_USEC WATCHDOG_PID
build=$1
mkdir -p build

# The scripts start python3 hundreds of times, and the one the test
# packages install (tests/deps.sh) is Debian's /usr/bin/python3. A python3
# found earlier in PATH may be a version manager's shim: pyenv's took
# 0.85 s a start here against 0.06 s for Debian's, and its bash processes
# were the busiest on the machine while the scripts ran. They run Debian's.
if [ -x /usr/bin/python3 ]; then
	mkdir -p build/python3-path
	ln -sf /usr/bin/python3 build/python3-path/python3
	PATH=$(pwd)/build/python3-path:$PATH
	export PATH
fi
results=build/results.txt
lanes=${INTEGRATION_LANES:-4}
claims=build/integration-claims

# The longest first (each took 45 to 200 s in four lanes on a quiet 2-core
# machine, most of it waiting); the others follow in name order. A script
# named in none of the lists below runs in the lanes.
long="test_discord_replay test_discord_panel test_discord_soak test_discord_gmroll test_irc_fungeon_turn
test_discord_panel_restart test_discord_panel_refused test_discord_deferred_restart
test_irc_fair test_persist_crash test_irc_identity test_discord_replay_late
test_persist_pg_stop test_irc_ngircd test_discord_shards test_discord_resume
test_discord_surface test_discord_identify_buckets test_discord_replay_burst
test_discord_autocomplete test_discord_register test_irc_scripted test_discord_reshard"
first="test_discord_overload test_discord_hidden test_discord_reshard_pg
test_discord_fleet test_discord_zlib"
alone="test_irc_fair test_irc_flood test_discord_basics test_discord_invalid
test_discord_clock"
# On one line each: the tests below match " NAME ".
first=$(echo $first)
alone=$(echo $alone)

queue=""
for name in $long; do
	[ -f "tests/integration/$name.sh" ] && queue="$queue $name"
done
for t in tests/integration/test_*.sh; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .sh)
	case " $queue $first " in *" $name "*) ;; *) queue="$queue $name" ;; esac
done

rm -rf "$claims"
mkdir -p "$claims"

# One script: its verdict line, its counts, and its log's tail on failure.
one() {
	t=tests/integration/$1.sh
	log=build/$1.log
	start=$(date +%s)
	if sh "$t" "$build" > "$log" 2>&1; then
		echo "ok   $t ($(($(date +%s) - start))s)"
		echo "integration $t 1 0" >> "$results"
		return 0
	fi
	# The log's tail is printed in one write so another lane's lines do
	# not land inside it.
	{
		echo "FAIL: $t; its log follows"
		tail -n 60 "$log"
	} > "$log.tail"
	cat "$log.tail"
	echo "integration $t 0 1" >> "$results"
	return 1
}

is_alone() {
	case " $alone " in *" $1 "*) return 0 ;; esac
	return 1
}

# claim: sets $got to the next script this lane may run now ("" when none
# is left to take; "wait" when only alone scripts are left and one runs).
claim() {
	got=""
	blocked=0
	for name in $queue; do
		[ -d "$claims/$name" ] && continue
		if is_alone "$name"; then
			if ! mkdir "$claims/.alone" 2> /dev/null; then
				blocked=1
				continue
			fi
			if ! mkdir "$claims/$name" 2> /dev/null; then
				rmdir "$claims/.alone"
				continue
			fi
			got=$name
			return
		fi
		mkdir "$claims/$name" 2> /dev/null || continue
		got=$name
		return
	done
	[ "$blocked" = 1 ] && got=wait
}

lane() {
	s=0
	while :; do
		claim
		case $got in
		"") break ;;
		wait) sleep 0.5 ;;
		*)
			one "$got" || s=1
			is_alone "$got" && rmdir "$claims/.alone"
			;;
		esac
	done
	return $s
}

beside_pid=""
if [ -n "${INTEGRATION_BESIDE:-}" ]; then
	idle="chrt --idle 0"
	$idle true 2> /dev/null || idle="nice -n 19"
	$idle sh -c "$INTEGRATION_BESIDE" > build/beside.log 2>&1 &
	beside_pid=$!
fi
trap 'kill $beside_pid 2>/dev/null; exit 130' INT TERM

status=0
for name in $first; do
	[ -f "tests/integration/$name.sh" ] || continue
	one "$name" || status=1
done

pids=""
n=0
while [ "$n" -lt "$lanes" ]; do
	lane &
	pids="$pids $!"
	n=$((n + 1))
done
trap 'kill $pids $beside_pid 2>/dev/null; exit 130' INT TERM
for p in $pids; do
	wait "$p" || status=1
done
rm -rf "$claims"
if [ -n "$beside_pid" ]; then
	echo "== beside the integration scripts: $INTEGRATION_BESIDE"
	wait "$beside_pid"
	rc=$?
	cat build/beside.log
	if [ "$rc" -ne 0 ]; then
		echo "FAIL: beside the integration scripts: $INTEGRATION_BESIDE (exit $rc)"
		status=1
	fi
fi
exit $status
