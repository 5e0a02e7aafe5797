#!/bin/sh
# Interaction callbacks over TLS, on the connections discord_rest_h1 keeps:
# the fake Discord's REST side behind a TLS terminator on loopback
# (tests/tools/tls_terminator.py, python's ssl: TLS 1.3, two session
# tickets after each handshake, which reach the bot on idle connections),
# its certificate made here and verified with [discord] tls_ca_file. 220
# interactions (50 a second) are answered on at most 16 connections (the terminator
# counts its TCP accepts; libcurl's own few for the other routes besides);
# connections the terminator drops while idle do not lose the next
# answers, 40 that come at once among them; every callback goes on the
# road's own connections (the stats line counts them); and the idle bot, its connections holding tickets, does not
# spin (its CPU time over 2 s, from /proc).
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

fake_start
tls_start
bot_start "tls_ca_file=$TLS_CA"
wait_until "g['ready'] and r['registrations'] == 1" 10
start_accepts=$(cat "$WORK/tls-accepts")

T=""
add() { T="${T:+$T,}$1"; }
add "$(tmpl gm '[{"type":1,"name":"show"}]' GM false)"
add "$(tmpl help '[]' 'delver commands' false)"
burst() { inject "{\"count\":$1,\"rate\":${2:-0},\"channels\":7,\"users\":3,\"templates\":[$T]}"; }

burst 220 50
wait_until "i['answered'] == 220" 20
accepts=$(cat "$WORK/tls-accepts")
[ $((accepts - start_accepts)) -le 16 ] ||
	fail "220 callbacks took $((accepts - start_accepts)) new TLS connections (at most 16)"
[ "$accepts" -le 19 ] || fail "$accepts TLS connections in all (16 for callbacks, 3 for the rest)"

# Idle: the connections hold the server's session tickets, unread; the bot
# must not spin on them. utime + stime in clock ticks (fields 14, 15).
sleep 0.5
cpu() { awk '{print $14 + $15}' "/proc/$BOT_PID/stat"; }
c0=$(cpu)
sleep 2
c1=$(cpu)
[ $((c1 - c0)) -le 10 ] || fail "the idle bot took $((c1 - c0)) clock ticks of CPU in 2 s"

# The terminator drops every idle connection: the next answers still come,
# 40 at once: 16 connections are made again and the callbacks that find
# them connecting or busy wait for them (not through libcurl).
kill -USR1 "$TLS_PID"
sleep 0.5
burst 40 0
wait_until "i['answered'] == 260" 10
[ "$(cat "$WORK/tls-accepts")" -gt "$accepts" ] || fail "no new connection after the drop"
grep -q "giving up" "$BOT_LOG" && fail "a callback was given up: $(grep "giving up" "$BOT_LOG")"
# Every callback's answer came on the road's own connections: one each
# (no 429s nor 5xx here, no deferrals).
bot_stats
grep -q "callbacks answered on own connections 260, through libcurl 0;" "$BOT_LOG" ||
	fail "the callbacks did not all go on the road: $(grep "discord stats:" "$BOT_LOG")"
finish
