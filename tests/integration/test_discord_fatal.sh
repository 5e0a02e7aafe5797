#!/bin/sh
# Discord conditions that must stop the bot with one clear sentence and an
# exit status of their own that the units do not restart (delver(8), EXIT
# STATUS): each fatal gateway close code, a token REST refuses at start,
# and privileged intents the application may not use. With shard_count =
# auto (the default), a count Discord refuses (4010, 4011) is one it
# recommended a moment ago: the next start takes its new recommendation,
# so the status is 1, which the units restart.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

# Each restart IDENTIFYs 500 ms after the last (the fake's spacing, which
# the bot takes from it; test_discord_identify_spacing keeps Discord's 5 s).
fake_start --heartbeat 5000 --identify-interval 500

expect_stop() { # expect_stop WHAT "log words" STATUS
	bot_wait_exit 10
	[ "$BOT_STATUS" = "$3" ] || fail "the bot exited with '$BOT_STATUS', not $3, after $1"
	grep -q -F "$2" "$BOT_LOG" || fail "no '$2' in the log after $1"
	if [ "$3" = 1 ]; then
		grep -q "RestartPreventExitStatus=.*\b1\b" systemd/delver.service &&
			fail "delver.service does not restart status 1"
	else
		grep -qx "RestartPreventExitStatus=.* $3 .*\|RestartPreventExitStatus=.* $3" \
			systemd/delver.service || fail "delver.service restarts status $3"
	fi
}

for code in 4004 4010 4011 4012 4013 4014; do
	case $code in
	4004) msg="token rejected (4004): check the token [discord] token_source names" status=6 ;;
	4010) msg="Discord refused the 1 shard it recommended (4010); the next start" status=1 ;;
	4011) msg="Discord refused the 1 shard it recommended (4011); the next start" status=1 ;;
	4012) msg="invalid API version (4012)" status=9 ;;
	4013) msg="invalid intents (4013): check [discord] intents" status=10 ;;
	4014) msg="disallowed intents (4014)" status=11 ;;
	esac
	# A count Discord refused with auto is kept in the identify ledger,
	# so that a restart spends no IDENTIFY on it (test_discord_auto_refused):
	# each close here starts from a ledger of its own.
	export XDG_RUNTIME_DIR="$WORK/run-$code"
	mkdir -m 700 "$XDG_RUNTIME_DIR"
	identify_window
	bot_start
	wait_until "g['ready']" 10
	ctl close $code
	expect_stop "close $code" "$msg" $status
done

# Privileged intents (MESSAGE_CONTENT): the fake refuses them as Discord does.
identify_window
bot_start intents=32769
expect_stop "privileged intents" "disallowed intents (4014)" 11

# A token Discord does not know: REST says 401 before any gateway work.
DELVER_TEST_TOKEN="MTEwMDAwMDAwMDAwMDAwMDAwMQ.wrong.token-xyz"
bot_start
expect_stop "a wrong token" "token rejected by Discord (401): check the token [discord] token_source names" 6
grep -q -F "$DELVER_TEST_TOKEN" "$BOT_LOG" && fail "the wrong token appears in the log"
DELVER_TEST_TOKEN="$TOKEN"
finish
