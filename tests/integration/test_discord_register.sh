#!/bin/sh
# Discord command registration repairs a stale registration: at each start
# the bot reads what Discord holds (GET) and registers again (PUT) when a
# description, an option or a whole command differs, although its own hash
# of the table is unchanged; when nothing differs it only reads.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

fake_start --heartbeat 2000 --identify-interval 500
bot_start
wait_until "g['ready'] and r['registrations'] == 1" 10
curl -s "http://127.0.0.1:$PORT/_control/commands" > "$WORK/registered.json"
[ "$(stat rest.command_lists)" = 1 ] || fail "the bot did not read the commands first"

# stale EDIT: what Discord holds becomes the registered set with EDIT.
stale() {
	python3 -c 'import json, sys
cmds = json.load(open(sys.argv[1]))
edit = sys.argv[2]
if edit == "description":
    cmds[0]["description"] = "An older description"
elif edit == "option":
    o = cmds[1]["options"][0]
    o["name"] = o["name"] + "x"
elif edit == "missing":
    del cmds[-1]
print(json.dumps({"commands": cmds}))' "$WORK/registered.json" "$1" > "$WORK/stale.json"
	out=$(curl -s -X POST --data-binary @"$WORK/stale.json" \
		"http://127.0.0.1:$PORT/_control/commands")
	[ "$out" = ok ] || fail "cannot make the registration stale: $out"
}

# same_as_registered: Discord holds the table again, field for field.
same_as_registered() {
	curl -s "http://127.0.0.1:$PORT/_control/commands" > "$WORK/now.json"
	python3 -c 'import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
sys.exit(0 if a == b else 1)' "$WORK/registered.json" "$WORK/now.json"
}

n=1
for edit in description option missing; do
	bot_stop
	stale $edit
	same_as_registered && fail "the stale set ($edit) equals the registered one"
	identify_window
	n=$((n + 1))
	bot_start
	wait_until "g['ready'] and r['registrations'] == $n" 15
	same_as_registered || fail "the stale registration ($edit) was not repaired"
	grep -q "the commands on Discord differ" "$BOT_LOG" || fail "no log line about the repair"
done

# Unchanged: read, not registered again.
bot_stop
identify_window
bot_start
wait_until "g['ready'] and r['command_lists'] == $((n + 1))" 15
# The decision is logged once the bot has read the list the fake sent.
log_wait "unchanged since they were registered" 15
sleep 0.5 # time for a wrong registration to come
[ "$(stat rest.registrations)" = $n ] || fail "unchanged commands were registered again"
grep -q "unchanged since they were registered" "$BOT_LOG" || fail "no log line about the skip"

# Without the local hash the comparison alone finds them equal.
bot_stop
rm -f "$WORK/state/discord-commands.hash"
identify_window
bot_start
wait_until "g['ready'] and r['command_lists'] == $((n + 2))" 15
log_wait "the commands on Discord match" 15
sleep 0.5 # time for a wrong registration to come
[ "$(stat rest.registrations)" = $n ] || fail "equal commands were registered again"
grep -q "the commands on Discord match" "$BOT_LOG" || fail "no log line about the match"
finish
