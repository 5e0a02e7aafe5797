#!/bin/sh
# Discord REST faults: 429s (global, and per bucket) are waited out, never
# retried before retry_after (the fake counts any early request as a
# violation); 5xx answers are retried; slow answers do not disturb the
# heartbeat rhythm (one loop carries both). SIGUSR1 logs the stats line
# with those counts. A 401 on one interaction's callback (authorised by
# its token) loses that answer alone, with one log line; a 401 on a route
# the bot token authorises stops the bot with exit status 6 and one clear
# line.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

fake_start --heartbeat 500 --identify-interval 500
ctl rest429 match=/gateway/bot count=1 retry=0.7 global=1
ctl rest429 match=PUT count=1 retry=0.5
bot_start
wait_until "g['ready'] and r['registrations'] == 1" 10
[ "$(stat rest.r429)" = 2 ] || fail "the start did not meet both 429s"

T=""
add() { T="${T:+$T,}$1"; }
add "$(tmpl gm '[{"type":1,"name":"show"}]' GM false)"
add "$(tmpl help '[]' 'delver commands' false)"
burst() { inject "{\"count\":$1,\"rate\":${2:-0},\"channels\":7,\"users\":3,\"templates\":[$T]}"; }

ctl rest429 match=/callback count=3 retry=0.4
burst 10
wait_until "i['answered'] == 10" 5
[ "$(stat rest.r429)" = 5 ] || fail "the callbacks did not meet their 429s"

ctl rest5xx match=/callback count=2 status=502
ctl rest5xx match=/callback count=2 status=503
burst 10
wait_until "i['answered'] == 20" 8
[ "$(stat rest.r5xx)" = 4 ] || fail "the callbacks did not meet their 5xx answers"

# The stats line on SIGUSR1: 2 + 3 429s, 4 5xx, 20 answered, one IDENTIFY;
# 27 answers to callbacks (the 20, and the 7 tries before them that met a
# 429 or a 5xx), every one on the road's own connections.
bot_stats
unstamp "$BOT_LOG" | grep -q -E "^info: discord stats: interactions answered 20, shed 0, failed 0; deferred 0; gateway resumes 0, identifies 1; REST 429s 5, 5xx 4, invalid in the last 10 min 5, shed 0; callbacks answered on own connections 27, through libcurl 0; handling time over 20 interactions since the last line: p50 [0-9]+ us, p99 [0-9]+ us, max [0-9]+ us; shards ready 1 of 1 \(shard 0 of 1\), session starts left 999 of 1000; clock skew [-+][0-9]+ ms by ids, [-+][0-9]+\.\.[-+][0-9]+ ms by Date$" ||
	fail "the stats line does not give the counts: $(grep "discord stats:" "$BOT_LOG")"
[ "$(stat rest.invalid)" = 5 ] || fail "the fake counts $(stat rest.invalid) invalid requests, the bot 5"

# Slow REST, steady interactions: the heartbeats keep their 500 ms rhythm.
ctl mark
ctl restslow match=/callback count=120 ms=1500
burst 120 30
wait_until "i['answered'] == 140" 12
gap=$(stat gateway.max_hb_gap_ms)
[ "$gap" -le 650 ] || fail "heartbeats were $gap ms apart while REST was slow (interval 500)"
[ "$(stat rest.slow)" = 120 ] || fail "not every callback was slow"

# A 401 on one callback: that answer alone is lost (the fake does not
# count it late), with one log line; REST goes on.
wait_until "r['slow'] == 120" 5
sleep 1.6 # the slow answers in flight come back
ctl rest401 match=/callback count=1
burst 5
wait_until "r['r401'] == 1 and i['answered'] == 144" 5
# The fake counts the 401 as it sends it; the bot logs it once it reads it.
log_wait "failed \(401" 10
[ "$(grep -c "failed (401" "$BOT_LOG")" = 1 ] ||
	fail "the lost answer is not logged once: $(grep -c "failed (401" "$BOT_LOG") lines"
grep -q "token rejected" "$BOT_LOG" && fail "a 401 on a callback was taken for the bot token's"
burst 3
wait_until "i['answered'] == 147" 5
kill -0 "$BOT_PID" || fail "the bot stopped on a callback's 401"
bot_stop

# A 401 on a route the bot token authorises (registering the commands,
# which Discord holds stale, so the bot registers again): REST stops and the
# bot exits with status 6 and one line saying why.
out=$(curl -s -X POST --data '{"commands":[]}' "http://127.0.0.1:$PORT/_control/commands")
[ "$out" = ok ] || fail "cannot make the registration stale: $out"
ctl rest401 match=PUT count=1
identify_window
bot_start
bot_wait_exit 10
[ "$BOT_STATUS" = 6 ] || fail "the bot exited with '$BOT_STATUS', not 6, after the token's 401"
[ "$(grep -c "token rejected by Discord (401): check the token \[discord\] token_source names (the call was PUT /applications/" "$BOT_LOG")" = 1 ] ||
	fail "no single clear line about the bot token's 401"
finish
