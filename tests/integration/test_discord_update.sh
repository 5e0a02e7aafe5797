#!/bin/sh
# Discord: a button whose press changes what its message shows updates
# that message (callback type 7) instead of posting a new one. /safe shows
# whether the party is in a safe area, with the GM's button that turns it:
# the GM's press turns the message into the new state (and the opposite
# button), in place, twice; a player's press is refused to that player
# alone (ephemeral) and leaves the message as it was. "Roll again" still
# posts a new message: its roll is a new event. A button on an ephemeral
# message is pressed by the user who saw it alone.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

one_channel_start
# The bot's messages in the channel: COUNT, or the newest's content
messages() {
	curl -s "http://127.0.0.1:$PORT/_control/messages/$CHAN" | python3 -c '
import json, sys
m = sorted(json.load(sys.stdin), key=lambda x: int(x["id"]))
if sys.argv[1] == "count":
    print(len([x for x in m if not x["flags"] & 64]))
else:
    x = m[-1] if sys.argv[1] == "newest" else [y for y in m if y["content"].startswith("The party")][0]
    labels = [c["label"] for r in x["components"] for c in r["components"]]
    print(x["content"].split(";")[0].split(":")[0], "|", ",".join(labels), "|", x["edits"])' "$1"
}

one "$(tmpl gm '[{"type":1,"name":"claim"}]' 'is now the GM' false ',"user":1')"
one "$(tmpl safe '[{"type":1,"name":"show"}]' 'not in a safe area' false ',"user":2')"
[ "$(messages safe)" = "The party is not in a safe area | Declare a safe area | 0" ] ||
	fail "/safe shows: $(messages safe)"
shown=$(messages count)

# A player's press: refused to them alone; the message stays.
one "$(press 'Declare a safe area' 2 'Only the GM can do that here' true)"
[ "$(stat interactions.updates)" = 0 ] || fail "a refused press updated the message"
[ "$(messages safe)" = "The party is not in a safe area | Declare a safe area | 0" ] ||
	fail "a refused press changed the message: $(messages safe)"

# The GM's press: the message itself now shows the safe area, and the way
# out; pressed again, the way back. No new message in the channel.
one "$(press 'Declare a safe area' 1 'The party is in a safe area' false)"
[ "$(stat interactions.updates)" = 1 ] || fail "the GM's press did not update the message"
[ "$(messages safe)" = "The party is in a safe area | Leave the safe area | 1" ] ||
	fail "the message after the press: $(messages safe)"
one "$(press 'Leave the safe area' 1 'The party is not in a safe area' false)"
[ "$(stat interactions.updates)" = 2 ] || fail "the second press did not update the message"
[ "$(messages safe)" = "The party is not in a safe area | Declare a safe area | 2" ] ||
	fail "the message after the second press: $(messages safe)"
[ "$(messages count)" = "$shown" ] || fail "the presses posted new messages"

# "Roll again" posts anew.
one "$(tmpl roll '[{"type":3,"name":"expression","value":"1d6"}]' 'rolls' false ',"user":2')"
before=$(messages count)
one "$(press 'Roll again' 3 'rolls' false)"
[ "$(messages count)" = $((before + 1)) ] || fail "Roll again did not post a new message"
[ "$(stat interactions.updates)" = 2 ] || fail "Roll again updated its message"
[ "$(stat interactions.press_missing)" = 0 ] || fail "a press found no such button"

# An ephemeral message's button is the pressing user's alone (Discord shows
# the message to nobody else): the GM's press finds the GM's own private
# roll of a table behind the screen; the GM's newer one is not what a
# player presses: the player's "Roll again" is the public roll's.
one "$(tmpl tension '[{"type":1,"name":"mode","options":[{"type":3,"name":"mode","value":"hidden"}]}]' 'hidden behind' false ',"user":1')"
one "$(tmpl table '[{"type":1,"name":"set","options":[{"type":3,"name":"name","value":"encounter"},{"type":3,"name":"entries","value":"1-6: a ghost"}]}]' 'changed a table behind the screen' false ',"user":1')"
one "$(tmpl table '[{"type":1,"name":"roll","options":[{"type":3,"name":"name","value":"encounter"}]}]' 'rolls on a table behind the screen' false ',"user":1,"parts":["a ghost"]')"
[ "$(curl -s "http://127.0.0.1:$PORT/_control/messages/$CHAN" | python3 -c '
import json, sys
m = max(json.load(sys.stdin), key=lambda x: int(x["id"]))
print(m["flags"] & 64, [c["label"] for r in m["components"] for c in r["components"]])')" = \
	"64 ['Roll again']" ] || fail "the GM's private roll has no Roll again of its own"
one "$(press 'Roll again' 1 'rolls on a table behind the screen' false ',"parts":["a ghost"]')"
before=$(messages count)
one "$(press 'Roll again' 3 'rolls' false)"
[ "$(messages count)" = $((before + 1)) ] || fail "a player's Roll again did not roll in the open"
[ "$(stat interactions.press_missing)" = 0 ] || fail "a press found no such button"
finish
