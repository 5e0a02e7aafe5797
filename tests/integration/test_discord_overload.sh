#!/bin/sh
# Overload, then normal load: far more interactions than the bot can answer
# for three seconds (and, whatever the machine's speed, a stream that
# Discord delivers 2.8 s late, so too late to answer), then 100 a second. The bot answers what it still can
# in time and never answers one past Discord's 3 s (the fake counts any
# such answer as a violation, lenient or not); the rest it sheds, counted,
# in a bounded number of log lines. Once the load falls it recovers by
# itself: of the 800 interactions that follow, those of the first 3 s at
# most go unanswered.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

fake_start --heartbeat 5000
bot_start stats_interval=0
wait_until "g['ready'] and r['registrations'] == 1" 10
ctl lenient on # interactions shed on purpose are not violations here

T="$(tmpl help '[]' 'delver commands' false),$(tmpl roll '[{"type":3,"name":"expression","value":"2d6"}]' '' false)"
inject "{\"count\":15000,\"rate\":5000,\"channels\":50,\"users\":100,\"templates\":[$T]}"
sleep 0.5 # the bot has seen fresh ids, so it knows Discord's clock
inject "{\"count\":1000,\"rate\":500,\"age_ms\":2800,\"channels\":50,\"users\":100,\"templates\":[$T]}"
wait_until "i['left_to_inject'] == 0" 60
ctl mark
inject "{\"count\":800,\"rate\":100,\"channels\":50,\"users\":100,\"templates\":[$T]}"
wait_until "i['left_to_inject'] == 0 and i['mark_answered'] + i['mark_unanswered'] == 800" 40
answered=$(stat interactions.mark_answered)
[ "$answered" -ge 500 ] ||
	fail "only $answered of the 800 interactions after the overload were answered"

# Every interaction delivered is answered, shed or failed, and the stats
# line says so; the overload did shed.
delivered=$(stat interactions.delivered)
bot_stats
line=$(grep "discord stats:" "$BOT_LOG")
set -- $(echo "$line" | sed -E 's/.*answered ([0-9]+), shed ([0-9]+), failed ([0-9]+);.*/\1 \2 \3/')
[ $(($1 + $2 + $3)) = "$delivered" ] ||
	fail "answered $1 + shed $2 + failed $3 is not the $delivered delivered: $line"
[ "$2" -ge 1000 ] || fail "$2 shed: the 1000 delivered too late to answer were not all shed ($line)"
[ "$(stat interactions.answered)" = "$1" ] || fail "the fake counts $(stat interactions.answered) answers, the bot $1"

# Shedding is told in summaries (one per 10 s), not one line per interaction.
log_wait "interactions could no longer be answered within Discord's 3 s" 15
lines=$(wc -l < "$BOT_LOG")
[ "$lines" -le 30 ] || fail "$lines log lines during the overload: $(sort "$BOT_LOG" | uniq -c | sort -rn | head -5)"
finish
