#!/bin/sh
# Replays that come past Discord's 3 s (issue 26): a process answers 20
# /turn advance and stops; the next one resumes from a point saved before
# them (the session file put back, as a kill -9 leaves a resume point
# that lagged) 4 s later, so Discord replays all 20, each too late to be
# answered. They were answered by the earlier process: each is counted so
# (Discord has its original response: 20 GET @original), none as shed,
# and no "unanswered (overload)" warning is logged; nothing is applied
# again. (A late replay that Discord has no answer for is still counted as
# shed: discord_answer_late_replay.)
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

TURN='{"data":{"type":1,"name":"turn","options":[{"type":1,"name":"advance"}]},"expect":"turn passes","private":false,"permissions":"8"}'
SESSION=$WORK/state/discord-session-0.json

fake_start --heartbeat 41250
bot_start
wait_until "g['ready']" 15
file_wait "$SESSION" 20 || fail "no session file after 20 s"
cp "$SESSION" "$WORK/session.first"
inject "{\"count\":20,\"rate\":50,\"channels\":1,\"users\":2,\"templates\":[$TURN]}"
wait_until "i['answered'] == 20" 10
bot_stop
cp "$WORK/session.first" "$SESSION"
sleep 4 # every replay past its 3 s

BOT_EXTRA='log_level = debug'
bot_start
wait_until "g['resumed'] == 1 and g['ready']" 10
wait_until "i['original_gets'] >= 20" 10
bot_stats
bot_stop
gets=$(stat interactions.original_gets)
echo "late replays: 20 answered before the restart, GET @original $gets," \
	"$(grep -c 'replayed too late to answer, was answered before the restart' "$BOT_LOG") counted so"
[ "$gets" = 20 ] || fail "$gets GET @original for 20 late replays"
[ "$(grep -c 'replayed too late to answer, was answered before the restart' "$BOT_LOG")" = 20 ] ||
	fail "not every late replay was counted as answered by the earlier process"
grep "overload" "$BOT_LOG" && fail "late replays answered before the restart were logged as overload"
grep -q "interactions answered 0, shed 0," "$BOT_LOG" || fail "the stats line counts late replays as shed"
[ "$(turns)" = 20 ] || fail "the turn counter is $(turns) after 20 interactions: a replay was applied"
[ "$(stat interactions.replay_duplicates)" = 0 ] || fail "a replayed interaction was answered a second time"
finish
