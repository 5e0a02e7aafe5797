#!/bin/sh
# A hostile Discord that echoes the Authorization header in its error
# bodies: however the bot cuts the body it logs (at 200 or 300 characters,
# one or eight characters short of the token's end; at most 5 failures, as
# many as the bot logs one by one), no part of the
# token that long reaches the log, at debug level too.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

fake_start --heartbeat 2000
BOT_EXTRA='log_level = debug'
bot_start
wait_until "g['ready'] and r['registrations'] == 1" 10

pre=$(python3 -c 'print(len("{\"message\":\"") + len("\",\"request_headers\":\"Authorization: Bot "))')
n=0
for cut in 200 300; do
	for k in 1 8; do
		pad=$((cut - pre - ${#TOKEN} + k))
		[ $pad -ge 0 ] || continue
		ctl restecho match=/callback count=1 pad=$pad
		n=$((n + 1))
	done
done
inject "{\"count\":$n,\"rate\":20,\"templates\":[$(tmpl help '[]' '' null)]}"
wait_until "r['echoes'] == $n" 10
# The bot logs each failed answer; wait for the last line.
i=0
while [ "$(grep -c '"message":"x' "$BOT_LOG")" -lt $n ]; do
	i=$((i + 1))
	[ $i -gt 50 ] && fail "the bot logged $(grep -c '"message":"x' "$BOT_LOG") of $n failed answers"
	sleep 0.1
done
for part in "${TOKEN%?}" "${TOKEN%??}" "${TOKEN%????????}"; do
	if grep -F -q -- "$part" "$BOT_LOG"; then
		fail "a cut token (${#part} of ${#TOKEN} characters) reached the log"
	fi
done
grep -q 'Authorization: Bot \[redacted\]' "$BOT_LOG" || fail "no scrubbed echo in the log"
ctl lenient on
finish
