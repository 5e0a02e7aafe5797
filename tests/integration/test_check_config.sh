#!/bin/sh
# delver --check-config: one case per class of bad value, each asserting the
# exact line-numbered message and exit status 3 (2 for a bad option); valid files exit 0 and say
# what they enable. Runs in a scratch directory so messages name "t.conf".
. tests/integration/lib.sh
DELVER=$(cd "$(dirname "$DELVER")" && pwd)/$(basename "$DELVER")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
top=$(pwd)
cd "$tmp" || exit 1
unset CREDENTIALS_DIRECTORY DELVER_TEST_TOKEN
fails=0

# check NAME WANT_STATUS WANT_OUTPUT [ARGS]: runs delver ARGS (default:
# --check-config --config t.conf, the file the caller wrote) and compares
# the exit status and the whole output (stdout and stderr).
check() {
	name=$1
	status=$2
	want=$3
	shift 3
	[ $# -gt 0 ] || set -- --check-config --config t.conf
	out=$("$DELVER" "$@" < /dev/null 2>&1)
	rc=$?
	verdict
}

# verdict: the case $name's exit status $rc and output $out against
# $status and $want.
verdict() {
	if [ "$rc" -ne "$status" ] || [ "$out" != "$want" ]; then
		echo "FAIL $name: exit $rc (want $status)"
		echo "  got:  $out"
		echo "  want: $want"
		fails=$((fails + 1))
	else
		echo "ok   $name"
	fi
}

# A directory or a device is no configuration (a directory read as an
# empty file passed as valid, recheck5 F6; /tmp was told to chmod go-w).
mkdir confdir && chmod 700 confdir
check config-directory 3 "error: confdir is a directory, not a configuration file; name the file itself (--config /etc/delver/delver.conf, delver.conf(5))" \
	--check-config --config confdir
check config-device 3 "error: /dev/null is a device, not a configuration file; name the file itself (--config /etc/delver/delver.conf, delver.conf(5))" \
	--check-config --config /dev/null
name=start-directory
out=$(timeout 30 "$DELVER" --config confdir --state-dir st < /dev/null 2>&1)
rc=$?
status=3
want="error: confdir is a directory, not a configuration file; name the file itself (--config /etc/delver/delver.conf, delver.conf(5)); exiting with status 3 (a restart will not mend it: see delver(8), EXIT STATUS)"
verdict

printf '[bot]\nlog_level = debug\n' > t.conf
# Valid, with a note: the service would refuse it (below).
check valid-console 0 "t.conf is valid; it enables the console (as a service, which has no terminal, it needs a [discord] or an [irc.NETWORK] section)"
# Nothing at all to serve: refused by the check as by every start (below).
printf '[console]\nenabled = no\n' > t.conf
nothing="error: t.conf enables no transport ([console] enabled = no, and no [discord] or [irc.NETWORK] section), so delver would answer nobody: add a [discord] or an [irc.NETWORK] section, or remove enabled = no from [console] to play in this terminal (delver(8), CONFIGURATION)"
check nothing 3 "$nothing"
# Started by hand, not as a service: refused at once (the timeout turns a
# start that idles, waiting for a signal, into a failure).
name=start-nothing
out=$(timeout 30 "$DELVER" --config t.conf --state-dir st < /dev/null 2>&1)
rc=$?
status=3
want="$nothing; exiting with status 3 (a restart will not mend it: see delver(8), EXIT STATUS)"
verdict
# Without --config: the default file, named as the one looked for (where
# this machine has none, as a build machine should not).
if [ ! -e /etc/delver/delver.conf ]; then
	check no-config 0 "No configuration file: /etc/delver/delver.conf (read when --config names none) does not exist, so delver runs with the defaults, which enable the console (as a service, which has no terminal, it needs a file there with a [discord] or an [irc.NETWORK] section: start from delver.conf.example)" \
		--check-config
fi

export DELVER_TEST_TOKEN=not-a-real-token
printf '[discord]\ntoken_source = env:DELVER_TEST_TOKEN\nshard_count = 2\n[irc.libera]\nhost = irc.libera.chat\nnick = delver\nchannels = #a #b\n' > t.conf
check valid-discord-irc 0 "t.conf is valid; it enables discord (shards 0-1 of 2), irc libera (irc.libera.chat:6697, 2 channels)"

printf '[bot]\nsnapshot_interval = soon\n' > t.conf
check bad-integer 3 "error: t.conf:2: [bot] snapshot_interval must be a whole number of seconds from 1 to 86400 (got 'soon')"

printf '[bot]\nfsync = no\n\n[irc.libera]\nhost = h\nnick = n\nport = 0\n' > t.conf
check out-of-range 3 "error: t.conf:7: [irc.libera] port must be a whole number from 1 to 65535 (got '0')"

printf '[bot]\nfsync = sometimes\n' > t.conf
check bad-enum 3 "error: t.conf:2: [bot] fsync must be everysec, always or no (got 'sometimes')"

printf '[console]\nenabled = maybe\n' > t.conf
check bad-bool 3 "error: t.conf:2: [console] enabled must be yes or no (got 'maybe')"

printf '[console]\nuser = alice\ncolour = red\n' > t.conf
check unknown-key 3 "error: t.conf:3: [console] has no key 'colour'; its keys are enabled, user, channel"

printf '# comment\n[bot]\n[discrod]\ntoken_source = env:X\n' > t.conf
check unknown-section 3 "error: t.conf:3: unknown section [discrod]; sections are [bot], [discord], [irc.<network>], [store] and [console]"

printf '[bot]\n\n[discord]\nshard_count = 1\n' > t.conf
check missing-required-key 3 "error: t.conf:3: [discord] is missing token_source (env:NAME, file:PATH or credential:NAME)"

printf 'secret\n' > token
chmod 644 token
printf '[discord]\ntoken_source = file:%s/token\n' "$tmp" > t.conf
check world-readable-secret 3 "error: t.conf:2: [discord] token_source: $tmp/token is open to other users (mode 0644); run chmod 600 $tmp/token"
chmod 600 token
check private-secret-file 0 "t.conf is valid; it enables discord (as many shards as Discord recommends)"

unset DELVER_TEST_TOKEN
printf '[bot]\n[discord]\ntoken_source = env:DELVER_TEST_TOKEN\n' > t.conf
check missing-secret-env 3 "error: t.conf:3: [discord] token_source: the environment variable DELVER_TEST_TOKEN is not set"

printf '[irc.n]\nhost = h\nnick = n\nsasl_user = me\npassword_source = file:%s/absent\n' "$tmp" > t.conf
check missing-secret-file 3 "error: t.conf:5: [irc.n] password_source: cannot read $tmp/absent: No such file or directory"

printf '[discord]\ntoken_source = credential:delver.discord-token\n' > t.conf
check missing-secret-credential 3 "error: t.conf:2: [discord] token_source: credential:delver.discord-token is read from \$CREDENTIALS_DIRECTORY, which systemd sets for the service (the shipped unit loads it from /etc/credstore/ with LoadCredential=delver.discord-token); outside it, name the directory with --credentials-dir (delver --check-config --credentials-dir /etc/credstore)"
mkdir creds
printf 'tok\n' > creds/delver.discord-token
chmod 644 creds/delver.discord-token
# A directory anyone may enter does not keep a file anyone may read.
chmod 755 creds
check credential-readable 3 "error: t.conf:2: [discord] token_source: credential delver.discord-token ($tmp/creds/delver.discord-token) is open to other users (mode 0644); run chmod 600 $tmp/creds/delver.discord-token" \
	--check-config --credentials-dir "$tmp/creds" --config t.conf
# One that no one else may enter does, as /etc/credstore (0700) does.
chmod 700 creds
CREDENTIALS_DIRECTORY=$tmp/creds
export CREDENTIALS_DIRECTORY
check credential 0 "t.conf is valid; it enables discord (as many shards as Discord recommends)"
unset CREDENTIALS_DIRECTORY
# By hand, as the hint says: the directory the unit loads credentials from.
check credentials-dir 0 "t.conf is valid; it enables discord (as many shards as Discord recommends)" \
	--check-config --credentials-dir "$tmp/creds" --config t.conf
check credentials-dir-missing 3 "error: t.conf:2: [discord] token_source: cannot read credential delver.discord-token ($tmp/nowhere/delver.discord-token): No such file or directory" \
	--check-config --credentials-dir "$tmp/nowhere" --config t.conf
# The shipped unit's hint names what the unit does.
grep -qx 'LoadCredential=delver.discord-token' "$top/systemd/delver.service" ||
	{ echo "FAIL the hint's LoadCredential= is not the shipped unit's"; fails=$((fails + 1)); }
printf '[irc.one]\nhost = irc.example.net\nnick = delver\nchannels = #only\n' > t.conf
check one-channel 0 "t.conf is valid; it enables irc one (irc.example.net:6697, 1 channel)"

# A wrong command line: one line and a pointer to --help, ending with its
# status, 2, as a start's error ends with its own.
status2="; exiting with status 2 (a restart will not mend it: see delver(8), EXIT STATUS)"
# recheck9 F2: a slip gets the option meant, as a command's does; one far
# from every option gets none
check unknown-option 2 "error: unknown option '--colour'; did you mean --color?$status2" \
	--colour never
check unknown-option-value 2 "error: unknown option '--sed=5'; did you mean --seed?$status2" \
	--sed=5
check unknown-option-far 2 "error: unknown option '--verbose'; delver --help lists the options$status2" \
	--verbose
# recheck9 F2: an option given twice is refused, as a command refuses one
check option-twice 2 "error: --seed is given twice (the second: --seed '6'); give each option once$status2" \
	--seed 5 --seed 6
check flag-twice 2 "error: --console is given twice; give each option once$status2" \
	--console --console
check unknown-short-option 2 "error: unknown option '-q'; delver --help lists the options$status2" -qV
check option-without-value 2 "error: --config needs a value; delver --help lists the options$status2" \
	--config
check stray-argument 2 "error: unexpected argument 'play'; delver --help lists the options$status2" \
	--console play
check version-extra 2 "error: unexpected argument 'extra'; delver --help lists the options$status2" \
	--version extra
check help-extra 2 "error: unexpected argument 'extra'; delver --help lists the options$status2" \
	--help extra
check seed-above-2^64-1 2 "error: --seed must be a whole number from 0 to 18446744073709551615 (got '18446744073709551616')$status2" \
	--seed 18446744073709551616
# A sentence that ends with a full stop ends with the status instead.
check user-colon 2 "error: --user NAME: a name is 1 to 63 bytes of UTF-8 with no spaces, colons or control characters (got a colon)$status2" \
	--user a:b
check seed-negative 2 "error: --seed must be a whole number from 0 to 18446744073709551615 (got '-1')$status2" \
	--seed -1
# recheck5 F12: an invisible or bidi character is named, never written raw
# (a U+202E would turn the rest of the line around on the terminal).
check seed-invisible 2 "error: --seed must be a whole number from 0 to 18446744073709551615 (got '12' with an invisible character U+200B at column 2)$status2" \
	--seed "$(printf '1\342\200\2132')"
check color-bidi 2 "error: --color must be auto, always or never (got 'always' with an invisible character U+202E at column 3)$status2" \
	--color "$(printf 'al\342\200\256ways')"

printf '[bot]\nfsync always\n' > t.conf
check syntax 3 "error: t.conf:2: expected 'key = value', a [section] header or a comment"

# --shard is checked against the file.
export DELVER_TEST_TOKEN=x1234
printf '[discord]\ntoken_source = env:DELVER_TEST_TOKEN\nshard_count = 2\n' > t.conf
check shard-range 3 "error: --shard must be from 0 to 1, below [discord] shard_count in t.conf (got 2)" \
	--check-config --config t.conf --shard 2
check shard-valid 0 "t.conf is valid; it enables discord (shard 1 of 2)" \
	--check-config --config t.conf --shard 1
printf '[discord]\ntoken_source = env:DELVER_TEST_TOKEN\nshard_count = 2\n[irc.n]\nhost = h\nnick = n\n[console]\nenabled = yes\n' > t.conf
check shard-0-runs-the-rest 0 "t.conf is valid; it enables discord (shard 0 of 2), irc n (h:6697, 0 channels), the console" \
	--check-config --config t.conf --shard 0
check shard-1-runs-discord-alone 0 "t.conf is valid; it enables discord (shard 1 of 2)" \
	--check-config --config t.conf --shard 1
# Only shard 0 runs IRC: the others do not need its secrets.
printf '[discord]\ntoken_source = env:DELVER_TEST_TOKEN\nshard_count = 2\n[irc.n]\nhost = h\nnick = n\npassword_source = file:%s/absent\n' "$tmp" > t.conf
check shard-1-needs-no-irc-secret 0 "t.conf is valid; it enables discord (shard 1 of 2)" \
	--check-config --config t.conf --shard 1
check shard-0-needs-the-irc-secret 3 "error: t.conf:7: [irc.n] password_source: cannot read $tmp/absent: No such file or directory" \
	--check-config --config t.conf --shard 0
# The instances share the state directory: each keeps its part (shard-N).
printf '[bot]\nstate_dir = /var/lib/delver\n[discord]\ntoken_source = env:DELVER_TEST_TOKEN\nshard_count = 2\n' > t.conf
check shard-shared-state 0 "t.conf is valid; it enables discord (shard 0 of 2)" \
	--check-config --config t.conf --shard 0
# --shard needs the number of shards every instance runs.
printf '[discord]\ntoken_source = env:DELVER_TEST_TOKEN\n' > t.conf
check shard-needs-a-count 3 "error: --shard 1 needs [discord] shard_count in t.conf set to the number of shards every instance runs (auto could differ between them)" \
	--check-config --config t.conf --shard 1

# A --config that does not exist is an error; a bad file stops the start.
check absent-config 3 "error: cannot read absent.conf: No such file or directory" \
	--check-config --config absent.conf
printf '[bot]\nlog_level = loud\n' > t.conf
check start-refused 3 "error: t.conf:2: [bot] log_level must be error, warn, info or debug (got 'loud'); exiting with status 3 (a restart will not mend it: see delver(8), EXIT STATUS)" \
	--config t.conf
check bad-option 2 "error: --shard must be a whole number from 0 to 65534 (got 'x')$status2" \
	--check-config --shard x

# service NAME STATUS WANT INPUT ARGS: delver ARGS started as systemd starts
# a service (INVOCATION_ID set), compared as check compares. INPUT is its
# standard input: null (/dev/null, a unit's default), closed, or
# file:PATH / pipe:PATH (PATH's lines given as a file or through a pipe).
# The timeout turns a start that idles instead of refusing into a failure.
service() {
	name=$1
	status=$2
	want=$3
	input=$4
	shift 4
	case $input in
	null) out=$(INVOCATION_ID=0123456789abcdef timeout 30 "$DELVER" "$@" < /dev/null 2>&1) ;;
	closed) out=$(INVOCATION_ID=0123456789abcdef timeout 30 "$DELVER" "$@" 2>&1 <&-) ;;
	file:*) out=$(INVOCATION_ID=0123456789abcdef timeout 30 "$DELVER" "$@" < "${input#file:}" 2>&1) ;;
	pipe:*) out=$(cat "${input#pipe:}" | INVOCATION_ID=0123456789abcdef timeout 30 "$DELVER" "$@" 2>&1) ;;
	esac
	rc=$?
	verdict
}
refused="error: t.conf configures no transport but the console, and a service has no terminal to play on: add a [discord] or an [irc.NETWORK] section (delver(8), CONFIGURATION); exiting with status 3 (a restart will not mend it: see delver(8), EXIT STATUS)"
printf '[console]\nuser = gm\n' > t.conf
: > empty
printf '/roll 1d6\n' > cmds
played="gm> /roll 1d6
gm rolls
1d6: [5] = 5
[Roll again: /roll 1d6]"
# The console alone with nothing to read is refused; given commands it plays.
service service-console-null 3 "$refused" null --config t.conf --state-dir st
service service-console-closed 3 "$refused" closed --config t.conf --state-dir st
service service-console-empty-file 3 "$refused" file:empty --config t.conf --state-dir st
service service-console-file 0 "$played" file:cmds --config t.conf --state-dir st --seed 1 --color never
service service-console-pipe 0 "$played" pipe:cmds --config t.conf --state-dir st --seed 1 --color never
# An explicit --console is what the operator asked for: it runs.
service service-console-option 0 "" null --config t.conf --state-dir st --console
# Nothing to serve at all is refused too, whatever the input.
printf '[console]\nenabled = no\n' > t.conf
service service-nothing 3 "error: t.conf enables no transport ([console] enabled = no, and no [discord] or [irc.NETWORK] section), so the service would answer nobody: add a [discord] or an [irc.NETWORK] section (delver(8), CONFIGURATION); exiting with status 3 (a restart will not mend it: see delver(8), EXIT STATUS)" \
	pipe:cmds --config t.conf --state-dir st
# No file at all: the refusal names the file looked for and how to make it.
if [ ! -e /etc/delver/delver.conf ]; then
	service service-no-config 3 "error: no configuration file: /etc/delver/delver.conf does not exist, so delver would play on the console alone, and a service has no terminal to play on: copy delver.conf.example (share/doc/delver under the installation prefix) there and add a [discord] or an [irc.NETWORK] section (delver(8), CONFIGURATION); exiting with status 3 (a restart will not mend it: see delver(8), EXIT STATUS)" \
		null --state-dir st
fi

[ "$fails" -eq 0 ]
