#!/bin/sh
# Damaged state. The database (delver.db): a flipped byte, a cut and an
# emptied file each stop delver with one error naming the file and what to
# do, and leave it byte for byte as it was. The old journal-and-snapshot
# files that a first start imports: a flipped byte, a truncated snapshot and
# a file from a future format version each stop delver with one error naming
# file, line and reason, leaving the file as it was; a torn last journal line
# is dropped with a warning; --salvage moves a bad file aside and imports
# what is readable.
. tests/integration/lib.sh
set -u
top=$(mktemp -d)
trap 'rm -rf "$top"' EXIT
fails=0

# A database with two channels: table (GM gm) and crypt (GM bob).
db=$top/db
printf '/gm claim\n/channel crypt\n/as bob\n/gm claim\n' | console_on "$db"
step_check "make a database" $? "delver failed"

db_refused() { # db_refused NAME DIR "expected reason"
	before=$(sha256sum < "$2/delver.db")
	console_on "$2" < /dev/null
	rc=$?
	after=$(sha256sum < "$2/delver.db")
	[ $rc -eq 4 ] && grep -qF -- "the database $2/delver.db is damaged ($3); delver leaves it as it is and will not start on it: put back a copy from a backup or a snapshot file, or move it aside to start with no saved state" "$top/err"
	step_check "$1: refused with the file and what to do" $? "exit $rc, or the message lacks '$3'"
	[ "$before" = "$after" ]
	step_check "$1: database untouched" $? "the file changed"
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
console_on "$d" < /dev/null
grep -qF "the database $d/delver.db is damaged (" "$top/err"
step_check "flipped bytes in a page: named" $? "no damage message"
db_refused "flipped bytes in a page" "$d" "$(sed -n 's/.*is damaged (\(.*\)); delver leaves.*/\1/p' "$top/err")"

d=$top/dbcut; cp -r "$db" "$d"
truncate -s 4096 "$d/delver.db"
console_on "$d" < /dev/null
grep -qF "the database $d/delver.db is damaged (" "$top/err"
step_check "cut to one page: named" $? "no damage message"
db_refused "cut to one page" "$d" "$(sed -n 's/.*is damaged (\(.*\)); delver leaves.*/\1/p' "$top/err")"

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

printf '/gm\n' | console_on "$db"
grep -qF "The GM here is gm." "$top/out"
step_check "the intact database still starts" $? "it did not"

# --restore: a damaged file changes nothing; a good copy rolls the bot back
# (a database closed by delver is a whole file, as a snapshot file is).
cp "$db/delver.db" "$top/copy.db"
printf '/gm release\n' | console_on "$db"
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

# A state directory in the old format with the same two channels, written as
# the journal-and-snapshot store wrote it.
good=$top/good
mkdir -m 700 "$good"
python3 -c 'import sys, zlib, json
def line(o):
    j = json.dumps(o, separators=(",", ":")).encode()
    return b"%08x " % zlib.crc32(j) + j + b"\n"
recs = [{"format": "delver-state", "version": 1, "file": "snapshot", "taken": 1795274425,
         "next_journal": 1},
        {"t": "c", "key": "console:crypt", "last_used": 1795274420, "gm": "console:bob",
         "gm_name": "bob"},
        {"t": "c", "key": "console:table", "last_used": 1795274420, "gm": "console:gm",
         "gm_name": "gm"},
        {"t": "end", "records": 2}]
open(sys.argv[1], "wb").write(b"".join(line(o) for o in recs))' "$good/snapshot.dlv"

# python3 helpers: edit a file in place.
flip() { python3 -c 'import sys
p, line, col = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
b = bytearray(open(p, "rb").read())
off = sum(len(l) for l in bytes(b).split(b"\n")[:line - 1]) + line - 1 + col
b[off] ^= 0x20
open(p, "wb").write(b)' "$@"; }
cut_at() { python3 -c 'import sys
p, line, col = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
b = open(p, "rb").read()
off = sum(len(l) for l in b.split(b"\n")[:line - 1]) + line - 1 + col
open(p, "wb").write(b[:off])' "$@"; }
future() { python3 -c 'import sys, zlib, json
p = sys.argv[1]
lines = open(p, "rb").read().split(b"\n")
h = json.loads(lines[0][9:])
h["version"] = 4
j = json.dumps(h, separators=(",", ":")).encode()
lines[0] = b"%08x " % zlib.crc32(j) + j
open(p, "wb").write(b"\n".join(lines))' "$@"; }

refused() { # refused NAME DIR "expected message part"
	before=$(sha256sum "$2/snapshot.dlv")
	console_on "$2" < /dev/null
	rc=$?
	after=$(sha256sum "$2/snapshot.dlv")
	[ $rc -eq 1 ] && grep -qF -- "$3" "$top/err" && grep -qF -- "--salvage" "$top/err"
	step_check "$1: refused with file, line and reason" $? "exit $rc, or the message lacks '$3'"
	[ "$before" = "$after" ]
	step_check "$1: file untouched" $? "the file changed"
}

d=$top/flip; cp -r "$good" "$d"
flip "$d/snapshot.dlv" 3 20
refused "flipped byte" "$d" "$d/snapshot.dlv:3: checksum mismatch: the line was changed or damaged"

d=$top/trunc; cp -r "$good" "$d"
cut_at "$d/snapshot.dlv" 3 30
refused "truncated mid-line" "$d" "$d/snapshot.dlv:3: the file ends in the middle of a line (truncated)"

d=$top/trunc2; cp -r "$good" "$d"
cut_at "$d/snapshot.dlv" 4 0
refused "truncated at a line end" "$d" "$d/snapshot.dlv:3: the file ends without its end line (truncated)"

d=$top/future; cp -r "$good" "$d"
future "$d/snapshot.dlv"
refused "future version" "$d" "$d/snapshot.dlv:1: format version 4 is newer than this delver understands (3); run a newer delver"

# A torn last journal line (a crash in mid-write) is dropped with a warning;
# the whole line before it is replayed (it releases table's GM seat).
d=$top/torn; cp -r "$good" "$d"
j=$d/journal.00000009.dlv
python3 -c 'import sys, zlib
lines = [b"{\"format\":\"delver-state\",\"version\":1,\"file\":\"journal\",\"seq\":9}",
         b"{\"t\":\"c\",\"key\":\"console:table\",\"last_used\":1}"]
out = b"".join(b"%08x " % zlib.crc32(l) + l + b"\n" for l in lines)
open(sys.argv[1], "wb").write(out + b"0badc0de {\"t\":\"c\",\"ke")
print(len(out))' "$j" > "$top/size"
printf '/gm\n/channel crypt\n/gm\n' | console_on "$d"
rc=$?
grep -qF "warn: $j: dropping the torn last line at byte $(cat "$top/size") (a crash in mid-write)" \
	"$top/err" && grep -qF "Nobody is GM here yet" "$top/out" && grep -qF "The GM here is bob." "$top/out"
step_check "torn journal line dropped with a warning" $? "exit $rc"

# --salvage moves the bad file aside and starts from the readable lines.
d=$top/flip
bad=$(sha256sum < "$d/snapshot.dlv")
printf '/gm\n/channel crypt\n/gm\n' | console_on "$d" --salvage
rc=$?
aside=$(cd "$d" && ls imported-*/* | grep '/snapshot\.dlv\.bad-' | head -n 1)
[ $rc -eq 0 ] && [ -n "$aside" ] && [ "$(sha256sum < "$d/$aside")" = "$bad" ] \
	&& grep -qF "snapshot.dlv:3: checksum mismatch: the line was changed or damaged; skipped (--salvage)" "$top/err" \
	&& grep -qF "Nobody is GM here yet" "$top/out" && grep -qF "The GM here is bob." "$top/out"
step_check "--salvage moves the file aside, imports what is readable" $? "exit $rc, aside '$aside'"
printf '/gm\n' | console_on "$d"
step_check "after --salvage, a plain start works" $? "it failed"

[ $fails -eq 0 ]
