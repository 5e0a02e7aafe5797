#!/bin/sh
# IRC against a real ngircd: a player's records follow their nick changes
# and bind to nick and user@host (someone taking the nick from another
# user@host is not them); plain_channels sends text without formatting
# (dropped dice keep ~~); addressing by nick; help by NOTICE; user control
# characters escaped in the debug log.
. tests/integration/lib.sh
exec python3 tests/integration/irc_identity.py "$BUILD"
