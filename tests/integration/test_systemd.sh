#!/bin/sh
# The systemd units as `make install` writes them: `systemd-analyze verify`
# passes with no complaint at all (the installed binary and man page exist:
# the install goes to a scratch PREFIX, so the units name real paths), and
# `systemd-analyze security` rates them OK or better, and both load every
# credential the example configuration names. A unit with a typo must be
# caught, or this test could not fail. The units' SystemCallFilter denies
# all of @privileged and @resources, setpriority included: nothing in delver
# changes a priority since the SQLite store writes its snapshot files on a
# thread (the forked writer that lowered its own priority is gone).
. tests/integration/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

fail() {
	echo "FAIL $*"
	fails=$((fails + 1))
}

make --no-print-directory install PREFIX="$tmp" SYSCONFDIR="$tmp/etc" > "$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log"; exit 1; }
units=$tmp/lib/systemd/system
# verify runs `man delver(8)` for Documentation=: find the installed page.
MANPATH=$tmp/share/man
export MANPATH

if grep -n '@[A-Z]*@' "$units"/delver*.service; then
	fail "placeholders left in the installed units"
fi
grep -qx "ExecStart=$tmp/bin/delver --config $tmp/etc/delver/delver.conf --shard %i" \
	"$units/delver@.service" || fail "delver@.service does not run the installed binary"

# verify UNIT: no output at all (warnings included) and status 0.
verify() {
	out=$(systemd-analyze verify "$1" 2>&1)
	rc=$?
	if [ "$rc" -ne 0 ] || [ -n "$out" ]; then
		fail "systemd-analyze verify $(basename "$1") (status $rc):"
		echo "$out"
	else
		echo "ok   verify $(basename "$1")"
	fi
}
verify "$units/delver.service"
verify "$units/delver@.service"
verify "$units/delver@0.service" # an instance, through the template

for u in delver.service delver@.service; do
	line=$(systemd-analyze security --offline=true "$units/$u" 2>&1 | grep 'Overall exposure level')
	rating=$(echo "$line" | sed -n 's/.*: [0-9.]* \([A-Z]*\).*/\1/p')
	case $rating in
	OK | SAFE | PERFECT) echo "ok   security $u: $line" ;;
	*) fail "security $u rates '$rating': $line" ;;
	esac
done

# filtered UNIT SYSCALL: prints "allowed" or "denied" for SYSCALL under the
# unit's SystemCallFilter= lines (an allow-list, then additions and ~
# removals in order, groups expanded by systemd-analyze itself).
filtered() {
	python3 - "$1" "$2" <<'PY'
import subprocess, sys

def expand(name, seen=()):
    if not name.startswith("@"):
        return {name}
    out = subprocess.run(["systemd-analyze", "syscall-filter", name],
                         capture_output=True, text=True, check=True).stdout
    calls = set()
    for line in out.splitlines()[1:]:
        word = line.strip()
        if not word or word.startswith("#"):
            continue
        calls |= expand(word, seen + (name,)) if word not in seen else set()
    return calls

allowed = None
for line in open(sys.argv[1]):
    if not line.startswith("SystemCallFilter="):
        continue
    value = line.split("=", 1)[1].strip()
    deny = value.startswith("~")
    calls = set().union(*(expand(n) for n in value.lstrip("~").split()))
    if allowed is None:
        assert not deny, "the filter is expected to start with an allow-list"
        allowed = calls
    elif deny:
        allowed -= calls
    else:
        allowed |= calls
print("allowed" if sys.argv[2] in (allowed or set()) else "denied")
PY
}
for u in delver.service delver@.service; do
	for call in setpriority:denied setrlimit:denied sched_setscheduler:denied reboot:denied; do
		got=$(filtered "$units/$u" "${call%%:*}")
		if [ "$got" = "${call#*:}" ]; then
			echo "ok   $u: ${call%%:*} $got"
		else
			fail "$u: ${call%%:*} is $got, not ${call#*:}"
		fi
	done
done

# The example configuration and the units agree: every credential the
# example names is one both units load (delver@0 runs IRC too).
creds=$(grep -o 'credential:[a-z][a-z0-9._-]*' config/delver.conf.example | sort -u)
[ -n "$creds" ] || fail "the example configuration names no credential"
for c in $creds; do
	for u in delver.service delver@.service; do
		grep -qx "LoadCredential=${c#credential:}" "$units/$u" ||
			fail "the example names $c but $u does not load it"
	done
done
echo "ok   the example's credentials are the units' ($(echo $creds))"

# The negative control: a misspelt key is reported.
mkdir "$tmp/broken"
sed 's/^Restart=/Restrat=/' "$units/delver.service" > "$tmp/broken/delver.service"
out=$(systemd-analyze verify "$tmp/broken/delver.service" 2>&1)
case $out in
*Restrat*) echo "ok   a misspelt key is caught" ;;
*) fail "verify did not report a misspelt key: $out" ;;
esac

[ "$fails" -eq 0 ]
