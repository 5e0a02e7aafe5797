#!/bin/sh
# Persistence under kill -9: 50 rounds of acknowledged GM changes with
# --fsync always, each ended by SIGKILL at a random moment; after every
# restart each acknowledged change must be there (persist_crash.py).
. tests/integration/lib.sh
python3 tests/integration/persist_crash.py "$DELVER" "${CRASH_ROUNDS:-50}" "${CRASH_SEED:-12345}"
