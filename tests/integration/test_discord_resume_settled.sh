#!/bin/sh
# A crash loop of short-lived processes (op23's F4): 10 /turn advance come
# while no process runs and wait out Discord's 3 s; the next process
# resumes, Discord replays all 10 too late, and once they are settled (each
# checked with Discord and counted, RESUMED come) the process logs their
# count and writes its session file at once, then says so in one info line
# naming where the file resumes. Killed -9 right after that line, it
# leaves a resume point past the 10: the next process is replayed none of
# them again (no GET @original for them, no count). Before, the count
# line went up to 1 s later and the file up to 1 s after that, so each
# short-lived process moved the point by one event and every restart
# replayed the whole backlog again.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

TURN='{"data":{"type":1,"name":"turn","options":[{"type":1,"name":"advance"}]},"expect":"turn passes","private":false,"permissions":"8"}'
SETTLED="info: discord: shard 0: the replays of the resume are settled"

fake_start --heartbeat 41250
bot_start
wait_until "g['ready']" 10
file_wait "$WORK/state/discord-session-0.json" 20 || fail "no session file after 20 s"
bot_kill
ctl lenient on # nobody can answer while no process runs
inject "{\"count\":10,\"rate\":50,\"channels\":1,\"users\":2,\"templates\":[$TURN]}"
wait_until "i['left_to_inject'] == 0" 10
sleep 4 # every one past its 3 s

gets0=$(stat interactions.original_gets)
bot_start
wait_until "g['resumed'] == 1 and g['ready']" 10
log_wait "$SETTLED: 0 run \(as new, or answered from their saved answers\), 0 too late and answered before the restart, 10 too late and unanswered; its session file resumes at sequence [0-9]+$" 10
bot_kill
gets=$(($(stat interactions.original_gets) - gets0))
said=$(grep "went unanswered" "$BOT_LOG" | sed 's/.*discord: \([0-9]*\) .*/\1/' | paste -sd+ | bc)
echo "first restart: $gets GET @original, $said counted, then killed -9 after: $(grep "$SETTLED" "$BOT_LOG")"
[ "$gets" = 10 ] || fail "$gets GET @original for the 10 late replays"
[ "$said" = 10 ] || fail "the count lines before the settled line count $said of 10"
seq=$(sed 's/.*resumes at sequence //' "$BOT_LOG" | grep -x '[0-9]*' | tail -n 1)
python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))
sys.exit(0 if s["seq"] == int(sys.argv[2]) else 1)' "$WORK/state/discord-session-0.json" "$seq" ||
	fail "the session file does not resume at sequence $seq: $(cat "$WORK/state/discord-session-0.json")"

gets0=$(stat interactions.original_gets)
bot_start
wait_until "g['resumed'] == 2 and g['ready']" 10
log_wait "$SETTLED: 0 run \(as new, or answered from their saved answers\), 0 too late and answered before the restart, 0 too late and unanswered; its session file resumes at sequence [0-9]+$" 10
bot_stop
gets=$(($(stat interactions.original_gets) - gets0))
echo "second restart: $gets GET @original"
[ "$gets" = 0 ] || fail "the 10 late replays were replayed again after the first restart's kill"
grep "went unanswered" "$BOT_LOG" && fail "the second restart counted the late replays again"
[ "$(turns)" = 0 ] || fail "a late replay was applied (turn $(turns))"
finish
