#!/bin/sh
# A damaged database log (delver.db-wal) at start. delver is killed (-9)
# after six acknowledged turns, each its own commit, the last held in the
# log alone; a byte of the log's last frame is flipped, as a bad sector or
# a bit flip would. The next start logs one warning naming the log, the
# frame and commit that cannot be read and where the copy is; the copy is
# byte for byte the damaged log; and the start goes on with what SQLite
# recovers: turn 5, the flipped commit's turn 6 lost. A second damaged
# start keeps its own copy beside the first.
. tests/integration/lib.sh
set -u
scratch

# run_until TEXT COMMANDS...: the console on $d with the commands, each on
# its own line, killed with SIGKILL once its output holds TEXT (or after
# 20 s without it).
run_until() {
	want=$1
	shift
	console_bg "$d" --fsync always --snapshot-interval 3600
	printf '%s\n' "$@" >&3
	text_wait "$top/out" "$want" 20
	console_kill
}

run_until "Turn 6 (" "/gm claim" "/turn advance" "/turn advance" "/turn advance" \
	"/turn advance" "/turn advance" "/turn advance"
grep -qF "Turn 6 (" "$top/out" && [ -s "$d/delver.db-wal" ]
step_check "six turns acknowledged, the log left by the kill" $? "no Turn 6, or no log"

# flip LOG: flips a byte in the page of the last frame with the log's salts.
flip() {
	python3 -c 'import struct, sys
p = sys.argv[1]
w = bytearray(open(p, "rb").read())
fs = 24 + struct.unpack(">I", w[8:12])[0]
live = [k for k in range((len(w) - 32) // fs) if w[32 + k * fs + 8:32 + k * fs + 16] == w[16:24]]
w[32 + live[-1] * fs + 24 + 300] ^= 0xFF
open(p, "wb").write(w)
print(live[-1] + 1)' "$1"
}
frame=$(flip "$d/delver.db-wal")
cp "$d/delver.db-wal" "$top/damaged"

printf '/turn\n' | console_on "$d"
step_check "the start goes on" $? "exit status not 0"
copy=$(ls "$d" | grep '^delver.db-wal.damaged-[0-9]\{8\}T[0-9]\{6\}Z$')
[ "$(echo "$copy" | wc -l)" -eq 1 ] && [ -n "$copy" ]
step_check "one copy of the log kept aside" $? "copies: $(ls "$d")"
cmp -s "$top/damaged" "$d/$copy"
step_check "the copy is byte for byte the damaged log" $? "differs"
[ "$(grep -c "store: the database log" "$top/err")" -eq 1 ] &&
	grep -qF "store: the database log $d/delver.db-wal has 1 frame of its current generation that cannot be read (from frame $frame on, holding 1 commit), which SQLite drops as it opens the database: those changes are lost (a damaged disk, or a write cut short by a crash or power cut); a byte-for-byte copy of the log is kept as $d/$copy, and delver starts on what SQLite recovers" "$top/err"
step_check "one warning names the log, what is lost and the copy" $? "no such warning"
grep -q "Turn 5:" "$top/out" && ! grep -q "Turn 6:" "$top/out"
step_check "the state is what SQLite recovered: turn 5" $? "$(cat "$top/out")"

# A second damaged start keeps its own copy; the first is untouched.
run_until "Turn 7 (" "/turn advance" "/turn advance"
flip "$d/delver.db-wal" > /dev/null
printf '/turn\n' | console_on "$d"
[ "$(ls "$d" | grep -c '^delver.db-wal.damaged-')" -eq 2 ] && cmp -s "$top/damaged" "$d/$copy"
step_check "a second damaged start keeps a second copy" $? "$(ls "$d")"
grep -q "Turn 6:" "$top/out"
step_check "then turn 6" $? "$(cat "$top/out")"

# A whole log after a kill says nothing.
run_until "Turn 7 (" "/turn advance"
printf '/turn\n' | console_on "$d"
! grep -q "database log" "$top/err" && grep -q "Turn 7:" "$top/out" &&
	[ "$(ls "$d" | grep -c '^delver.db-wal.damaged-')" -eq 2 ]
step_check "a whole log after a kill: no warning, no copy" $? "$(cat "$top/err")"
[ $fails -eq 0 ]
