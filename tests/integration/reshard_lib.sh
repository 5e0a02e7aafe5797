# The body of the reshard tests (sourced after lib.sh and discord_lib.sh):
# 16 channels in 8 guilds, each advanced 3 turns per phase, through shard
# counts 1 -> 2 -> 4 -> 2 (one process per shard, all stopped before the
# count changes, as delver(8) says) and then one process running every
# shard Discord recommends; at the end every channel shows Turn 15, every
# advance was acknowledged once, and its /log the 5 rolls made in it, one
# per phase (a roll writes only the channel's log). $BOT_EXTRA chooses the
# store.
fake_start --heartbeat 5000 --shards 1 --guilds 8 --identify-interval 300 --resume-window 1000
ADV=$(tmpl turn '[{"type":1,"name":"advance"}]' 'without a hazard roll' null ',"permissions":"8"')
# A roll writes only its channel's log: that moves with the channel too.
ROLL=$(tmpl roll '[{"type":3,"name":"expression","value":"1d6"}]' rolls false)
DONE=0

# phase N: N processes (shard i of N each; N = 0: one process, no shard
# settings), 3 advances in every channel, then all stopped.
phase() {
	n=$1
	procs=$n
	if [ "$n" = 0 ]; then
		bot_start
		keep_bot
		procs=2
	else
		i=0
		while [ $i -lt "$n" ]; do
			bot_start shards=$i shard_count="$n"
			keep_bot
			i=$((i + 1))
		done
	fi
	wait_live "$procs" 60
	DONE=$((DONE + 64))
	inject "{\"count\":48,\"rate\":50,\"channels\":16,\"guilds\":8,\"templates\":[$ADV]}"
	wait_until "i['answered'] == $((DONE - 16)) and i['left_to_inject'] == 0" 30
	inject "{\"count\":16,\"rate\":50,\"channels\":16,\"guilds\":8,\"templates\":[$ROLL]}"
	wait_until "i['answered'] == $DONE and i['left_to_inject'] == 0" 30
	for p in $OTHER_PIDS; do kill -TERM "$p"; done
	for p in $OTHER_PIDS; do
		wait "$p" || fail "a shard process exited with $? after SIGTERM at count $n"
	done
	OTHER_PIDS=""
	sleep 1.1 # their sessions expire: the next count's get every event
}

phase 1
ctl shards 2
phase 2
ctl shards 4
phase 4
ctl shards 2
phase 2
phase 0 # Discord's count (2), both in one process
if [ -z "${BOT_EXTRA:-}" ]; then
	for d in shard-0 shard-1 shard-2 shard-3; do
		[ -f "$WORK/state/$d/delver.db" ] || fail "no database in $d"
	done
fi

SHOW='{"data":{"type":1,"name":"turn","options":[{"type":1,"name":"show"}]},"keep":true,"permissions":"8"}'
LOG='{"data":{"type":1,"name":"log","options":[]},"keep":true}'
bot_start
wait_until "g['ready']" 15
wait_live 2 60
inject "{\"count\":16,\"rate\":50,\"channels\":16,\"guilds\":8,\"templates\":[$SHOW]}"
wait_until "i['answered'] == $((DONE + 16))" 15
curl -s "http://127.0.0.1:$PORT/_control/channels" | python3 -c '
import json, re, sys
ch = json.load(sys.stdin)
bad = []
for key, c in sorted(ch.items()):
    m = re.search(r"Turn (\d+)", c.get("kept", ""))
    turn = int(m.group(1)) if m else -1
    if turn != 15 or c["ok"] != 20:
        bad.append("channel %s (guild %d): turn %d, %d advances and rolls acknowledged" %
                   (key, c["guild"], turn, c["ok"]))
if len(ch) != 16 or bad:
    print("\n".join(bad) or "%d channels" % len(ch))
    sys.exit(1)
' || fail "a channel lost turns in a reshard (above)"
inject "{\"count\":16,\"rate\":50,\"channels\":16,\"guilds\":8,\"templates\":[$LOG]}"
wait_until "i['answered'] == $((DONE + 32))" 15
curl -s "http://127.0.0.1:$PORT/_control/channels" | python3 -c '
import json, sys
ch = json.load(sys.stdin)
bad = [k for k, c in sorted(ch.items()) if "The last 5 rolls here" not in c.get("kept", "")]
if bad:
    print("\n".join("channel %s: %s" % (k, ch[k].get("kept", "")[:80]) for k in bad))
    sys.exit(1)
' || fail "a channel lost rolls from its log in a reshard (above)"
if [ -z "${BOT_EXTRA:-}" ]; then
	grep -q "took .* newer in" "$WORK"/bot*.log || fail "no process took a newer record from another"
fi
