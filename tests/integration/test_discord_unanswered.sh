#!/bin/sh
# What users lost reaches the log at once, for an operator of a bot that
# keeps crashing to count (recheck14 F5). A process whose answers cannot
# go (every callback refused with 503 until Discord's 3 s are over) runs 5
# /turn advance, applies them and answers none: the log says so within a
# second, the first at once, though the process is killed -9 right after
# (before, one warning every 10 s, and a kill before it left no word). The
# next process resumes from before them 4 s later: Discord replays the 5
# too late to answer, has no answer of theirs (GET @original), and the
# store has their marks: the log says the process before ran them and did
# not answer, 5 in all, and nothing is applied again.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

TURN='{"data":{"type":1,"name":"turn","options":[{"type":1,"name":"advance"}]},"expect":"turn passes","private":false,"permissions":"8"}'
RAN="went unanswered after running(| in the last 1 s) \(answers ready past Discord's 3 s\)"
BEFORE="replayed too late to answer had been run by the process before but not answered(| in the last 1 s) \(changes kept\)"

fake_start --heartbeat 41250
bot_start
wait_until "g['ready']" 15
SESSION=$WORK/state/discord-session-0.json
file_wait "$SESSION" 20 || fail "no session file after 20 s"
cp "$SESSION" "$WORK/session.first"
ctl lenient on # the answers that cannot go are the point
ctl "rest5xx match=/callback count=1000 status=503"
inject "{\"count\":5,\"rate\":50,\"channels\":1,\"users\":2,\"templates\":[$TURN]}"
wait_until "i['left_to_inject'] == 0" 10
log_wait "warn: discord: 1 interaction $RAN; 1 since the start$" 5
log_wait "warn: discord: [0-9]+ interactions? $RAN; 5 since the start$" 5
kill -KILL "$BOT_PID"
wait "$BOT_PID" 2>/dev/null
BOT_PID=""
grep -E "discord: .*(unanswered|not answered)" "$BOT_LOG"
[ "$(turns)" = 5 ] || fail "turn $(turns) after 5 /turn advance"
[ "$(stat interactions.answered)" = 0 ] || fail "an answer went through the 503s"

ctl restclear
cp "$WORK/session.first" "$SESSION"
sleep 4 # every replay past its 3 s
bot_start
wait_until "g['resumed'] == 1 and g['ready']" 10
wait_until "i['original_gets'] >= 5" 10
log_wait "warn: discord: 1 interaction $BEFORE; 1 since the start$" 5
log_wait "warn: discord: [0-9]+ interactions? $BEFORE; 5 since the start$" 5
grep -E "discord: .*(unanswered|not answered)" "$BOT_LOG"
grep "waited out" "$BOT_LOG" && fail "replays the process before had run are told as never run"
[ "$(turns)" = 5 ] || fail "a replay was applied again (turn $(turns))"
finish
