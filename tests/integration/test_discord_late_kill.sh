#!/bin/sh
# A process killed while the replays of its resume, too late to answer,
# are counted but not yet logged (here: Discord's answer to GET @original
# held back) leaves them to the next process, which is replayed them again
# and logs them: each reaches the log. (recheck17: after quick kills the
# saved resume point had moved past such replays before their count was
# logged, so the next process never saw them and no line ever counted
# them: 264 went unanswered, 204 were logged.)
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

fake_start --heartbeat 41250
ran_unanswered 5

# The second process: Discord holds back its word on the 5 replays; it is
# killed once its session file could have been written (1 s after an
# event), before it could log them.
ctl "restslow match=/messages/@original count=1000 ms=60000"
bot_start
wait_until "g['resumed'] == 1 and g['ready']" 10
wait_until "i['original_gets'] >= 5" 10
sleep 2
bot_kill
grep -E "discord: .*(unanswered|not answered)" "$BOT_LOG" &&
	fail "the second process logged the replays (the test needs them held)"
ctl restclear

# The third is replayed them again and logs all 5.
bot_start
wait_until "g['resumed'] == 2 and g['ready']" 10
log_wait "warn: discord: [0-9]+ interactions? $RAN_BEFORE; 5 since the start$" 10
[ "$(turns)" = 5 ] || fail "a replay was applied again (turn $(turns))"
finish
