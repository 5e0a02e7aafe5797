#!/bin/sh
# A throwaway PostgreSQL cluster for the store's tests and benchmarks.
#   tests/tools/pg_cluster.sh start DIR   initdb in DIR/data (the first time),
#                                         start the server, print its conninfo
#   tests/tools/pg_cluster.sh stop DIR    stop it by the PID in postmaster.pid
#                                         (PG_STOP_WAIT=N: seconds per try)
#   tests/tools/pg_cluster.sh conninfo DIR
# The server listens on a unix socket in DIR only (no TCP), so any number of
# clusters can run side by side. As root, the server runs as the user
# "postgres" (Debian's package creates it), since PostgreSQL refuses root;
# DIR is handed to that user, and must be a directory that user can reach
# (under /tmp, not in the checkout). Authentication is "trust" for the socket, which
# only DIR's owner and root can reach (DIR is 0700). PG_FSYNC=off starts it
# without fsync (the unit tests: faster, same semantics while the machine
# stays up). It never stops or kills any process but the one it started.
set -eu

usage() {
	echo "usage: tests/tools/pg_cluster.sh start|stop|conninfo DIR" >&2
	exit 2
}
[ $# -eq 2 ] || usage
cmd=$1
dir=$2
port=5432 # only names the socket file DIR/.s.PGSQL.5432

bindir=""
for d in /usr/lib/postgresql/*/bin; do
	[ -x "$d/initdb" ] && bindir=$d # the glob sorts: the newest version wins
done
if [ -z "$bindir" ]; then
	echo "pg_cluster: no PostgreSQL server found in /usr/lib/postgresql/*/bin; install it with apt-get install postgresql" >&2
	exit 1
fi

# As root the tools run as "postgres" from /, a directory every user may
# enter: the checkout (the current directory) may be one only its owner
# can (a clone in /root or a home directory), and initdb, pg_ctl and the
# server each try to enter the directory they were started in.
run() {
	if [ "$(id -u)" -eq 0 ]; then
		(cd / && runuser -u postgres -- "$@")
	else
		"$@"
	fi
}

case "$cmd" in
start)
	mkdir -p "$dir"
	dir=$(cd "$dir" && pwd)
	if [ "$(id -u)" -eq 0 ]; then
		if ! id postgres >/dev/null 2>&1; then
			echo "pg_cluster: running as root needs the user 'postgres' (Debian's postgresql package creates it)" >&2
			exit 1
		fi
		chown postgres "$dir"
	fi
	chmod 0700 "$dir"
	if [ ! -f "$dir/data/PG_VERSION" ]; then
		run "$bindir/initdb" -D "$dir/data" -U delver -A trust -E UTF8 --no-sync \
			--locale=C.UTF-8 >"$dir/initdb.log" 2>&1 || {
			echo "pg_cluster: initdb failed; see $dir/initdb.log" >&2
			exit 1
		}
	fi
	run "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
		-o "-k $dir -c listen_addresses= -p $port -c fsync=${PG_FSYNC:-on} -c max_connections=50" \
		start >/dev/null || {
		echo "pg_cluster: the server did not start; see $dir/server.log" >&2
		exit 1
	}
	echo "host=$dir port=$port dbname=postgres user=delver"
	;;
stop)
	pidfile=$dir/data/postmaster.pid
	[ -f "$pidfile" ] || exit 0
	pid=$(head -n 1 "$pidfile")
	case "$pid" in '' | *[!0-9]*)
		echo "pg_cluster: $pidfile holds no PID" >&2
		exit 1
		;;
	esac
	# A fast shutdown first; a server that has not ended after PG_STOP_WAIT
	# seconds (60; a crash recovery on a loaded machine, or a backend that
	# does not answer) is asked for an immediate one, as pg_ctl -m immediate
	# would, which ends every backend (those that ignore it are killed by the
	# server after 5 s): the cluster's next start recovers.
	wait=${PG_STOP_WAIT:-60}
	kill -INT "$pid" 2>/dev/null || exit 0
	for limit in $wait 30; do
		i=0
		while kill -0 "$pid" 2>/dev/null; do
			i=$((i + 1))
			[ $i -le $((limit * 10)) ] || break
			sleep 0.1
		done
		kill -0 "$pid" 2>/dev/null || exit 0
		[ "$limit" = 30 ] && break
		echo "pg_cluster: the server (PID $pid) did not stop in $wait s; asking for an immediate shutdown" >&2
		kill -QUIT "$pid" 2>/dev/null || exit 0
	done
	echo "pg_cluster: the server (PID $pid) did not stop in 30 s after an immediate shutdown either" >&2
	exit 1
	;;
conninfo)
	dir=$(cd "$dir" && pwd)
	echo "host=$dir port=$port dbname=postgres user=delver"
	;;
*) usage ;;
esac
