# Shared helpers for integration tests (sourced; $1 of the test is the
# build directory, e.g. build/default).
#
# transcript NAME SEED [delver args...]
#   Pipes tests/integration/transcripts/NAME.in, less its lines that
#   start with '#' (labels, named by the tables in tests/conformance/),
#   into the console (--seed SEED --color never --user gm, a fresh empty
#   --state-dir, plus the args) and compares the whole output with
#   NAME.expected. Set UPDATE=1 to rewrite the expected
#   file instead; a rewritten file must be read line by line and checked
#   against the rules before it is committed.
#
# transcript_input NAME
#   Prints tests/integration/transcripts/NAME.in less its label lines
#   (those that start with '#'): what a transcript feeds the console.
#
# delver_fresh [delver args...]
#   Runs $DELVER with a fresh empty --state-dir, removed afterwards: delver
#   keeps its state (./state by default), so a run that must start from
#   nothing says so. Returns delver's exit status.
#
# step_check NAME STATUS MESSAGE
#   One step of a script that counts its failures in $fails: prints
#   "ok   NAME" when STATUS is 0, else "FAIL: NAME: MESSAGE" with the last
#   command's $top/out and $top/err, and counts it.
#
# console_on DIR [delver args...] < input
#   The console as the user gm on the state directory DIR (no colour),
#   stdout to $top/out and stderr to $top/err; returns delver's status.
#
# file_wait PATH SECONDS
#   Waits until PATH is a file with something in it, or a socket (what a
#   process that starts writes for the test: a port file, a session file,
#   a notify socket); returns 1 when SECONDS (a whole number) pass first,
#   and the caller says what is missing.
#
# scratch
#   A script's scratch space: $top a fresh temporary directory, removed at
#   exit after the background delver in $pid (when set) is killed; $pid
#   empty; $fails 0; $d the state directory $top/state (not yet made).
#
# console_bg DIR [delver args...]
#   The console as the user gm on the state directory DIR (no colour) in
#   the background, reading the FIFO $top/in that descriptor 3 writes to;
#   stdout to $top/out, stderr to $top/err, its PID in $pid.
#
# console_kill
#   Kills the console_bg delver with SIGKILL (a crash: nothing of its own
#   shutdown runs), waits for it and closes descriptor 3.
set -u
BUILD=${1:-build/default}
DELVER=${DELVER:-$BUILD/delver}
TDIR=tests/integration/transcripts

delver_fresh() {
	fresh=$(mktemp -d)
	"$DELVER" --state-dir "$fresh/state" "$@"
	frc=$?
	rm -rf "$fresh"
	return $frc
}

transcript_input() {
	sed '/^#/d' "$TDIR/$1.in"
}

transcript() {
	name=$1
	seed=$2
	shift 2
	out=$(mktemp)
	sdir=$(mktemp -d)
	transcript_input "$name" |
		"$DELVER" --console --seed "$seed" --color never --user gm \
			--state-dir "$sdir/state" "$@" > "$out" 2>&1
	rc=$?
	rm -rf "$sdir"
	if [ "$rc" -ne 0 ]; then
		echo "delver exited $rc on $name"
		cat "$out"
		rm -f "$out"
		return 1
	fi
	if [ "${UPDATE:-0}" = 1 ]; then
		cp "$out" "$TDIR/$name.expected"
		rm -f "$out"
		return 0
	fi
	if ! diff -u "$TDIR/$name.expected" "$out"; then
		echo "transcript $name differs from $TDIR/$name.expected"
		rm -f "$out"
		return 1
	fi
	rm -f "$out"
}

# The log files given (stdin when none) without the time each line of a run
# starts with outside journald (bot/log.h: UTC, ISO 8601, to the ms).
unstamp() {
	sed -E 's/^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[.][0-9]{3}Z //' "$@"
}

step_check() {
	if [ "$2" -ne 0 ]; then
		echo "FAIL: $1: $3"
		echo "--- stdout"; cat "$top/out"
		echo "--- stderr"; cat "$top/err"
		fails=$((fails + 1))
	else
		echo "ok   $1"
	fi
}

console_on() {
	cdir=$1
	shift
	"$DELVER" --console --color never --user gm --state-dir "$cdir" "$@" \
		> "$top/out" 2> "$top/err"
}

scratch() {
	top=$(mktemp -d)
	pid=
	trap '[ -n "$pid" ] && kill -9 "$pid" 2> /dev/null; rm -rf "$top"' EXIT
	fails=0
	d=$top/state
}

console_bg() {
	cdir=$1
	shift
	rm -f "$top/in"
	mkfifo "$top/in"
	"$DELVER" --console --color never --user gm --state-dir "$cdir" "$@" \
		< "$top/in" > "$top/out" 2> "$top/err" &
	pid=$!
	exec 3> "$top/in"
}

console_kill() {
	kill -9 "$pid"
	wait "$pid" 2> /dev/null
	pid=
	exec 3>&-
}

file_wait() {
	fw_i=0
	until [ -s "$1" ] || [ -S "$1" ]; do
		fw_i=$((fw_i + 1))
		[ "$fw_i" -gt $(($2 * 20)) ] && return 1
		sleep 0.05
	done
	return 0
}
# text_wait FILE TEXT SECONDS: waits until FILE holds TEXT (a fixed
# string, anywhere in a line); returns 1 after SECONDS without it.
text_wait() {
	tw_i=0
	until grep -qF -- "$2" "$1" 2>/dev/null; do
		tw_i=$((tw_i + 1))
		[ "$tw_i" -gt $(($3 * 20)) ] && return 1
		sleep 0.05
	done
	return 0
}
