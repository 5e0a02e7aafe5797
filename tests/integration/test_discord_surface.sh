#!/bin/sh
# Discord: where the commands work, as Discord sends interactions there.
#  1. Installed to servers (the default): the commands are registered for
#     servers and the DM with the bot (integration_types [0], contexts
#     [0, 1]), so Discord offers none in a group DM. The DM with the bot,
#     a thread, a private thread and a forum post each keep their own
#     state (Tension set there starts from 1, and the channel's stays as
#     it was); the GM seat of a thread or post with none of its own is its
#     channel's (the channel's GM runs GM-only commands there, /gm show
#     names them, another player is refused and told who the GM is, and
#     cannot claim while that GM is in force); claiming in a forum post
#     whose forum has no GM takes the forum's seat.
#  2. user_install = yes: registered again for users too ([0, 1], contexts
#     [0, 1, 2]); a group DM, a DM between users and a server that never
#     added delver each keep their own state; a long roll there comes in
#     at most 6 messages (Discord takes 5 follow-ups of an interaction a
#     user install alone authorised; the fake refuses a sixth).
#  3. An application that does not allow user installs refuses that
#     registration (400): the log says what to change.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

fake_start --heartbeat 2000 --identify-interval 500
bot_start
wait_until "g['ready'] and r['registrations'] == 1" 10
cmds=$(curl -s "http://127.0.0.1:$PORT/_control/commands")
echo "$cmds" | python3 -c '
import json, sys
for c in json.load(sys.stdin):
    assert c["integration_types"] == [0], c["name"]
    assert sorted(c["contexts"]) == [0, 1], c["name"]
' || fail "the commands are not registered for servers and the bot's DM: $cmds"

n=0
ONE_ALSO="i['parts_missing'] == 0" # one TEMPLATE: alone, answered whole
tset() { # VALUE WHERE EXPECT USER [INSTALL]
	tmpl tension "[{\"type\":1,\"name\":\"set\",\"options\":[{\"type\":4,\"name\":\"value\",\"value\":$1}]}]" \
		"$3" null ",\"user\":$4,\"where\":\"$2\"${5:+,\"install\":\"$5\"}"
}
tshow() { # WHERE EXPECT [INSTALL]
	tmpl tension '[{"type":1,"name":"show"}]' "$2" false ",\"where\":\"$1\"${3:+,\"install\":\"$3\"}"
}
claim() { # WHERE USER EXPECT PRIVATE [INSTALL]
	tmpl gm '[{"type":1,"name":"claim"}]' "$3" "$4" ",\"user\":$2,\"where\":\"$1\"${5:+,\"install\":\"$5\"}"
}

# 1. The channel's GM sets Tension 3 there.
one "$(claim guild 1 'is now the GM' false)"
one "$(tset 3 guild 'Tension set 1 → 3' 1)"
# Its thread and private thread: the same GM, their own Tension.
for w in thread private_thread; do
	one "$(tmpl gm '[{"type":1,"name":"show"}]' 'the GM of the channel this thread belongs to' false ",\"user\":2,\"where\":\"$w\"")"
	one "$(tset 5 $w 'Only the GM can do that here; the GM is Player 1' 2)"
	one "$(claim $w 2 'is already the GM here, as the GM of the channel' true)"
done
one "$(tset 5 thread 'Tension set 1 → 5' 1)"
# A forum post: its forum (where no command runs) has no GM yet; claiming
# in the post takes the forum's seat, for all its posts.
one "$(claim forum_post 4 'is now the GM of the channel this thread belongs to' false)"
one "$(tset 7 forum_post 'Only the GM can do that here; the GM is Player 4' 1)"
one "$(tset 7 forum_post 'Tension set 1 → 7' 4)"
one "$(tshow guild '**3**/10')"
one "$(tshow thread '**5**/10')"
one "$(tshow forum_post '**7**/10')"
one "$(tshow private_thread '**1**/10')"
# The DM with the bot: its user's, GM there without a claim; its own Tension.
one "$(claim bot_dm 2 'This is your private conversation with delver: you are its GM without claiming the seat, so there is no seat to claim.' false)"
one "$(tset 4 bot_dm 'Tension set 1 → 4' 2)"
one "$(tshow bot_dm '**4**/10')"
one "$(tshow guild '**3**/10')"
# A group DM is reached by a user install alone, which these commands do
# not take: Discord offers none there.
before=$(stat interactions.not_offered)
alone "$(tshow group_dm '')"
wait_until "i['not_offered'] == $((before + 1))" 5

# 2. Installed to users too.
bot_stop
identify_window
bot_start user_install=yes
wait_until "g['ready'] and r['registrations'] == 2" 10
cmds=$(curl -s "http://127.0.0.1:$PORT/_control/commands")
echo "$cmds" | python3 -c '
import json, sys
for c in json.load(sys.stdin):
    assert sorted(c["integration_types"]) == [0, 1], c["name"]
    assert sorted(c["contexts"]) == [0, 1, 2], c["name"]
' || fail "the commands are not registered for user installs: $cmds"
for w in group_dm user_dm foreign; do
	one "$(claim $w 3 'is now the GM' false)"
done
one "$(tset 6 group_dm 'Tension set 1 → 6' 3)"
one "$(tset 8 foreign 'Tension set 1 → 8' 3)"
one "$(tshow group_dm '**6**/10')"
one "$(tshow user_dm '**1**/10')"
one "$(tshow foreign '**8**/10')"
one "$(tshow guild '**3**/10' both)"
# A long roll where a user install alone brought delver: 6 messages at most.
before=$(stat interactions.followups)
one "$(tmpl roll '[{"type":3,"name":"expression","value":"20x 500d1000"}]' '' false \
	',"user":3,"where":"group_dm","parts":[" 1: ","20: "]')"
sent=$(($(stat interactions.followups) - before))
[ "$sent" -le 5 ] || fail "$sent follow-ups to a user install's interaction"
[ "$(stat interactions.followup_cap)" = 0 ] || fail "a follow-up past Discord's 5 was sent"
echo "a long roll in a group DM: $((sent + 1)) messages"

# 3. The application does not allow user installs: the registration is
# refused, and the log says what to change.
bot_stop
out=$(curl -s -X POST --data '{"commands":[]}' "http://127.0.0.1:$PORT/_control/commands")
[ "$out" = ok ] || fail "cannot make the registration stale: $out"
ctl appinstall guild
identify_window
bot_start user_install=yes
wait_until "g['ready'] and r['install_refused'] == 1" 10
log_wait "must also allow user installs \(Developer Portal, Installation" 5
finish
