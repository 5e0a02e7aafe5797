#!/bin/sh
# The SQLite store refuses at start what it cannot keep safely, in the right
# words and with the exit statuses the units do not restart (delver(8), EXIT
# STATUS): a database or state directory delver may not write (immutable;
# another owner's mode, as an unprivileged user) is "read-only" with the
# path and the owner and mode it needs (5), a state directory every user may
# write is refused (5), a row whose key column is not its record's key is
# damage (4). --state-dir makes its missing parents; every directory delver
# makes is 0700 and every file 0600 under umask 022 and 0277 alike. --restore
# checks every record of its file before it replaces anything, and names the
# operator's file (not its expanded copy). A file named like a snapshot that
# is not one never counts toward snapshot_keep. A state directory's path
# through a file, and a read-only file system, are refused in their own words.
. tests/integration/lib.sh
set -u
top=$(mktemp -d)
trap 'umount "$top/ro" 2> /dev/null; chattr -R -i "$top" 2> /dev/null; rm -rf "$top"' EXIT
fails=0

modes() { # modes PATH...: "mode name" per path, names relative to $top
	for f in "$@"; do printf '%s %s\n' "$(stat -c %a "$f")" "${f#"$top"/}"; done
}

# --state-dir with missing parents, under umask 022: each made 0700; the
# database, its lock and the (compressed) snapshot files 0600.
(umask 022 && printf '/gm claim\n' | console_on "$top/a/b/c" --snapshot-interval 1)
step_check "missing parents: started" $? "delver failed"
got=$(modes "$top/a" "$top/a/b" "$top/a/b/c" "$top/a/b/c/delver.db" "$top/a/b/c/lock" \
	"$top/a/b/c/snapshots" "$top/a/b/c/snapshots"/delver-*.db.gz)
want="700 a
700 a/b
700 a/b/c
600 a/b/c/delver.db
600 a/b/c/lock
700 a/b/c/snapshots
600 $(cd "$top" && echo a/b/c/snapshots/delver-*.db.gz)"
[ "$got" = "$want" ]
step_check "umask 022: directories 0700, files 0600" $? "got:
$got"

# umask 0277 would take delver's own write bit: the modes are still those.
(umask 0277 && printf '/gm claim\n' | console_on "$top/u/v")
step_check "umask 0277: started" $? "delver failed"
got=$(modes "$top/u" "$top/u/v" "$top/u/v/delver.db" "$top/u/v/lock")
[ "$got" = "700 u
700 u/v
600 u/v/delver.db
600 u/v/lock" ]
step_check "umask 0277: directories 0700, files 0600" $? "got: $got"

# A state directory made by someone else, readable by others: made 0700,
# and the log says so.
mkdir -m 0755 "$top/premade"
printf '/gm claim\n' | console_on "$top/premade"
[ "$(stat -c %a "$top/premade")" = 700 ] &&
	grep -qF "info: store: the state directory $top/premade was mode 0755; it is 0700 now" "$top/err"
step_check "a state directory of mode 0755 is made 0700" $? "mode $(stat -c %a "$top/premade")"

# refused NAME STATUS "words" DIR: the start stops with STATUS, and one
# error line says the words and the status (which a restart will not mend).
refused() {
	console_on "$4" < /dev/null
	rc=$?
	[ $rc -eq "$2" ] &&
		unstamp "$top/err" | grep -qxF -- "error: $3; exiting with status $2 (a restart will not mend it: see delver(8), EXIT STATUS)" &&
		[ "$(unstamp "$top/err" | grep -c '^error:')" -eq 1 ]
	step_check "$1" $? "exit $rc (want $2), or not one error line with '$3' and the status"
}

# The state directory in use by another process (its lock held): a
# restart may mend that, and the one line says status 1.
u=$top/inuse
printf '/gm claim\n' | console_on "$u"
step_check "a state directory to lock: started" $? "delver failed"
exec 9>> "$u/lock"
flock -n 9
console_on "$u" < /dev/null
rc=$?
exec 9>&-
[ $rc -eq 1 ] &&
	unstamp "$top/err" | grep -qxF "error: the state directory $u is in use by another delver ($u/lock is locked); stop it or use another --state-dir; exiting with status 1" &&
	[ "$(unstamp "$top/err" | grep -c '^error:')" -eq 1 ]
step_check "a state directory in use: one line naming status 1" $? "exit $rc"
# It comes once the run has begun: like the warnings before it, it carries
# the time (delver(8), LOGGING), while a refusal of the configuration,
# found before, is the plain answer with none.
stamped='^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[.][0-9]{3}Z '
grep -qE "${stamped}error: the state directory $u is in use" "$top/err" &&
	[ "$(grep -cvE "$stamped" "$top/err")" -eq 0 ]
step_check "a state directory in use: every line carries the time" $? "$(cat "$top/err")"
printf '[bot]\nlog_level = loud\n' > "$top/loud.conf"
"$DELVER" --config "$top/loud.conf" --console --state-dir "$u" < /dev/null > "$top/out" 2> "$top/err"
rc=$?
[ $rc -eq 3 ] && [ "$(grep -c '^error: ' "$top/err")" -eq 1 ] &&
	[ "$(grep -cE "$stamped" "$top/err")" -eq 0 ]
step_check "a refused configuration: one line with no time" $? "exit $rc"

d=$top/a/b/c
chmod 0777 "$d"
refused "a state directory every user may write" 5 \
	"the state directory $d may be written by every user (mode 0777): delver keeps its state only where no other user can write; chmod 0700 $d" "$d"
chmod 0700 "$d"

if chattr +i "$d/delver.db" 2> /dev/null; then
	refused "an immutable database" 5 \
		"the database $d/delver.db is read-only for delver: it is immutable (chattr +i); delver needs to write it: chattr -i $d/delver.db undoes it" "$d"
	chattr -i "$d/delver.db"
	chattr +i "$d"
	refused "an immutable state directory" 5 \
		"the state directory $d is read-only for delver: it is immutable (chattr +i); delver needs to write there: chattr -i $d undoes it" "$d"
	chattr -i "$d"
else
	echo "SKIP immutable files: chattr +i is refused here (not root, or no such attribute)"
fi

# Another owner's modes: as an unprivileged user (root passes mode bits).
if [ "$(id -u)" -eq 0 ] && id nobody > /dev/null 2>&1; then
	nob=$(id -u nobody)
	as_nobody() {
		setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
			"$DELVER" --console --color never --user gm --state-dir "$1" \
			> "$top/out" 2> "$top/err" < /dev/null
	}
	chmod 0755 "$top"
	mkdir -m 0755 "$top/rootdir"
	as_nobody "$top/rootdir"
	rc=$?
	[ $rc -eq 5 ] && grep -qF "error: the state directory $top/rootdir is read-only for delver: it is owned by uid 0 (group 0) with mode 0755, and delver runs as uid $nob; delver needs to write there: make it owned by uid $nob with mode 0700" "$top/err"
	step_check "a directory of another owner" $? "exit $rc"
	mkdir -m 0700 "$top/nob"
	chown nobody "$top/nob"
	as_nobody "$top/nob"
	step_check "nobody's own directory: started" $? "exit $?"
	chown 0 "$top/nob/delver.db"
	chmod 0444 "$top/nob/delver.db"
	as_nobody "$top/nob"
	rc=$?
	[ $rc -eq 5 ] && grep -qF "error: the database $top/nob/delver.db is read-only for delver: it is owned by uid 0 (group $(id -g nobody)) with mode 0444, and delver runs as uid $nob; delver needs to write it: make it owned by uid $nob with mode 0600" "$top/err"
	step_check "a database of another owner, mode 0444" $? "exit $rc"
	chmod 0700 "$top"
else
	echo "SKIP another owner's modes: needs root and the user nobody"
fi

# A key column changed under its record: damage, named, never trusted.
k=$top/key
printf '/gm claim\n/channel crypt\n/gm claim\n' | console_on "$k"
step_check "two channels" $? "delver failed"
cp "$k/delver.db" "$top/good.db"
python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE channels SET key = ? WHERE key = ?", ("console:vault", "console:crypt"))
db.commit()' "$k/delver.db"
refused "a row under another key" 4 \
	"$k/delver.db: the channel record 'console:vault' cannot be read: it holds the record of 'console:crypt': the row's key column was changed or damaged; restore a snapshot of the state directory" "$k"

# --restore checks every record first: one bad checksum refuses the file,
# and the database in place is left byte for byte.
cp "$top/good.db" "$top/bad.db"
python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rec = bytearray(db.execute("SELECT rec FROM channels WHERE key = ?", ("console:crypt",)).fetchone()[0])
i = rec.index(b"console:bob") if b"console:bob" in rec else len(rec) - 3
rec[i] ^= 0x20
db.execute("UPDATE channels SET rec = ? WHERE key = ?", (bytes(rec), "console:crypt"))
db.commit()' "$top/bad.db"
r=$top/r
printf '/gm claim\n' | console_on "$r"
before=$(sha256sum < "$r/delver.db")
"$DELVER" --state-dir "$r" --restore "$top/bad.db" > "$top/out" 2> "$top/err"
rc=$?
[ $rc -eq 1 ] && grep -qF "error: cannot restore: the channel record 'console:crypt' in $top/bad.db cannot be read: checksum mismatch" "$top/err" &&
	grep -qF "nothing was changed" "$top/err" && [ "$(sha256sum < "$r/delver.db")" = "$before" ] &&
	! ls "$r" | grep -q replaced-
step_check "--restore refuses a file with one bad record" $? "exit $rc"
(umask 022 && "$DELVER" --state-dir "$r" --restore "$top/good.db" > "$top/out" 2> "$top/err")
step_check "--restore of a good file" $? "exit $?"
got=$(modes "$r/delver.db" "$r"/replaced-* "$r"/replaced-*/delver.db)
[ "$got" = "600 r/delver.db
700 $(cd "$top" && echo r/replaced-*)
600 $(cd "$top" && echo r/replaced-*/delver.db)" ]
step_check "umask 022: the restored database 0600, the replaced one kept 0700/0600" $? "got: $got"

# snapshot_keep = 2 with files that only look like snapshots: they are never
# counted (nor removed), so two real snapshots stay.
s=$top/s
mkdir -m 0700 "$s" "$s/snapshots"
echo garbage > "$s/snapshots/delver-29991231T235959Z.db"
echo garbage > "$s/snapshots/delver-garbage.db"
printf '[bot]\nsnapshot_keep = 2\n' > "$top/keep.conf"
for i in 1 2 3; do
	printf '/gm claim\n/tension set %s\n' "$((i + 1))" | console_on "$s" --config "$top/keep.conf"
	sleep 1.1 # one snapshot file per second at most: each run writes its own
done
real=$(ls "$s/snapshots" | grep -c '^delver-20[0-9]*T[0-9]*Z\.db\.gz$')
[ "$real" -eq 2 ] && [ -f "$s/snapshots/delver-29991231T235959Z.db" ] &&
	[ -f "$s/snapshots/delver-garbage.db" ]
step_check "look-alike files do not count toward snapshot_keep" $? \
	"$(ls "$s/snapshots" | tr '\n' ' ')"

# A state directory's path that names a file: exit 5, the file named.
printf 'x\n' > "$top/afile"
refused "a state directory that is a file" 5 \
	"cannot create the state directory $top/afile: $top/afile is a file, not a directory; move the file away, or name another directory (--state-dir, [bot] state_dir)" "$top/afile"
refused "a state directory under a file" 5 \
	"cannot create the state directory $top/afile/sub/x: $top/afile is a file, not a directory; move the file away, or name another directory (--state-dir, [bot] state_dir)" "$top/afile/sub/x"

# A file system mounted read-only: the advice is to mount it read-write,
# not an owner or a mode that cannot help there.
mkdir -m 0700 "$top/rosrc" "$top/ro"
printf '/gm claim\n' | console_on "$top/rosrc/st"
if mount --bind "$top/rosrc" "$top/ro" 2> /dev/null &&
	mount -o remount,ro,bind "$top/ro" 2> /dev/null; then
	refused "a state directory on a read-only file system" 5 \
		"the state directory $top/ro/st is read-only for delver: its file system is mounted read-only; delver needs to write there: mount its file system read-write, or name a state directory on another (--state-dir, [bot] state_dir)" "$top/ro/st"
	refused "a state directory to make on a read-only file system" 5 \
		"cannot create the state directory $top/ro/new: its file system is mounted read-only; mount it read-write, or name a directory where delver may write (--state-dir, [bot] state_dir)" "$top/ro/new"
	umount "$top/ro"
else
	umount "$top/ro" 2> /dev/null
	echo "SKIP a read-only file system: mount --bind -o ro is refused here"
fi

# --restore of a compressed file that is no database names that file, not
# the copy delver expanded it into.
printf 'hello\n' | gzip > "$top/text.gz"
"$DELVER" --state-dir "$r" --restore "$top/text.gz" > "$top/out" 2> "$top/err"
rc=$?
[ $rc -eq 1 ] && grep -qF "error: cannot restore: $top/text.gz, once expanded, is not a whole SQLite database" "$top/err" &&
	! grep -q expanded/ "$top/err" && ! ls "$r" | grep -q '\.expanded'
step_check "--restore of a gzip of text names the file" $? "exit $rc"
"$DELVER" --state-dir "$r" --restore "$top/text.gz" --channel console:crypt > "$top/out" 2> "$top/err"
rc=$?
[ $rc -eq 1 ] && grep -qF "error: cannot restore channel 'console:crypt': the snapshot file $top/text.gz, once expanded, is damaged or not a database" "$top/err"
step_check "--restore --channel of a gzip of text names the file" $? "exit $rc"

[ "$fails" -eq 0 ] || exit 1
echo "ok   persist_refuse"
