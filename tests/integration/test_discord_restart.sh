#!/bin/sh
# A restart loses nothing. Interactions stream at 10 a second while the
# bot is stopped with SIGTERM and started again at once (what `systemctl
# restart` does), then while it is killed with SIGKILL and started again at
# once. Each time the new process resumes the saved session (no new
# IDENTIFY; logged once), the fake replays every event sent meanwhile (it checks that
# none is missing from the replay), and every interaction is answered
# within its 3 s window, measured from when the fake created it. The
# session file in the state directory never holds the token, and keeps the
# GM role ids (a member with the GM role is still GM after the restart).
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

fake_start --heartbeat 41250
bot_start
wait_until "g['ready']" 15

T=""
add() { T="${T:+$T,}$1"; }
add "$(tmpl roll '[{"type":3,"name":"expression","value":"1d20+3"}]' 'rolls' false)"
add "$(tmpl gm '[{"type":1,"name":"show"}]' GM false)"
inject "{\"count\":300,\"rate\":10,\"channels\":7,\"users\":5,\"templates\":[$T]}"

SESSION=$WORK/state/discord-session-0.json
file_wait "$SESSION" 20 || fail "no session file in the state directory after 20 s"
grep -F -q -- "$TOKEN" "$SESSION" && fail "the session file holds the token"

# systemctl restart: SIGTERM, then a new process at once
kill -TERM "$BOT_PID"
bot_wait_exit 10
[ "$BOT_STATUS" = 0 ] || fail "the bot exited with $BOT_STATUS after SIGTERM"
bot_start
wait_until "g['resumed'] == 1 and g['ready']" 10
grep -q "resuming the saved session" "$BOT_LOG" || fail "the new process did not resume"
n=$(grep -c "resuming" "$BOT_LOG")
[ "$n" = 1 ] || fail "the resume is logged $n times, not once: $(grep resuming "$BOT_LOG")"

sleep 5
# kill -9, then a new process at once
bot_kill
bot_start
wait_until "g['resumed'] == 2 and g['ready']" 10

wait_until "i['left_to_inject'] == 0" 40
wait_until "i['answered'] == i['created']" 10
# The GM role's id was learnt from GUILD_CREATE, which a resume does not
# send again: the session file kept it, so the role still makes a GM.
grep -q '"gm_roles"' "$SESSION" || fail "the session file does not keep the GM role ids"
inject "{\"count\":3,\"rate\":0,\"channels\":1,\"users\":1,\"templates\":[$(tmpl tension \
	'[{"type":1,"name":"raise","options":[{"type":3,"name":"event","value":"door"}]}]' \
	Tension null ',"gm_role":true')]}"
wait_until "i['answered'] == i['created']" 10
created=$(stat interactions.created)
answered=$(stat interactions.answered)
echo "restart: $created interactions, $answered answered in time, $((created - answered)) lost," \
	"$(stat interactions.replay_duplicates) answered again after the kill -9 replay (Discord's 400)"
[ "$(stat gateway.identifies)" = 1 ] || fail "a restart started a new session"
[ "$(stat interactions.late)" = 0 ] || fail "interactions lost across the restarts"
[ "$(stat interactions.duplicates)" = 0 ] || fail "interactions answered twice"
finish
