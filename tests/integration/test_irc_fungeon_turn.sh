#!/bin/sh
# The largest Fungeon combat turn on IRC against a real ngircd (8 players
# and a bot of 30-character nicks, 24 monsters of 24-character names): sent
# whole in parts of at most max_lines lines, each line within 512 bytes,
# nothing of its results lost, another player's reply between two parts.
. tests/integration/lib.sh
exec python3 tests/integration/irc_fungeon_turn.py "$BUILD"
