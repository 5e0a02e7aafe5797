#!/bin/sh
# fake_discord --help is enough to drive the bot by hand: it exits 0, names
# the control route that sends an interaction with the exact curl command,
# and the example body it gives, posted as it says, is an interaction the
# bot answers with what the body's "expect" holds.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

help=$("$TOOLS/fake_discord" --help) || fail "fake_discord --help exited $?"
printf '%s\n' "$help" |
	grep -qxF '  curl -s -X POST --data "$body" http://127.0.0.1:PORT/_control/interact' ||
	fail "the help gives no curl command for /_control/interact: $help"
body=$(printf '%s\n' "$help" | sed -n "s/^  body='\(.*\)'\$/\1/p")
[ -n "$body" ] || fail "the help gives no example body: $help"

one_channel_start
out=$(curl -s -X POST --data "$body" "http://127.0.0.1:$PORT/_control/interact")
[ "$out" = ok ] || fail "the help's body was refused: $out"
wait_until "i['created'] == 1 and i['answered'] == 1" 10
ok=$(channels | python3 -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]]["ok"])' "$CHAN")
[ "$ok" = 1 ] || fail "the answer to the help's interaction does not hold its expect: $(channels)"
finish
