#!/bin/sh
# IRC settings applied live, against a real ngircd on loopback: channels
# with keys (+k) joined with them, rejoined after a KICK and a reconnect, a
# wrong key (475) logged once and not retried; SIGHUP applying a new key,
# a new prefix (same connection), a new nick (QUIT and reconnect), an added
# and a removed network, a first network added again to a delver left with
# none (one started with no transport is refused),
# and a bad file that keeps the settings in use. Keys never reach the log.
. tests/integration/lib.sh
exec python3 tests/integration/irc_live.py "$BUILD"
