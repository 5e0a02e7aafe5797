#!/bin/sh
# Discord gateway compression (compress=zlib-stream, the default): every
# connection asks for it, resumes too; payloads cut across several
# messages and messages cut into fragments change nothing; a text message
# on a compressed connection is read as plain JSON (logged once); a corrupt
# stream and a zip bomb (256 MiB that deflate to about 256 KiB) each cost
# one resume and one log line, and the bomb never more memory than the
# 8 MiB cap allows; then compress = none works the same without it.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

[ "$DISCORD_COMPRESS" = none ] && { echo "ok (compression is off)"; exit 0; }
fake_start --heartbeat 5000
bot_start
wait_until "g['ready']" 10
grep -q "starting (as many shards as Discord recommends, zlib-stream compression)" "$BOT_LOG" ||
	fail "the bot does not say it compresses"

T=""
add() { T="${T:+$T,}$1"; }
add "$(tmpl gm '[{"type":1,"name":"show"}]' GM false)"
add "$(tmpl help '[{"type":3,"name":"command","value":"gm"}]' '/gm' false)"
burst() { inject "{\"count\":$1,\"rate\":${2:-0},\"channels\":5,\"users\":3,\"templates\":[$T]}"; }
answered() { wait_until "i['left_to_inject'] == 0 and i['answered'] == i['created']" "$1"; }
n=0 # resumes so far
resumed() {
	n=$((n + 1))
	wait_until "g['resumed'] == $n and g['ready']" 10
}
count() { grep -c -F "$1" "$BOT_LOG"; }

burst 50
answered 5

# Payloads in messages of 7 bytes, messages in fragments of 3: the same.
ctl zsplit 7
ctl fragment 3
burst 30
answered 10
ctl zsplit 0
ctl fragment 0

# A text message on a compressed connection: plain JSON, logged once.
before=$(stat gateway.heartbeats)
ctl ztext
wait_until "g['heartbeats'] > $before" 7
ctl ztext
sleep 0.5
[ "$(count "text message on a compressed connection")" = 1 ] ||
	fail "the text message was not logged exactly once"

# A corrupt block: one clear line, one resume, nothing lost.
burst 200 40
ctl zcorrupt
resumed
[ "$(count "compressed stream is corrupt (invalid block type); reconnecting")" = 1 ] ||
	fail "the corrupt stream was not logged exactly once"

# A zip bomb: refused at the cap as it inflates.
ctl zbomb 268435456
resumed
[ "$(count "inflates to over 8388608 bytes; reconnecting")" = 1 ] ||
	fail "the zip bomb was not logged exactly once"
hwm=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$BOT_PID/status")
[ "$hwm" -lt 65536 ] || fail "the bot's memory peaked at $hwm kB during the zip bomb"
answered 15
conns=$(stat gateway.connections)
[ "$(stat gateway.zlib_connections)" = "$conns" ] ||
	fail "$(stat gateway.zlib_connections) of $conns connections asked for compression"
[ "$(stat gateway.identifies)" = 1 ] || fail "a compression fault made the bot identify again"
[ "$(stat interactions.duplicates)" = 0 ] || fail "interactions answered twice"

# compress = none: plain text, the same answers. The restart resumes the
# saved session (the changed setting is the transport's, not Discord's).
bot_stop
ctl zexpect no
wire=$(stat gateway.wire_bytes)
raw=$(stat gateway.raw_bytes)
resumes=$(stat gateway.resumed)
bot_start compress=none
wait_until "g['ready'] and g['resumed'] == $resumes + 1" 15
[ "$(stat gateway.identifies)" = 1 ] || fail "the restart identified instead of resuming"
grep -q "starting (as many shards as Discord recommends, no compression)" "$BOT_LOG" ||
	fail "the bot does not say it does not compress"
burst 20
answered 10
[ "$(stat gateway.zlib_connections)" = "$conns" ] || fail "compress = none asked for compression"
# (one snapshot: heartbeat ACKs keep coming)
wait_until "g['wire_bytes'] - $wire == g['raw_bytes'] - $raw" 1
finish
