#!/bin/sh
# A SIGTERM stop in the middle of a burst of changes (/turn advance at
# 50/s) answers or leaves to the replay every interaction, exits 0 and
# writes a stop snapshot that is whole: after 8 such stops, each at its own
# moment of a burst, no stop logged a snapshot failure, every snapshot file
# expands with gzip and passes `delver --restore`'s own check (restored
# into a directory of its own), and the turn counter equals the number of
# interactions sent. (The stop once tore libwebsockets down while the
# snapshot thread worked, and its double close of an eventfd hit the
# snapshot's files: "disk I/O error", EBADF, or a malformed copy.)
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

TURN='{"data":{"type":1,"name":"turn","options":[{"type":1,"name":"advance"}]},"expect":"turn passes","private":false,"permissions":"8"}'
ROUNDS=8

fake_start --heartbeat 41250
bot_start
wait_until "g['ready']" 15
r=0
# Where in a one-second burst each stop falls (ms).
for at in 150 700 300 950 50 500 850 400; do
	r=$((r + 1))
	inject "{\"count\":50,\"rate\":50,\"channels\":1,\"users\":3,\"templates\":[$TURN]}"
	sleep "0.$(printf '%03d' "$at")"
	bot_stop
	grep -h "snapshot file" "$BOT_LOG" && fail "round $r: the stop snapshot failed"
	bot_start
	wait_until "i['left_to_inject'] == 0 and i['answered'] + i['late'] == i['created']" 30
done
bot_stop
[ "$r" = "$ROUNDS" ] || fail "ran $r rounds, not $ROUNDS"
created=$(stat interactions.created)
[ "$created" = $((ROUNDS * 50)) ] || fail "the fake created $created interactions, not $((ROUNDS * 50))"
[ "$(turns)" = "$created" ] || fail "the turn counter is $(turns), not $created"

n=0
for f in "$WORK"/state/snapshots/delver-*; do
	[ -e "$f" ] || continue
	n=$((n + 1))
	case $f in
	*.gz) gzip -t "$f" || fail "$f is not a whole gzip file" ;;
	esac
	mkdir -m 700 "$WORK/check$n"
	"$DELVER" --restore "$f" --state-dir "$WORK/check$n" > "$WORK/check$n.log" 2>&1 ||
		fail "--restore refused $f: $(cat "$WORK/check$n.log")"
done
# One stop snapshot per stop at least (several may share a second's name).
[ "$n" -ge 2 ] || fail "only $n snapshot files"
echo "ok   $ROUNDS stops during bursts: $n snapshots, each whole; turn $created of $created"
finish
