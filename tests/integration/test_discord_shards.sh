#!/bin/sh
# Discord shards: two delver processes, shard 0 and 1 of 2, against a fake
# Discord with 4 guilds. Each guild's interactions reach only the process
# whose shard is (guild_id >> 22) % 2 (guilds 1 and 3 on shard 0, 0 and 2
# on shard 1), DMs only shard 0, and every interaction is answered once. A
# second process on shard 1 gets shard 1's events too, as Discord allows
# (both answer; Discord's 400 goes to the later). A count Discord refuses
# (not a multiple of a large bot's count: 4010) and too few shards for the
# guilds (4011) stop the bot with one clear sentence.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

fake_start --heartbeat 5000 --shards 2 --guilds 4

# check PYEXPR: holds for the fake's sessions (ss) and channels (ch)
check() {
	{
		sessions
		echo
		curl -s "http://127.0.0.1:$PORT/_control/channels"
	} | python3 -c "
import json, sys
ss = json.loads(sys.stdin.readline())
ch = json.loads(sys.stdin.readline())
live = [s for s in ss if s['live']]
by = lambda i, n: [s for s in ss if s['shard'] == [i, n]]
sys.exit(0 if ($1) else 1)" || fail "not so: $1
$(sessions)"
}

wait_sessions() {
	i=0
	until sessions | python3 -c "
import json, sys
sys.exit(0 if len([s for s in json.load(sys.stdin) if s['live']]) == $1 else 1)"; do
		i=$((i + 1))
		[ $i -gt 150 ] && fail "not $1 live sessions after 15 s: $(sessions)"
		sleep 0.1
	done
}

BOT_STATE=$WORK/s0 bot_start shard_id=0 shard_count=2
A_LOG=$BOT_LOG
keep_bot
wait_sessions 1
identify_window
BOT_STATE=$WORK/s1 bot_start shard_id=1 shard_count=2
B_LOG=$BOT_LOG
keep_bot
wait_sessions 2
check "[s['shard'] for s in ss] == [[0, 2], [1, 2]]"
grep -q "Discord recommends 2 shards" "$A_LOG" || fail "the bot did not read the recommended shards"
grep -q "ready (shard 0/2)" "$A_LOG" || fail "the first bot is not ready as shard 0 of 2"
grep -q "ready (shard 1/2)" "$B_LOG" || fail "the second bot is not ready as shard 1 of 2"

ROLL=$(tmpl roll '[{"type":3,"name":"expression","value":"1d6"}]' rolls false)
inject "{\"count\":40,\"rate\":100,\"channels\":8,\"guilds\":4,\"templates\":[$ROLL]}"
wait_until "i['answered'] == 40" 15
check "by(0, 2)[0]['interactions'] == 20 and by(1, 2)[0]['interactions'] == 20"
check "sorted(c['guild'] for c in ch.values()) == [0, 0, 1, 1, 2, 2, 3, 3]"
check "all(c['created'] == 5 and c['answered'] == 5 and c['late'] == 0 for c in ch.values())"
[ "$(stat interactions.undelivered)" = 0 ] || fail "interactions reached no shard"
[ "$(stat interactions.fanout)" = 0 ] || fail "an interaction reached two sessions"

# DMs go to shard 0 only.
DM=$(tmpl gm '[{"type":1,"name":"show"}]' GM false ',"dm":true')
inject "{\"count\":6,\"rate\":100,\"templates\":[$DM]}"
wait_until "i['answered'] == 46" 15
check "by(0, 2)[0]['interactions'] == 26 and by(1, 2)[0]['interactions'] == 20"

# A second process on shard 1: both sessions get shard 1's interactions.
identify_window
BOT_STATE=$WORK/s1b bot_start shard_id=1 shard_count=2
wait_sessions 3
inject "{\"count\":8,\"rate\":100,\"channels\":8,\"guilds\":4,\"templates\":[$ROLL]}"
wait_until "i['answered'] == 54 and i['shared_duplicates'] == 4" 15
check "by(0, 2)[0]['interactions'] == 30"
check "[s['interactions'] for s in by(1, 2)] == [24, 4]"
[ "$(stat interactions.fanout)" = 4 ] || fail "fanout is $(stat interactions.fanout), not 4"
[ "$(stat interactions.duplicates)" = 0 ] || fail "a session answered one interaction twice"
bot_stop
wait_sessions 2

# A large bot must run a multiple of its count: 3 shards of a multiple of 2
# are refused (4010), as are 2 shards for 6,000 guilds (4011).
expect_stop() { # expect_stop WHAT "log words" STATUS (delver(8), EXIT STATUS)
	bot_wait_exit 15
	[ "$BOT_STATUS" = "$3" ] || fail "the bot exited with '$BOT_STATUS', not $3, after $1"
	grep -q -F "$2" "$BOT_LOG" || fail "no '$2' in the log after $1"
}
ctl shardmultiple 2
identify_window
BOT_STATE=$WORK/s3 bot_start shard_id=0 shard_count=3
expect_stop "3 shards of a multiple of 2" "invalid shard (4010): check [discord] shard_id and shard_count" 7
ctl shardmultiple 1
ctl guildcount 6000
identify_window
BOT_STATE=$WORK/s4 bot_start shard_id=0 shard_count=2
expect_stop "2 shards for 6,000 guilds" "sharding required (4011)" 8
check "len(live) == 2"

for p in $OTHER_PIDS; do
	kill -TERM "$p"
	wait "$p" || fail "a shard process exited with $? after SIGTERM"
done
OTHER_PIDS=""
finish
