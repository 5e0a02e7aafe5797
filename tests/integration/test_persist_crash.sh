#!/bin/sh
# Persistence under kill -9: 100 rounds of acknowledged GM changes with
# --fsync always (SQLite's synchronous = FULL), each ended by SIGKILL at a
# random moment (also while a snapshot file is written); after every restart
# the database opens and each acknowledged change is there (persist_crash.py).
. tests/integration/lib.sh
python3 tests/integration/persist_crash.py "$DELVER" "${CRASH_ROUNDS:-100}" "${CRASH_SEED:-12345}"
