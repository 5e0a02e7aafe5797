#!/bin/sh
# A clean stop right after the PostgreSQL server came back saves every
# change kept in memory while it was away (delver(8), STATE and EXIT
# STATUS), whatever the reconnection backoff had left to wait. The console
# on a throwaway cluster (tests/tools/pg_cluster.sh), its input from a fifo
# the script writes:
#  1. /gm claim and /tension set 2 while the server is up.
#  2. The server stopped (by its PID, pg_cluster.sh stop); 12 changes made
#     meanwhile (/tension set 3..9, /turn advance x5): each reply warns that
#     it may be lost. Then about 7 s pass, so that delver's backoff between
#     attempts has grown to its 5 s.
#  3. The server started again and answering (psql), and at once the end of
#     the console's input: delver must reach the server at the stop, save
#     the 12 changes and exit 0, with no line saying something was not
#     saved.
#  4. A second start on the same database reads Tension 9/10 and Turn 5.
#  5. A third start changes Tension with the server up, then the server
#     stops for good, one more change, SIGTERM: after the stop's 60 s of
#     trying, exit status 1 and exactly one line counting the record lost.
# tests/unit/test_persist_pg.c checks the give-up too, with a reach time of
# 0.3 s.
# No timing is asserted: the waits only place the stop before delver's own
# next reconnection attempt, which is where the change used to be lost.
. tests/integration/lib.sh
set -u
top=$(mktemp -d)
PG=$(mktemp -d /tmp/delver-pgstop-pg.XXXXXX)
PG_UP=""
BOT=""
cleanup_all() {
	exec 3>&- 2> /dev/null
	[ -n "$BOT" ] && kill "$BOT" 2> /dev/null && wait "$BOT" 2> /dev/null
	[ -n "$PG_UP" ] && sh tests/tools/pg_cluster.sh stop "$PG" > /dev/null 2>&1
	rm -rf "$top" "$PG"
}
trap cleanup_all EXIT
trap 'exit 1' INT TERM
fails=0

CONNINFO=$(PG_FSYNC=off sh tests/tools/pg_cluster.sh start "$PG") ||
	{ echo "FAIL: the PostgreSQL cluster did not start"; exit 1; }
PG_UP=1
printf '[store]\nbackend = postgresql\nconninfo = %s\n' "$CONNINFO" > "$top/pg.conf"

# replies_wait PATTERN N: until the console's output holds N lines that
# match PATTERN (20 s at most).
replies_wait() {
	rw_i=0
	until [ "$(grep -c "$1" "$top/out")" -ge "$2" ]; do
		rw_i=$((rw_i + 1))
		if [ "$rw_i" -gt 400 ]; then
			echo "FAIL: waited 20 s for $2 lines matching '$1'"
			echo "--- stdout"; cat "$top/out"; echo "--- stderr"; cat "$top/err"
			exit 1
		fi
		sleep 0.05
	done
}

# bot_fed FIFO: a console delver on the cluster reading its lines from
# FIFO, which descriptor 3 writes to; BOT holds its PID.
bot_fed() {
	mkfifo "$1"
	"$DELVER" --config "$top/pg.conf" --console --color never --user gm --log-level info \
		--state-dir "$top/s" --channel t < "$1" > "$top/out" 2> "$top/err" &
	BOT=$!
	exec 3> "$1"
}

bot_fed "$top/in"

# 1. with the server up
printf '/gm claim\n/tension set 2\n' >&3
replies_wait 'Tension set 1 → 2' 1

# 2. the server away; changes kept in memory
sh tests/tools/pg_cluster.sh stop "$PG" > /dev/null 2>&1 3>&-
PG_UP=""
for n in 3 4 5 6 7 8 9; do printf '/tension set %s\n' "$n" >&3; done
for n in 1 2 3 4 5; do printf '/turn advance\n' >&3; done
replies_wait 'may be lost' 12
sleep 7

# 3. the server back (the fifo's end is not handed to it), then the stop
CONNINFO=$(PG_FSYNC=off sh tests/tools/pg_cluster.sh start "$PG" 3>&-) ||
	{ echo "FAIL: the PostgreSQL cluster did not start again"; exit 1; }
PG_UP=1
psql "$CONNINFO" -Atc 'SELECT 1' > /dev/null 2>&1 3>&-
step_check "the server answers again" $? "psql could not reach it"
exec 3>&-
wait "$BOT"
rc=$?
BOT=""
step_check "the stop after the server came back exits 0" "$rc" "exit status $rc"
! grep -q 'could not be saved' "$top/err"
step_check "no change given up at the stop" $? "the log says some were not saved"

# 4. what a second start reads
printf '/tension\n/turn\n' | "$DELVER" --config "$top/pg.conf" --console --color never \
	--user gm --state-dir "$top/s" --channel t > "$top/out" 2> "$top/err"
step_check "second start" $? "delver failed"
grep -q 'Tension.* 9/10' "$top/out"
step_check "the seven Tension changes made while the server was away were saved" $? \
	"not Tension 9/10"
grep -q '^Turn 5:' "$top/out"
step_check "the five turns advanced while the server was away were saved" $? "not Turn 5"

# 5. the server away from then on: SIGTERM, the stop's 60 s of trying
# it, then one line saying what was lost, and exit status 1 (systemd must
# not take the stop for a clean one).
bot_fed "$top/in5"
printf '/tension set 3\n' >&3
replies_wait 'Tension set [0-9]* → 3:' 1
sh tests/tools/pg_cluster.sh stop "$PG" > /dev/null 2>&1 3>&-
PG_UP=""
printf '/tension set 4\n' >&3
replies_wait 'may be lost' 1
kill -TERM "$BOT"
wait "$BOT"
rc=$?
BOT=""
exec 3>&-
[ "$rc" -eq 1 ]
step_check "a stop that gave changes up exits 1" $? "exit status $rc"
got=$(grep -c 'could not be saved' "$top/err")
[ "$got" -eq 1 ]
step_check "one line says what was given up" $? "$got lines"
grep -q 'error: store: the changes of 1 record (channel .console:t.) could not be saved to the postgresql store before the stop (the server could not be reached in the stop.s time); they are lost, and delver exits with status 1$' "$top/err"
step_check "that line counts the record and names the exit status" $? "another line"

[ "$fails" -eq 0 ] || exit 1
echo "ok   test_persist_pg_stop"
