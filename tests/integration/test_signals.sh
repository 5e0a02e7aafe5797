#!/bin/sh
# Signals and systemd notification, against a running delver:
# - SIGHUP with a good file applies it (the log level) without stopping the
#   console; SIGHUP with a bad file logs the error and keeps the old one;
# - SIGTERM and SIGINT stop it in order (drain, then stop) with status 0,
#   the store last (its drain commits what is left, so the next start
#   finds the GM seat taken before the SIGTERM);
# - under a (fake) systemd, READY=1, WATCHDOG=1 at half the interval,
#   RELOADING=1/READY=1 around a reload and STOPPING=1 reach NOTIFY_SOCKET.
. tests/integration/lib.sh
DELVER=$(cd "$(dirname "$DELVER")" && pwd)/$(basename "$DELVER")
tmp=$(mktemp -d)
pid=""
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	exec 3>&- 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp" || exit 1
fails=0

fail() {
	echo "FAIL $*"
	fails=$((fails + 1))
}

# wait_for FILE TEXT: waits up to 20 s for a line equal to TEXT in FILE.
wait_for() {
	i=0
	while ! unstamp "$1" 2>/dev/null | grep -qxF -- "$2"; do
		i=$((i + 1))
		if [ "$i" -gt 200 ]; then
			fail "no line '$2' in $1; it holds:"
			cat "$1"
			return 1
		fi
		sleep 0.1
	done
}

# stopped: waits for $pid to exit and checks its status is $1.
stopped() {
	wait "$pid"
	rc=$?
	pid=""
	[ "$rc" -eq "$1" ] || fail "exit status $rc, want $1"
}

# 1. SIGHUP and SIGTERM with the console reading a FIFO that stays open.
printf '[bot]\nlog_level = info\n[console]\nuser = alice\n' > d.conf
mkfifo in
"$DELVER" --config d.conf --color never < in > out 2> err &
pid=$!
exec 3> in
echo "/gm claim" >&3
wait_for out "alice is now the GM of this channel." || exit 1

printf '[bot]\nlog_level = debug\n[console]\nuser = alice\n' > d.conf
kill -HUP "$pid"
wait_for err "info: reloaded the configuration from d.conf" || exit 1

printf '[bot]\nlog_level = loud\n' > d.conf
kill -HUP "$pid"
wait_for err "error: reload: d.conf:2: [bot] log_level must be error, warn, info or debug (got 'loud'); keeping the configuration in use" || exit 1
echo "/gm" >&3
wait_for out "The GM here is alice." || exit 1

kill -TERM "$pid"
stopped 0
exec 3>&-
# The debug lines show the first reload's level was kept over the bad one.
cat > want <<'EOF'
info: SIGHUP: reloading the configuration
info: reloaded the configuration from d.conf
info: SIGHUP: reloading the configuration
error: reload: d.conf:2: [bot] log_level must be error, warn, info or debug (got 'loud'); keeping the configuration in use
info: SIGTERM: stopping once the commands in flight are answered
debug: stopping: SIGTERM
debug: console: drain
debug: console: drain step done
debug: store: drain
debug: store: snapshot (the stop snapshot)
debug: store: drain step done
debug: console: stop
debug: console: stop step done
debug: store: stop
debug: store: stop step done
EOF
# The stop snapshot's line names its file and time: compared without them.
# Run by hand (no journald), every line of the run carries its time.
unstamped=$(grep -cvE '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[.][0-9]{3}Z ' err)
[ "$unstamped" = 0 ] || fail "$unstamped lines of the run by hand have no time"
unstamp err | sed 's|^debug: store: snapshot .*/snapshots/delver-[0-9TZ]*[.]db written in [0-9]* ms$|debug: store: snapshot (the stop snapshot)|' > err.cmp
diff -u want err.cmp || fail "the log of the SIGHUP/SIGTERM run differs"
cat > want <<'EOF'
alice> /gm claim
alice is now the GM of this channel.
alice> /gm
The GM here is alice.
EOF
diff -u want out || fail "the console's output differs"

# 2. SIGINT stops it the same way. The state (./state) survived the SIGTERM.
printf '[console]\nuser = bob\n' > d.conf
rm -f in && mkfifo in
"$DELVER" --config d.conf --color never < in > out 2> err &
pid=$!
exec 3> in
echo "/gm" >&3
wait_for out "The GM here is alice." || exit 1
kill -INT "$pid"
stopped 0
exec 3>&-
[ "$(unstamp err)" = "info: SIGINT: stopping once the commands in flight are answered" ] ||
	fail "SIGINT run logged: $(cat err)"

# 3. Under a fake systemd: the protocol reaches NOTIFY_SOCKET.
cat > notify.py <<'EOF'
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
s.settimeout(10)
with open(sys.argv[2], "w") as out:
    while True:
        try:
            m = s.recv(4096).decode()
        except socket.timeout:
            break
        out.write(m.replace("\n", " ") + "\n")
        out.flush()
        if "STOPPING=1" in m:
            break
EOF
python3 notify.py "$tmp/notify" notes &
npid=$!
file_wait "$tmp/notify" 5 || fail "the notify listener did not start"
# The console on a FIFO that stays open: a file enabling nothing is refused.
printf '[console]\nuser = carol\n' > d.conf
rm -f in && mkfifo in
NOTIFY_SOCKET=$tmp/notify WATCHDOG_USEC=200000 "$DELVER" --config d.conf < in > out 2> err &
pid=$!
exec 3> in
wait_for notes "READY=1 STATUS=running" || exit 1
# Three pings before the reload (one every 100 ms while the loop makes
# progress; a loop starved of CPU withholds them, so the wait is long).
i=0
until [ "$(grep -c '^WATCHDOG=1$' notes)" -ge 3 ]; do
	i=$((i + 1))
	[ "$i" -gt 200 ] && break
	sleep 0.1
done
kill -HUP "$pid"
wait_for err "info: reloaded the configuration from d.conf" || exit 1
kill -TERM "$pid"
stopped 0
exec 3>&-
wait "$npid"
pings=$(grep -c '^WATCHDOG=1$' notes)
[ "$pings" -ge 3 ] || fail "only $pings watchdog pings in 20 s at 100 ms"
grep -v '^WATCHDOG=1$' notes > got
cat > want <<'EOF'
READY=1 STATUS=running
RELOADING=1
READY=1 STATUS=running
STOPPING=1
EOF
diff -u want got || fail "the notifications differ"
cat > want <<'EOF'
info: SIGHUP: reloading the configuration
info: reloaded the configuration from d.conf
info: SIGTERM: stopping once the commands in flight are answered
EOF
# A loop starved of CPU for longer than half the watchdog interval says
# so and says when it is back (test_discord_watchdog checks those lines);
# on a loaded machine they may come here too, and are not this check's.
unstamp err | grep -v '^[a-z]*: watchdog: ' > err.signals
diff -u want err.signals || fail "the daemon's log differs"

[ "$fails" -eq 0 ]
