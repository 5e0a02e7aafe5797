#!/bin/sh
# Resharding a fleet on PostgreSQL loses no channel: the reshard test's
# phases (tests/integration/reshard_lib.sh: counts 1 -> 2 -> 4 -> 2, then
# one process for every shard) with the state and the identify ledger in
# one database on a local cluster (tests/tools/pg_cluster.sh), stopped by
# its PID at the end.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

# Its own directory under /tmp: as root the server runs as "postgres",
# which cannot enter $WORK (0700).
PG=$(mktemp -d /tmp/delver-reshard-pg.XXXXXX)
PG_STARTED=""
pg_cleanup() {
	for p in $OTHER_PIDS; do kill "$p" 2>/dev/null; done
	for p in $OTHER_PIDS; do wait "$p" 2>/dev/null; done
	OTHER_PIDS=""
	[ -n "$PG_STARTED" ] && sh tests/tools/pg_cluster.sh stop "$PG" > /dev/null 2>&1
	rm -rf "$PG"
	cleanup
}
trap pg_cleanup EXIT

CONNINFO=$(PG_FSYNC=off sh tests/tools/pg_cluster.sh start "$PG") ||
	fail "the PostgreSQL cluster did not start"
PG_STARTED=1
BOT_EXTRA=$(printf '[store]\nbackend = postgresql\nconninfo = %s' "$CONNINFO")

. tests/integration/reshard_lib.sh
finish
