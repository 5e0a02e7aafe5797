#!/bin/sh
# A fleet on PostgreSQL: a local cluster (tests/tools/pg_cluster.sh), the
# fake Discord with 6 guilds and 12 channels, two delver processes (shard 0
# and 1 of 2) under a steady stream of /turn advance (one change each),
# then a reshard under that load: both stopped, shard_count 3, three
# processes started at once (their IDENTIFYs spaced through the identify
# ledger the fleet keeps in the database: no op 9), which moves 4 of the 6
# guilds to another process. Every change acknowledged
# with its success reply must be in the final turn of its channel exactly
# once: final turn == successful answers, per channel (0 lost, 0 doubled).
# Interactions sent while no process held their shard go unanswered
# (lenient), as on Discord; they change nothing. Every process started
# here, the cluster's server included, is stopped by its PID.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

pg_start

fake_start --heartbeat 5000 --shards 2 --guilds 6 --identify-interval 1000
ctl lenient on

# shard ID COUNT: one more process, kept in OTHER_PIDS (each with a state
# directory of its own: only the database is shared)
shard() {
	BOT_STATE=$WORK/state-$1-of-$2 bot_start shard_id="$1" shard_count="$2"
	keep_bot
}

stop_all() {
	for p in $OTHER_PIDS; do kill -TERM "$p"; done
	for p in $OTHER_PIDS; do
		wait "$p" || fail "a shard process exited with $? after SIGTERM"
	done
	OTHER_PIDS=""
}

shard 0 2
shard 1 2
wait_live 2

ADV=$(tmpl turn '[{"type":1,"name":"advance"}]' 'without a hazard roll' null ',"permissions":"8"')
inject "{\"count\":900,\"rate\":25,\"channels\":12,\"guilds\":6,\"templates\":[$ADV]}"
sleep 10
[ "$(stat interactions.answered)" -gt 0 ] || fail "the two shards answered nothing in 10 s"

# The reshard, under load.
stop_all
wait_live 0
ctl shards 3
shard 0 3
shard 1 3
shard 2 3
wait_live 3
[ "$(stat gateway.identify_op9)" = 0 ] || fail "an IDENTIFY came too soon in its bucket"
wait_until "i['left_to_inject'] == 0" 60
sleep 4 # what is answered is answered within 3 s (later answers are violations)

SHOW='{"data":{"type":1,"name":"turn","options":[{"type":1,"name":"show"}]},"keep":true,"permissions":"8"}'
inject "{\"count\":12,\"rate\":50,\"channels\":12,\"guilds\":6,\"templates\":[$SHOW]}"
i=0
until curl -s "http://127.0.0.1:$PORT/_control/channels" | python3 -c "
import json, sys
ch = json.load(sys.stdin)
sys.exit(0 if len(ch) == 12 and all('kept' in c for c in ch.values()) else 1)"; do
	i=$((i + 1))
	[ $i -gt 100 ] && fail "the final /turn show was not answered in every channel"
	sleep 0.1
done

{
	curl -s "http://127.0.0.1:$PORT/_control/channels"
	echo
	sessions
} | python3 -c '
import json, re, sys
ch = json.loads(sys.stdin.readline())
ss = json.loads(sys.stdin.readline())
bad = []
acked = final = 0
for key, c in sorted(ch.items()):
    m = re.search(r"Turn (\d+)", c["kept"])
    turn = int(m.group(1)) if m else -1
    acked += c["ok"]
    final += max(turn, 0)
    if turn != c["ok"]:
        bad.append("channel %s (guild %d): turn %d, %d changes acknowledged" %
                   (key, c["guild"], turn, c["ok"]))
shards = [(s["shard"], s["interactions"]) for s in ss]
print("fleet: %d changes acknowledged, %d in the final state; sessions %s" %
      (acked, final, shards))
if bad:
    print("\n".join(bad))
    sys.exit(1)
if acked == 0 or any(n == 0 for _, n in shards):
    print("a phase or a session made no change")
    sys.exit(1)
' || fail "lost or doubled changes (above)"
stop_all
# All stopped before any started: no process ever wrote from a stale copy.
if grep -l "changed by another delver process" "$WORK"/bot*.log; then
	fail "a process wrote a channel from a stale copy in a stop-and-start reshard"
fi
finish
