#!/bin/sh
# IDENTIFYs go by bucket (shard_id % max_concurrency), one per bucket per
# spacing, across processes: 4 shards in 2 processes of one bot (shards 0-1
# and 2-3 of 4, one state directory, so one identify ledger) started at
# the same time, against max_concurrency 1 and then 2. The fake answers an
# IDENTIFY too soon in its bucket with op 9: there is none, every shard is
# ready, and within each bucket the IDENTIFYs are at least the spacing
# apart and at most 8 s, also when the next is the other process's (the
# spacing, 1.1 s, and half a second to learn when the last went, with
# room for a loaded machine; a slot's lease, which a process must not
# wait out, is 15 s); with max_concurrency 2 both buckets are used. The
# fake announces a spacing of 1 s (its test knob) instead of Discord's
# 5 s, which the bot honours. Then again with max_concurrency 1 and a
# state directory each, no $RUNTIME_DIRECTORY (not under systemd): they
# still share this user's runtime directory, so one ledger (each used to
# keep its own, and one of them got op 9).
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

fake_start --heartbeat 5000 --shards 4 --guilds 8 --identify-interval 1000

# run_pair MC [STATE_A STATE_B]: both processes at once (each in its own
# state directory when given); all four shards ready; checks.
run_pair() {
	ctl maxconcurrency "$1"
	skip=$(curl -s "http://127.0.0.1:$PORT/_control/identifies" |
		python3 -c 'import json, sys; print(len(json.load(sys.stdin)))')
	BOT_STATE=${2:-$WORK/state} bot_start shards=0-1 shard_count=4
	keep_bot
	BOT_STATE=${3:-$WORK/state} bot_start shards=2-3 shard_count=4
	keep_bot
	wait_live 4 60
	[ "$(stat gateway.identify_op9)" = 0 ] ||
		fail "an IDENTIFY came too soon in its bucket with max_concurrency $1"
	curl -s "http://127.0.0.1:$PORT/_control/identifies" | python3 -c "
import json, sys
ids = json.load(sys.stdin)[$skip:]
assert [i['outcome'] for i in ids] == ['ready'] * 4, ids
assert sorted(i['shard'][0] for i in ids) == [0, 1, 2, 3], ids
last = {}
for i in ids:
    b = i['shard'][0] % $1
    assert i['bucket'] == b, i
    if b in last:
        assert i['t'] - last[b] >= 1000, 'bucket %d: %d ms apart' % (b, i['t'] - last[b])
        assert i['t'] - last[b] <= 8000, 'bucket %d: the next after %d ms' % (b, i['t'] - last[b])
    last[b] = i['t']
assert len(last) == $1, last
" || fail "the IDENTIFYs with max_concurrency $1 are not one per bucket per second"
	for p in $OTHER_PIDS; do kill -TERM "$p"; done
	for p in $OTHER_PIDS; do
		wait "$p" || fail "a shard process exited with $? after SIGTERM"
	done
	OTHER_PIDS=""
	# the next run starts new sessions (none to resume)
	rm -f "$WORK"/state/shards-*/discord-session-*.json "$WORK"/state-*/shards-*/discord-*.json
}

run_pair 1
grep -q "running shards 0-1 of 4" "$WORK/bot1.log" || fail "the first process does not run shards 0-1"
grep -q "running shards 2-3 of 4" "$WORK/bot2.log" || fail "the second process does not run shards 2-3"
[ -d "$WORK/state/shards-0-1" ] && [ -d "$WORK/state/shards-2-3" ] ||
	fail "the processes do not keep their state in shards-0-1 and shards-2-3"
# the next run must not meet the last IDENTIFY of this one in its bucket
wait_until "g['ms_since_identify'] >= 1200" 10
run_pair 2
wait_until "g['ms_since_identify'] >= 1200" 10
run_pair 1 "$WORK/state-a" "$WORK/state-b"
[ -z "$(ls "$WORK"/state-a/discord-identify.json "$WORK"/state-b/discord-identify.json 2>/dev/null)" ] ||
	fail "a process kept the identify ledger in its state directory"
finish
