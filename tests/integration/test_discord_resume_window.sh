#!/bin/sh
# Past Discord's resume window a restart cannot resume: the fake forgets a
# session 2 s after its connection ended (Discord: a few minutes), so the
# RESUME of a bot started 3 s after its stop gets op 9 false; the bot says
# so, starts a new session (IDENTIFY) and answers again.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

fake_start --heartbeat 41250 --identify-interval 500 --resume-window 2000
bot_start
wait_until "g['ready']" 15
bot_stop
sleep 3
identify_window
bot_start
wait_until "g['ready'] and g['identifies'] == 2" 15
[ "$(stat gateway.resumes)" = 1 ] || fail "the new process did not try to resume"
grep -q "resuming the saved session" "$BOT_LOG" || fail "no log line about the saved session"
grep -q "session invalid; identifying again" "$BOT_LOG" ||
	fail "no log line about the refused resume"
inject "{\"count\":5,\"rate\":0,\"channels\":1,\"users\":1,\"templates\":[$(tmpl gm '[{"type":1,"name":"show"}]' GM false)]}"
wait_until "i['answered'] == 5" 10
finish
