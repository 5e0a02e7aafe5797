#!/bin/sh
# Interaction callbacks whose own connections stall in the TLS handshake:
# the fake Discord's REST side behind tests/tools/tls_terminator.py, which
# on SIGUSR2 holds the handshakes of the next 4 connections unanswered.
# 4 interactions at once take 4 new connections of discord_rest_h1, all
# stalled: each callback leaves its connection for libcurl 1 s later
# (DISCORD_REST_H1_SLOW_MS), in time for Discord's 3 s, rather than waiting
# for the 5 s connect timeout and going unanswered.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

fake_start
tls_start 4
bot_start "tls_ca_file=$TLS_CA"
wait_until "g['ready'] and r['registrations'] == 1" 10

kill -USR2 "$TLS_PID"
sleep 0.2
T="$(tmpl help '[]' 'delver commands' false)"
inject "{\"count\":4,\"rate\":0,\"channels\":2,\"users\":2,\"templates\":[$T]}"
wait_until "i['answered'] == 4" 10
grep -E "discord: .*(unanswered|not answered|giving up)" "$BOT_LOG" &&
	fail "a callback went unanswered behind a stalled handshake"
# The fake counts a callback when it reads it, the bot when it reads the
# answer: ask for the bot's count until it has read all four (5 s at most).
n=0
while :; do
	kill -USR1 "$BOT_PID"
	sleep 0.5
	grep "discord stats:" "$BOT_LOG" | tail -n 1 |
		grep -q "callbacks answered on own connections 0, through libcurl 4;" && break
	n=$((n + 1))
	[ "$n" -lt 10 ] ||
		fail "the callbacks did not leave the stalled connections: $(grep "discord stats:" "$BOT_LOG")"
done
finish
