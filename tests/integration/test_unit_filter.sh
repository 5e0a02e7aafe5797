#!/bin/sh
# tests/tools/unit_filter, which `make bench` runs every benchmark under,
# applies the shipped unit's system call filter: a probe's setpriority()
# (@resources) and fchown() (@privileged) succeed bare and fail with EPERM
# under it, while ordinary work still succeeds; its list follows the unit
# file (a unit that stops denying @resources lets setpriority through); and
# delver itself and a short store benchmark run to the end under it.
. tests/integration/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
filter=$BUILD/tools/unit_filter
probe=$BUILD/tools/unit_filter_probe
bench=$BUILD/bench/bench_persist

fail() {
	echo "FAIL $*"
	fails=$((fails + 1))
}

for f in "$filter" "$probe" "$bench"; do
	[ -x "$f" ] || { echo "FAIL $f is not built (make tools $bench)"; exit 1; }
done

# expect_probe WANT CMD...: the probe's four lines, errno texts left out.
expect_probe() {
	want=$1
	shift
	got=$("$@" "$probe" "$tmp" 2>"$tmp/err" | sed 's/ (.*//' | tr '\n' ' ')
	[ "$got" = "$want" ] || { fail "$*: probe printed '$got', expected '$want'"; cat "$tmp/err"; }
}

# Bare, every call succeeds (root or not): a failure below is the filter's.
expect_probe "setpriority ok fchown ok file ok socketpair ok " env
expect_probe "setpriority EPERM fchown EPERM file ok socketpair ok " "$filter" --quiet
# The line the benchmarks print names the unit's filter.
"$filter" true 2>"$tmp/say" || fail "unit_filter true exited $?"
grep -q '^unit_filter: [0-9]* system calls allowed, others fail (systemd/delver.service: SystemCallFilter=@system-service SystemCallFilter=~@privileged @resources SystemCallErrorNumber=EPERM)$' \
	"$tmp/say" || { fail "unexpected banner:"; cat "$tmp/say"; }
# A missing command is said, with status 127.
"$filter" --quiet "$tmp/none" 2>"$tmp/err"
rc=$?
if [ $rc -ne 127 ] || ! grep -q "^unit_filter: cannot run '$tmp/none': No such file or directory.$" "$tmp/err"; then
	fail "a missing command: status $rc"
	cat "$tmp/err"
fi

# The list is the unit's: generated from a copy that no longer denies
# @resources, it allows setpriority; from the shipped unit it does not.
gen=tests/tools/unit_filter_syscalls.sh
sh "$gen" systemd/delver.service > "$tmp/shipped.h" || fail "$gen failed on the shipped unit"
sed 's/^SystemCallFilter=~@privileged @resources$/SystemCallFilter=~@privileged/' \
	systemd/delver.service > "$tmp/loose.service"
sh "$gen" "$tmp/loose.service" > "$tmp/loose.h" || fail "$gen failed on a loosened unit"
grep -q '"setpriority"' "$tmp/shipped.h" && fail "the shipped unit's list allows setpriority"
grep -q '"setpriority"' "$tmp/loose.h" || fail "a unit without ~@resources does not allow setpriority"
for c in chroot fchown setrlimit; do
	grep -q "\"$c\"" "$tmp/shipped.h" && fail "the shipped unit's list allows $c"
done
for c in read openat execve clone3 epoll_wait fdatasync; do
	grep -q "\"$c\"" "$tmp/shipped.h" || fail "the shipped unit's list lacks $c"
done
# A unit the generator cannot follow is refused with one sentence.
sed 's/^SystemCallErrorNumber=EPERM$//' systemd/delver.service > "$tmp/kill.service"
sh "$gen" "$tmp/kill.service" > /dev/null 2>"$tmp/err" && fail "a unit without SystemCallErrorNumber= was accepted"
grep -q "must set SystemCallErrorNumber=" "$tmp/err" || { fail "no clear refusal:"; cat "$tmp/err"; }

# delver's console answers the same under the filter as bare (its state
# kept in a fresh directory each time).
printf '/roll 3d6+1\n/gm claim\n/tension set 4\n/tension\n' > "$tmp/cmds"
"$DELVER" --console --seed 7 --color never --user gm --state-dir "$tmp/bare" \
	< "$tmp/cmds" > "$tmp/bare.out" 2>&1 || fail "delver bare exited $?"
"$filter" --quiet "$DELVER" --console --seed 7 --color never --user gm --state-dir "$tmp/filtered" \
	< "$tmp/cmds" > "$tmp/filtered.out" 2>&1 || fail "delver under the filter exited $?"
cmp -s "$tmp/bare.out" "$tmp/filtered.out" ||
	{ fail "delver's console differs under the filter:"; diff "$tmp/bare.out" "$tmp/filtered.out"; }
grep -q 'Tension .* 4/10' "$tmp/filtered.out" || { fail "the console did not answer /tension:"; cat "$tmp/filtered.out"; }

# A short store benchmark (SQLite on a worker thread, snapshot files, group
# commit) runs to its last line under the filter.
BENCH_CHANNELS=2000 "$filter" --quiet "$bench" > "$tmp/bench.out" 2>&1 ||
	{ fail "bench_persist exited $? under the filter:"; tail -n 20 "$tmp/bench.out"; }
grep -q '^group commit FULL   offered  1000/s' "$tmp/bench.out" ||
	{ fail "bench_persist did not reach its last figure:"; tail -n 20 "$tmp/bench.out"; }

[ $fails -eq 0 ] || exit 1
echo "ok unit_filter"
