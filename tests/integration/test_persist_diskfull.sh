#!/bin/sh
# Disk full, for real: the state directory on a small tmpfs. While the
# filesystem is full a change is refused with one error reply (and one log
# line; a roll's names the roll), nothing is in effect that was not saved, commands that change
# nothing still answer, and what was saved before is intact; once space is
# freed the same running delver saves changes again, and a restart finds
# them. A start on a full disk says it is full and exits 1. Needs a mount: as root directly, else in a user namespace
# (unshare -rm); where neither works it says SKIP (test_persist's
# disk-full unit test covers the same logic through a fault VFS).
. tests/integration/lib.sh
set -u
if [ "${DISKFULL_INNER:-}" = "" ] && [ "$(id -u)" -ne 0 ]; then
	if unshare -rm true 2> /dev/null; then
		DISKFULL_INNER=1 exec unshare -rm sh "$0" "$@"
	fi
	echo "SKIP: cannot mount a small filesystem here (not root, no user namespaces)"
	exit 0
fi
top=$(mktemp -d)
pid=
mnt=$top/mnt
trap '[ -n "$pid" ] && kill "$pid" 2> /dev/null; umount "$mnt" 2> /dev/null; rm -rf "$top"' EXIT
fails=0
mkdir "$mnt"
if ! mount -t tmpfs -o size=512k,mode=700 tmpfs "$mnt" 2> "$top/mount.err"; then
	echo "SKIP: cannot mount a tmpfs here: $(cat "$top/mount.err")"
	exit 0
fi
state=$mnt/state

# say LINE EXPECTED: sends a line to the running console and waits (10 s at
# most) for the answer's line count to grow by the prompt echo and its reply;
# the newest reply line must be EXPECTED.
sent=0
say() {
	echo "$1" >&3
	sent=$((sent + 1))
	i=0
	while [ "$(grep -c '^gm> ' "$top/out")" -lt "$sent" ] ||
		[ "$(tail -n 1 "$top/out" | grep -c '^gm> ')" -ne 0 ]; do
		[ $i -ge 200 ] && break
		sleep 0.05
		i=$((i + 1))
	done
	got=$(tail -n 1 "$top/out")
	[ "$got" = "$2" ]
	step_check "$1 -> $2" $? "got: $got"
}

full="This change was not made: the disk holding the bot's saved state is full; try again once space is freed (nothing saved before is affected)."

console_bg "$state" --fsync always
say "/gm claim" "gm is now the GM of this channel."
say "/thwacko style red X" "Your Thwack-O die, in every channel: X6 (red, mark X)."

dd if=/dev/zero of="$mnt/fill" bs=4k > /dev/null 2>&1
[ "$(df -k "$mnt" | awk 'NR == 2 { print $4 }')" -eq 0 ]
step_check "the filesystem is full" $? "$(df -k "$mnt")"

say "/channel crypt" "You are now in channel crypt."
say "/gm claim" "$full"
say "/gm" "Nobody is GM here yet; /gm claim makes you the GM."
say "/thwacko style blue" "$full"
say "/channel table" "You are now in channel table."
say "/gm release" "$full"
say "/gm" "The GM here is gm."
say "/roll 1d1" "This roll was not made: the disk holding the bot's saved state is full, so it cannot be kept in /log; roll again once space is freed (nothing saved before is affected)."
[ "$(grep -c 'is full: changes are refused' "$top/err")" -eq 1 ]
step_check "one log line while full" $? "not one"

rm "$mnt/fill"
say "/channel crypt" "You are now in channel crypt."
say "/gm claim" "gm is now the GM of this channel."
say "/thwacko style blue" "Your Thwack-O die, in every channel: X6 (blue, mark X)."
grep -q "has space again; changes are saved again" "$top/err"
step_check "the recovery is logged" $? "no such line"
exec 3>&-
wait "$pid"
rc=$?
pid=
[ $rc -eq 0 ]
step_check "delver exits 0" $? "exit $rc"

# A restart finds what was saved, before and after the disk was full.
printf '/gm\n/channel crypt\n/gm\n/thwacko show\n' |
	"$DELVER" --console --color never --user gm --state-dir "$state" > "$top/out" 2> "$top/err"
[ "$(grep -c 'The GM here is gm.' "$top/out")" -eq 2 ]
step_check "after a restart, both GM seats" $? "not both"
grep -q "blue" "$top/out"
step_check "after a restart, the style saved after the recovery" $? "not blue"
[ "$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("PRAGMA integrity_check").fetchone()[0])' "$state/delver.db")" = ok ]
step_check "the database passes integrity_check" $? "it does not"

# A start on the full disk after a clean stop (no log files beside the
# database: opening it must write them) says the disk is full, not that the
# database is damaged, exits 1 (a restart may mend it) and leaves the
# file as it was; once space is freed it starts on it.
cp "$state/delver.db" "$top/before.db"
dd if=/dev/zero of="$mnt/fill" bs=4k > /dev/null 2>&1
printf '/gm\n' | "$DELVER" --console --color never --user gm --state-dir "$state" \
	> "$top/out" 2> "$top/err"
rc=$?
[ $rc -eq 1 ]
step_check "a start on the full disk exits 1" $? "exit $rc"
want="error: the disk holding the state directory $state is full (the file system mounted on $(realpath "$mnt") has 0 KiB free), so the database $state/delver.db cannot be opened (disk I/O error); delver leaves it as it is and starts on it once space is freed there; exiting with status 1"
got=$(unstamp "$top/err" | grep '^error:')
[ "$got" = "$want" ]
step_check "a start on the full disk says so" $? "got: $got"
cmp -s "$state/delver.db" "$top/before.db" && [ ! -e "$state/delver.db-wal" ] &&
	[ ! -e "$state/delver.db-shm" ]
step_check "the database is left as it was" $? "$(ls -l "$state")"
rm "$mnt/fill"
printf '/gm\n' | "$DELVER" --console --color never --user gm --state-dir "$state" > "$top/out" 2> "$top/err"
grep -q 'The GM here is gm.' "$top/out"
step_check "once space is freed, it starts on it" $? "$(cat "$top/err")"

[ "$fails" -eq 0 ]
