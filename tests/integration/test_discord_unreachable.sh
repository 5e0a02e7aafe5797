#!/bin/sh
# Discord unreachable at the start: [discord] rest_url and gateway_url name
# a loopback port nothing listens on. Each try of GET /gateway/bot logs one
# warning naming the URL, what failed and when it is tried again (1 s,
# then 2 s, then 4 s): no "giving up" followed by a retry, no status 0, no
# line per retry of its own. SIGTERM meanwhile: nothing more is logged as
# failed, Discord's last line says it stopped, and delver exits 0.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

dead=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
REST="http://127.0.0.1:$dead/api/v10"
bot_start "gateway_url=ws://127.0.0.1:$dead"
log_wait "trying again in 4 s" 15
kill -TERM "$BOT_PID"
bot_wait_exit 10
[ "$BOT_STATUS" = 0 ] || fail "the bot exited with $BOT_STATUS after SIGTERM"

cannot="warn: discord: cannot reach $REST/gateway/bot: Couldn't connect to server; trying again in"
want=$(printf '%s 1 s\n%s 2 s\n%s 4 s' "$cannot" "$cannot" "$cannot")
got=$(unstamp "$BOT_LOG" | grep -E '^(warn|error): discord:')
[ "$got" = "$want" ] || fail "the warnings are not one per try:
$got"
after=$(unstamp "$BOT_LOG" | sed -n '/SIGTERM: stopping/,$p')
[ -n "$after" ] || fail "the bot never said it took SIGTERM"
echo "$after" | grep -q -E '^(warn|error):' && fail "a failure was logged after SIGTERM: $after"
[ "$(unstamp "$BOT_LOG" | tail -n 1)" = "info: discord: stopped (no shard had started)" ] ||
	fail "the last line is not Discord's stop: $(tail -n 1 "$BOT_LOG")"
echo "ok   one warning per try, none after SIGTERM, a last line that says Discord stopped"
