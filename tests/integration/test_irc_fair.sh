#!/bin/sh
# IRC fairness against a real ngircd: three users send 50 !roll each within
# 2 s while a fourth rolls once in the same channel. Every command is
# answered whole or its user is told to slow down; the fourth user is
# answered (the time it took is printed, not asserted: make bench is where
# speed is judged). Then delver is stopped (SIGSTOP) while five users send
# 8 rolls each and dave one after theirs; when it goes on and reads them
# in one batch, dave is still answered.
. tests/integration/lib.sh
exec python3 tests/integration/irc_fair.py "$BUILD"
