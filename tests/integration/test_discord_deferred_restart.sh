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
#  3. A button's deferral (type 6), not committed: a press of "Roll again"
#     in a channel not in memory is deferred; delver is killed -9. The
#     next start tells the presser, in a message only they see, that
#     nothing was changed; the roll log holds no roll of it.
#  4. A button's deferral, committed, not answered: the press's roll is
#     committed, its answer (a message of its own) refused with 503 until
#     delver is killed -9. The next start sends the roll committed, and the
#     roll log holds it once.
# Before: nothing completed any deferral (the fake counts each left
# open, and calls that a violation at exit).
# No timing is asserted: each freeze lasts until the fake saw the deferral.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

pg_freezable_start deferred

kill9() {
	bot_kill
}

# refused_kill9 MATCH METHOD: with the store frozen and a deferral sent,
# the calls matching are refused with 503, the store goes on, and once a
# call was refused delver is killed -9 and started again, until it has
# completed every deferral left open.
refused_kill9() {
	r0=$(stat rest.r5xx)
	ctl "rest5xx match=$1 method=$2 count=1000 status=503"
	thaw
	wait_until "r['r5xx'] > $r0" 20
	kill9
	ctl restclear
	bot_start
	wait_until "i['deferred_open'] == 0" 30
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
refused_kill9 /messages/@original PATCH
log_wait "deferred by the process before, is answered with what it had committed" 10
[ "$(kept 0)" = "$TURN3" ] || fail "the committed deferral is edited with: $(kept 0)"
n=$(stat interactions.answered)
adv 0 'turn passes'
wait_until "i['answered'] == $n + 1" 20
case "$(kept 0)" in
"$TURN1" | "$TURN2" | "$TURN3") fail "channel 0's advance after the restart answers $(kept 0)" ;;
esac

# roll N: /roll 1d1 in channel N; pressed N: a press of the newest "Roll
# again" there (its answer may be private: the note of 3.); both answers
# kept. rolls N: the rolls channel N's log holds.
roll() {
	inject "{\"count\":1,\"channels\":1,\"templates\":[$(tmpl roll '[{"type":3,"name":"expression","value":"1d1"}]' '1d1' false ",\"keep\":true,\"channel\":$1")]}"
}
pressed() {
	inject "{\"count\":1,\"channels\":1,\"templates\":[$(press 'Roll again' 0 '' null ",\"keep\":true,\"channel\":$1")]}"
}
rolls() {
	psql "$CONNINFO" -Atc "SELECT count(*) FROM logs WHERE key LIKE '%:$((1300000000000000000 + $1))'" ||
		fail "cannot count the rolls of channel $1"
}

# 3. A button's deferral, not committed. Channel 5's roll is answered by a
# process that then stops, so the next one has not read channel 5.
n=$(stat interactions.answered)
roll 5
wait_until "i['answered'] == $n + 1" 20
[ "$(rolls 5)" = 1 ] || fail "channel 5's roll is not in its log: $(rolls 5) rolls"
bot_stop
bot_start
wait_until "g['ready']" 20
d=$(stat interactions.deferred)
freeze newest
pressed 5
wait_until "i['deferred'] == $d + 1" 20
kill9
thaw
bot_start
wait_until "i['deferred_open'] == 0" 30
log_wait "interaction [0-9]*, deferred by the process before, had changed nothing" 10
[ "$(kept 5)" = "delver restarted before it could answer your press of the button, and nothing was changed: please press it again." ] ||
	fail "the press nothing was committed for is answered with: $(kept 5)"
[ "$(rolls 5)" = 1 ] || fail "the press that was never run is in the log: $(rolls 5) rolls"

# 4. A button's deferral, committed, not answered. Channel 5 is read into
# this process first.
n=$(stat interactions.answered)
roll 5
wait_until "i['answered'] == $n + 1" 20
freeze newest
pressed 5
wait_until "i['deferred'] == $d + 2" 20
refused_kill9 /webhooks/ POST
log_wait "interaction [0-9]*, deferred by the process before, is answered with what it had committed" 10
case "$(kept 5)" in
*"1d1"*) ;;
*) fail "the committed press is answered with: $(kept 5)" ;;
esac
[ "$(rolls 5)" = 3 ] || fail "channel 5's log holds $(rolls 5) rolls, not 3: the press was not applied once"

[ "$(stat interactions.replay_duplicates)" = 0 ] || fail "an interaction was answered twice"
[ -z "$(ls "$WORK/state/discord-deferred" 2>/dev/null)" ] ||
	fail "notes of deferrals are left: $(ls "$WORK/state/discord-deferred")"
finish
