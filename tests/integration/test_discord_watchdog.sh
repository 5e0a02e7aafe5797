#!/bin/sh
# The systemd watchdog end to end: delver runs with NOTIFY_SOCKET at a
# datagram socket this test owns and WATCHDOG_USEC=1 s (a ping due every
# 500 ms). It says READY=1 and pings WATCHDOG=1 while healthy. Then its loop
# is frozen (SIGSTOP) right after a heartbeat, for 20 s: at the first check
# after SIGCONT the gateway's heartbeat timer is more than 10 s overdue, so
# the documented rule holds the ping back and the log says why; pings come
# back once the loop made progress again, and a stop says STOPPING=1.
# (A stopped or silent Discord is no stall: the bot detects the zombie
# connection and reconnects on time, and keeps pinging.)
# The fake sees the heartbeats 20 s apart: that one violation is expected.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

NOTES=$WORK/notify.txt
python3 tests/integration/notify_listen.py "$WORK/notify" "$NOTES" &
LISTENER=$!
trap 'kill $LISTENER 2>/dev/null; cleanup' EXIT
file_wait "$WORK/notify" 5 || fail "the notify listener did not start"
pings() { grep -c '^WATCHDOG=1$' "$NOTES"; }
wait_pings() { # N SECONDS: until at least N pings in all
	i=0
	while [ "$(pings)" -lt "$1" ]; do
		i=$((i + 1))
		[ $i -gt $(($2 * 10)) ] && fail "only $(pings) WATCHDOG=1 after ${2} s (wanted $1)"
		sleep 0.1
	done
}

fake_start --heartbeat 5000
NOTIFY_SOCKET=$WORK/notify WATCHDOG_USEC=1000000 bot_start
wait_until "g['ready']" 15
grep -q '^READY=1$' "$NOTES" || fail "no READY=1 once the gateway was ready"
wait_pings 6 30

# Freeze the loop right after a heartbeat: the next one falls due during the freeze.
hb=$(stat gateway.heartbeats)
wait_until "g['heartbeats'] > $hb" 15
kill -STOP "$BOT_PID"
# A ping sent just before the stop may still wait in the socket for the
# listener: a note of the test's own, queued behind it once the process is
# stopped, says when every ping sent before is counted.
i=0
until [ "$(sed 's/^.*) //' "/proc/$BOT_PID/stat" | cut -d' ' -f1)" = T ]; do
	i=$((i + 1))
	[ $i -gt 100 ] && fail "the bot did not stop on SIGSTOP within 10 s"
	sleep 0.1
done
python3 -c 'import socket, sys
socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).sendto(b"TEST=stopped", sys.argv[1])' "$WORK/notify"
text_wait "$NOTES" "TEST=stopped" 10 || fail "the listener did not note the test's own datagram"
before=$(pings)
sleep 20
[ "$(pings)" = "$before" ] || fail "WATCHDOG=1 came from a stopped process"
kill -CONT "$BOT_PID"
wait_pings $((before + 3)) 30
grep -q "watchdog: not pinging systemd: discord: " "$BOT_LOG" ||
	fail "no ping was held back after the loop was frozen 20 s"
grep -q "watchdog: progress again; pinging systemd" "$BOT_LOG" ||
	fail "pings came back without 'progress again' in the log"

bot_stop
grep -q '^STOPPING=1$' "$NOTES" || fail "no STOPPING=1 at SIGTERM"
kill -TERM "$FAKE_PID" 2>/dev/null
wait "$FAKE_PID"
FAKE_PID=""
v=$(grep VIOLATION "$WORK/fake.log" | grep -v -c "heartbeats [0-9]* ms apart")
[ "$v" = 0 ] || fail "unexpected violations: $(grep -m 5 VIOLATION "$WORK/fake.log")"
[ "$(grep -c VIOLATION "$WORK/fake.log")" -ge 1 ] ||
	fail "the fake did not see the frozen bot's late heartbeat"
for f in "$WORK"/*.log; do
	grep -F -q -- "$TOKEN" "$f" && fail "the token appears in $(basename "$f")"
	grep -q -E "AddressSanitizer|runtime error|Segmentation" "$f" &&
		fail "$(basename "$f") shows a crash or sanitizer report"
done
echo "watchdog: $(pings) pings; held back while the loop was frozen, then resumed"
echo "ok"
