#!/bin/sh
# Issue 26 item 1 as it was reported: 200 /hazard roll into one channel, 50
# a second; kill -9 1.5 s into the burst; the next process started 1 s
# later resumes the session, and Discord replays every event after the
# sequence it names (the fake does as Discord does: gateway.c, resume()).
# Each /hazard passes one turn, so the channel's turn counter counts the
# changes applied: it must read exactly 200 once every interaction was
# answered, every one answered once (Discord refuses a second callback
# with 400 "already acknowledged", which the fake counts as
# replay_duplicates). Then the same with another change, a Tension raise:
# /tension set 1, then 8 raises of 1 at 5 a second, kill -9 0.9 s in:
# Tension must read 9 (one raise applied twice makes it 10).
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

DB=$WORK/state/delver.db
HAZARD='{"data":{"type":1,"name":"hazard","options":[{"type":1,"name":"roll"}]},"expect":"Hazard die","private":false,"permissions":"8"}'
RAISE='{"data":{"type":1,"name":"tension","options":[{"type":1,"name":"raise","options":[{"type":4,"name":"amount","value":1},{"type":3,"name":"reason","value":"noise"}]}]},"expect":"Tension","private":false,"permissions":"8"}'
SET1='{"data":{"type":1,"name":"tension","options":[{"type":1,"name":"set","options":[{"type":4,"name":"value","value":1}]}]},"expect":"Tension","private":false,"permissions":"8"}'

# module KEY: the sum over the channels stored of mods.KEY ("procedure.turn"),
# read beside a running bot (the database is in WAL mode).
module() {
	python3 -c '
import json, sqlite3, sys
c = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
total = 0
for (rec,) in c.execute("SELECT rec FROM channels"):
    v = json.loads(bytes(rec)[9:]).get("mods", {})
    for k in sys.argv[2].split("."):
        v = v.get(k, {}) if isinstance(v, dict) else {}
    total += v if isinstance(v, int) else 0
print(total)' "$DB" "$1"
}

# crash AFTER_S GAP_S: kill -9 AFTER_S seconds from now, the next bot GAP_S
# seconds later, waited on until the replay is over and every interaction
# sent so far was answered.
crash() {
	sleep "$1"
	bot_kill
	sleep "$2"
	bot_start
	wait_until "g['resumed'] >= $3 and g['ready']" 10
	wait_until "i['left_to_inject'] == 0" 20
	wait_until "i['answered'] + i['late'] == i['created']" 10
}

# expect WHAT GOT WANT ANSWERED: prints the figures of a crash; fails
# unless the value read is WANT, ANSWERED interactions were answered in
# time in all, and none got a second callback.
expect() {
	echo "$1: $2 (want $3), interactions $(stat interactions.created)," \
		"answered in time $(stat interactions.answered), late $(stat interactions.late)," \
		"second callbacks $(stat interactions.replay_duplicates)," \
		"answered twice $(stat interactions.duplicates)"
	[ "$2" = "$3" ] || fail "$1 reads $2, not $3: a replayed change was applied again"
	[ "$(stat interactions.answered)" = "$4" ] ||
		fail "$(stat interactions.answered) of $4 interactions answered in time"
	[ "$(stat interactions.replay_duplicates)" = 0 ] ||
		fail "$(stat interactions.replay_duplicates) replayed interactions got a second callback"
}

fake_start --heartbeat 41250
bot_start
wait_until "g['ready']" 15
inject "{\"count\":200,\"rate\":50,\"channels\":1,\"users\":3,\"templates\":[$HAZARD]}"
crash 1.5 1 1
expect "the turn counter after 200 /hazard" "$(module procedure.turn)" 200 200

inject "{\"count\":1,\"rate\":0,\"channels\":1,\"users\":1,\"templates\":[$SET1]}"
wait_until "i['answered'] == 201" 10
inject "{\"count\":8,\"rate\":5,\"channels\":1,\"users\":1,\"templates\":[$RAISE]}"
crash 0.9 1 2
expect "Tension after 8 raises of 1 from 1" "$(module tension.value)" 9 209
finish
