#!/bin/sh
# The daily budget of session starts nearly spent: 12 of 1,000 left, which
# Discord resets 15 s later. A bot that runs the 4 shards Discord recommends
# starts 2 sessions (delver keeps the last hundredth back), says once that
# it waits and until when, starts nothing more meanwhile (the fake would
# end every session past the budget), asks Discord again once the reset
# has come, and then starts the other 2.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

fake_start --heartbeat 5000 --shards 4 --guilds 4 --identify-interval 500
ctl budget 1000 12 15000
bot_start

i=0
until [ "$(live)" = 2 ] && grep -q "session starts are left" "$BOT_LOG"; do
	i=$((i + 1))
	[ $i -gt 100 ] && fail "not 2 sessions and the budget's warning after 10 s: $(sessions)"
	sleep 0.1
done
unstamp "$BOT_LOG" | grep -q -E "^warn: discord: only 10 of today's 1000 session starts are left; no new gateway session starts until Discord resets the budget at [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8} UTC \(in 1 min\); running sessions go on and resume as usual$" ||
	fail "the wait is not said as it should be: $(grep 'session starts' "$BOT_LOG")"
sleep 1
[ "$(stat gateway.identifies)" = 2 ] || fail "the bot identified again with the budget spent"
[ "$(stat gateway.remaining)" = 10 ] || fail "the fake's budget is not 10 (it is $(stat gateway.remaining))"

wait_live 4 60
[ "$(grep -c "session starts are left" "$BOT_LOG")" = 1 ] || fail "the wait was said more than once"
grep -q "the session budget allows new sessions again" "$BOT_LOG" ||
	fail "the end of the wait is not said"
[ "$(stat gateway.budget_overruns)" = 0 ] || fail "an IDENTIFY went past the budget"
[ "$(stat gateway.identify_op9)" = 0 ] || fail "an IDENTIFY came too soon in its bucket"
finish
