#!/bin/sh
# !panel on IRC against a real ngircd: at most three lines in the channel,
# no buttons, no pings, nothing edited later; hidden Tension stays behind
# the GM's screen, the GM's copy private.
. tests/integration/lib.sh
exec python3 tests/integration/irc_panel.py "$BUILD"
