# Helpers for the Discord integration tests (sourced after lib.sh).
#
# DISCORD_COMPRESS=none in the environment runs a test with [discord]
# compress = none; by default the bot runs with its default (zlib-stream).
# Either way the fake checks that every connection asks for what was
# configured (ctl zexpect changes that within a test).
#
# fake_start [fake_discord args]   start the fake Discord; sets PORT (and
#                                  IDENTIFY_MS: its --identify-interval)
# tls_start [STALLS]               the fake's REST side behind a TLS terminator
#                                  on loopback (tests/tools/tls_terminator.py,
#                                  after fake_start), with a certificate made
#                                  here: sets TLS_PID (in OTHER_PIDS), REST
#                                  and TLS_CA (for bot_start
#                                  "tls_ca_file=$TLS_CA"); it counts its
#                                  accepts in $WORK/tls-accepts, and SIGUSR2
#                                  stalls the handshakes of the next STALLS
#                                  (0 by default) connections
# bot_start [transport args]       start the bot against it; sets BOT_PID
#                                  ($BOT_EXTRA: more [bot] lines, $BOT_STATE:
#                                  its state directory, $WORK/state by default)
# keep_bot                         BOT_PID joins OTHER_PIDS (stopped by fail,
#                                  cleanup) so another bot can start
# sessions                         the fake's sessions, as JSON
# live                             how many of them are live (connected, ready)
# wait_live N [SECONDS]            wait (60 s by default) until N are live
# pg_start                         a local PostgreSQL cluster for the test
#                                  (tests/tools/pg_cluster.sh), stopped by its
#                                  PID at exit; sets CONNINFO, and BOT_EXTRA to
#                                  its [store] section
# pg_freezable_start NAME          a PostgreSQL cluster whose server process
#                                  serving delver can be stopped (freeze);
#                                  sets PG, CONNINFO, APPNAME (delver-NAME-PID)
#                                  and BOT_EXTRA (its [store] section, with
#                                  that application_name); the EXIT trap
#                                  thaws it, stops the bot and the cluster
# freeze [newest]                  SIGSTOP the server process serving delver
#                                  (the oldest with APPNAME, or the newest: a
#                                  killed process's may linger); FROZEN holds
#                                  its PID until thaw sends SIGCONT
# channels                         the fake's channels, as JSON
# ctl COMMAND                      one control command (see fake_discord.c)
# inject JSON                      POST /_control/interact
# stat PATH                        one statistic, e.g. stat interactions.answered
# wait_until PYEXPR SECONDS        poll the statistics (as s) until PYEXPR holds
# bot_stats                        SIGUSR1 to the bot, then wait (5 s) for its stats line in $BOT_LOG
# log_wait PATTERN SECONDS         wait for a line matching PATTERN (grep -E) in $BOT_LOG
# bot_wait_exit SECONDS            wait for the bot to exit; sets BOT_STATUS
# bot_kill                         SIGKILL to the bot (a crash), then wait for it
# one_channel_start                the fake (a heartbeat every 2 s) and the bot,
#                                  ready with its commands registered; sets
#                                  CHAN, the channel of one-channel injections
# one TEMPLATE                     inject one interaction in that channel and
#                                  wait (10 s) until all n so far are created
#                                  and answered, and $ONE_ALSO holds when set
#                                  (n counts them; a test adds its own bulk)
# press LABEL USER EXPECT PRIVATE [EXTRA]
#                                  a template: USER presses the button LABEL
# turns                            the sum of every channel's turn counter in
#                                  $WORK/state/delver.db (read-only)
# finish                           stop both, fail on any violation, on the
#                                  token in any log line, or on a bot crash
# Every helper fails the test (exit 1) with one line saying why.
set -u
TOOLS=$BUILD/tools
WORK=$(mktemp -d /tmp/delver-discord.XXXXXX)
TOKEN="MTEwMDAwMDAwMDAwMDAwMDAwMQ.fake.$$-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
export DELVER_TEST_TOKEN="$TOKEN"
# The identify ledger goes to $RUNTIME_DIRECTORY when set, else under the
# user's runtime directory: tests keep it in their own (every process of
# one test shares it, as on one machine).
unset RUNTIME_DIRECTORY
export XDG_RUNTIME_DIR="$WORK/run"
mkdir -m 700 "$XDG_RUNTIME_DIR"
FAKE_PID=""
IDENTIFY_MS=5000
BOT_PID=""
OTHER_PIDS=""
BOT_STATUS=""
BOT_N=0
DISCORD_COMPRESS=${DISCORD_COMPRESS:-}

fail() {
	echo "FAIL: $*"
	[ -n "$BOT_PID" ] && kill "$BOT_PID" 2>/dev/null
	for p in $OTHER_PIDS; do kill "$p" 2>/dev/null; done
	[ -n "$FAKE_PID" ] && kill "$FAKE_PID" 2>/dev/null
	for f in "$WORK"/*.log; do
		[ -f "$f" ] && { echo "--- $f (last 25 lines)"; tail -n 25 "$f"; }
	done
	exit 1
}

cleanup() {
	[ -n "$BOT_PID" ] && kill "$BOT_PID" 2>/dev/null
	for p in $OTHER_PIDS; do kill "$p" 2>/dev/null; done
	[ -n "$FAKE_PID" ] && kill "$FAKE_PID" 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT

fake_start() {
	if [ "$DISCORD_COMPRESS" = none ]; then expect=no; else expect=yes; fi
	IDENTIFY_MS=5000
	prev=""
	for a in "$@"; do
		[ "$prev" = --identify-interval ] && IDENTIFY_MS=$a
		prev=$a
	done
	"$TOOLS/fake_discord" --port-file "$WORK/port" --token "$TOKEN" \
		--stats "$WORK/final-stats.json" --expect-compress $expect "$@" \
		> "$WORK/fake.log" 2>&1 &
	FAKE_PID=$!
	file_wait "$WORK/port" 5 || fail "the fake Discord did not start"
	PORT=$(cat "$WORK/port")
	REST="http://127.0.0.1:$PORT/api/v10"
}

tls_start() {
	command -v openssl > /dev/null || fail "openssl is needed"
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
		-subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
		-keyout "$WORK/tls.key" -out "$WORK/tls.pem" > "$WORK/openssl.log" 2>&1 ||
		fail "openssl cannot make a certificate: $(cat "$WORK/openssl.log")"
	python3 tests/tools/tls_terminator.py "$WORK/tls.pem" "$WORK/tls.key" "$PORT" \
		"$WORK/tls-port" "$WORK/tls-accepts" "${1:-0}" > "$WORK/tls.log" 2>&1 &
	TLS_PID=$!
	OTHER_PIDS="$OTHER_PIDS $TLS_PID"
	file_wait "$WORK/tls-port" 5 || fail "the TLS terminator did not start"
	REST="https://127.0.0.1:$(cat "$WORK/tls-port")/api/v10"
	TLS_CA="$WORK/tls.pem"
}

# bot_start [KEY=VALUE ...]: delver with a configuration file whose
# [discord] section points at the fake; the pairs are more [discord] keys
# (a compress= pair wins over DISCORD_COMPRESS).
bot_start() {
	BOT_N=$((BOT_N + 1))
	BOT_LOG="$WORK/bot$BOT_N.log"
	BOT_CONF="$WORK/delver$BOT_N.conf"
	mkdir -p "${BOT_STATE:-$WORK/state}"
	{
		printf '[bot]\nstate_dir = %s\ngm_role = Game Master\n' "${BOT_STATE:-$WORK/state}"
		[ -n "${BOT_EXTRA:-}" ] && printf '%s\n' "$BOT_EXTRA"
		printf '[discord]\ntoken_source = env:DELVER_TEST_TOKEN\nrest_url = %s\n' "$REST"
		compress=$DISCORD_COMPRESS
		for kv in "$@"; do
			printf '%s = %s\n' "${kv%%=*}" "${kv#*=}"
			[ "${kv%%=*}" = compress ] && compress=""
		done
		[ -n "$compress" ] && printf 'compress = %s\n' "$compress"
	} > "$BOT_CONF"
	"$DELVER" --config "$BOT_CONF" --seed 1 < /dev/null > "$BOT_LOG" 2>&1 &
	BOT_PID=$!
	BOT_STATUS=""
}

# Discord allows one IDENTIFY per 5 s (max_concurrency 1), across restarts
# too: waits until the fake saw the last IDENTIFY that interval and 200 ms
# ago (the fake's --identify-interval when the test shortened it), so the
# next bot's first IDENTIFY cannot come sooner than the interval after it.
identify_window() {
	wait_until "g['ms_since_identify'] < 0 or g['ms_since_identify'] >= $((IDENTIFY_MS + 200))" 10
}

keep_bot() {
	OTHER_PIDS="$OTHER_PIDS $BOT_PID"
	BOT_PID=""
}

sessions() {
	curl -s "http://127.0.0.1:$PORT/_control/sessions"
}

live() {
	sessions | python3 -c "
import json, sys
print(len([s for s in json.load(sys.stdin) if s['live']]))"
}

# poll URL EXPR SECONDS: one Python process reads the fake's JSON at URL
# every 0.1 s until EXPR (over that JSON as j) holds; exits 1 when SECONDS
# pass first. A poll that cannot read or evaluate counts as "not yet".
# (A Python started for every poll cost more CPU than the bot under test.)
poll() {
	python3 -c '
import json, sys, time, urllib.request
url, expr, limit = sys.argv[1], sys.argv[2], float(sys.argv[3])
code = compile(expr, "<wait>", "eval")
end = time.monotonic() + limit
while True:
    try:
        with urllib.request.urlopen(url, timeout=5) as f:
            j = json.load(f)
        if eval(code, {"j": j}):
            sys.exit(0)
    except Exception:
        pass
    if time.monotonic() >= end:
        sys.exit(1)
    time.sleep(0.1)
' "http://127.0.0.1:$PORT/_control/$1" "$2" "$3"
}

# The limit is a bound, not a speed check: several processes starting on
# one PostgreSQL server on a loaded machine took more than 30 s.
wait_live() {
	poll sessions "len([s for s in j if s['live']]) == $1" "${2:-60}" ||
		fail "not $1 live sessions after ${2:-60} s: $(sessions)"
}

pg_start() {
	# Its own directory under /tmp: as root the server runs as "postgres",
	# which cannot enter $WORK (0700).
	PG=$(mktemp -d /tmp/delver-discord-pg.XXXXXX)
	trap pg_cleanup EXIT
	CONNINFO=$(PG_FSYNC=off sh tests/tools/pg_cluster.sh start "$PG") || {
		rm -rf "$PG"
		PG=""
		fail "the PostgreSQL cluster did not start"
	}
	BOT_EXTRA=$(printf '[store]\nbackend = postgresql\nconninfo = %s' "$CONNINFO")
}

pg_cleanup() {
	for p in $OTHER_PIDS; do kill "$p" 2>/dev/null; done
	for p in $OTHER_PIDS; do wait "$p" 2>/dev/null; done
	OTHER_PIDS=""
	if [ -n "${PG:-}" ]; then
		sh tests/tools/pg_cluster.sh stop "$PG" > /dev/null 2>&1
		rm -rf "$PG"
	fi
	cleanup
}

pg_freezable_start() {
	# Its own directory under /tmp: as root the server runs as "postgres",
	# which cannot enter $WORK (0700).
	PG=$(mktemp -d "/tmp/delver-$1-pg.XXXXXX")
	PG_STARTED=""
	FROZEN=""
	trap pg_freezable_cleanup EXIT
	trap 'exit 1' INT TERM
	CONNINFO=$(PG_FSYNC=off sh tests/tools/pg_cluster.sh start "$PG") ||
		fail "the PostgreSQL cluster did not start"
	PG_STARTED=1
	APPNAME="delver-$1-$$"
	BOT_EXTRA=$(printf '[store]\nbackend = postgresql\nconninfo = %s application_name=%s' \
		"$CONNINFO" "$APPNAME")
}

pg_freezable_cleanup() {
	[ -n "$FROZEN" ] && kill -CONT "$FROZEN" 2>/dev/null
	FROZEN=""
	[ -n "$BOT_PID" ] && kill "$BOT_PID" 2>/dev/null && wait "$BOT_PID" 2>/dev/null
	BOT_PID=""
	[ -n "$PG_STARTED" ] && sh tests/tools/pg_cluster.sh stop "$PG" > /dev/null 2>&1
	rm -rf "$PG"
	cleanup
}

freeze() {
	order=""
	[ "${1:-}" = newest ] && order=" DESC"
	BACKEND=$(psql "$CONNINFO" -Atc "SELECT pid FROM pg_stat_activity
		WHERE application_name = '$APPNAME' ORDER BY backend_start$order LIMIT 1") ||
		fail "cannot ask the cluster for delver's backend"
	case "$BACKEND" in '' | *[!0-9]*) fail "no backend of delver's ($APPNAME): '$BACKEND'" ;; esac
	FROZEN=$BACKEND
	kill -STOP "$FROZEN" || fail "cannot stop the backend $FROZEN"
}

thaw() {
	kill -CONT "$FROZEN"
	FROZEN=""
}

channels() {
	curl -s "http://127.0.0.1:$PORT/_control/channels"
}

ctl() {
	out=$(curl -s -X POST --data "$*" "http://127.0.0.1:$PORT/_control") ||
		fail "the fake Discord does not answer"
	[ "$out" = ok ] || fail "control '$*': $out"
}

inject() {
	out=$(curl -s -X POST --data "$1" "http://127.0.0.1:$PORT/_control/interact") ||
		fail "the fake Discord does not answer"
	[ "$out" = ok ] || fail "inject: $out"
}

stats() {
	curl -s "http://127.0.0.1:$PORT/_control/stats"
}

stat() {
	stats | python3 -c '
import json, sys
v = json.load(sys.stdin)
for k in sys.argv[1].split("."):
    v = v[k]
print(v)' "$1"
}

wait_until() {
	poll stats "(lambda s, i, g, r: ($1))(j, j['interactions'], j['gateway'], j['rest'])" "$2" || {
		stats
		fail "timed out after ${2}s waiting for: $1"
	}
}

bot_wait_exit() {
	i=0
	while kill -0 "$BOT_PID" 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt $(($1 * 10)) ] && fail "the bot did not exit within $1 s"
		sleep 0.1
	done
	wait "$BOT_PID"
	BOT_STATUS=$?
	BOT_PID=""
}

log_wait() {
	i=0
	until grep -q -E -- "$1" "$BOT_LOG"; do
		i=$((i + 1))
		[ $i -gt $(($2 * 10)) ] && fail "no log line matching '$1' after $2 s"
		sleep 0.1
	done
}

bot_stats() {
	kill -USR1 "$BOT_PID"
	log_wait "discord stats:" 5
}

bot_kill() {
	kill -KILL "$BOT_PID"
	wait "$BOT_PID" 2>/dev/null
	BOT_PID=""
}

bot_stop() {
	kill -TERM "$BOT_PID" 2>/dev/null
	bot_wait_exit 10
	[ "$BOT_STATUS" = 0 ] || fail "the bot exited with $BOT_STATUS after SIGTERM"
}

# An interaction template: command name, options JSON, expected text,
# whether the answer must be private, and extra JSON fields.
tmpl() {
	printf '{"data":{"type":1,"name":"%s","options":%s},"expect":"%s","private":%s%s}' \
		"$1" "$2" "$3" "$4" "${5:-}"
}

one_channel_start() {
	fake_start --heartbeat 2000
	bot_start
	wait_until "g['ready'] and r['registrations'] == 1" 10
	CHAN=1300000000000000000 # the fake's first channel (payload.c)
	n=0
}

# alone TEMPLATE: one interaction of TEMPLATE, alone, in the one channel.
alone() {
	inject "{\"count\":1,\"rate\":10,\"channels\":1,\"users\":1,\"templates\":[$1]}"
}

one() {
	n=$((n + 1))
	alone "$1"
	wait_until "i['created'] == $n and i['answered'] == $n${ONE_ALSO:+ and $ONE_ALSO}" 10
}

press() {
	printf '{"type":3,"press":"%s","user":%s,"expect":"%s","private":%s%s}' "$1" "$2" "$3" \
		"$4" "${5:-}"
}

turns() {
	python3 -c '
import json, sqlite3, sys
c = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
print(sum(json.loads(bytes(r[0])[9:]).get("mods", {}).get("procedure", {}).get("turn", 0)
          for r in c.execute("SELECT rec FROM channels")))' "$WORK/state/delver.db"
}

# session_keep FILE: starts a bot and, once it is ready and has written its
# session file FILE, keeps a copy as $WORK/session.first (to put back, as a
# kill -9 leaves a resume point that lagged).
session_keep() {
	bot_start
	wait_until "g['ready']" 15
	file_wait "$1" 20 || fail "no session file after 20 s"
	cp "$1" "$WORK/session.first"
}

# late_replays_resume N: a bot answers N /turn advance and stops; the next
# one, at log level debug, resumes 4 s later from the point saved before
# them (the session file put back, as a kill -9 leaves a resume point that
# lagged), so Discord replays all N, each past its 3 s; returns once it
# has resumed.
late_replays_resume() {
	late_turn='{"data":{"type":1,"name":"turn","options":[{"type":1,"name":"advance"}]},"expect":"turn passes","private":false,"permissions":"8"}'
	late_session=$WORK/state/discord-session-0.json
	session_keep "$late_session"
	inject "{\"count\":$1,\"rate\":50,\"channels\":1,\"users\":2,\"templates\":[$late_turn]}"
	wait_until "i['answered'] == $1" 20
	bot_stop
	cp "$WORK/session.first" "$late_session"
	sleep 4 # every replay past its 3 s
	BOT_EXTRA='log_level = debug'
	bot_start
	wait_until "g['resumed'] == 1 and g['ready']" 10
}

# The words of the lines that count interactions whose command ran but
# whose answer could not go, and replays of them too late to answer.
RAN_UNANSWERED="went unanswered after running(| in the last 1 s) \(answers ready past Discord's 3 s\)"
RAN_BEFORE="replayed too late to answer had been run by the process before but not answered(| in the last 1 s) \(changes kept\)"

# ran_unanswered N: a bot started runs N /turn advance, applies them and
# answers none (every callback refused with 503 until Discord's 3 s are
# over); the log counts them, the first at once, and it is killed -9 right
# after. Its session file is put back to the point saved before them (the
# fake lenient, its faults cleared), and 4 s later every replay of them is
# past its 3 s.
ran_unanswered() {
	ran_turn='{"data":{"type":1,"name":"turn","options":[{"type":1,"name":"advance"}]},"expect":"turn passes","private":false,"permissions":"8"}'
	ran_session=$WORK/state/discord-session-0.json
	session_keep "$ran_session"
	ctl lenient on # the answers that cannot go are the point
	ctl "rest5xx match=/callback count=1000 status=503"
	inject "{\"count\":$1,\"rate\":50,\"channels\":1,\"users\":2,\"templates\":[$ran_turn]}"
	wait_until "i['left_to_inject'] == 0" 10
	log_wait "warn: discord: 1 interaction $RAN_UNANSWERED; 1 since the start$" 5
	log_wait "warn: discord: [0-9]+ interactions? $RAN_UNANSWERED; $1 since the start$" 5
	bot_kill
	ctl restclear
	cp "$WORK/session.first" "$ran_session"
	sleep 4 # every replay past its 3 s
}

finish() {
	[ -n "$BOT_PID" ] && bot_stop
	# The bot token goes only where Discord needs it: never to a route an
	# interaction's token authorises.
	sent=$(stat rest.token_auth)
	[ "$sent" = 0 ] || fail "the bot token was sent with $sent interaction-token requests"
	kill -TERM "$FAKE_PID" 2>/dev/null
	wait "$FAKE_PID"
	fake_status=$?
	FAKE_PID=""
	[ "$fake_status" = 0 ] || fail "the fake Discord saw violations (exit $fake_status):
$(grep -m 5 VIOLATION "$WORK/fake.log")"
	for f in "$WORK"/*.log; do
		if grep -F -q -- "$TOKEN" "$f"; then
			fail "the token appears in $(basename "$f")"
		fi
		if grep -q -E "AddressSanitizer|runtime error|Segmentation" "$f"; then
			fail "$(basename "$f") shows a crash or sanitizer report"
		fi
	done
	echo "ok"
}
