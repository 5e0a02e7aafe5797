#!/bin/sh
# Discord: a long reply's follow-ups against Discord's per-interaction
# limit on them (5 per 2 s, one bucket per interaction token, its headers on
# every answer). A public /roll 20x 500d1000 (6 messages) and the GM's secret
# /gmroll of the same (one line in the channel, the result in 6 private
# follow-ups: the sixth must wait for the bucket to refill) go
# out whole, in order, with no 429: at Discord's numbers, then with the
# limit tightened to 2 per 2 s, where each answer spans several windows and
# every request after the second of a window must wait for the next.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

one_channel_start
one() { # TEMPLATE: alone in the one channel, answered whole
	n=$((n + 1))
	alone "$1"
	wait_until "i['answered'] == $n and i['parts_missing'] == 0 and i['deferred_open'] == 0" 20
}
# The first and the last of the 20 lines: the answer is whole once the
# last is in (the summary of a reply past 6 messages keeps the last line).
long() { # COMMAND USER [PRIVATE]
	tmpl "$1" '[{"type":3,"name":"expression","value":"20x 500d1000"}]' '' null \
		",\"user\":$2,\"parts\":[${3:+\"behind the screen\",}\" 1: \",\"20: \"]"
}

one "$(tmpl gm '[{"type":1,"name":"claim"}]' 'is now the GM' false ',"user":1')"
both() {
	before=$(stat interactions.followups)
	one "$(long roll 2)"
	pub=$(($(stat interactions.followups) - before))
	one "$(long gmroll 1 private)"
	priv=$(($(stat interactions.followups) - before - pub))
	echo "$1: the roll took $pub follow-ups, the secret roll $priv"
	[ "$pub" -ge 4 ] && [ "$priv" -ge 5 ] || fail "the rolls were too short to test the limit"
	[ "$(stat rest.r429)" = 0 ] || fail "$(stat rest.r429) follow-ups met a 429 at $1"
}
both "5 per 2 s"
ctl ratelimit webhook limit=2 per=2000
both "2 per 2 s"
finish
