#!/bin/sh
# Tables behind the GM's screen on IRC, against a real ngircd: a table
# hidden because encounter named it stays hidden from a player when the GM
# replaces encounter, across a restart; /table reveal and /table hide.
. tests/integration/lib.sh
exec python3 tests/integration/irc_screen.py "$BUILD"
