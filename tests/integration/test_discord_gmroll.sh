#!/bin/sh
# Discord: a player's secret roll (/gmroll). The channel's answer says who
# rolls in secret and nothing else (not the dice, the modifier or the
# label); the GM seat's holder gets the roll by direct message (DM channel
# opened with POST /users/@me/channels, then a message in it, headed by the
# channel), and when the GM has closed their DMs (Discord's 403, code 50007)
# the roller is told by an ephemeral follow-up, or, when the GM set a
# channel for secret rolls (/gm secret-channel), the roll goes there and the
# roller is told where; a channel that refuses the bot (403, 50001) is said
# too. The GM's own /gmroll stays behind the screen: an ephemeral follow-up
# to the GM, no DM. /log secret shows the secret rolls to the GM alone. The
# DM channel is opened once per GM and kept; when Discord no longer knows it
# (404, code 10003) it is opened again. A burst of secret rolls to one GM
# meets no 429. A player's hazard roll whose encounter is behind the screen
# (hidden Tension) takes the same road to the GM.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

one_channel_start
ONE_ALSO="i['parts_missing'] == 0" # one TEMPLATE: alone, answered whole
roll() { # USER EXPRESSION EXTRA
	tmpl gmroll "[{\"type\":3,\"name\":\"expression\",\"value\":\"$2\"}]" "${4:-}" false \
		",\"user\":$1${3:-}"
}

# Nobody holds the seat: refused, privately, and no DM.
one "$(tmpl gmroll '[{"type":3,"name":"expression","value":"1d20"}]' 'Nobody is GM here' true ',"user":2')"
one "$(tmpl gm '[{"type":1,"name":"claim"}]' 'is now the GM' false ',"user":1')"

# A player's roll: the channel sees who rolls in secret, the GM the roll.
one "$(roll 2 '1d20+5 # stealth' ',"parts":["rolls in secret: only the GM"],"forbid":["1d20","+5","+ 5","stealth"],"forbid_public":true')"
wait_until "r['dms'] == 1" 10
[ "$(stat rest.dm_channels)" = 1 ] || fail "the DM channel was opened $(stat rest.dm_channels) times"
last=$(stat rest.dm_last)
case "$last" in
"From <#1300000000000000000>:"*"rolls"*"stealth"*"in secret"*"] + 5 = "*) ;;
*) fail "the GM's direct message is: $last" ;;
esac

# The GM's own: behind the screen, an ephemeral follow-up, no DM.
before=$(stat interactions.followups)
one "$(roll 1 '2d6' ',"parts":["(GM) rolls behind the screen","rolls in secret"]')"
[ "$(stat interactions.followups)" = $((before + 1)) ] || fail "the GM's result was no follow-up"
sleep 0.5
[ "$(stat rest.dms)" = 1 ] || fail "the GM's own secret roll went by DM"

# A second secret roll to the same GM goes to the DM channel kept from the
# first: it is not opened again.
one "$(roll 2 '1d8')"
wait_until "r['dms'] == 2" 10
[ "$(stat rest.dm_channels)" = 1 ] || fail "the DM channel was opened again: $(stat rest.dm_channels) times"

# The kept channel is deleted on Discord's side: the message to it is
# refused as an unknown channel, the bot opens the DM channel again (a new
# one) and the GM still gets the result.
ctl dmforget 1
one "$(roll 2 '1d10')"
wait_until "r['dms'] == 3" 10
[ "$(stat rest.dms_unknown)" = 1 ] || fail "the deleted channel was not tried first ($(stat rest.dms_unknown))"
[ "$(stat rest.dm_channels)" = 2 ] || fail "the DM channel was opened $(stat rest.dm_channels) times, not twice"
one "$(roll 2 '1d12')"
wait_until "r['dms'] == 4" 10
[ "$(stat rest.dm_channels)" = 2 ] || fail "the new DM channel was not kept"

# The GM closes their DMs: the roller is told, ephemerally, and the
# channel's line, which said the GM sees the roll, is edited to say that
# nobody did.
ctl dmclosed 1
before=$(stat interactions.followups)
edits=$(stat interactions.edits)
one "$(roll 2 '1d6')"
wait_until "r['dms_refused'] == 1 and i['followups'] == $((before + 1))" 10
log_wait "the GM takes no direct messages" 10
[ "$(stat rest.dms)" = 4 ] || fail "a DM went to a GM whose DMs are closed"
wait_until "i['edits'] == $((edits + 1))" 10
last=$(curl -s "http://127.0.0.1:$PORT/_control/messages/$CHAN" | python3 -c '
import json, sys
print([m for m in json.load(sys.stdin) if not m.get("flags", 0) & 64][-1]["content"])')
[ "$last" = "This secret roll went to nobody: the GM takes no direct messages from delver." ] ||
	fail "the channel's line of a roll nobody saw is: $last"

# The next secret roll is not made: Discord counts every 403 toward its
# ban of the bot's address, and the GM's refusal is known. The roller alone
# is told why, and what works; no DM is tried.
invalid=$(stat rest.invalid)
one "$(tmpl gmroll '[{"type":3,"name":"expression","value":"1d4"}]' 'takes no direct messages from delver, so a secret roll would reach nobody; the GM can accept them or name a channel for secret rolls with' true ',"user":2,"parts":["/gm secret-channel","/roll"]')"
[ "$(stat rest.dms_refused)" = 1 ] || fail "a known refusal was asked again ($(stat rest.dms_refused) refusals)"
[ "$(stat rest.invalid)" = "$invalid" ] || fail "the known refusal made invalid requests"

# The GM names a thread of their own for secret rolls (the GM's channel 5
# exists: the GM used the bot there). Setting it is said to the GM alone;
# this channel itself is refused.
one "$(tmpl gm '[{"type":1,"name":"show"}]' 'GM' false ',"user":1,"channel":5')"
one "$(tmpl gm '[{"type":1,"name":"secret-channel","options":[{"type":3,"name":"channel","value":"<#1300000000000000000>"}]}]' 'That is this channel' true ',"user":1')"
one "$(tmpl gm '[{"type":1,"name":"secret-channel","options":[{"type":3,"name":"channel","value":"<#1300000000000000005>"}]}]' 'when the GM takes none, to <#1300000000000000005>' true ',"user":1')"
one "$(tmpl gm '[{"type":1,"name":"secret-channel","options":[{"type":3,"name":"channel","value":"<#1300000000000000005>"}]}]' 'Only the GM can' true ',"user":2')"
before=$(stat interactions.followups)
posts=$(stat rest.channel_posts)
one "$(roll 2 '1d20+3 # listen' ',"parts":["rolls in secret","your secret roll went to <#1300000000000000005>"],"forbid":["1d20","listen"],"forbid_public":true')"
wait_until "r['channel_posts'] == $((posts + 1)) and i['followups'] == $((before + 1))" 10
last=$(curl -s "http://127.0.0.1:$PORT/_control/messages/1300000000000000005" | python3 -c '
import json, sys
print(json.load(sys.stdin)[-1]["content"])')
case "$last" in
"From <#1300000000000000000>:"*"rolls"*"listen"*"in secret"*"] + 3 = "*) ;;
*) fail "the message in the GM's channel is: $last" ;;
esac
[ "$(stat rest.dms_refused)" = 1 ] || fail "the known refusal was asked again"

# The bot may no longer view that channel: the roller is told nobody saw it.
ctl noaccess 5
before=$(stat interactions.followups)
one "$(roll 2 '1d6' ',"parts":["rolls in secret","refused delver'"'"'s message (Discord answered 403), so nobody saw your secret roll"]')"
wait_until "i['followups'] == $((before + 1))" 10
log_wait "could not go to channel 1300000000000000005" 10

# A player's hazard roll while Tension is hidden goes the same road: the
# channel reads the roll, what the encounter table gave goes to the GM, and
# here (DMs closed, the GM's channel refused; then no channel named) the
# roller is told it did not, in words for what went behind the screen.
sub() { # NAME OPTIONS: a subcommand's options
	printf '[{"type":1,"name":"%s","options":%s}]' "$1" "$2"
}
one "$(tmpl tension "$(sub mode '[{"type":3,"name":"mode","value":"hidden"}]')" 'hidden behind the GM' false ',"user":1')"
one "$(tmpl hazard "$(sub table '[{"type":3,"name":"table","value":"delving"}]')" 'delving' false ',"user":1')"
one "$(tmpl hazard "$(sub custom '[{"type":3,"name":"die","value":"d2"},{"type":3,"name":"entries","value":"1-2 Encounter"}]')" 'custom' false ',"user":1')"
before=$(stat interactions.followups)
one "$(tmpl hazard "$(sub roll '[]')" 'The encounter is behind the GM' false ',"user":2,"parts":["and <#1300000000000000005>, where the GM reads what goes behind their screen, refused delver'"'"'s message (Discord answered 403), so nobody saw what your hazard roll put behind the GM'"'"'s screen"],"forbid":["From the encounter table","Behind the screen"],"forbid_public":true')"
wait_until "i['followups'] == $((before + 1))" 10
# With no channel named, the roller is told the GM may name one for what
# goes behind the screen, worded for that and not for secret rolls.
one "$(tmpl gm '[{"type":1,"name":"secret-channel","options":[{"type":5,"name":"off","value":true}]}]' 'by direct message only' true ',"user":1')"
before=$(stat interactions.followups)
one "$(tmpl hazard "$(sub roll '[]')" 'The encounter is behind the GM' false ',"user":2,"parts":["so nobody saw what your hazard roll put behind the GM'"'"'s screen; they can allow direct messages from this server'"'"'s members (Privacy Settings) or name a channel for what goes behind their screen with /gm secret-channel."],"forbid":["From the encounter table","Behind the screen"],"forbid_public":true')"
wait_until "i['followups'] == $((before + 1))" 10
# /log secret: the GM alone sees them, privately; a player is refused; the
# public log has none of them.
one "$(tmpl log '[{"type":3,"name":"kind","value":"secret"}]' 'secret rolls here, newest first' true ',"user":1,"parts":["1d20 + 3 # listen","1d20 + 5 # stealth"],"forbid":["only you see this"]')"
one "$(tmpl log '[{"type":3,"name":"kind","value":"secret"}]' 'Only the GM can' true ',"user":2,"forbid":["listen","stealth"]')"
one "$(tmpl log '[]' 'No rolls here yet' false ',"user":2,"forbid":["listen","stealth"]')"
# A burst of secret rolls to one GM (another channel, another GM, whose
# DMs are open): their DMs share the DM channel's rate limit (5 a second
# here, Discord's 5 per 5 s made shorter for the test). Every one arrives,
# none meets a 429 and none comes before a 429's retry_after: the bot sends
# none into an empty window, though after a reset the answers telling the
# new one are still on their way, and though answers come back in another
# order than their requests went.
one "$(tmpl gm '[{"type":1,"name":"claim"}]' 'is now the GM' false ',"user":3,"channel":7')"
ctl ratelimit message_create limit=5 per=1000
r429=$(stat rest.r429)
dms=$(stat rest.dms)
inject "{\"count\":30,\"rate\":200,\"channels\":1,\"users\":1,\"templates\":[$(roll 4 '1d4' ',"channel":7')]}"
n=$((n + 30))
wait_until "i['answered'] == $n and r['dms'] == $((dms + 30))" 30
[ "$(stat rest.r429)" = "$r429" ] || fail "the burst of DMs met $(($(stat rest.r429) - r429)) 429s"
[ "$(stat rest.early)" = 0 ] || fail "a DM came before its 429's retry_after"

# There, a player's hazard roll behind the screen reaches the GM by DM.
ctl ratelimit message_create limit=50 per=1000
one "$(tmpl tension "$(sub mode '[{"type":3,"name":"mode","value":"hidden"}]')" 'hidden behind the GM' false ',"user":3,"channel":7')"
one "$(tmpl hazard "$(sub table '[{"type":3,"name":"table","value":"delving"}]')" 'delving' false ',"user":3,"channel":7')"
one "$(tmpl hazard "$(sub custom '[{"type":3,"name":"die","value":"d2"},{"type":3,"name":"entries","value":"1-2 Encounter"}]')" 'custom' false ',"user":3,"channel":7')"
dms=$(stat rest.dms)
one "$(tmpl hazard "$(sub roll '[]')" 'The encounter is behind the GM' false ',"user":4,"channel":7,"forbid":["From the encounter table","Behind the screen"],"forbid_public":true')"
wait_until "r['dms'] == $((dms + 1))" 10
last=$(stat rest.dm_last)
case "$last" in
"From <#1300000000000000007>:"*"Behind the screen:"*"From the encounter table"*) ;;
*) fail "the GM's direct message is: $last" ;;
esac
finish
