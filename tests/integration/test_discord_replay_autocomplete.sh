#!/bin/sh
# Autocompletes across a kill -9. Discord replays after a RESUME what it
# dispatched while delver was down, autocompletes too; an autocomplete has
# the 3 s of any interaction, changes nothing, and Discord keeps no
# response of it. So a replay still in its window is answered, with all
# of the window left (no spare for a commit or a question to Discord,
# which it has none of); one past it is dropped: no GET @original (there is
# nothing to learn), no warning that it went unanswered (the process
# before may have answered it; either way its suggestions are of no use
# now), not counted as shed.
# Before: 10 autocompletes replayed 4 s old cost 10 GET @original, a
# warning that they "went unanswered", and were counted as shed; replays
# 2 to 2.5 s old were dropped though their window was open.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

AC='{"type":4,"data":{"type":1,"name":"fungeon","options":[{"type":1,"name":"sheet","options":[{"type":3,"name":"who","value":"","focused":true}]}]}}'
DROPPED="replayed past its 3 s, is dropped"

# down_then_up N SECONDS: kill -9, N autocompletes (50 a second) while no
# process runs, SECONDS more, then the next process, once it has resumed
# (Discord's RESUMED follows the replays).
down_then_up() {
	bot_kill
	resumed0=$(stat gateway.resumed)
	inject "{\"count\":$1,\"rate\":50,\"channels\":1,\"users\":2,\"templates\":[$AC]}"
	wait_until "i['left_to_inject'] == 0" 10
	sleep "$2"
	bot_start
	wait_until "g['resumed'] == $resumed0 + 1 and g['ready']" 10
	log_wait "discord: resumed" 10
}

fake_start --heartbeat 41250
BOT_EXTRA='log_level = debug'
bot_start
wait_until "g['ready']" 15
file_wait "$WORK/state/discord-session-0.json" 20 || fail "no session file after 20 s"
ctl lenient on # nobody can answer while no process runs; a late answer is still a violation

# Past the window: each of the 10 replayed at least 4 s after it was made.
answered0=$(stat interactions.answered)
down_then_up 10 4
sleep 1 # a request made for them would be on its way by now
bot_stats
echo "replayed past the window: 10 autocompletes, $(grep -c "$DROPPED" "$BOT_LOG") dropped," \
	"GET @original $(stat interactions.original_gets)," \
	"answered $(($(stat interactions.answered) - answered0))"
[ "$(grep -c "$DROPPED" "$BOT_LOG")" = 10 ] ||
	fail "$(grep -c "$DROPPED" "$BOT_LOG") of 10 late autocompletes said dropped"
[ "$(stat interactions.original_gets)" = 0 ] ||
	fail "$(stat interactions.original_gets) GET @original for late autocompletes"
[ "$(stat interactions.answered)" = "$answered0" ] || fail "a late autocomplete was answered"
grep "warn: " "$BOT_LOG" | grep -v "running as root" && fail "late autocompletes were warned of"
grep -q "interactions answered 0, shed 0," "$BOT_LOG" ||
	fail "the stats line counts late autocompletes as shed: $(grep 'discord stats:' "$BOT_LOG")"

# In the window: replayed at once, each is answered within its 3 s, or
# (on a machine slow to start delver) dropped past it; never answered
# late, never checked with Discord.
answered0=$(stat interactions.answered)
dropped0=$(grep -c "$DROPPED" "$WORK"/bot*.log | awk -F: '{ n += $2 } END { print n }')
down_then_up 10 0
sleep 3.5 # any answer still on its way has come, or is past the 3 s
answered=$(($(stat interactions.answered) - answered0))
dropped=$(($(grep -c "$DROPPED" "$WORK"/bot*.log | awk -F: '{ n += $2 } END { print n }') - dropped0))
echo "replayed in the window: 10 autocompletes, $answered answered in time, $dropped dropped," \
	"late $(stat interactions.late), GET @original $(stat interactions.original_gets)"
[ "$(stat interactions.late)" = 0 ] || fail "$(stat interactions.late) autocompletes answered past 3 s"
[ $((answered + dropped)) = 10 ] || fail "$answered answered and $dropped dropped of 10"
[ "$(stat interactions.original_gets)" = 0 ] ||
	fail "$(stat interactions.original_gets) GET @original for autocompletes"
finish
