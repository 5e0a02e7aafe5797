#!/bin/sh
# One process running both shards of 2, stopped, then split into a process
# per shard at the same count on the same state root (delver(8), SHARDING):
# each new process takes the session the single one saved in the root and
# resumes it (no IDENTIFY, no wait for a slot), and the interactions sent
# while they start are replayed and answered. (They used to look for the
# session only in their own shard-N, identify anew, and lose what came
# meanwhile.)
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

ROLL=$(tmpl roll '[{"type":3,"name":"expression","value":"1d6"}]' rolls false)

fake_start --heartbeat 5000 --shards 2 --guilds 4 --identify-interval 500
bot_start
wait_live 2
bot_stop
[ -f "$WORK/state/discord-session-0.json" ] && [ -f "$WORK/state/discord-session-1.json" ] ||
	fail "the single process saved no session for each shard"
ids=$(stat gateway.identifies)
bot_start shard_count=2 shards=0
keep_bot
bot_start shard_count=2 shards=1
keep_bot
inject "{\"count\":8,\"rate\":100,\"channels\":8,\"guilds\":4,\"templates\":[$ROLL]}"
wait_live 2
wait_until "i['answered'] == 8 and i['left_to_inject'] == 0" 20
[ "$(stat gateway.identifies)" = "$ids" ] ||
	fail "the split processes identified anew instead of resuming: $(stat gateway.identifies) IDENTIFYs, $ids before"
grep -q "shard 0: took the session saved in $WORK/state/discord-session-0.json" "$WORK/bot2.log" ||
	fail "the process of shard 0 does not say it took the saved session: $(grep session "$WORK/bot2.log")"
[ -f "$WORK/state/discord-session-1.json" ] && fail "shard 1's session is left in the root"
for p in $OTHER_PIDS; do kill -TERM "$p"; done
for p in $OTHER_PIDS; do
	wait "$p" || fail "a shard process exited with $? after SIGTERM"
done
OTHER_PIDS=""
finish
