#!/bin/sh
# A start after a crash writes a snapshot soon, not a whole
# snapshot_interval later (op23's F3): in a crash loop of processes that
# each live less than the interval, an interval begun again at every start
# never ends, and no snapshot held any of the loop's commits. Here the
# interval is an hour: a process killed -9 after a change, and the next
# start logs that a snapshot is written 5 s after it and writes one that
# holds the change.
. tests/integration/lib.sh
set -u
top=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -9 "$pid" 2> /dev/null; rm -rf "$top"' EXIT
fails=0
d=$top/state

# console_bg: the console on $d in the background, its input from the fifo
# on descriptor 3.
console_bg() {
	rm -f "$top/in"
	mkfifo "$top/in"
	"$DELVER" --console --color never --user gm --state-dir "$d" --fsync always \
		--snapshot-interval 3600 < "$top/in" > "$top/out" 2> "$top/err" &
	pid=$!
	exec 3> "$top/in"
}
# out_wait TEXT FILE: waits (20 s at most) until FILE holds TEXT.
out_wait() {
	i=0
	until grep -qF -- "$1" "$2"; do
		i=$((i + 1))
		[ $i -gt 400 ] && return 1
		sleep 0.05
	done
}
kill_bg() {
	kill -9 "$pid"
	wait "$pid" 2> /dev/null
	pid=
	exec 3>&-
}

console_bg
printf '/gm claim\n/turn advance\n' >&3
out_wait "Turn 1 (" "$top/out"
step_check "a change acknowledged" $? "no Turn 1"
kill_bg
[ ! -d "$d/snapshots" ] || [ -z "$(ls "$d/snapshots")" ]
step_check "no snapshot before the crash" $? "$(ls "$d/snapshots" 2> /dev/null)"

console_bg
out_wait "a snapshot is written 5 s after the start, even if nothing changes" "$top/err"
step_check "the start says a snapshot follows in 5 s" $? "$(cat "$top/err")"
i=0
until [ -n "$(ls "$d/snapshots" 2> /dev/null | grep '\.db\.gz$')" ]; do
	i=$((i + 1))
	[ $i -gt 600 ] && break
	sleep 0.05
done
snap=$(ls "$d/snapshots" 2> /dev/null | grep '\.db\.gz$' | head -n 1)
[ -n "$snap" ]
step_check "a snapshot written soon after the start, though the interval is an hour" $? \
	"none in 30 s: $(ls "$d/snapshots" 2> /dev/null)"
kill_bg

# The snapshot holds the change: restored, the channel is at turn 1.
"$DELVER" --state-dir "$d" --restore "$d/snapshots/$snap" > "$top/out" 2> "$top/err"
step_check "the snapshot restores" $? "$(cat "$top/err")"
printf '/turn\n' | "$DELVER" --console --color never --user gm --state-dir "$d" \
	> "$top/out" 2> "$top/err"
grep -q "Turn 1:" "$top/out"
step_check "it holds the change" $? "$(cat "$top/out")"
[ $fails -eq 0 ]
