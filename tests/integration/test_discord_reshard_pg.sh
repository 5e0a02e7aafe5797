#!/bin/sh
# Resharding a fleet on PostgreSQL loses no channel: the reshard test's
# phases (tests/integration/reshard_lib.sh: counts 1 -> 2 -> 4 -> 2, then
# one process for every shard) with the state and the identify ledger in
# one database on a local cluster (tests/tools/pg_cluster.sh), stopped by
# its PID at the end.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

pg_start

. tests/integration/reshard_lib.sh
# Every process after the first finds the identify ledger's tables made:
# what the server says of that (a NOTICE) is the log's at debug level, never
# a bare line of its own (opcheck6 P1).
if grep -n "^NOTICE:" "$WORK"/bot*.log; then
	fail "a PostgreSQL notice reached a log as a bare line (above)"
fi
finish
