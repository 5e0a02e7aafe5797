#!/bin/sh
# Discord: the live panel (issue 30). /panel posts one message of the
# bot's in the channel (bot token, POST /channels/C/messages) and answers
# the GM alone; then 50 state changes in 5 s, from commands and from the
# panel's buttons: the panel ends showing the final state, its edits stay
# within the channel's rate limit (no 429 at all), every interaction is
# answered within Discord's 3 s (a press by an update of the panel, type
# 7, and its result as a message of its own; one whose change the panel
# does not show by type 6, which leaves it as it is), and a player's press of the
# GM's button is refused to that player alone. A panel someone deleted is
# forgotten after one 404 (10008; logged at info, not warned of), never
# tried again. A new /panel moves
# the panel (the old message is deleted; one someone deleted already
# answers 404, said at info). The panel survives a restart,
# kill -9 included: the next change edits it and its buttons still work;
# a press Discord replays after a kill -9 is never pressed twice.
# Prints the edits per second the busy channel made.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh
. tests/integration/panel_lib.sh

one_channel_start

one "$(tmpl gm '[{"type":1,"name":"claim"}]' 'is now the GM' false ',"user":1')"

# /panel: one message of the bot's (not an interaction's answer), with the
# five buttons; the GM is told, alone.
one "$(tmpl panel '[]' 'Panel posted' true ',"user":1')"
wait_until "r['channel_posts'] == 1" 10
[ "$(field 3)" != "" ] || fail "no panel in the channel: $(panel)"
case "$(field 3)" in
*"Turn 0"*"0 turns since the last rest"*"Tension"*"1/10"*) ;;
*) fail "the new panel shows: $(field 3)" ;;
esac
labels=$(curl -s "http://127.0.0.1:$PORT/_control/messages/$CHAN" | python3 -c '
import json, sys
for x in json.load(sys.stdin):
    ls = [c["label"] for r in x["components"] for c in r["components"]]
    if "Next turn" in ls: print(",".join(ls))')
[ "$labels" = "Next turn,Rest,Tension +1,Wander,Undo" ] || fail "the panel's buttons: $labels"
note_points_right || fail "the /panel's answer points the wrong way"
first=$(field 1)

# 50 changes in 5 s, ten kinds in turn: the panel's buttons pressed by
# players and by the GM, and commands. Turns: 3 x 5 hazard rolls, 3 x 5
# rests, 5 x 1 turn advanced = 35; Tension: lowered, then raised by the
# GM's button, five times from 1 = 2; five torches lit. Each press that
# changes what the panel shows updates it (type 7); the GM's Tension +1
# may find the panel showing its panel already (the lowering before it
# not yet edited in), and then leaves it as it is (type 6).
r429=$(stat rest.r429)
# The last change's edit: the coalescing window and the pace, then the
# trip.
burst 3 "
$(press 'Next turn' 2 'Turn' false ',"parts":["Turn","Rolled"]'),
$(tmpl hazard '[{"type":1,"name":"roll"}]' 'Rolled' false ',"user":3'),
$(press 'Rest' 2 'Turn' false),
$(tmpl tension '[{"type":1,"name":"lower","options":[{"type":4,"name":"amount","value":1},{"type":3,"name":"reason","value":"quiet"}]}]' 'Tension' false ',"user":1'),
$(press 'Tension +1' 1 'Tension' false ',"parts":["Tension raised"]'),
$(tmpl light '[{"type":1,"name":"add","options":[{"type":3,"name":"kind","value":"torch"}]}]' 'torch' false ',"user":2'),
$(tmpl rest '[]' 'rest' false ',"user":3'),
$(press 'Next turn' 3 'Turn' false),
$(tmpl turn '[{"type":1,"name":"advance"}]' 'pass' false ',"user":1'),
$(press 'Rest' 3 'Turn' false)"
panel_wait '*Turn 35*(5 h 50 min in the dungeon)*Tension* 2/10*' 20 ||
	fail "after the burst the panel shows: $(field 3)"
[ "$(field 1)" = "$first" ] || fail "the burst moved the panel"
[ "$(stat rest.r429)" = "$r429" ] || fail "the burst met $(($(stat rest.r429) - r429)) 429s"
[ "$(stat rest.early)" = 0 ] || fail "a request came before its 429's retry_after"
[ "$(stat interactions.late)" = 0 ] || fail "$(stat interactions.late) answers came after 3 s"
[ "$(stat interactions.updates)" -ge 20 ] || fail "presses updated the panel $(stat interactions.updates) times, not 20"
[ $(($(stat interactions.updates) + $(stat interactions.deferred_updates))) -ge 25 ] ||
	fail "presses updated the panel or left it as it was $(stat interactions.updates) + $(stat interactions.deferred_updates) times, not 25"
[ "$edits" -ge 1 ] || fail "the panel was never edited"
echo "edits: $rate for 50 changes; longest answer $(stat interactions.max_answer_ms) ms"

# A player's press of the GM's button: refused, to that player alone; the
# panel stays as it was.
updates=$(stat interactions.updates)
one "$(press 'Tension +1' 2 'Only the GM can do that here' true)"
[ "$(stat interactions.updates)" = "$updates" ] || fail "a refused press updated the panel"

# Undo from the panel: the GM's press takes the newest change back (a
# player's rest: its turn).
one "$(press 'Undo' 1 'Turn' false ',"parts":["Turn","Undid"]')"
sleep 2
panel_wait '*Turn 34*' 20 || fail "after /undo the panel shows: $(field 3)"

# A busy channel without presses: 50 commands in 5 s (ten hazard rolls
# and ten rests, 20 turns; Tension raised and lowered; ten torches lit).
# The panel follows by edits alone, paced; it ends showing turn 54.
burst 3 "
$(tmpl hazard '[{"type":1,"name":"roll"}]' 'Rolled' false ',"user":2'),
$(tmpl rest '[]' 'rest' false ',"user":3'),
$(tmpl tension '[{"type":1,"name":"raise","options":[{"type":4,"name":"amount","value":1},{"type":3,"name":"reason","value":"noise"}]}]' 'Tension' false ',"user":1'),
$(tmpl tension '[{"type":1,"name":"lower","options":[{"type":4,"name":"amount","value":1},{"type":3,"name":"reason","value":"quiet"}]}]' 'Tension' false ',"user":1'),
$(tmpl light '[{"type":1,"name":"add","options":[{"type":3,"name":"kind","value":"torch"}]}]' 'torch' false ',"user":2')"
panel_wait '*Turn 54*Tension* 2/10*' 20 ||
	fail "after the commands the panel shows: $(field 3)"
[ "$(stat rest.r429)" = "$r429" ] || fail "the commands met $(($(stat rest.r429) - r429)) 429s"
echo "edits, commands alone: $rate for 50 changes"

# Someone deletes the panel: the next edit meets 404 (10008) and the panel
# is forgotten: later changes try nothing.
ctl msgdelete "$first"
edits=$(stat rest.channel_edits)
one "$(tmpl hazard '[{"type":1,"name":"roll"}]' 'Rolled' false ',"user":3')"
wait_until "r['unknown_messages'] == 1" 10
for i in 1 2 3; do
	one "$(tmpl hazard '[{"type":1,"name":"roll"}]' 'Rolled' false ',"user":3')"
done
sleep 3
[ "$(stat rest.unknown_messages)" = 1 ] || fail "the deleted panel was tried $(stat rest.unknown_messages) times"
grep -q "warn:.*404" "$BOT_LOG" && fail "the deleted panel's 404 was warned of: $(grep 'warn:.*404' "$BOT_LOG")"
[ "$(panel)" = none ] || fail "a panel is still shown: $(panel)"

# A new /panel, then another: the second moves it (the first is deleted).
one "$(tmpl panel '[]' 'Panel posted' true ',"user":2')"
wait_until "r['channel_posts'] == 2" 10
second=$(field 1)
case "$(field 3)" in
*"Turn 58"*) ;;
*) fail "the new panel shows: $(field 3)" ;;
esac
deletes=$(stat rest.channel_deletes)
one "$(tmpl panel '[]' 'Panel posted' true ',"user":2')"
wait_until "r['channel_posts'] == 3 and r['channel_deletes'] == $((deletes + 1))" 10
third=$(field 1)
[ "$third" != "$second" ] || fail "the panel did not move"
[ "$(count_panels)" = 1 ] || fail "$(count_panels) panels in the channel"

# kill -9 right after the /panel, then a restart on the same state:
# Discord replays the /panel the killed process answered (the resume point
# is saved at most once a second); it changed nothing, so it has no mark,
# and Discord says it was answered: no second panel is posted. The next
# change edits the panel the record names, and its buttons work.
gets=$(stat interactions.original_gets)
bot_kill
identify_window
bot_start
wait_until "g['ready']" 15
edits=$(stat rest.channel_edits)
one "$(tmpl hazard '[{"type":1,"name":"roll"}]' 'Rolled' false ',"user":3')"
wait_until "r['channel_edits'] > $edits" 10
panel_wait '*Turn 59*' 20 || fail "after kill -9 and a restart the panel shows: $(field 3)"
[ "$(field 1)" = "$third" ] || fail "the restart moved the panel"
[ "$(stat rest.channel_posts)" = 3 ] || fail "the replayed /panel posted a panel again"
echo "replayed after the kill -9: $(($(stat interactions.original_gets) - gets)) checked with Discord"
one "$(press 'Next turn' 2 'Turn 60' false)"

# The same after a clean stop.
bot_stop
identify_window
bot_start
wait_until "g['ready']" 15
edits=$(stat rest.channel_edits)
one "$(tmpl rest '[]' 'rest' false ',"user":3')"
wait_until "r['channel_edits'] > $edits" 10
panel_wait '*Turn 61*' 20 || fail "after a restart the panel shows: $(field 3)"

# Presses Discord replays: 20 of the GM's "Next turn" at 10 a second,
# kill -9 1 s in; the next process, 1 s later, resumes the session and
# Discord sends every event after its resume point again (the fake does as
# Discord does). A press the killed process had kept is not pressed again:
# it gets the answer kept then, or none when it was answered (no second
# callback, no second turn); the others run. The panel ends at turn 81.
resumed=$(stat gateway.resumed)
gets=$(stat interactions.original_gets)
inject "{\"count\":20,\"rate\":10,\"channels\":1,\"users\":1,\"templates\":[$(press 'Next turn' 1 'Turn' false)]}"
n=$((n + 20))
sleep 1
bot_kill
sleep 1
bot_start
wait_until "g['resumed'] > $resumed and g['ready']" 10
wait_until "i['left_to_inject'] == 0" 20
wait_until "i['answered'] + i['late'] == i['created']" 10
wait_until "i['created'] == $n and i['answered'] == $n" 10
sleep 3
echo "replayed presses: $(($(stat interactions.original_gets) - gets)) checked with Discord," \
	"second callbacks $(stat interactions.replay_duplicates)," \
	"answered twice $(stat interactions.duplicates)"
panel_wait '*Turn 81*' 20 || fail "after 20 presses and a kill -9 the panel shows: $(field 3)"
[ "$(field 1)" = "$third" ] || fail "the replayed presses moved the panel"
[ "$(count_panels)" = 1 ] || fail "$(count_panels) panels in the channel"
[ "$(stat interactions.original_gets)" -gt "$gets" ] || fail "no press was replayed"
[ "$(stat interactions.replay_duplicates)" = 0 ] ||
	fail "$(stat interactions.replay_duplicates) replayed presses got a second callback"
[ "$(stat rest.r429)" = 0 ] || fail "$(stat rest.r429) 429s in all"

# A press whose change the panel does not show (the GM's Tension +1 with
# Tension hidden) leaves the panel as it is: answered with type 6 (no
# update, so no "edited" mark and no edit spent), then what it did as a
# message of its own; and its change counts as shown, so no refresh
# renders the panel again to send nothing (at log level debug, a refresh
# that finds the message showing its panel already says so).
sed -i 's/^\[bot\]$/[bot]\nlog_level = debug/' "$BOT_CONF"
kill -HUP "$BOT_PID"
log_wait "reloaded the configuration" 10
one "$(tmpl tension '[{"type":1,"name":"mode","options":[{"type":3,"name":"mode","value":"hidden"}]}]' 'hidden behind' false ',"user":1')"
panel_wait '*Tension: *hidden behind*' 20 || fail "with Tension hidden the panel shows: $(field 3)"
sleep 1
shown=$(field 2)
edits=$(stat rest.channel_edits)
updates=$(stat interactions.updates)
deferred=$(stat interactions.deferred_updates)
NOTHING="discord: the panel of channel $CHAN reads as its message shows it already: nothing sent"
same=$(grep -c "$NOTHING" "$BOT_LOG")
one "$(press 'Tension +1' 1 'changed the Tension behind the screen' false)"
sleep 2
[ "$(grep -c "$NOTHING" "$BOT_LOG")" = "$same" ] ||
	fail "after a press answered with type 6 a refresh rendered the panel again, to send nothing"
[ "$(field 2)" = "$shown" ] || fail "a press that changed nothing shown edited the panel ($shown edits, now $(field 2))"
[ "$(stat interactions.updates)" = "$updates" ] || fail "a press that changed nothing shown updated the panel"
[ "$(stat rest.channel_edits)" = "$edits" ] || fail "a hidden change from the panel edited it"
[ "$(stat interactions.deferred_updates)" = $((deferred + 1)) ] ||
	fail "the press was not answered with type 6"

# A panel posted more than an hour ago (the fake dates it back): Discord
# takes 3 edits of such a message per 6 s in a channel, and refuses a
# 4th (429, 30046), which no header announces. A busy channel of 50
# commands in 5 s meets none: the edits go 2.1 s apart; the panel ends
# showing turn 101.
ctl "msgage 3700000"
one "$(tmpl panel '[]' 'Panel posted' true ',"user":2')"
wait_until "r['channel_posts'] == 4" 10
ctl "msgage 0"
burst 4 "
$(tmpl hazard '[{"type":1,"name":"roll"}]' 'Rolled' false ',"user":2'),
$(tmpl rest '[]' 'rest' false ',"user":3')"
panel_wait '*Turn 131 *' 20 || fail "after the commands the hour-old panel shows: $(field 3)"
[ "$(stat rest.old_edits_refused)" = 0 ] ||
	fail "$(stat rest.old_edits_refused) edits of the hour-old panel refused (30046)"
[ "$(stat rest.r429)" = 0 ] || fail "the hour-old panel met $(stat rest.r429) 429s"
echo "edits, hour-old panel: $rate for 50 changes"

# Someone deletes the panel, and before any change finds it gone a new
# /panel replaces it: the DELETE of the old one meets 404 (10008), which
# is said at info, never warned of.
ctl msgdelete "$(field 1)"
unknown=$(stat rest.unknown_messages)
one "$(tmpl panel '[]' 'Panel posted' true ',"user":2')"
wait_until "r['channel_posts'] == 5 and r['unknown_messages'] == $((unknown + 1))" 10
log_wait "was gone already|warn:.*404" 5
grep -q "warn:.*404" "$BOT_LOG" && fail "the 404 of a panel already gone was warned of: $(grep 'warn:.*404' "$BOT_LOG")"
[ "$(count_panels)" = 1 ] || fail "$(count_panels) panels in the channel"
finish
