#!/bin/sh
# A table typed line by line on IRC against a real ngircd: between
# !table set NAME and !table end, with other users' lines, other commands,
# a cancel, a replaced draft, two users at once, a table too long and a
# private conversation.
. tests/integration/lib.sh
exec python3 tests/integration/irc_table.py "$BUILD"
