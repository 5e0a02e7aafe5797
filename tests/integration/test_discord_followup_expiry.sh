#!/bin/sh
# A follow-up after the interaction token's 15 minutes is refused by
# Discord (401 "Invalid Webhook Token"): only that answer fails, it counts
# as failed in the operator stats, and the bot goes on answering. The fake
# holds the callback's 200 back 10 s; meanwhile `age` makes the
# interaction 15 minutes old, so its first follow-up comes too late. The
# fake reports that follow-up as a violation: the test expects exactly that
# one, and nothing else.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

fake_start --heartbeat 2000
bot_start
wait_until "g['ready'] and r['registrations'] == 1" 10

# The interaction is aged while its callback's 200 is held back, so the
# hold (below the bot's 15 s REST timeout) must outlast the script's own
# steps from the callback's arrival to the ageing: those are curl alone
# (a poll's python took 13 s to start on a loaded runner).
ctl "restslow match=/callback count=1 ms=10000"
req=$(stat rest.requests)
alone "$(tmpl roll '[{"type":3,"name":"expression","value":"10x 1000d1000"}]' 'rolls' false)"
end=$(($(date +%s) + 10))
until stats | grep -q '"answered":[[:space:]]*1,'; do
	[ "$(date +%s)" -ge "$end" ] && fail "the callback did not come within 10 s"
	sleep 0.1
done
ctl age 900000
log_wait "follow-up 1 of [0-9]* of the answer to interaction [0-9]* failed \(401\)" 20
sleep 1 # time for a wrong further follow-up to arrive
[ "$(stat rest.requests)" = $((req + 2)) ] ||
	fail "$(($(stat rest.requests) - req)) requests for the answer, not the callback and one follow-up"

# The bot goes on answering (a 401 on a webhook route stops nothing).
inject "{\"count\":3,\"rate\":10,\"channels\":1,\"users\":1,\"templates\":[$(tmpl roll \
	'[{"type":3,"name":"expression","value":"1d20"}]' 'rolls' false)]}"
wait_until "i['answered'] == 4" 10
bot_stats
grep -q "discord stats: interactions answered 3, shed 0, failed 1;" "$BOT_LOG" ||
	fail "the refused follow-up is not one failed answer: $(grep "discord stats:" "$BOT_LOG")"

bot_stop
kill -TERM "$FAKE_PID" 2>/dev/null
wait "$FAKE_PID"
FAKE_PID=""
[ "$(grep -c VIOLATION "$WORK/fake.log")" = 1 ] &&
	grep -q "VIOLATION: interaction [0-9]*: a follow-up after its token expired (15 min)" \
		"$WORK/fake.log" ||
	fail "expected exactly the one expired follow-up: $(grep -m 5 VIOLATION "$WORK/fake.log")"
for f in "$WORK"/*.log; do
	grep -F -q -- "$TOKEN" "$f" && fail "the token appears in $(basename "$f")"
	grep -q -E "AddressSanitizer|runtime error|Segmentation" "$f" &&
		fail "$(basename "$f") shows a crash or sanitizer report"
done
echo "ok"
