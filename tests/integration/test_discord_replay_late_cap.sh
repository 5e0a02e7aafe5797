#!/bin/sh
# Late replays past the cap (issue 26): a process answers 130 /turn advance
# and stops; the next one resumes 4 s later from a point saved before them,
# so Discord replays all 130, each past its 3 s. Each late replay would ask
# Discord for its original response (GET @original); one resume asks that
# of DISCORD_LATE_CHECKS_MAX (100) of them, not of all: a process down for
# long is replayed thousands, each GET a request of its own. The others are
# counted as not known, said once in the log and counted once the replays
# are over (recheck17: 64 such replays left the log's unanswered counts
# short, with no line saying how many), and neither counted as shed nor
# applied again.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

CAP=100

fake_start --heartbeat 41250
late_replays_resume 130
wait_until "i['original_gets'] >= $CAP" 10
sleep 1 # a GET past the cap would have been sent by now
bot_stats
bot_stop
gets=$(stat interactions.original_gets)
said=$(grep -c "more than $CAP interactions were replayed too late to answer since the resume" "$BOT_LOG")
echo "late replays: 130 answered before the restart, GET @original $gets, the cap said $said time(s)"
[ "$gets" = $CAP ] || fail "$gets GET @original for 130 late replays, not $CAP"
[ "$said" = 1 ] || fail "the replays past the cap were logged $said times, not once"
# Once the replays are over, how many were not checked: the bound of what
# may have gone unanswered without a line counting it.
unstamp "$BOT_LOG" | grep -qxF "warn: discord: 30 interactions replayed too late to answer since the resume were not checked with Discord (past the first $CAP), so whether they went unanswered is not known; 30 since the start" ||
	fail "no line counting the 30 replays past the cap"
[ "$(grep -c 'replayed too late to answer, was answered before the restart' "$BOT_LOG")" = $CAP ] ||
	fail "not every late replay checked was counted as answered by the earlier process"
grep "overload" "$BOT_LOG" && fail "late replays past the cap were logged as overload"
grep -q "interactions answered 0, shed 0," "$BOT_LOG" || fail "the stats line counts late replays as shed"
[ "$(turns)" = 130 ] || fail "the turn counter is $(turns) after 130 interactions: a replay was applied"
[ "$(stat interactions.replay_duplicates)" = 0 ] || fail "a replayed interaction was answered a second time"
finish
