#!/bin/sh
# SIGTERM is honoured at once in every state of the gateway session, and
# delver exits 0 soon after: connected (READY), connecting (a gateway that
# accepts TCP and never answers the upgrade), backing off (a gateway port
# that refuses), waiting for the identify spacing (4009 right after READY),
# resuming (the fake holds the RESUME unanswered). The log line that says
# the signal was taken must appear within 1 s, the exit within 1.5 s (the
# drain lets answers in flight finish; here none are).
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

HOLE_PID=""
trap 'cleanup; [ -n "$HOLE_PID" ] && kill "$HOLE_PID" 2>/dev/null' EXIT

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# term NAME: SIGTERM the bot, check the times, report them.
term() {
	t0=$(now_ms)
	kill -TERM "$BOT_PID"
	seen=""
	while kill -0 "$BOT_PID" 2>/dev/null; do
		if [ -z "$seen" ] && grep -q "SIGTERM: stopping" "$BOT_LOG"; then
			seen=$(($(now_ms) - t0))
		fi
		[ $(($(now_ms) - t0)) -gt 5000 ] && fail "$1: the bot did not exit within 5 s of SIGTERM"
		sleep 0.02
	done
	gone=$(($(now_ms) - t0))
	wait "$BOT_PID"
	st=$?
	BOT_PID=""
	[ -z "$seen" ] && grep -q "SIGTERM: stopping" "$BOT_LOG" && seen=$gone
	[ -n "$seen" ] || fail "$1: the bot never said it took SIGTERM"
	[ "$st" = 0 ] || fail "$1: exit status $st after SIGTERM"
	[ "$seen" -le 1000 ] || fail "$1: SIGTERM taken after $seen ms"
	[ "$gone" -le 1500 ] || fail "$1: exited $gone ms after SIGTERM"
	echo "ok   $1: SIGTERM taken within $seen ms, exit after $gone ms"
}

# Each state starts from no saved session: a saved one would be resumed at
# its resume URL, past the gateway URL the state needs.
fresh_start() {
	rm -f "$WORK"/state/discord-session-*.json
	bot_start "$@"
}

fake_start --heartbeat 41250

# connected
bot_start
wait_until "g['ready']" 15
sleep 1
term connected

# connecting: TCP accepted, the websocket upgrade never answered
python3 -c '
import socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(16)
open(sys.argv[1], "w").write("%d\n" % s.getsockname()[1])
conns = []
while True:
    c, _ = s.accept()
    conns.append(c)
' "$WORK/hole" &
HOLE_PID=$!
file_wait "$WORK/hole" 5 || fail "the silent listener did not start"
fresh_start "gateway_url=ws://127.0.0.1:$(cat "$WORK/hole")"
sleep 2
term connecting

# backing off: nothing listens on the gateway port
dead=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
fresh_start "gateway_url=ws://127.0.0.1:$dead"
log_wait "cannot connect to the gateway" 10
sleep 2
term backoff

# waiting for the identify spacing: a new session must wait 5.5 s
identify_window
fresh_start
wait_until "g['ready']" 15
ctl "close 4009"
log_wait "closed the connection \(4009\)" 10
sleep 0.5
term "identify spacing"

# resuming: the RESUME goes unanswered
identify_window
fresh_start
wait_until "g['ready']" 15
r0=$(stat gateway.resumes)
ctl "hold on"
ctl drop
wait_until "g['resumes'] > $r0" 10
sleep 0.5
term resuming
ctl "hold off"
finish
