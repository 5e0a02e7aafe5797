# Shared helpers for integration tests (sourced; $1 of the test is the
# build directory, e.g. build/default).
#
# transcript NAME SEED [delver args...]
#   Pipes tests/integration/transcripts/NAME.in into the console
#   (--seed SEED --color never --user gm, a fresh empty --state-dir, plus
#   the args) and compares the
#   whole output with NAME.expected. Set UPDATE=1 to rewrite the expected
#   file instead; a rewritten file must be read line by line and checked
#   against the rules before it is committed.
#
# delver_fresh [delver args...]
#   Runs $DELVER with a fresh empty --state-dir, removed afterwards: delver
#   keeps its state (./state by default), so a run that must start from
#   nothing says so. Returns delver's exit status.
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

transcript() {
	name=$1
	seed=$2
	shift 2
	out=$(mktemp)
	sdir=$(mktemp -d)
	"$DELVER" --console --seed "$seed" --color never --user gm \
		--state-dir "$sdir/state" "$@" < "$TDIR/$name.in" > "$out" 2>&1
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
