#!/bin/sh
# Discord REST faults: 429s (global, and per bucket) are waited out, never
# retried before retry_after (the fake counts any early request as a
# violation); 5xx answers are retried; slow answers do not disturb the
# heartbeat rhythm (one loop carries both); a 401 stops REST with a clear
# log line while the gateway stays up.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

fake_start --heartbeat 500
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

# Slow REST, steady interactions: the heartbeats keep their 500 ms rhythm.
ctl mark
ctl restslow match=/callback count=120 ms=1500
burst 120 30
wait_until "i['answered'] == 140" 12
gap=$(stat gateway.max_hb_gap_ms)
[ "$gap" -le 650 ] || fail "heartbeats were $gap ms apart while REST was slow (interval 500)"
[ "$(stat rest.slow)" = 120 ] || fail "not every callback was slow"

# A 401 stops REST; the bot says why and keeps its gateway session.
ctl lenient on
wait_until "r['slow'] == 120" 5
sleep 1.6 # the slow answers in flight come back
ctl rest401 match=/callback count=1
burst 1
wait_until "r['r401'] == 1" 5
grep -q "the REST API rejected the token (401): check \[discord\] token" "$BOT_LOG" ||
	fail "no log line about the 401"
requests=$(stat rest.requests)
burst 3
sleep 1
[ "$(stat rest.requests)" = "$requests" ] || fail "REST went on after a 401"
kill -0 "$BOT_PID" || fail "the bot stopped on a REST 401"
finish
