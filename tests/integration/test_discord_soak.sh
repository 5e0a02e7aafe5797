#!/bin/sh
# A soak at Discord's real heartbeat interval (41,250 ms), longer than the
# 60 s send-budget window and three heartbeats: interactions at 5 a second
# for 150 s are each answered once within 3 s, heartbeats keep their
# rhythm on one connection (no zombie, no resume, one IDENTIFY), and the
# bot's CPU time stays far below the wall time. A bot whose timer spins
# burns a whole core (and goes deaf): its CPU seconds near the wall
# seconds fail this test whatever the machine's speed; a working one uses
# a few percent at most.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

SECONDS_RUN=150
RATE=5

# utime + stime of a process, in clock ticks (fields 14 and 15 of
# /proc/PID/stat, counted after the parenthesised command name).
cpu_ticks() {
	sed 's/^.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'
}

fake_start --heartbeat 41250
bot_start
wait_until "g['ready']" 15

T=""
add() { T="${T:+$T,}$1"; }
add "$(tmpl roll '[{"type":3,"name":"expression","value":"1d20+3"}]' 'rolls' false)"
add "$(tmpl gm '[{"type":1,"name":"show"}]' GM false)"
add "$(tmpl help '[{"type":3,"name":"command","value":"roll"}]' '/roll' false)"

hz=$(getconf CLK_TCK)
cpu0=$(cpu_ticks "$BOT_PID")
t0=$(date +%s.%N)
inject "{\"count\":$((SECONDS_RUN * RATE)),\"rate\":$RATE,\"channels\":7,\"users\":5,\"templates\":[$T]}"
wait_until "i['left_to_inject'] == 0" $((SECONDS_RUN + 20))
wait_until "i['answered'] == i['created']" 10
cpu1=$(cpu_ticks "$BOT_PID")
t1=$(date +%s.%N)

created=$(stat interactions.created)
[ "$created" = $((SECONDS_RUN * RATE)) ] || fail "$created interactions created"
[ "$(stat interactions.late)" = 0 ] || fail "interactions answered late or never"
[ "$(stat interactions.duplicates)" = 0 ] || fail "interactions answered twice"
[ "$(stat interactions.deferred)" = 0 ] || fail "answers deferred at a steady rate, the store fast"
[ "$(stat gateway.connections)" = 1 ] || fail "the connection did not last the whole run"
[ "$(stat gateway.identifies)" = 1 ] || fail "the bot identified again"
[ "$(stat gateway.resumes)" = 0 ] || fail "the bot resumed (a missed heartbeat ACK?)"
hb=$(stat gateway.heartbeats)
[ "$hb" -ge 3 ] || fail "only $hb heartbeats in ${SECONDS_RUN} s at 41,250 ms"
# The fake flags a gap over 1.5 intervals as a violation (finish fails);
# the rhythm itself is one interval.
gap=$(stat gateway.max_hb_gap_ms)
[ "$gap" -le 61875 ] || fail "heartbeats $gap ms apart"

python3 - "$cpu0" "$cpu1" "$hz" "$t0" "$t1" "$created" <<'PY' || fail "the bot burnt too much CPU (see above)"
import sys
c0, c1, hz = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
t0, t1, n = float(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
cpu = (c1 - c0) / hz
wall = t1 - t0
print("soak: %.2f s CPU over %.1f s wall (%.2f%%), %d interactions, %.0f us CPU each"
      % (cpu, wall, 100 * cpu / wall, n, 1e6 * cpu / n))
sys.exit(0 if cpu < 0.10 * wall else 1)
PY
finish
