#!/bin/sh
# delver never follows a symbolic link inside its state directory (delver(8),
# STATE): a link in place of the lock file, the database, its log files or
# the snapshot directory is refused at start with exit status 5 and one
# sentence naming it, and the file it points to keeps its mode and its bytes.
# A link in place of a snapshot written later is replaced, never written
# through. The state directory itself may be a link (systemd's DynamicUser=
# makes one): delver starts there as anywhere.
. tests/integration/lib.sh
set -u
scratch

# The victims: a file of mode 0644 and a directory of mode 0755 outside the
# state directory, as the target of each link.
w=$top/elsewhere
mkdir -m 0755 "$w" "$w/pub"
printf 'not delver\n' > "$w/victim"
chmod 0644 "$w/victim"
sum=$(sha256sum < "$w/victim")

untouched() { # the victims as they were
	[ "$(stat -c %a "$w/victim")" = 644 ] && [ "$(sha256sum < "$w/victim")" = "$sum" ] &&
		[ "$(stat -c %a "$w/pub")" = 755 ] && [ -z "$(ls -A "$w/pub")" ]
}

# linked NAME TARGET WHAT: a fresh state directory whose NAME is a link to
# TARGET is refused with exit 5, in words naming WHAT and the path.
linked() {
	d=$top/s-$(printf '%s' "$1" | tr -c 'a-z0-9' '_')
	mkdir -m 0700 "$d"
	ln -s "$2" "$d/$1"
	console_on "$d" < /dev/null
	rc=$?
	[ $rc -eq 5 ] &&
		grep -qF "error: the $3 $d/$1 is a symbolic link, and delver never follows a link in its state directory (it would read and change whatever the link points to): remove the link, and delver makes the $3 itself" "$top/err" &&
		untouched
	step_check "a link as $1: refused, its target untouched" $? \
		"exit $rc; victim $(stat -c %a "$w/victim"), pub $(stat -c %a "$w/pub") $(ls -A "$w/pub")"
}

linked lock "$w/victim" "lock file"
linked delver.db "$w/victim" database
linked delver.db-wal "$w/victim" "database log"
linked delver.db-shm "$w/victim" "database log"
linked snapshots "$w/pub" "snapshot directory"
rm -rf "$top/s-lock"
linked lock "$w/absent" "lock file" # a dangling link is a link too

# The state directory itself as a link: taken, made 0700 where it leads.
mkdir -m 0755 "$top/real"
ln -s "$top/real" "$top/st"
(umask 022 && printf '/gm claim\n' | console_on "$top/st" --snapshot-interval 1)
rc=$?
[ $rc -eq 0 ] && [ "$(stat -c %a "$top/real")" = 700 ] && [ -f "$top/real/delver.db" ] &&
	[ "$(stat -c %a "$top/real/delver.db")" = 600 ]
step_check "a state directory that is a link is used" $? "exit $rc, $(ls -l "$top/real")"

# A link among the snapshots, named as the next snapshot's temporary file
# would be, is removed, not written through: each snapshot's files are made
# afresh (O_EXCL, never through a link).
d=$top/snap
mkdir -m 0700 "$d" "$d/snapshots"
now=$(date -u +%s)
for t in 0 1 2 3 4 5 6; do
	stamp=$(date -u -d "@$((now + t))" +%Y%m%dT%H%M%SZ)
	ln -s "$w/victim" "$d/snapshots/delver-$stamp.db.tmp"
	ln -s "$w/victim" "$d/snapshots/delver-$stamp.db.gz.tmp"
done
printf '/gm claim\n/tension set 3\n' | console_on "$d" --snapshot-interval 1
rc=$?
[ $rc -eq 0 ] && untouched && ls "$d/snapshots" | grep -q '^delver-.*Z\.db\.gz$'
step_check "links named as snapshot temporaries are not written through" $? \
	"exit $rc; victim $(stat -c %a "$w/victim"); $(ls "$d/snapshots" | tr '\n' ' ')"

[ "$fails" -eq 0 ] || exit 1
echo "ok   statedir_links"
