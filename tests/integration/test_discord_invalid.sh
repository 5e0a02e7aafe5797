#!/bin/sh
# Discord bans for an hour an address that makes 10,000 invalid requests
# (answers 401, 403, 429) in 10 minutes. delver counts them as the fake
# does (the stats line's figure equals the fake's count), sheds its
# optional requests (here the note telling a roller that the GM takes no
# direct messages) from 2,000, and every request but the interaction
# answers themselves (here a long reply's follow-ups) from 5,000, saying so
# once each time; the answers themselves still go, and the fake never bans.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

one_channel_start
one() { # TEMPLATE: alone in the one channel, answered
	n=$((n + 1))
	alone "$1"
	wait_until "i['created'] == $n and i['answered'] + r['r403'] >= $n" 10
}
# COUNT callbacks answered 403 (the fake's Missing Permissions)
refused() {
	ctl rest403 match=/callback count=$1
	n=$((n + $1))
	inject "{\"count\":$1,\"rate\":1000,\"channels\":5,\"users\":3,\"templates\":[$(tmpl help '[]' '' null)]}"
	wait_until "i['created'] == $n and r['invalid'] == $2" 30
}
# The first refused DM edits the secret roll's channel line to say nobody saw it.
# Once a GM's refusal is known their secret rolls are refused up front, with no
# DM and no note, so each roll here goes to a GM not yet tried: user 1 in
# channel 0, then user 3 in channel 2.
secret() { tmpl gmroll '[{"type":3,"name":"expression","value":"1d20"}]' '' false ",\"user\":2,\"channel\":$1"; }

one "$(tmpl gm '[{"type":1,"name":"claim"}]' 'is now the GM' false ',"user":1')"
one "$(tmpl gm '[{"type":1,"name":"claim"}]' 'is now the GM' false ',"user":3,"channel":2')"
ctl dmclosed 1
ctl dmclosed 3

# 1,990 invalid requests, then the GM's refused DM (one more): the roller
# is still told.
refused 1990 1990
notes=$(stat interactions.followups)
one "$(secret 0)"
wait_until "r['invalid'] == 1991 and i['followups'] == $((notes + 1))" 10

# Past 2,000 the note is optional and no longer sent; the secret roll's own
# answer goes. (Its DM, refused, is the 2,001st invalid request.)
refused 9 2000
answered=$(stat interactions.answered)
one "$(secret 2)"
sleep 1
[ "$(stat interactions.followups)" = $((notes + 1)) ] || fail "the optional note went past 2,000 invalid requests"
[ "$(stat interactions.answered)" = $((answered + 1)) ] || fail "the secret roll was not answered"
[ "$(grep -c "are not sent until they fall below 2000" "$BOT_LOG")" = 1 ] ||
	fail "no single line says optional requests are shed"

# Past 5,000 a long reply's follow-ups are shed too; its answer goes.
refused 2999 5000
answered=$(stat interactions.answered)
one "$(tmpl roll '[{"type":3,"name":"expression","value":"10x 1000d1000"}]' 'rolls' false ',"user":3')"
sleep 1
[ "$(stat interactions.answered)" = $((answered + 1)) ] || fail "the long roll was not answered"
[ "$(stat interactions.followups)" = $((notes + 1)) ] || fail "follow-ups went past 5,000 invalid requests"
[ "$(grep -c "all requests but interaction answers are not sent until they fall below 5000" "$BOT_LOG")" = 1 ] ||
	fail "no single line says all but answers are shed"

# The figure is the fake's: 5,000 in the last 10 minutes; 3 requests shed
# (the second note and the edit of the second roll's channel line, and the
# long roll's first follow-up, after which the rest of that answer is
# dropped); no ban.
bot_stats
line=$(grep "discord stats:" "$BOT_LOG")
echo "$line" | grep -q "invalid in the last 10 min 5000, shed 3;" ||
	fail "the stats line does not give the invalid requests: $line"
[ "$(stat rest.invalid_10min)" = 5000 ] || fail "the fake counts $(stat rest.invalid_10min)"
[ "$(stat rest.bans)" = 0 ] || fail "the fake banned the bot"
finish
