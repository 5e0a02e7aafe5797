#!/bin/sh
# Two processes resume from the same saved point (issue 26, exactly once).
# A process writes its resume point within a second of an event, so one
# killed sooner leaves the point its predecessor saved, and the next
# process resumes there too: Discord then replays, before its Resumed,
# what both earlier processes received, and the second process's changes
# must be recognised as replays (their marks), not run again.
# Deterministic: the session file saved after the first process is put
# back after the second one's kill -9, as if it died before its write.
# 20 /turn advance per process; the turn counter must end at 40.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

TURN='{"data":{"type":1,"name":"turn","options":[{"type":1,"name":"advance"}]},"expect":"turn passes","private":false,"permissions":"8"}'
BURST="{\"count\":20,\"rate\":50,\"channels\":1,\"users\":2,\"templates\":[$TURN]}"
SESSION=$WORK/state/discord-session-0.json

fake_start --heartbeat 41250
bot_start
wait_until "g['ready']" 15
inject "$BURST"
wait_until "i['answered'] == 20" 10
bot_stop
cp "$SESSION" "$WORK/session.first"

bot_start
wait_until "g['resumed'] == 1 and g['ready']" 10
inject "$BURST"
wait_until "i['answered'] == 40" 10
[ "$(turns)" = 40 ] || fail "the second process counted $(turns) turns for 40 interactions"
bot_kill
cp "$WORK/session.first" "$SESSION"

bot_start
wait_until "g['resumed'] == 2 and g['ready']" 10
log_wait "resumed" 10
sleep 1
t=$(turns)
echo "resume twice from one point: 40 interactions, turn $t, replays checked" \
	"$(stat interactions.original_gets), answered twice $(stat interactions.duplicates)"
[ "$t" = 40 ] || fail "the turn counter is $t after 40 interactions: a replayed change was applied again"
[ "$(stat interactions.replay_duplicates)" = 0 ] || fail "a replayed interaction was answered a second time"
[ "$(stat gateway.identifies)" = 1 ] || fail "a restart started a new session"
finish
