#!/bin/sh
# Discord gateway faults while interactions keep coming: a dropped TCP
# connection, op 7, op 9 true, close 4000, a zombie (no heartbeat ACK), a
# message over the size cap: each resumes the session, and every
# interaction (including those sent while the bot was away, replayed on
# RESUME) is answered exactly once within 3 s. Server op 1 is answered at
# once; malformed payloads and fragmented messages change nothing. Then op 9
# false, close 4009 and close 4007 make a new session (IDENTIFY, 5 s
# apart as Discord allows).
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

fake_start --heartbeat 2000
bot_start
wait_until "g['ready']" 10

T=""
add() { T="${T:+$T,}$1"; }
add "$(tmpl gm '[{"type":1,"name":"show"}]' GM false)"
add "$(tmpl help '[{"type":3,"name":"command","value":"gm"}]' '/gm' false)"
add '{"type":3,"data":{"custom_id":"a:gm show","component_type":2},"expect":"GM","private":false}'
burst() { inject "{\"count\":$1,\"rate\":${2:-0},\"channels\":13,\"users\":5,\"templates\":[$T]}"; }

n=0 # resumes so far
resumed() {
	n=$((n + 1))
	wait_until "g['resumed'] == $n and g['ready']" 10
}

# A steady stream through every resume fault: 30 a second for ~15 s.
burst 450 30
ctl drop
burst 10
resumed
ctl op7
resumed
ctl op9 true
resumed
ctl close 4000
resumed
ctl noack
resumed
before=$(stat gateway.heartbeats)
ctl op1
wait_until "g['heartbeats'] > $before" 1
ctl oversize 9000000
resumed
grep -q "over 8388608 bytes" "$BOT_LOG" || fail "no log line about the oversized message"
conns=$(stat gateway.connections)
ctl malformed
ctl fragment 64
sleep 2
ctl fragment 0
[ "$(stat gateway.connections)" = "$conns" ] || fail "malformed or fragmented payloads cost a reconnection"
wait_until "i['left_to_inject'] == 0 and i['answered'] == i['created']" 30
[ "$(stat gateway.identifies)" = 1 ] || fail "a resumable fault made the bot identify again"
[ "$(stat interactions.duplicates)" = 0 ] || fail "interactions answered twice"

# Faults that end the session: a new one each time.
ids=1
for fault in "op9 false" "close 4009" "close 4007"; do
	ctl "$fault"
	ids=$((ids + 1))
	wait_until "g['identifies'] == $ids and g['ready']" 15
	burst 20
	wait_until "i['answered'] == i['created']" 10
done
finish
