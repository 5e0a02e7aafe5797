#!/bin/sh
# No secret read from env:, file: or credential: ever appears in delver's
# output: --check-config on valid files and on every error path around
# secrets, and a daemon run at debug level through reloads (good and bad)
# and a stop. Its Discord and IRC servers are closed ports on loopback. Every byte delver writes goes to one file that is then
# searched for each secret.
. tests/integration/lib.sh
DELVER=$(cd "$(dirname "$DELVER")" && pwd)/$(basename "$DELVER")
tmp=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
all=$tmp/all-output
: > "$all"
fails=0

ENV_SECRET=Env-S3cret-MTIzNDU2Nzg5.GhIjKl
FILE_SECRET=File-S3cret-hunter2-zx81
CRED_SECRET=Cred-S3cret-q9w8e7r6t5
mkdir -m 700 creds
printf '%s\n' "$FILE_SECRET" > irc-pass
chmod 600 irc-pass
printf '%s\n' "$CRED_SECRET" > creds/delver.irc-password
export DELVER_TOKEN="$ENV_SECRET"
CREDENTIALS_DIRECTORY=$tmp/creds
export CREDENTIALS_DIRECTORY

good='[bot]
log_level = debug
[discord]
token_source = env:DELVER_TOKEN
gateway_url = ws://127.0.0.1:9
rest_url = http://127.0.0.1:9/api/v10
[irc.libera]
host = 127.0.0.1
port = 9
tls = no
nick = delver
sasl_user = delver
password_source = file:'$tmp'/irc-pass
[irc.oftc]
host = 127.0.0.1
port = 9
tls = no
nick = delver
password_source = credential:delver.irc-password
[console]
enabled = yes'

# run STATUS ARGS...: runs delver with ARGS, appends its output to $all and
# checks its exit status.
run() {
	want=$1
	shift
	"$DELVER" "$@" < /dev/null >> "$all" 2>&1
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		echo "FAIL delver $*: exit $rc, want $want"
		fails=$((fails + 1))
	fi
}

printf '%s\n' "$good" > t.conf
run 0 --check-config --config t.conf --log-level debug

# Error paths, each after at least one secret was read.
chmod 644 irc-pass
run 3 --check-config --config t.conf
chmod 600 irc-pass
printf '%s\nx\n' "$FILE_SECRET" > irc-pass
run 3 --check-config --config t.conf
printf '%s\n' "$FILE_SECRET" > irc-pass
printf '%s\nsecond line\n' "$CRED_SECRET" > creds/delver.irc-password
run 3 --check-config --config t.conf
printf '%s\n' "$CRED_SECRET" > creds/delver.irc-password
DELVER_TOKEN="$ENV_SECRET
PRIVMSG #x :$ENV_SECRET" run 3 --check-config --config t.conf
printf '%s\n' "$good" | sed 's/^password_source = credential:.*/password_source = env:ABSENT/' > t.conf
run 3 --check-config --config t.conf
# A secret pasted where its source belongs.
printf '[discord]\ntoken_source = %s\n' "$ENV_SECRET" > t.conf
run 3 --check-config --config t.conf
printf '[discord]\ntoken_source = env:%s\n' "$ENV_SECRET" > t.conf
run 3 --check-config --config t.conf

# The daemon at debug level: commands, a good and a bad reload, a stop.
printf '%s\n' "$good" > t.conf
mkfifo in
"$DELVER" --config t.conf --color never --user gm < in >> "$all" 2>&1 &
pid=$!
exec 3> in
printf '/gm claim\n/help\n' >&3
# Each signal waits for the daemon's answer to the one before: two
# SIGHUPs pending at once are one (a loaded machine left the first
# unhandled 0.3 s later, and only the bad configuration was read).
text_wait "$all" 'info: delver 0.1.0 ready' 10 ||
	{ echo "FAIL the daemon did not start"; fails=$((fails + 1)); }
kill -HUP "$pid"
text_wait "$all" 'reloaded the configuration' 10 ||
	{ echo "FAIL the good reload was not answered"; fails=$((fails + 1)); }
printf '[discord]\ntoken_source = %s\n' "$FILE_SECRET" > t.conf
kill -HUP "$pid"
text_wait "$all" 'keeping the configuration in use' 10 ||
	{ echo "FAIL the bad reload was not answered"; fails=$((fails + 1)); }
kill -TERM "$pid"
wait "$pid" || { echo "FAIL the daemon's exit status"; fails=$((fails + 1)); }
pid=""
exec 3>&-

grep -q 'reloaded the configuration' "$all" || { echo "FAIL no reload logged"; fails=$((fails + 1)); }
grep -q 'keeping the configuration in use' "$all" ||
	{ echo "FAIL no rejected reload logged"; fails=$((fails + 1)); }
[ "$(grep -c '^error: ' "$all")" -ge 7 ] ||
	{ echo "FAIL too few errors: the error paths were not taken"; fails=$((fails + 1)); }
for s in "$ENV_SECRET" "$FILE_SECRET" "$CRED_SECRET" hunter2 MTIzNDU2Nzg5; do
	if grep -nF -- "$s" "$all"; then
		echo "FAIL a secret ($s) appears in the output above"
		fails=$((fails + 1))
	fi
done
echo "$(wc -l < "$all") lines of output searched"
[ "$fails" -eq 0 ]
