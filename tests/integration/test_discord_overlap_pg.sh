#!/bin/sh
# Two processes of a fleet on one PostgreSQL database both get every
# interaction (each runs shards 0-1 of 2, so the fake Discord delivers each
# interaction to two sessions: the overlap a reshard by restarting one
# process at a time makes). 150 interactions (50 each of /turn advance,
# /tension raise 1, /roll) must make exactly 150 changes: none applied
# twice (recheck12 F1: 11% were), one mark each, every interaction answered
# once, and no answer saying a change was not kept when it was (the fake
# checks each answer's text: a "not kept" answer is a violation). The
# process that saves an interaction second leaves it to the other and
# counts it in its stats line. Every process started here, the cluster's
# server included, is stopped by its PID.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

TURN='{"data":{"type":1,"name":"turn","options":[{"type":1,"name":"advance"}]},"expect":"turn passes","private":false,"permissions":"8"}'
RAISE='{"data":{"type":1,"name":"tension","options":[{"type":1,"name":"raise","options":[{"type":4,"name":"amount","value":1},{"type":3,"name":"reason","value":"noise"}]}]},"expect":"Tension","private":false,"permissions":"8"}'
ROLL='{"data":{"type":1,"name":"roll","options":[{"type":3,"name":"expression","value":"1d20+3"}]},"expect":"rolls","private":false}'
N=150

pg_start
fake_start --heartbeat 5000 --shards 2 --guilds 4 --identify-interval 1000
BOT_STATE=$WORK/state-a bot_start shards=0-1 shard_count=2
keep_bot
wait_live 2
wait_until "g['ms_since_identify'] >= 1200" 10
BOT_STATE=$WORK/state-b bot_start shards=0-1 shard_count=2
wait_live 4
inject "{\"count\":$N,\"rate\":30,\"channels\":60,\"guilds\":4,\"users\":3,\"templates\":[$TURN,$RAISE,$ROLL]}"
wait_until "i['left_to_inject'] == 0 and i['answered'] == $N" 30
[ "$(stat interactions.fanout)" = $N ] ||
	fail "the fake delivered $(stat interactions.fanout) of $N interactions to two sessions"

# What the database holds: turns, Tension raises (the history's adjust
# entries), rolls (the roll log's entries) and marks.
counts=$(psql "$CONNINFO" -At -F ' ' -c "SELECT encode(rec, 'hex') FROM channels" |
	python3 -c '
import json, sys
turns = raises = 0
for line in sys.stdin:
    m = json.loads(bytes.fromhex(line.strip())[9:]).get("mods", {})
    turns += m.get("procedure", {}).get("turn", 0)
    t = m.get("tension") or {}
    raises += sum(1 for h in t.get("history", []) if h.get("kind") == "adjust")
print(turns, raises)')
rolls=$(psql "$CONNINFO" -Atc "SELECT count(*) FROM logs")
marks=$(psql "$CONNINFO" -Atc "SELECT count(*) FROM handled")
[ "$counts $rolls $marks" = "50 50 50 $N" ] ||
	fail "the database holds turns, raises $counts, rolls $rolls, marks $marks; expected 50 50 50 $N"

# Each process says in its stats line how many it left to the other; one
# of them left some (every interaction reached both).
elsewhere=0
for p in $OTHER_PIDS $BOT_PID; do
	kill -USR1 "$p"
done
sleep 1
for f in "$WORK"/bot1.log "$WORK"/bot2.log; do
	k=$(grep "discord stats:" "$f" | tail -n 1 | sed -n 's/.*, handled by another process \([0-9]*\);.*/\1/p')
	elsewhere=$((elsewhere + ${k:-0}))
done
[ "$elsewhere" -gt 0 ] || fail "no process counted an interaction handled by another"
for p in $OTHER_PIDS; do
	kill -TERM "$p"
	wait "$p" || fail "a bot exited with $? after SIGTERM"
done
OTHER_PIDS=""
finish
