#!/bin/sh
# delver --restore FILE --channel KEY puts back one channel's record from a
# snapshot file and leaves every other record as it is. Each failure (no
# such channel in the file, a damaged file, a damaged record, a missing
# file, no database to restore into, a running delver) is one sentence that
# ends "nothing was changed", with exit status 1 and the database byte for
# byte as it was.
. tests/integration/lib.sh
set -u
scratch

gm_of() { # gm_of DIR CHANNEL: the console's answer to /gm there
	printf '/channel %s\n/gm\n' "$2" | console_on "$1"
	grep -o 'The GM here is [a-z]*\.\|Nobody is GM here yet' "$top/out"
}

log_of() { # log_of DIR CHANNEL: the labels of the rolls /log shows there
	printf '/channel %s\n/log\n' "$2" | console_on "$1"
	grep -o '# [a-z]*' "$top/out" | tr '\n' ' '
}

# table (GM gm) and crypt (GM bob, a roll in its log), then the snapshot
# file; then table loses its GM (so its row goes) and crypt gets another
# (cat) and a second roll.
db=$top/db
printf '/gm claim\n/channel crypt\n/as bob\n/gm claim\n/roll 1d6 # before\n' | console_on "$db"
step_check "make a database" $? "delver failed"
snap=$top/snap.db
cp "$db/delver.db" "$snap"
printf '/gm release\n/channel crypt\n/as bob\n/gm release\n/as cat\n/gm claim\n/roll 1d6 # after\n' |
	console_on "$db"
step_check "change both channels" $? "delver failed"

refused() { # refused NAME DIR FILE KEY "expected message"
	before=$(sha256sum < "$2/delver.db")
	"$DELVER" --state-dir "$2" --restore "$3" --channel "$4" > "$top/out" 2> "$top/err"
	rc=$?
	after=$(sha256sum < "$2/delver.db")
	[ $rc -eq 1 ] && grep -qxF -- "error: $5" "$top/err" && [ "$(wc -l < "$top/err")" -eq 1 ]
	step_check "$1: one sentence" $? "exit $rc, or not the message: $5"
	[ "$before" = "$after" ]
	step_check "$1: database untouched" $? "the file changed"
}

refused "no such channel" "$db" "$snap" "console:nowhere" \
	"cannot restore channel 'console:nowhere': $snap holds no channel with that key (keys look like discord:<channel id>, irc:<network>:<#channel> or console:<name>); nothing was changed"

bad=$top/bad.db
cp "$snap" "$bad"
python3 -c 'import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
b[0:16] = b"not a database!!"
open(p, "wb").write(b)' "$bad"
refused "a damaged file" "$db" "$bad" "console:crypt" \
	"cannot restore channel 'console:crypt': the snapshot file $bad is damaged or not a database (file is not a database); nothing was changed"

badrec=$top/badrec.db
cp "$snap" "$badrec"
python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("UPDATE channels SET rec = CAST(? AS BLOB) WHERE key = ?", ("00000000 {}", "console:crypt"))
c.commit()' "$badrec"
"$DELVER" --state-dir "$db" --restore "$badrec" --channel console:crypt > "$top/out" 2> "$top/err"
grep -q "^error: cannot restore channel 'console:crypt': the record of channel 'console:crypt' in $badrec cannot be read (.*); nothing was changed\$" "$top/err"
step_check "a damaged record: named" $? "no such message"
refused "a damaged record" "$db" "$badrec" "console:crypt" "$(sed 's/^error: //' "$top/err")"

refused "a missing file" "$db" "$top/none.db" "console:crypt" \
	"cannot restore channel 'console:crypt': cannot read the snapshot file $top/none.db: No such file or directory; nothing was changed"

mkdir -m 700 "$top/empty"
"$DELVER" --state-dir "$top/empty" --restore "$snap" --channel console:crypt > "$top/out" 2> "$top/err"
rc=$?
[ $rc -eq 1 ] && grep -qxF "error: cannot restore channel 'console:crypt': the state directory $top/empty holds no database; use --restore FILE without --channel to restore the whole bot; nothing was changed" "$top/err" &&
	[ ! -e "$top/empty/delver.db" ]
step_check "no database to restore into: refused, none created" $? "exit $rc"

# A damaged database with a log beside it that holds commits (a process
# killed; the log is copied while a connection holds it open): refused, and
# the log is neither checkpointed into the file nor removed: the state
# directory's files are as they were. Without a log, none is left behind.
listing() { # listing DIR: the names, sizes and checksums of DIR's files but -shm
	(cd "$1" && for f in *; do
		case $f in *-shm) echo "$f" ;; *) echo "$f $(wc -c < "$f") $(sha256sum < "$f")" ;; esac
	done)
}
for withlog in yes no; do
	cut=$top/cut-$withlog
	mkdir -m 700 "$cut"
	: > "$cut/lock" # as delver leaves it
	python3 -c 'import shutil, sqlite3, sys
src, dst, withlog = sys.argv[1:4]
shutil.copy(src + "/delver.db", dst + "/delver.db")
c = sqlite3.connect(dst + "/delver.db", isolation_level=None)
c.execute("PRAGMA wal_autocheckpoint = 0")
c.execute("UPDATE channels SET last_used = last_used + 1")
if withlog == "yes":
    shutil.copy(dst + "/delver.db-wal", dst + "/wal")
    shutil.copy(dst + "/delver.db-shm", dst + "/shm")
c.close()
if withlog == "yes":
    shutil.move(dst + "/wal", dst + "/delver.db-wal")
    shutil.move(dst + "/shm", dst + "/delver.db-shm")
with open(dst + "/delver.db", "r+b") as f:
    f.truncate(5000)' "$db" "$cut" "$withlog"
	before=$(listing "$cut")
	"$DELVER" --state-dir "$cut" --restore "$snap" --channel console:crypt > "$top/out" 2> "$top/err"
	rc=$?
	[ $rc -eq 1 ] && [ "$(wc -l < "$top/err")" -eq 1 ] &&
		grep -q "^error: cannot restore channel 'console:crypt': the database $cut/delver.db is damaged or not a database (.*); nothing was changed\$" "$top/err"
	step_check "a damaged database, log beside it: $withlog: one sentence" $? "exit $rc: $(cat "$top/err")"
	[ "$before" = "$(listing "$cut")" ]
	step_check "a damaged database, log beside it: $withlog: its files as they were" $? \
		"before: $before; after: $(listing "$cut")"
done

# A running delver holds the directory's lock.
mkfifo "$top/in"
"$DELVER" --console --color never --user gm --state-dir "$db" < "$top/in" > "$top/run.out" 2>&1 &
pid=$!
exec 3> "$top/in"
# It answers once it runs (and holds the lock); a poll with flock could
# itself hold the lock when delver starts, and make that start fail.
printf '/gm\n' >&3
i=0
while ! grep -q 'GM' "$top/run.out" && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
refused "a running delver" "$db" "$snap" "console:crypt" \
	"cannot restore channel 'console:crypt': the state directory $db is in use by a running delver ($db/lock is locked); stop it first; nothing was changed"
exec 3>&-
wait "$pid"
pid=

# The restore itself: crypt is back, table keeps its later change; then
# table, which has no row now (a channel with nothing to keep), is added.
"$DELVER" --state-dir "$db" --restore "$snap" --channel console:crypt > "$top/out" 2> "$top/err"
rc=$?
[ $rc -eq 0 ] && grep -qxF "info: store: channel 'console:crypt' of $db/delver.db restored from $snap; every other record is as it was" "$top/err"
step_check "restore one channel" $? "exit $rc"
[ "$(gm_of "$db" crypt)" = "The GM here is bob." ]
step_check "crypt is as in the snapshot" $? "crypt: $(gm_of "$db" crypt)"
[ "$(log_of "$db" crypt)" = "# before " ]
step_check "crypt's roll log is the snapshot's" $? "crypt's log: $(log_of "$db" crypt)"
[ "$(gm_of "$db" table)" = "Nobody is GM here yet" ]
step_check "table keeps its later change" $? "table: $(gm_of "$db" table)"
# (from the snapshot compressed, as delver keeps its snapshot files)
gzip -c "$snap" > "$snap.gz"
"$DELVER" --state-dir "$db" --restore "$snap.gz" --channel console:table > "$top/out" 2> "$top/err"
rc=$?
[ $rc -eq 0 ] && grep -qxF "info: store: channel 'console:table' of $db/delver.db added from $snap.gz; every other record is as it was" "$top/err" &&
	[ -z "$(ls "$db" | grep expanded)" ]
step_check "restore a channel that has no row now, from a compressed snapshot" $? "exit $rc"
[ "$(gm_of "$db" table)" = "The GM here is gm." ] && [ "$(gm_of "$db" crypt)" = "The GM here is bob." ]
step_check "table is as in the snapshot, crypt too" $? "table: $(gm_of "$db" table)"

[ "$fails" -eq 0 ]
