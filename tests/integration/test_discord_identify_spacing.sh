#!/bin/sh
# Discord's 5 s between IDENTIFYs holds across processes. The fake holds
# IDENTIFY unanswered (no READY, so no session to resume); the bot is
# killed with SIGKILL right after its IDENTIFY and a new process starts at
# once: the identify ledger in the runtime directory keeps when the last
# IDENTIFY went, and the new process waits out the rest of the 5 s (the
# fake answers an IDENTIFY sooner than 5 s after the last in its bucket
# with op 9 and flags it as a violation, so finish fails then).
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

fake_start
ctl hold on
bot_start
wait_until "g['identifies'] == 1" 15
i=0
until LEDGER=$(echo "$XDG_RUNTIME_DIR"/delver/*/discord-identify.json) && grep -q '"bucket":0,"last":[1-9]' "$LEDGER" 2>/dev/null; do
	i=$((i + 1))
	[ $i -gt 50 ] && fail "the identify ledger does not keep the last IDENTIFY after 5 s"
	sleep 0.1
done
grep -F -q -- "$TOKEN" "$LEDGER" && fail "the identify ledger holds the token"
bot_kill
ctl hold off
bot_start
wait_until "g['identifies'] == 2 and g['ready']" 20
[ "$(stat gateway.identify_op9)" = 0 ] || fail "an IDENTIFY came too soon in its bucket"
grep -q "resuming the saved session" "$BOT_LOG" && fail "resumed a session that never was ready"
finish
