#!/bin/sh
# A session file that cannot be written (its temporary file's name taken
# by a directory, as a full disk refuses it too): the warning is logged
# once, though the stop retries the write every 20 ms until its time is
# up, and the stop still exits 0. (It was logged at each retry: ~100 lines
# in the stop's 2 s on a full disk.)
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

# unsaved_run READY WANT: the session file's temporary name taken by a
# directory, a bot started, once READY holds answering one /roll, and
# stopped; its log must hold one line about saving the session: WANT.
unsaved_run() {
	mkdir -p "$WORK/state/discord-session-0.json.tmp"
	bot_start
	wait_until "$1" 15
	alone "$(tmpl roll '[{"type":3,"name":"expression","value":"1d1"}]' "1" false)"
	wait_until "i['left_to_inject'] == 0 and i['answered'] == i['created']" 15
	bot_stop
	got=$(unstamp "$BOT_LOG" | grep -F "cannot save shard")
	[ "$got" = "$2" ] || fail "not the one warning: $got"
}

fake_start --heartbeat 41250
unsaved_run "g['ready']" "warn: discord: cannot save shard 0's gateway session (a restart will start a new one): cannot create $WORK/state/discord-session-0.json.tmp: Is a directory"
echo "ok   a session file that cannot be written: one warning in the run and its stop"

# The same once a session file was written (as on a disk that filled up
# after it): a restart resumes from the point that file holds, and the
# warning says so, not that a new session starts.
rmdir "$WORK/state/discord-session-0.json.tmp"
bot_start
wait_until "g['ready'] and g['identifies'] == 2" 15
file_wait "$WORK/state/discord-session-0.json" 20 || fail "no session file after 20 s"
bot_stop
seq=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["seq"])' \
	"$WORK/state/discord-session-0.json")
unsaved_run "g['resumed'] == 1 and g['ready']" "warn: discord: cannot save shard 0's gateway session (a restart resumes it from the point saved before, sequence $seq, and Discord replays the events since): cannot create $WORK/state/discord-session-0.json.tmp: Is a directory"
echo "ok   with an older session file: the warning says a restart resumes from it"
finish
