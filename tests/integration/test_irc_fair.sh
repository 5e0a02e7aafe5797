#!/bin/sh
# IRC fairness against a real ngircd: three users send 50 !roll each within
# 2 s while a fourth rolls once in the same channel. Every command is
# answered whole or its user is told to slow down; the fourth user is
# answered (the time it took is printed, not asserted: make bench is where
# speed is judged).
. tests/integration/lib.sh
exec python3 tests/integration/irc_fair.py "$BUILD"
