#!/bin/sh
# The gateway faults of test_discord_resume.sh again with [discord]
# compress = none: plain JSON text frames, the fake checking that no
# connection asks for compression.
DISCORD_COMPRESS=none
export DISCORD_COMPRESS
exec sh tests/integration/test_discord_resume.sh "$@"
