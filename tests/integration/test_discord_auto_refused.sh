#!/bin/sh
# shard_count = auto (no shard settings) and Discord refusing the count it
# recommends (1 shard for 3,000 guilds: 4011): the bot exits with status 1
# (a restart takes Discord's next recommendation), and the refusal is kept
# in the identify ledger, so a restart while Discord still recommends that
# count exits again without an IDENTIFY (each used to spend one).
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

fake_start --heartbeat 5000 --shards 2 --guilds 4 --identify-interval 500
ctl shards 1
ctl guildcount 3000
bot_start
bot_wait_exit 20
[ "$BOT_STATUS" = 1 ] || fail "the refused recommendation gave status $BOT_STATUS, not 1"
[ "$(stat gateway.identifies)" = 1 ] || fail "not one IDENTIFY: $(stat gateway.identifies)"
bot_start
bot_wait_exit 20
[ "$BOT_STATUS" = 1 ] || fail "the restart gave status $BOT_STATUS, not 1"
[ "$(stat gateway.identifies)" = 1 ] ||
	fail "the restart spent an IDENTIFY on a count Discord refused: $(stat gateway.identifies)"
grep -q "Discord refused the 1 shard it recommends (4011) before, and still recommends it; not connecting" "$BOT_LOG" ||
	fail "the restart does not say why it stops: $(grep discord "$BOT_LOG" | tail -3)"
finish
