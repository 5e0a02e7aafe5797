#!/bin/sh
# Exactly once across restarts (issue 26, delver(8) EXACTLY ONCE). Rounds
# of /turn advance into one channel, 50 a second, so that the channel's
# turn counter counts the changes applied:
#  - 8 rounds of kill -9 at a random moment of a burst of 50, the next
#    process started 0.2 to 0.7 s later: it resumes the session and
#    Discord replays every event from the saved point on, handled or not;
#  - 4 rounds of SIGTERM at a random moment of a burst (a stop, then a
#    start at once);
#  - then, on a fake whose sessions expire 2 s after their connection, a
#    kill -9 and a start past that window: Discord does not replay, and
#    what it dispatched meanwhile is lost to any bot.
# After every resumable round, once every interaction was answered: the
# turn counter in the database equals the interactions sent (none lost,
# none applied twice). At the end: every one was answered within
# Discord's 3 s, none got a second answer, the marks of handled
# interactions (table handled) number the interactions, and one session
# served them all. Past the window: the counter equals the marks (a change
# is never applied without its mark, nor twice), no interaction is
# answered twice.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

TURN='{"data":{"type":1,"name":"turn","options":[{"type":1,"name":"advance"}]},"expect":"turn passes","private":false,"permissions":"8"}'
BURST="{\"count\":50,\"rate\":50,\"channels\":1,\"users\":3,\"templates\":[$TURN]}"
DB=$WORK/state/delver.db

# turn_and_marks: the channel's turn counter and the marks stored (read
# beside a running bot: the database is in WAL mode).
turn_and_marks() {
	python3 -c '
import json, sqlite3, sys
c = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
turns = [json.loads(bytes(r[0])[9:]).get("mods", {}).get("procedure", {}).get("turn", 0)
         for r in c.execute("SELECT rec FROM channels")]
marks = c.execute("SELECT (SELECT count(*) FROM handled) + (SELECT count(*) FROM handled_ids)").fetchone()[0]
print(sum(turns), marks)' "$DB"
}

# rand LOW HIGH: a random number of milliseconds, as seconds for sleep.
rand() {
	python3 -c 'import random, sys; print(random.randint(int(sys.argv[1]), int(sys.argv[2])) / 1000)' "$1" "$2"
}

# session_file: waits (3 s at most) for the session file, the resume point.
session_file() {
	file_wait "$WORK/state/discord-session-0.json" 3 ||
		fail "no session file 3 s after the first burst"
}

# round N HOW: a burst, HOW (kill or term) at a random moment of it, the
# next bot, and the count checked once the burst is answered.
round() {
	inject "$BURST"
	sleep "$(rand 100 1000)"
	if [ "$2" = kill ]; then
		bot_kill
		sleep "$(rand 200 700)"
	else
		bot_stop
	fi
	bot_start
	wait_until "g['resumed'] == $1 and g['ready']" 10
	wait_until "i['left_to_inject'] == 0" 10
	wait_until "i['answered'] + i['late'] == i['created']" 10
	set -- "$1" "$2" $(turn_and_marks)
	created=$(stat interactions.created)
	[ "$3" = "$created" ] ||
		fail "round $1 ($2): the turn counter is $3 after $created interactions (lost or applied twice)"
}

fake_start --heartbeat 41250
bot_start
wait_until "g['ready']" 15
# A first burst: the session file (the resume point) is written within a
# second of the first events.
inject "$BURST"
wait_until "i['answered'] == 50" 10
session_file
t0=$(date +%s)
r=0
while [ $r -lt 8 ]; do
	r=$((r + 1))
	round $r kill
done
while [ $r -lt 12 ]; do
	r=$((r + 1))
	round $r term
done
bot_stop
set -- $(turn_and_marks)
created=$(stat interactions.created)
echo "replay: $created interactions, 8 kill -9 and 4 SIGTERM restarts in $(($(date +%s) - t0)) s:" \
	"turn $1 after each round as sent, marks $2, answered in time $(stat interactions.answered)," \
	"late $(stat interactions.late), answered twice $(stat interactions.duplicates)" \
	"(after a replay: $(stat interactions.replay_duplicates)), replays checked $(stat interactions.original_gets)"
[ "$2" = "$created" ] || fail "$2 marks of handled interactions for $created interactions"
[ "$(stat interactions.answered)" = "$created" ] || fail "interactions not answered in time"
[ "$(stat interactions.late)" = 0 ] || fail "interactions answered late"
[ "$(stat interactions.duplicates)" = 0 ] || fail "interactions answered twice"
[ "$(stat interactions.replay_duplicates)" = 0 ] || fail "replayed interactions answered a second time"
[ "$(stat gateway.identifies)" = 1 ] || fail "a restart started a new session"
finish

# Past the resume window: no replay.
rm -rf "$WORK/state" "$WORK/port"
fake_start --heartbeat 41250 --resume-window 2000
ctl lenient on
bot_start
wait_until "g['ready']" 15
inject "{\"count\":150,\"rate\":50,\"channels\":1,\"users\":3,\"templates\":[$TURN]}"
# A session to resume exists first: it is written within a second of the
# first events, and a kill before that leaves nothing to try.
session_file
sleep "$(rand 500 1500)"
bot_kill
sleep 2.5
identify_window
bot_start
wait_until "g['identifies'] == 2 and g['ready']" 15
wait_until "i['left_to_inject'] == 0" 10
sleep 1
bot_stop
set -- $(turn_and_marks)
echo "past the window: $(stat interactions.created) interactions, turn $1, marks $2," \
	"answered in time $(stat interactions.answered), answered twice $(stat interactions.duplicates)"
[ "$1" = "$2" ] || fail "past the resume window the turn counter is $1 for $2 marks"
[ "$1" -ge "$(stat interactions.answered)" ] || fail "more answers than changes past the window"
[ "$(stat interactions.duplicates)" = 0 ] || fail "interactions answered twice past the window"
[ "$(stat interactions.replay_duplicates)" = 0 ] || fail "interactions answered twice past the window"
grep -q "session invalid" "$WORK"/bot*.log || fail "no log line about the session that could not resume"
finish
