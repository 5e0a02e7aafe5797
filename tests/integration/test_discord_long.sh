#!/bin/sh
# Discord: replies longer than one message lose nothing. A 5-player,
# 3-monster /fungeon combat turn and /roll 10x 1000d1000 go out as the
# interaction's answer plus follow-ups, each within Discord's limits, in
# order (the fake checks the parts of each answer appear in the order
# given, and that no follow-up comes after the token's 15 minutes).
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

one_channel_start
ONE_ALSO="i['parts_missing'] == 0" # one TEMPLATE: alone, answered whole
button() { # USER LINE [PERMISSIONS]
	one "{\"type\":3,\"user\":$1,\"data\":{\"custom_id\":\"a:$2\",\"component_type\":2}${3:+,\"permissions\":\"$3\"}}"
}
# Alba's player, alone in the hallway, makes the room (floor 1, budgets
# from Alba's level 60); the others join before the party goes in, at
# level 1 so that the sting's Annoy roll (11 dice) beats some of them and
# step 2 has its Painful conflict.
button 1 "fungeon join Alba wizard 60"
button 1 "fungeon entrance"
button 1 "fungeon floor 1" 8 # the GM's correction: the entrance opened on 60
button 1 "fungeon hallway"
button 2 "fungeon join Brom fighter 1"
button 3 "fungeon join Cora rogue 1"
button 4 "fungeon join Dara cleric 1"
button 5 "fungeon join Edda fighter 1"
button 1 "fungeon monster add wasp level 1 ability sting annoy 10 pain 1 continuous type venom"
button 1 "fungeon monster add rat level 2"
button 1 "fungeon monster add goblin level 3"
button 1 "fungeon enter waive:true" 8 # the GM lets the rest go, outside the rules

# The combat turn: every step, each fight's rank table, who narrates so far
# (the sting's Annoy roll brings the turn's Thwack-O dice) and the turn's
# narrator.
one "$(tmpl fungeon '[{"type":1,"name":"combat"}]' 'Combat turn' false \
	',"user":1,"permissions":"8","parts":["Combat turn","1. Continuous monster features","2. Special abilities","Narrative control so far this turn","rank","3. Painful conflict","rank","goblin","deals","Narrative control: "]')"

# Ten totals of a thousand dice each: every line and its total.
P=""
for k in 1 2 3 4 5 6 7 8 9 10; do
	P="$P$(printf '"%2d: ","] = ",' "$k")"
done
before=$(stat interactions.followups)
one "$(tmpl roll '[{"type":3,"name":"expression","value":"10x 1000d1000"}]' 'rolls' false \
	",\"user\":2,\"parts\":[${P%,}]")"
after=$(stat interactions.followups)
[ $((after - before)) -ge 2 ] || fail "10x 1000d1000 came in $((after - before + 1)) message(s)"
echo "roll: $((after - before + 1)) messages"
finish
