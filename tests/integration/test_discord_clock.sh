#!/bin/sh
# A host clock 3.5 s off Discord's, either way, sheds nothing at 100
# interactions a second: the Date of Discord's REST answers shows the skew,
# beyond the 1 s an interaction's id can be aged with, so deadlines count
# from each interaction's receipt, which the log says once and the stats
# line shows. (Without that, a host 3.5 s ahead took every interaction for
# 3.5 s old and shed them all.)
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

ROLL=$(tmpl roll '[{"type":3,"name":"expression","value":"1d20"}]' rolls false)

# phase OFFSET WORD ANSWERED: the fake's clock OFFSET ms ahead of the host's
# (the host is WORD Discord's); 300 interactions at 100/s, all answered.
phase() {
	ctl clockoffset "$1"
	identify_window
	bot_start
	wait_until "g['ready']" 15
	inject "{\"count\":300,\"rate\":100,\"channels\":10,\"users\":20,\"templates\":[$ROLL]}"
	wait_until "i['answered'] == $3 and i['left_to_inject'] == 0" 30
	bot_stats
	line=$(grep "discord stats:" "$BOT_LOG")
	echo "$line" | grep -q "shed 0, failed 0;" || fail "interactions were shed: $line"
	echo "$line" | grep -q -E "by Date \(deadlines from receipt\)$" ||
		fail "the stats line does not show the skew and its consequence: $line"
	[ "$(grep -c "this host's clock is $2 Discord's by" "$BOT_LOG")" = 1 ] ||
		fail "the skew is not said once: $(grep "clock" "$BOT_LOG")"
	grep -q "deadlines count from each interaction's receipt until the clock is right" "$BOT_LOG" ||
		fail "the log does not say what follows from the skew"
	bot_stop
}

# The host's clock set 3.5 s ahead while delver runs (an NTP step, a
# resumed VM), after the last REST answer: every interaction then looks
# 3.5 s old by its id, and shedding them sent no REST request whose Date
# could show the skew, so every one was shed from then on, blamed on
# overload. A Date not read since the step cannot vouch for the clock: the
# first late one asks for a clock check and all are answered.
step_ahead() {
	ctl clockoffset 0
	identify_window
	bot_start
	wait_until "g['ready']" 15
	inject "{\"count\":50,\"rate\":100,\"channels\":10,\"users\":20,\"templates\":[$ROLL]}"
	wait_until "i['answered'] == $1 + 50 and i['left_to_inject'] == 0" 30
	sleep 4 # no REST answer (no Date) meanwhile
	ctl clockoffset -3500
	inject "{\"count\":300,\"rate\":100,\"channels\":10,\"users\":20,\"templates\":[$ROLL]}"
	wait_until "i['answered'] + i['late'] == $1 + 350 and i['left_to_inject'] == 0" 30
	bot_stats
	line=$(grep "discord stats:" "$BOT_LOG")
	echo "$line" | grep -q "interactions answered 350, shed 0, failed 0;" ||
		fail "interactions were shed after the clock step: $line"
	[ "$(grep -c "this host's clock is ahead of Discord's by" "$BOT_LOG")" = 1 ] ||
		fail "the step is not said once: $(grep "clock" "$BOT_LOG")"
	if grep -q "could no longer be answered" "$BOT_LOG"; then
		fail "the step was blamed on overload: $(grep "could no longer" "$BOT_LOG")"
	fi
	bot_stop
}

fake_start --heartbeat 5000 --identify-interval 500
phase 3500 behind 300
phase -3500 "ahead of" 600
step_ahead 600
[ "$(stat interactions.late)" = 0 ] || fail "answers came after 3 s"
finish
