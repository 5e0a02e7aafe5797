#!/bin/sh
# Discord: connect, identify, register the commands (once: a restart with
# the same state skips it; the dev guild gets its own), then answer 1,000
# interactions of every command family (gm, help, roll, tension, fungeon,
# thwacko, xp, hazard, turn, light, rest, wander, surprise, procedure, safe,
# vendor, bargain, encumbrance; slash commands, buttons, autocomplete, DMs,
# errors, GM by permission and by role, a result too long for one message,
# sent whole in follow-ups),
# each once within 3 s with a body Discord accepts; the token is in no log
# line.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

fake_start --heartbeat 2000 --identify-interval 500
bot_start
wait_until "g['ready'] and r['registrations'] == 1" 10
[ "$(stat rest.commands)" -ge 2 ] || fail "fewer than 2 commands registered"
curl -s "http://127.0.0.1:$PORT/_control/commands" | grep -q '"name":[[:space:]]*"gm"' ||
	fail "/gm is not registered"

T=""
add() { T="${T:+$T,}$1"; }
add "$(tmpl gm '[{"type":1,"name":"show"}]' GM false)"
add "$(tmpl gm '[{"type":1,"name":"claim"}]' GM null)"
add "$(tmpl gm '[{"type":1,"name":"release"}]' GM null ',"permissions":"16"')"
add "$(tmpl help '[]' 'delver commands' false)"
add "$(tmpl help '[{"type":3,"name":"command","value":"fungeon join"}]' '/fungeon join' false)"
add "$(tmpl help '[{"type":3,"name":"command","value":"nope"}]' "There is no command 'nope'" true)"
add "$(tmpl nosuch '[]' 'There is no command /nosuch' true)"
add "$(tmpl roll '[{"type":3,"name":"expression","value":"4d6kh3"},{"type":3,"name":"label","value":"Stealth"}]' 'Stealth' false)"
add "$(tmpl roll '[{"type":3,"name":"expression","value":"1d20+5"},{"type":5,"name":"private","value":true}]' 'rolls' true)"
add "$(tmpl roll '[{"type":3,"name":"expression","value":"4d"}]' "after 'd'" true)"
add "$(tmpl roll '[{"type":3,"name":"expression","value":"20x 100d6"}]' 'rolls' false ',"parts":[" 1: ","20: "]')"
add "$(tmpl tension '[{"type":1,"name":"show"}]' Tension false)"
add "$(tmpl tension '[{"type":1,"name":"raise","options":[{"type":3,"name":"event","value":"door"}]}]' 'Only the GM' true)"
add "$(tmpl tension '[{"type":1,"name":"raise","options":[{"type":3,"name":"event","value":"door"}]}]' Tension null ',"permissions":"8"')"
add "$(tmpl tension '[{"type":1,"name":"roll"}]' '' null ',"gm_role":true')"
add "$(tmpl fungeon '[{"type":1,"name":"party"}]' 'party' false)"
add "$(tmpl fungeon '[{"type":1,"name":"join","options":[{"type":3,"name":"name","value":"Alba"},{"type":3,"name":"class","value":"fighter"}]}]' '' null)"
add "$(tmpl thwacko '[{"type":1,"name":"show"}]' 'Thwack-O' false)"
add "$(tmpl xp '[{"type":4,"name":"level","value":3}]' 'XP' false)"
add "$(tmpl hazard '[{"type":1,"name":"roll"}]' 'Hazard die' false)"
add "$(tmpl turn '[{"type":1,"name":"show"}]' 'Turn' false)"
add "$(tmpl light '[{"type":1,"name":"list"}]' '' false)"
add "$(tmpl rest '[]' 'Rest' false)"
add "$(tmpl wander '[{"type":1,"name":"check"}]' '' null)"
add "$(tmpl surprise '[{"type":4,"name":"n","value":3}]' 'Surprise' false)"
add "$(tmpl procedure '[]' 'procedure' false)"
add "$(tmpl safe '[{"type":1,"name":"on"}]' 'Only the GM' true)"
add "$(tmpl vendor '[]' '' null)"
add "$(tmpl bargain '[{"type":3,"name":"vendor","value":"Gus"},{"type":3,"name":"item","value":"ring"},{"type":3,"name":"deal","value":"sell"}]' "There is no vendor 'Gus' here" true)"
add "$(tmpl encumbrance '[{"type":4,"name":"str","value":2},{"type":4,"name":"weight","value":60}]' '' false)"
add "$(tmpl gm '[{"type":1,"name":"show"}]' GM false ',"dm":true')"
add '{"type":3,"data":{"custom_id":"a:help gm","component_type":2},"expect":"/gm","private":false}'
add '{"type":3,"data":{"custom_id":"a:roll 2d6","component_type":2},"expect":"rolls","private":false}'
add '{"type":3,"data":{"custom_id":"a:wander rest exits:1","component_type":2}}'
add '{"type":3,"data":{"custom_id":"b:99","component_type":2},"expect":"expired","private":true}'
add '{"type":4,"data":{"type":1,"name":"help","options":[{"type":3,"name":"command","value":"g","focused":true}]}}'
add '{"type":4,"data":{"type":1,"name":"fungeon","options":[{"type":1,"name":"sheet","options":[{"type":3,"name":"who","value":"a","focused":true}]}]}}'
inject "{\"count\":1000,\"rate\":500,\"channels\":37,\"users\":7,\"templates\":[$T]}"
wait_until "i['answered'] == 1000" 15
[ "$(stat interactions.duplicates)" = 0 ] || fail "interactions answered twice"
[ "$(stat interactions.late)" = 0 ] || fail "interactions answered late"
[ "$(stat violations)" = 0 ] || fail "violations: $(stat violation_list)"

# A restart with the same state directory resumes the session and does
# not register again.
bot_stop
bot_start
wait_until "g['ready'] and g['resumed'] == 1" 15
[ "$(stat gateway.identifies)" = 1 ] || fail "the restart did not resume the session"
# The decision is logged once Discord's list is read, after the READY.
log_wait "unchanged since they were registered" 15
sleep 0.5 # time for a wrong registration to come
[ "$(stat rest.registrations)" = 1 ] || fail "unchanged commands were registered again"
grep -q "unchanged since they were registered" "$BOT_LOG" || fail "no log line about the skip"

# The dev guild is another scope: registered there, at once (after a
# resume too); and the global registration the runs above left is read and
# removed, or every command would show twice in that guild.
bot_stop
bot_start dev_guild=1000000000000000001
wait_until "g['ready'] and r['registrations'] == 3" 15
stat rest.commands_scope | grep -q "^/applications/1100000000000000001/commands$" ||
	fail "the global commands were not removed last: $(stat rest.commands_scope)"
# scope_count PATH: how many commands the fake holds for that scope.
scope_count() {
	curl -s "http://127.0.0.1:$PORT/_control/scopes" | python3 -c '
import json, sys
print(len(json.load(sys.stdin).get(sys.argv[1], [])))' "$1"
}
G=/applications/1100000000000000001/guilds/1000000000000000001/commands
[ "$(scope_count "$G")" -gt 5 ] || fail "the dev guild holds $(scope_count "$G") commands"
[ "$(scope_count /applications/1100000000000000001/commands)" = 0 ] ||
	fail "the global scope still holds commands"
grep -q "registered globally, which dev_guild replaces; removing them" "$BOT_LOG" ||
	fail "no log line about the global commands"
# An empty global scope is only read: nothing registered or removed again.
bot_stop
lists=$(stat rest.command_lists)
identify_window
bot_start dev_guild=1000000000000000001
wait_until "g['ready'] and r['command_lists'] >= $((lists + 2))" 15
sleep 0.5
[ "$(stat rest.registrations)" = 3 ] || fail "$(stat rest.registrations) registrations"
finish
