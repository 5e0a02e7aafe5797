#!/bin/sh
# delver(7)'s console sessions, each replayed with its seed and compared
# with what the page shows (tests/integration/man7_sessions.py).
. tests/integration/lib.sh
exec python3 tests/integration/man7_sessions.py "$DELVER"
