#!/bin/sh
# Discord shards as Discord routes them, with the count Discord asks for.
#
# 1. A bot with no shard settings against a fake that recommends 2 shards
#    and requires 2 (3,000 guilds: one shard may hold 2,500): one process
#    runs shards 0 and 1 of 2, each guild's interactions reach the session
#    of its shard ((guild_id >> 22) % 2: guilds 1 and 3 on shard 0, 0 and 2
#    on shard 1), DMs only shard 0, every interaction is answered once, and
#    the two IDENTIFYs are spaced as max_concurrency 1 asks (no op 9).
# 2. shard_count = 1 against the same fake: Discord closes with 4011; the
#    bot stops with the count to set, and its next start is refused before
#    any IDENTIFY (the refusal is kept in the identify ledger).
# 3. A large bot must run a multiple of its count: 3 shards of a multiple
#    of 2 (4010), with what to set.
# 4. A second process on shard 1 (another bot's state): both sessions get
#    shard 1's events, as Discord allows (both answer; Discord's 400 goes to
#    the later).
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

# (sessions of stopped processes expire after 2 s: none is left to get a
# share of the events by the last part)
fake_start --heartbeat 5000 --shards 2 --guilds 4 --identify-interval 1000 --resume-window 2000
ctl guildcount 3000

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

# 1. No shard settings: Discord's count, both shards in one process.
bot_start
A_LOG=$BOT_LOG
wait_live 2
check "sorted(s['shard'] for s in ss) == [[0, 2], [1, 2]]"
grep -q "Discord recommends 2 shards" "$A_LOG" || fail "the bot did not read the recommended shards"
grep -q "running shards 0-1 of 2" "$A_LOG" || fail "the bot does not run shards 0-1 of 2"
grep -q "ready (shard 0/2)" "$A_LOG" || fail "shard 0 of 2 is not ready"
grep -q "ready (shard 1/2)" "$A_LOG" || fail "shard 1 of 2 is not ready"
[ "$(stat gateway.identify_op9)" = 0 ] || fail "an IDENTIFY came too soon in its bucket"
curl -s "http://127.0.0.1:$PORT/_control/identifies" | python3 -c '
import json, sys
ids = [i for i in json.load(sys.stdin) if i["outcome"] == "ready"]
assert len(ids) == 2, ids
gap = ids[1]["t"] - ids[0]["t"]
assert gap >= 1000, "IDENTIFYs %d ms apart in one bucket" % gap
' || fail "the two IDENTIFYs are not spaced as max_concurrency 1 asks"

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
bot_stop
wait_live 0

expect_stop() { # expect_stop WHAT "log words" STATUS (delver(8), EXIT STATUS)
	bot_wait_exit 15
	[ "$BOT_STATUS" = "$3" ] || fail "the bot exited with '$BOT_STATUS', not $3, after $1"
	grep -q -F "$2" "$BOT_LOG" || fail "no '$2' in the log after $1:
$(tail -n 5 "$BOT_LOG")"
}

# 2. Fewer shards than Discord requires: stopped with the count to set;
# the next start is refused before it spends an IDENTIFY.
bot_start shard_count=1
expect_stop "1 shard for 3,000 guilds" \
	"Discord requires more than 1 shard for this bot's guilds (4011): set [discord] shard_count = auto, or at least 2, the count Discord recommends" 8
[ "$(stat gateway.refused_4011)" = 1 ] || fail "the fake did not refuse 1 shard with 4011"
before=$(stat gateway.identifies)
bot_start shard_count=1
expect_stop "a restart with 1 shard" \
	"Discord refused 1 shard (4011) before, and still recommends 2: set [discord] shard_count = auto, or at least 2, the count Discord recommends; not connecting" 8
[ "$(stat gateway.identifies)" = "$before" ] || fail "the refused count was sent to Discord again"
# What Discord asks for works at once.
bot_start shard_count=2
wait_live 2
bot_stop
wait_live 0

# 3. A large bot must run a multiple of its count (4010).
ctl shardmultiple 2
ctl shards 4
bot_start shard_count=3
expect_stop "3 shards of a multiple of 2" \
	"Discord refused 3 shards (4010: a large bot must run a multiple of the count Discord gave it): set [discord] shard_count = auto, or a multiple of the count Discord gave this bot (it recommends 4)" 7
ctl shardmultiple 1
ctl shards 2

# 4. Another bot's process on shard 1 beside this one's: both sessions get
# shard 1's events, as Discord allows.
sleep 2.1
bot_start shards=0-1 shard_count=2
keep_bot
wait_live 2
# (the other bot's ledger is its own: it keeps Discord's spacing by waiting)
wait_until "g['ms_since_identify'] >= 1200" 10
BOT_STATE=$WORK/other bot_start shards=1 shard_count=2
keep_bot
wait_live 3
inject "{\"count\":8,\"rate\":100,\"channels\":8,\"guilds\":4,\"templates\":[$ROLL]}"
wait_until "i['answered'] == 54 and i['shared_duplicates'] == 4" 15
[ "$(stat interactions.fanout)" = 4 ] || fail "fanout is $(stat interactions.fanout), not 4: $(sessions)"
[ "$(stat interactions.duplicates)" = 0 ] || fail "a session answered one interaction twice"

for p in $OTHER_PIDS; do
	kill -TERM "$p"
	wait "$p" || fail "a shard process exited with $? after SIGTERM"
done
OTHER_PIDS=""
finish
