#!/bin/sh
# Files that decide or hold secrets must be the user's own: a configuration
# file writable by its group or by anyone is refused (as OpenSSH does), as
# is one owned by another user; a secret file that is a symbolic link or
# owned by another user is refused. Each with its exact message. As root,
# with a network transport, the daemon warns once that it runs outside the
# unit's sandbox. (Cases that need chown run only as root.)
. tests/integration/lib.sh
DELVER=$(cd "$(dirname "$DELVER")" && pwd)/$(basename "$DELVER")
tmp=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
unset CREDENTIALS_DIRECTORY
fails=0
me=$(id -u)

check() { # check NAME WANT_STATUS WANT_OUTPUT: delver --check-config on t.conf
	out=$("$DELVER" --check-config --config t.conf < /dev/null 2>&1)
	rc=$?
	if [ "$rc" -ne "$2" ] || [ "$out" != "$3" ]; then
		echo "FAIL $1: exit $rc (want $2)"
		echo "  got:  $out"
		echo "  want: $3"
		fails=$((fails + 1))
	else
		echo "ok   $1"
	fi
}

printf 'S3cret-token-for-permissions\n' > token
chmod 600 token
printf '[discord]\ntoken_source = file:%s/token\n' "$tmp" > t.conf
chmod 644 t.conf
check "0644 config" 0 "t.conf is valid; it enables discord (as many shards as Discord recommends)"
chmod 666 t.conf
check "0666 config" 3 "error: t.conf is writable by any user (mode 0666), and it decides where secrets are sent; run chmod go-w t.conf"
chmod 664 t.conf
check "0664 config" 3 "error: t.conf is writable by its group (mode 0664), and it decides where secrets are sent; run chmod go-w t.conf"
chmod 600 t.conf

ln -s token link
printf '[discord]\ntoken_source = file:%s/link\n' "$tmp" > t.conf
check "symlinked secret" 3 "error: t.conf:2: [discord] token_source: $tmp/link is a symbolic link, which could point a secret anywhere; name the file itself"
mkdir creds
ln -s ../token creds/tok
printf '[discord]\ntoken_source = credential:tok\n' > t.conf
CREDENTIALS_DIRECTORY=$tmp/creds check "symlinked credential" 3 "error: t.conf:2: [discord] token_source: credential tok ($tmp/creds/tok) is a symbolic link, which could point a secret anywhere; name the file itself"

if [ "$me" = 0 ]; then
	other=65534
	printf '[discord]\ntoken_source = file:%s/token\n' "$tmp" > t.conf
	chown $other token
	check "secret of another user" 3 "error: t.conf:2: [discord] token_source: $tmp/token is owned by user $other, neither root nor the user delver runs as (0); chown it to one of them"
	chown 0 token
	chown $other t.conf
	check "config of another user" 3 "error: t.conf is owned by user $other, neither root nor the user delver runs as (0); chown it to one of them"
	chown 0 t.conf

	# The daemon as root with IRC (a closed port): one warning.
	printf '[irc.x]\nhost = 127.0.0.1\nport = 9\ntls = no\nnick = delver\n' > d.conf
	"$DELVER" --config d.conf < /dev/null > out 2>&1 &
	pid=$!
	# Said at the start; a SIGTERM before the handlers are set kills it.
	text_wait out "running as root" 10
	sleep 0.5 # time for a wrong second warning
	kill -TERM $pid
	wait $pid
	pid=""
	if [ "$(grep -c 'running as root' out)" != 1 ] ||
		! unstamp out | grep -q "^warn: delver is running as root with a network transport, outside the shipped unit's sandbox; run it as an unprivileged user"; then
		echo "FAIL root warning: $(cat out)"
		fails=$((fails + 1))
	else
		echo "ok   root warning"
	fi
	# Not for the console alone (local play, no network input).
	printf '/roll 1d1\n' | "$DELVER" --console --color never --state-dir st > out 2>&1
	if grep -q 'running as root' out; then
		echo "FAIL root warning on the console alone"
		fails=$((fails + 1))
	else
		echo "ok   no root warning on the console alone"
	fi
else
	echo "skip the chown and root cases: not root"
fi
[ "$fails" -eq 0 ]
