#!/bin/sh
# Discord: the live panel across restarts and replays (issue 30), each
# case set up so that its outcome is certain:
#  - a /panel, then a kill -9 before the bot saved a resume point past it:
#    Discord replays the /panel to the next process; it asks Discord
#    whether it was answered (it was) and posts no second panel;
#  - the same with a press of the panel's "Next turn": the turn passes
#    once, the panel is not updated a second time (no second type 7) nor
#    edited;
#  - after each start the panel is checked: read once (GET), edited only
#    when it shows something else: after a kill -9 that came before the
#    edit of the last change (Discord had refused it: 429), exactly one edit
#    shows the change; when it is current, none;
#  - a panel someone deleted while the bot was down is found gone by that
#    read (one 404, logged at info alone), forgotten (its record cleared:
#    the next start reads nothing), never edited; a new /panel records the new message with its
#    server (the guild: a fleet's process checks the panels of its shards
#    alone);
#  - where the bot may not read the channel's history (403, 50001), the
#    check edits the panel instead;
#  - in a fleet, only the process running the shard of the panel's guild
#    checks it;
#  - a panel whose channel was idle past evict_after is checked too.
# A kill within a second of an event leaves the resume point before it
# (the session file is written at most once a second): the test makes that
# certain by putting back the session file saved before the event, which
# is what such a kill leaves.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh
. tests/integration/panel_lib.sh

CHAN=1300000000000000000
GUILD=1000000000000000001 # the fake's first guild, where CHAN is
SESSION=$WORK/state/discord-session-0.json
DB=$WORK/state/delver.db

# until_same COMMAND TEXT WHAT: waits (10 s at most) until COMMAND prints
# TEXT; else fails, naming WHAT.
until_same() {
	i=0
	until [ "$($1)" = "$2" ]; do
		i=$((i + 1))
		[ $i -gt 100 ] && fail "$3 is $($1), not $2, after 10 s"
		sleep 0.1
	done
}
# The resume point in the session file, and the last sequence the fake
# sent the live session.
file_seq() {
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["seq"])' "$SESSION" \
		2>/dev/null || echo none
}
fake_seq() {
	sessions | python3 -c '
import json, sys
print([s for s in json.load(sys.stdin) if s["live"]][-1]["seq"])'
}
# settle: waits until the bot saved the resume point of every event sent,
# then keeps a copy of that file.
settle() {
	until_same file_seq "$(fake_seq)" "the session file's resume point"
	cp "$SESSION" "$WORK/session.saved"
}
# kill_early: kill -9, the session file as a kill before its next write
# leaves it (the copy settle kept).
kill_early() {
	kill -STOP "$BOT_PID"
	bot_kill
	cp "$WORK/session.saved" "$SESSION"
}
# restart R: the next bot, waited on until it resumed the session (R: the
# resumes counted before). At once: a replayed interaction is answered
# only within Discord's 3 s of its creation (later the bot sheds it
# unread), so the kill and the restart must fit in them.
restart() {
	bot_start
	wait_until "g['resumed'] > $1 and g['ready']" 15
}
# snap: the counters the cases compare, as shell variables, in one read.
snap() {
	eval "$(stats | python3 -c '
import json, sys
s = json.load(sys.stdin)
i, g, r = s["interactions"], s["gateway"], s["rest"]
print("resumed=%d replayed=%d gets=%d cgets=%d edits=%d updates=%d unknown=%d denied=%d" % (
    g["resumed"], i["replayed"], i["original_gets"], r["channel_gets"], r["channel_edits"],
    i["updates"], r["unknown_messages"], r["missing_access"]))')"
}
# The channel's panel record in the database ("null" when none).
record() {
	python3 -c '
import json, sqlite3, sys
c = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
for (key, rec) in c.execute("SELECT key, rec FROM channels"):
    if key == sys.argv[2]:
        print(json.dumps(json.loads(bytes(rec)[9:]).get("mods", {}).get("panel"),
                         sort_keys=True, separators=(",", ":")))' "$DB" "discord:$CHAN"
}
wait_record() {
	until_same record "$1" "the panel's record"
}

fake_start --heartbeat 41250
bot_start
wait_until "g['ready'] and r['registrations'] == 1" 10
one "$(tmpl gm '[{"type":1,"name":"claim"}]' 'is now the GM' false ',"user":1')"
one "$(tmpl panel '[]' 'Panel posted' true ',"user":1')"
wait_until "r['channel_posts'] == 1" 10
first=$(field 1)
wait_record "{\"message\":\"$first\",\"server\":\"$GUILD\"}"

# A /panel answered (it moves the panel: a new message, the old one
# deleted), then a kill -9 before the resume point passed it.
settle
snap
one "$(tmpl panel '[]' 'Panel posted' true ',"user":1')"
wait_until "r['channel_posts'] == 2 and r['channel_deletes'] == 1" 10
kill_early
restart "$resumed"
second=$(field 1)
[ "$second" != "$first" ] || fail "the second /panel did not move the panel"
# Replayed, asked about, not posted again; the start's check read the
# panel, which is current: no edit.
wait_until "i['replayed'] == $replayed + 1 and i['original_gets'] == $gets + 1" 10
wait_until "r['channel_gets'] == $cgets + 1" 10
log_wait "1 live panel to check" 5
[ "$(stat rest.channel_posts)" = 2 ] || fail "the replayed /panel posted a panel again"
[ "$(count_panels)" = 1 ] || fail "$(count_panels) panels in the channel after the replay"
[ "$(field 1)" = "$second" ] || fail "the replay moved the panel: $(panel)"
[ "$(stat rest.channel_edits)" = "$edits" ] ||
	fail "a current panel was edited $(($(stat rest.channel_edits) - edits)) times after the restart"
[ "$(stat interactions.replay_duplicates)" = 0 ] || fail "the replayed /panel was answered again"

# A press of "Next turn" answered (the panel updated by type 7, the roll
# as a message of its own), then a kill -9 before the resume point passed
# it: replayed, its change kept already, it is not pressed again.
settle
snap
one "$(press 'Next turn' 1 'Turn 1' false ',"parts":["Turn 1","Rolled"]')"
wait_until "i['updates'] == $updates + 1" 5
kill_early
restart "$resumed"
wait_until "i['replayed'] == $replayed + 1 and i['original_gets'] == $gets + 1" 10
wait_until "r['channel_gets'] == $cgets + 1" 10
log_wait "1 live panel to check" 5
case "$(field 3)" in
*"Turn 1 "*) ;;
*) fail "after the replayed press the panel shows: $(field 3)" ;;
esac
[ "$(stat interactions.updates)" = $((updates + 1)) ] ||
	fail "the replayed press updated the panel $(($(stat interactions.updates) - updates)) times"
[ "$(stat rest.channel_edits)" = "$edits" ] ||
	fail "the replayed press edited the panel $(($(stat rest.channel_edits) - edits)) times"
[ "$(stat interactions.replay_duplicates)" = 0 ] || fail "the replayed press was answered again"
[ "$(field 1)" = "$second" ] || fail "the replayed press moved the panel: $(panel)"

# A change whose edit Discord refused (429, retry after 8 s), then a
# kill -9 before that: the panel shows the turn before. The next start
# (once the 8 s passed: Discord's limit holds for any process) checks it
# and edits it once. The bot must be stopped within the 8 s from the 429,
# before its retry: from the change to the stop the script uses curl
# alone (a poll's python took 13 s to start on a loaded runner), and
# checks the answer once the bot is stopped.
ctl "rest429 match=/messages/:id count=1 retry=8"
n=$((n + 1))
alone "$(tmpl turn '[{"type":1,"name":"advance"}]' 'pass' false ',"user":1')"
end=$(($(date +%s) + 10))
until stats | grep -q '"r429":[[:space:]]*1,'; do
	[ "$(date +%s)" -ge "$end" ] && fail "no 429 on the panel's edit within 10 s"
	sleep 0.1
done
kill -STOP "$BOT_PID"
wait_until "i['created'] == $n and i['answered'] == $n and $ONE_ALSO" 10
case "$(field 3)" in
*"Turn 1 "*) ;;
*) fail "the failed edit changed the panel: $(field 3)" ;;
esac
bot_kill
sleep 8
snap
restart "$resumed"
wait_until "r['channel_gets'] == $cgets + 1 and r['channel_edits'] == $edits + 1" 10
case "$(field 3)" in
*"Turn 2 "*) ;;
*) fail "after the restart the panel shows: $(field 3)" ;;
esac

# Someone deletes the panel while the bot is down: the start's check
# finds it gone (one 404), clears its record, edits nothing.
bot_stop
ctl msgdelete "$second"
snap
restart "$resumed"
wait_until "r['channel_gets'] == $cgets + 1 and r['unknown_messages'] == $unknown + 1" 10
log_wait "panel of channel $CHAN is gone" 5
# The 404 is what a deleted panel answers: said at info, never warned of.
grep -q "warn:.*404" "$BOT_LOG" && fail "the deleted panel's 404 was warned of: $(grep 'warn:.*404' "$BOT_LOG")"
wait_record null
# A change tries nothing: no record, no refresh.
one "$(tmpl turn '[{"type":1,"name":"advance"}]' 'pass' false ',"user":1')"
[ "$(panel)" = none ] || fail "a panel is shown: $(panel)"
# The next start has nothing to check.
bot_stop
resumed=$(stat gateway.resumed)
restart "$resumed"
log_wait "running shard" 5
grep -q "live panel" "$BOT_LOG" && fail "a forgotten panel was checked: $(grep 'live panel' "$BOT_LOG")"
[ "$(stat rest.channel_gets)" = $((cgets + 1)) ] || fail "a forgotten panel was read again"
[ "$(stat rest.unknown_messages)" = $((unknown + 1)) ] || fail "a forgotten panel was tried again"
[ "$(stat rest.channel_edits)" = "$edits" ] || fail "a forgotten panel was edited"

# A new panel, where the bot may not read the history: the start's check
# is refused (403, 50001), so it edits the panel instead.
one "$(tmpl panel '[]' 'Panel posted' true ',"user":1')"
wait_until "r['channel_posts'] == 3" 10
third=$(field 1)
wait_record "{\"message\":\"$third\",\"server\":\"$GUILD\"}"
ctl "nohistory $CHAN"
bot_stop
snap
restart "$resumed"
wait_until "r['channel_gets'] == $cgets + 1 and r['channel_edits'] == $edits + 1" 10
[ "$(stat rest.missing_access)" = $((denied + 1)) ] || fail "the read was not refused once"
case "$(field 3)" in
*"Turn 3 "*) ;;
*) fail "after the edit the panel shows: $(field 3)" ;;
esac
[ "$(field 1)" = "$third" ] || fail "the panel moved: $(panel)"

# A fleet: each process checks the panels of its own shards' guilds. With
# two shards, CHAN's guild is on shard 1: the process of shard 0 leaves
# its panel alone, the process of shard 1 checks it (and, Read Message
# History still refused, edits it).
bot_stop
snap
identify_window
bot_start shard_count=2 shards=0
log_wait "running shard 0 of 2" 10
wait_until "g['ready']" 15
grep -q "live panel" "$BOT_LOG" && fail "shard 0's process checked a panel of shard 1"
bot_stop
identify_window
bot_start shard_count=2 shards=1
log_wait "1 live panel to check" 10
wait_until "r['channel_gets'] == $cgets + 1 and r['channel_edits'] == $edits + 1" 10
[ "$(stat rest.missing_access)" = $((denied + 1)) ] || fail "shard 1's process read the panel twice"

# A channel idle longer than evict_after is not among those a start loads
# for being active; its panel is checked all the same (the store loads
# every channel that has one): deleted meanwhile, it is found gone.
bot_stop
ctl msgdelete "$third"
sleep 2
snap
BOT_EXTRA="evict_after = 1"
identify_window
bot_start
log_wait "1 live panel to check" 10
wait_until "r['unknown_messages'] == $unknown + 1" 10
log_wait "panel of channel $CHAN is gone" 5
wait_record null
BOT_EXTRA=""

[ "$(stat interactions.duplicates)" = 0 ] || fail "interactions answered twice"
[ "$(stat rest.r429)" = 1 ] || fail "$(stat rest.r429) 429s, not the one asked for"
finish
