#!/bin/sh
# Hidden means hidden on Discord, through the fake: every command and
# subcommand the bot registered, walked as a player and as the GM in a
# channel whose Tension is hidden, with autocomplete and the buttons shown;
# no message a player can see holds a hidden entry, the value, the reason,
# or another player's secret roll (tests/integration/discord_hidden.py).
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

fake_start --heartbeat 5000
bot_start
wait_until "g['ready'] and r['registrations'] >= 1" 15
python3 tests/integration/discord_hidden.py "$PORT" || fail "the walk did not finish"
finish
