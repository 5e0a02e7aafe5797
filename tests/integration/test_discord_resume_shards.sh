#!/bin/sh
# Each shard's replay burst is its own: one process runs shards 0 and 1 of
# 2, is killed -9, and while it is down one /turn advance comes on each
# shard and waits out Discord's 3 s. The next process resumes both; Discord
# (the fake) answers the check of shard 1's late replay (GET @original)
# 2 s late, shard 0's at once. Shard 0's replay is settled first: its count
# line, its session file and its one settled line (counting its replay
# alone) come before shard 1's replay is counted, not once the slowest
# shard is settled; then shard 1 has its own line, counting its own.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

TURN='{"data":{"type":1,"name":"turn","options":[{"type":1,"name":"advance"}]},"expect":"turn passes","private":false,"permissions":"8"}'
SETTLED="the replays of the resume are settled: 0 run (as new, or answered from their saved answers), 0 too late and answered before the restart, 1 too late and unanswered; its session file resumes at sequence"
REC=$WORK/record.jsonl

# (guilds 1 and 3 are shard 0's, 0 and 2 shard 1's: channel n is in guild n)
fake_start --heartbeat 41250 --shards 2 --guilds 4 --identify-interval 1000 --record "$REC"
bot_start
wait_live 2
file_wait "$WORK/state/discord-session-0.json" 20 || fail "no session file for shard 0 after 20 s"
file_wait "$WORK/state/discord-session-1.json" 20 || fail "no session file for shard 1 after 20 s"
bot_kill
ctl lenient on # nobody can answer while no process runs
inject "{\"count\":2,\"rate\":50,\"channels\":2,\"guilds\":4,\"users\":2,\"templates\":[$TURN]}"
wait_until "i['left_to_inject'] == 0" 10
# Shard 1's interaction (channel 0, guild 0): its check is answered late.
tok=$(python3 -c '
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["what"] != "INTERACTION_CREATE" or r["dir"] != "made":
        continue
    b = json.loads(r["body"])
    if b["channel_id"] == "1300000000000000000":
        print(b["token"])' "$REC")
[ -n "$tok" ] || fail "no interaction in channel 0 recorded"
ctl "restslow match=$tok method=GET count=1 ms=2000"
sleep 4 # each past its 3 s

bot_start
wait_until "g['resumed'] == 2" 10
log_wait "shard 1: the replays of the resume are settled" 15
bot_stop
log=$(unstamp "$BOT_LOG")
echo "$log" | grep -E "settled|went unanswered"
[ "$(echo "$log" | grep -c "shard 0: the replays of the resume are settled")" = 1 ] &&
	echo "$log" | grep -qF "info: discord: shard 0: $SETTLED" ||
	fail "not one settled line for shard 0 counting its one replay"
[ "$(echo "$log" | grep -c "shard 1: the replays of the resume are settled")" = 1 ] &&
	echo "$log" | grep -qF "info: discord: shard 1: $SETTLED" ||
	fail "not one settled line for shard 1 counting its one replay"
# In the order they came: shard 0's line before the count of shard 1's
# replay (the second count line), shard 1's after it.
order=$(echo "$log" | grep -E "shard [01]: the replays of the resume are settled|went unanswered" |
	sed -E 's/.*(shard [01]): the replays.*/\1/; s/.*went unanswered.*/count/' | paste -sd' ')
[ "$order" = "count shard 0 count shard 1" ] ||
	fail "shard 0 was not settled before shard 1's slow replay: $order"
echo "ok   each shard's burst ends with its own replays: $order"
finish
