#!/bin/sh
# tests/tools/pg_cluster.sh stop ends its server even when a fast shutdown
# cannot: a backend that does not answer its SIGTERM (here one stopped with
# SIGSTOP, as the store's tests do to play a silent server) keeps the
# postmaster waiting for ever. After PG_STOP_WAIT seconds (2 here) the
# script asks for an immediate shutdown, which ends the stopped backend too;
# it says so on stderr and exits 0. The stop used to give up after 60 s with
# exit 1 and leave the server running.
. tests/integration/lib.sh
set -u
PG=$(mktemp -d /tmp/delver-pgclstop.XXXXXX)
PSQL=""
cleanup_all() {
	[ -n "$PSQL" ] && kill "$PSQL" 2> /dev/null && wait "$PSQL" 2> /dev/null
	sh tests/tools/pg_cluster.sh stop "$PG" > /dev/null 2>&1
	rm -rf "$PG"
}
trap cleanup_all EXIT
trap 'exit 1' INT TERM

CONNINFO=$(PG_FSYNC=off sh tests/tools/pg_cluster.sh start "$PG") ||
	{ echo "FAIL: the PostgreSQL cluster did not start"; exit 1; }
postmaster=$(head -n 1 "$PG/data/postmaster.pid")

# One client session whose backend sleeps in a query; its PID is read from
# the server, then the backend is stopped.
psql -X -q "$CONNINFO" -c "select pg_sleep(600)" > /dev/null 2>&1 &
PSQL=$!
backend=""
i=0
while [ -z "$backend" ]; do
	i=$((i + 1))
	[ $i -le 200 ] || { echo "FAIL: the sleeping session never showed in pg_stat_activity"; exit 1; }
	sleep 0.05
	backend=$(psql -X -A -t "$CONNINFO" -c \
		"select pid from pg_stat_activity where query = 'select pg_sleep(600)'" 2> /dev/null)
done
kill -STOP "$backend" || { echo "FAIL: could not stop backend $backend"; exit 1; }

PG_STOP_WAIT=2 sh tests/tools/pg_cluster.sh stop "$PG" 2> "$PG/stop.err"
rc=$?
fails=0
if [ $rc -ne 0 ]; then
	echo "FAIL: the stop exited $rc (0 expected): $(cat "$PG/stop.err")"
	fails=1
fi
expect="pg_cluster: the server (PID $postmaster) did not stop in 2 s; asking for an immediate shutdown"
if [ "$(cat "$PG/stop.err")" != "$expect" ]; then
	echo "FAIL: the stop said '$(cat "$PG/stop.err")', not '$expect'"
	fails=1
fi
if kill -0 "$postmaster" 2> /dev/null || kill -0 "$backend" 2> /dev/null; then
	echo "FAIL: the server (PID $postmaster) or its stopped backend ($backend) still runs"
	kill -CONT "$backend" 2> /dev/null
	fails=1
fi
[ $fails -eq 0 ] && echo "ok: a server whose backend does not answer is stopped"
exit $fails
