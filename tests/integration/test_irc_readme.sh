#!/bin/sh
# README.md's IRC session, replayed against a real ngircd with the seed it
# names: every line the bot says must come out as written (formatting and
# the joiners that keep nicks from notifying removed). UPDATE=1 prints the
# session as it came out.
. tests/integration/lib.sh
exec python3 tests/integration/irc_readme.py "$BUILD"
