#!/bin/sh
# IRC under a flood of strangers: 20,000 private messages from distinct
# nicks, faster than the bot may answer. One warning, then a count every
# 10 s; no record kept of a stranger who only rolled; memory within a few
# MB of where it was (tests/integration/irc_flood.py).
. tests/integration/lib.sh
exec python3 tests/integration/irc_flood.py "$BUILD"
