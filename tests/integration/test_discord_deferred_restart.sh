#!/bin/sh
# Deferrals a killed process left "thinking..." (discord_pending.h): each
# is completed by the next start, exactly once, never by running the
# command again. delver on a throwaway PostgreSQL cluster (the store is
# frozen by stopping, with SIGSTOP, the server process serving delver's
# connection, as test_discord_slow_store.sh does), the fake Discord:
#  1. Not committed: /turn advance in a channel not in memory (its read
#     parks, so the command never runs) is deferred; delver is killed -9.
#     The next start edits the deferral with the note that nothing was
#     changed; the channel's next /turn advance is its first.
#  2. Committed, not answered: /turn advance in a channel in memory runs,
#     its commit waits, it is deferred; the store goes on, the commit is
#     made, and the edit is refused with 503 until delver is killed -9. The next start edits the deferral with the answer
#     committed (a second advance's), and the channel's next advance is
#     its third: the command was applied once.
# Before: nothing completed either deferral (the fake counts each left
# open, and calls that a violation at exit).
# No timing is asserted: each freeze lasts until the fake saw the deferral.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

pg_freezable_start deferred

kill9() {
	kill -KILL "$BOT_PID"
	wait "$BOT_PID" 2>/dev/null
	BOT_PID=""
}

# kept N: the newest answer kept in channel N.
kept() {
	channels | python3 -c '
import json, sys
print(json.load(sys.stdin)[str(1300000000000000000 + int(sys.argv[1]))]["kept"])' "$1"
}

# adv N [EXPECT]: /turn advance in channel N, its answer kept.
adv() {
	e=""
	[ -n "${2:-}" ] && e="\"expect\":\"$2\","
	inject "{\"count\":1,\"channels\":1,\"templates\":[{\"data\":{\"type\":1,\"name\":\"turn\",\"options\":[{\"type\":1,\"name\":\"advance\"}]},$e\"private\":false,\"permissions\":\"8\",\"keep\":true,\"channel\":$1}]}"
}

fake_start --heartbeat 5000
bot_start
wait_until "g['ready']" 20
# Channel 9: the texts of a first, second and third advance; channel 0 in
# memory, advanced once.
n=0
for c in 9 9 9 0; do
	n=$((n + 1))
	adv $c 'turn passes'
	wait_until "i['answered'] == $n" 20
	[ $c = 9 ] && eval "TURN$n=\$(kept 9)"
done
[ "$TURN1" != "$TURN2" ] && [ "$TURN2" != "$TURN3" ] || fail "the advances answer alike"
[ "$(kept 0)" = "$TURN1" ] || fail "channel 0's first advance answers $(kept 0)"
[ "$(stat interactions.deferred)" = 0 ] || fail "an answer was deferred with the store fast"

# 1. Not committed.
freeze newest
adv 1
wait_until "i['deferred'] == 1" 20
kill9
thaw
bot_start
wait_until "i['deferred_open'] == 0" 30
log_wait "interaction [0-9]*, deferred by the process before, had changed nothing" 10
[ "$(kept 1)" = "delver restarted before it could answer, and nothing was changed: please run the command again." ] ||
	fail "the deferral nothing was committed for is edited with: $(kept 1)"
n=$(stat interactions.answered)
adv 1 'turn passes'
wait_until "i['answered'] == $n + 1" 20
[ "$(kept 1)" = "$TURN1" ] || fail "channel 1's advance after the restart answers $(kept 1)"

# 2. Committed, not answered. Channel 0 is read into this process first.
adv 0 'turn passes'
wait_until "i['answered'] == $n + 2" 20
[ "$(kept 0)" = "$TURN2" ] || fail "channel 0's second advance answers $(kept 0)"
freeze newest
adv 0 'turn passes'
wait_until "i['deferred'] == 2" 20
ctl "rest5xx match=/messages/@original method=PATCH count=1000 status=503"
thaw
wait_until "r['r5xx'] >= 1" 20
kill9
ctl restclear
bot_start
wait_until "i['deferred_open'] == 0" 30
log_wait "deferred by the process before, is answered with what it had committed" 10
[ "$(kept 0)" = "$TURN3" ] || fail "the committed deferral is edited with: $(kept 0)"
n=$(stat interactions.answered)
adv 0 'turn passes'
wait_until "i['answered'] == $n + 1" 20
case "$(kept 0)" in
"$TURN1" | "$TURN2" | "$TURN3") fail "channel 0's advance after the restart answers $(kept 0)" ;;
esac
[ "$(stat interactions.replay_duplicates)" = 0 ] || fail "an interaction was answered twice"
[ -z "$(ls "$WORK/state/discord-deferred" 2>/dev/null)" ] ||
	fail "notes of deferrals are left: $(ls "$WORK/state/discord-deferred")"
finish
