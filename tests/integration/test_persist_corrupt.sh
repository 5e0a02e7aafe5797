#!/bin/sh
# Damaged state. The database (delver.db): a flipped byte, a cut, a bad
# page size and an emptied file each stop delver with one error naming the
# file and what to do, and leave the state directory as it was: the file
# byte for byte, no log file (-wal, -shm) of the start's beside it, a log
# that was there kept byte for byte. A record of a format version newer
# than this delver reads stops it too, the file untouched. --restore refuses a damaged copy
# and puts a good one back.
. tests/integration/lib.sh
set -u
scratch

# A database with two channels: table (GM gm) and crypt (GM bob).
db=$top/db
printf '/gm claim\n/channel crypt\n/as bob\n/gm claim\n' | console_on "$db"
step_check "make a database" $? "delver failed"

# listing DIR: every file in DIR with its size and checksum.
listing() {
	(cd "$1" && find . -type f | sort | while read -r f; do
		printf '%s %s %s\n' "$f" "$(wc -c < "$f")" "$(sha256sum < "$f" | cut -c1-16)"
	done)
}

# db_refused NAME DIR ["expected reason"]: the start on DIR is refused
# with the reason (without one: whatever SQLite says of the damage), and
# leaves the directory as it found it: the database, the lock file and no
# log file (-wal, -shm) of its own beside them.
db_refused() {
	before=$(listing "$2")
	console_on "$2" < /dev/null
	rc=$?
	after=$(listing "$2")
	why=${3:-$(sed -n 's/.*is damaged (\(.*\)); delver leaves.*/\1/p' "$top/err")}
	[ $rc -eq 4 ] && [ -n "$why" ] && grep -qF -- "the database $2/delver.db is damaged ($why); delver leaves it as it is and will not start on it: put back a copy from a backup or a snapshot file, or move it aside to start with no saved state" "$top/err"
	step_check "$1: refused with the file and what to do" $? "exit $rc, or the message lacks '${3:-the reason}'"
	[ "$before" = "$after" ]
	step_check "$1: the directory untouched" $? "before: $(echo $before); after: $(echo $after)"
}

pages=$(python3 -c 'import os, sys; print(os.path.getsize(sys.argv[1]) // 4096)' "$db/delver.db")
[ "$pages" -ge 3 ]
step_check "the database has its pages" $? "only $pages pages"

d=$top/dbflip; cp -r "$db" "$d"
# Page 2 is the first table's root: garbage in its header.
python3 -c 'import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
for i in range(4096, 4096 + 16):
    b[i] ^= 0x5a
open(p, "wb").write(b)' "$d/delver.db"
db_refused "flipped bytes in a page" "$d"

d=$top/dbcut; cp -r "$db" "$d"
truncate -s 4096 "$d/delver.db"
db_refused "cut to one page" "$d"

# The header's page size 3 (bytes 16-17), and a cut within the second
# page: SQLite reads both far enough to make the log files of a database
# in WAL mode (bytes 18-19 say so), which a refused start removes.
d=$top/dbpagesize; cp -r "$db" "$d"
printf '\000\003' | dd of="$d/delver.db" bs=1 seek=16 conv=notrunc 2> /dev/null
db_refused "page size 3" "$d" "file is not a database"
d=$top/dbcut5000; cp -r "$db" "$d"
truncate -s 5000 "$d/delver.db"
db_refused "cut to 5000 bytes" "$d" "database disk image is malformed"

# A log that was there before the refused start is left byte for byte (it
# may hold the changes an operator needs): a process killed with changes
# in its log, and the database then cut.
d=$top/dbwal; cp -r "$db" "$d"
python3 -c 'import os, sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("PRAGMA wal_autocheckpoint = 0")
c.execute("INSERT INTO gone(kind, key, at) VALUES(9, \"kept\", 1)")
c.commit()
os._exit(0)' "$d/delver.db"
rm -f "$d/delver.db-shm"
[ -s "$d/delver.db-wal" ]
step_check "a log with changes in it" $? "no log: $(ls "$d")"
truncate -s 5000 "$d/delver.db"
db_refused "cut, beside a log with changes" "$d"

d=$top/dbempty; cp -r "$db" "$d"
: > "$d/delver.db"
db_refused "emptied" "$d" "the file is empty: truncated"

d=$top/dbhead; cp -r "$db" "$d"
python3 -c 'import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
b[0:16] = b"not a database!!"
open(p, "wb").write(b)' "$d/delver.db"
db_refused "not a database" "$d" "file is not a database"

# The header's write version past 2: SQLite opens it but will not write
# it, so every change would fail and be lost at the stop.
d=$top/dbwrite; cp -r "$db" "$d"
printf '\377' | dd of="$d/delver.db" bs=1 seek=18 conv=notrunc 2> /dev/null
db_refused "header's write version 255" "$d" "its header says only a newer SQLite may write it (file format write version 255; this SQLite writes versions 1 and 2)"

printf '/gm\n' | console_on "$db"
grep -qF "The GM here is gm." "$top/out"
step_check "the intact database still starts" $? "it did not"

# --restore: a damaged file changes nothing; a good copy rolls the bot back
# (a database closed by delver is a whole file, as a snapshot file is).
printf '/roll 1d6 # logged\n' | console_on "$db"
cp "$db/delver.db" "$top/copy.db"
printf '/gm release\n' | console_on "$db"
# A copy whose roll log holds a damaged entry: every entry is checked.
cp "$top/copy.db" "$top/badlog.db"
python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("UPDATE logs SET rec = CAST(replace(CAST(rec AS TEXT), \"logged\", \"LOGGED\") AS BLOB)")
c.commit()' "$top/badlog.db"
"$DELVER" --state-dir "$db" --restore "$top/badlog.db" > "$top/out" 2> "$top/err"
rc=$?
[ $rc -eq 1 ] && grep -qF "log entry 1: checksum mismatch" "$top/err" && grep -qF "nothing was changed" "$top/err"
step_check "--restore refuses a damaged log entry" $? "exit $rc: $(cat "$top/err")"
"$DELVER" --state-dir "$db" --restore "$top/dbhead/delver.db" > "$top/out" 2> "$top/err"
rc=$?
[ $rc -eq 1 ] && grep -qF "cannot restore: $top/dbhead/delver.db is not a whole SQLite database" "$top/err" \
	&& grep -qF "nothing was changed" "$top/err"
step_check "--restore refuses a damaged file" $? "exit $rc"
"$DELVER" --state-dir "$db" --restore "$top/copy.db" > "$top/out" 2> "$top/err"
rc=$?
[ $rc -eq 0 ] && grep -qF "info: store: $db/delver.db restored from $top/copy.db; the database it replaced is in $db/replaced-" "$top/err" \
	&& [ -f "$(echo "$db"/replaced-*/delver.db)" ]
step_check "--restore puts a copy back and keeps the replaced database" $? "exit $rc"
printf '/gm\n' | console_on "$db"
grep -qF "The GM here is gm." "$top/out"
step_check "after --restore, the rolled-back state" $? "the release is still there"

# A row written by a newer delver (its record's format version is newer
# than this one reads) is refused, never guessed at, and left as it is.
d=$top/newer; cp -r "$db" "$d"
v=$(python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
v = c.execute("SELECT version FROM channels WHERE key = ?", ("console:crypt",)).fetchone()[0]
c.execute("UPDATE channels SET version = version + 1 WHERE key = ?", ("console:crypt",))
c.commit()
print(v)' "$d/delver.db")
before=$(sha256sum < "$d/delver.db")
printf '/gm\n' | console_on "$d"
rc=$?
after=$(sha256sum < "$d/delver.db")
[ $rc -eq 4 ] && grep -qF "format version $((v + 1)) is newer than this delver understands ($v); run a newer delver" "$top/err" \
	&& grep -qF "console:crypt" "$top/err" && [ "$before" = "$after" ]
step_check "a record of a newer format version stops the start, untouched" $? "exit $rc"

[ $fails -eq 0 ]
