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
scratch

console_bg "$d" --fsync always --snapshot-interval 3600
printf '/gm claim\n/turn advance\n' >&3
text_wait "$top/out" "Turn 1 (" 20
step_check "a change acknowledged" $? "no Turn 1"
console_kill
[ ! -d "$d/snapshots" ] || [ -z "$(ls "$d/snapshots")" ]
step_check "no snapshot before the crash" $? "$(ls "$d/snapshots" 2> /dev/null)"

console_bg "$d" --fsync always --snapshot-interval 3600
text_wait "$top/err" "a snapshot is written 5 s after the start, even if nothing changes" 20
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
console_kill

# The snapshot holds the change: restored, the channel is at turn 1.
"$DELVER" --state-dir "$d" --restore "$d/snapshots/$snap" > "$top/out" 2> "$top/err"
step_check "the snapshot restores" $? "$(cat "$top/err")"
printf '/turn\n' | "$DELVER" --console --color never --user gm --state-dir "$d" \
	> "$top/out" 2> "$top/err"
grep -q "Turn 1:" "$top/out"
step_check "it holds the change" $? "$(cat "$top/out")"
[ $fails -eq 0 ]
