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

fake_start --heartbeat 41250
ran_unanswered 5
grep -E "discord: .*(unanswered|not answered)" "$BOT_LOG"
[ "$(turns)" = 5 ] || fail "turn $(turns) after 5 /turn advance"
[ "$(stat interactions.answered)" = 0 ] || fail "an answer went through the 503s"

bot_start
wait_until "g['resumed'] == 1 and g['ready']" 10
wait_until "i['original_gets'] >= 5" 10
log_wait "warn: discord: 1 interaction $RAN_BEFORE; 1 since the start$" 5
log_wait "warn: discord: [0-9]+ interactions? $RAN_BEFORE; 5 since the start$" 5
grep -E "discord: .*(unanswered|not answered)" "$BOT_LOG"
grep "waited out" "$BOT_LOG" && fail "replays the process before had run are told as never run"
[ "$(turns)" = 5 ] || fail "a replay was applied again (turn $(turns))"
finish
