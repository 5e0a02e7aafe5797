#!/bin/sh
# The interactive console, driven through a pseudo-terminal (tmux, on a
# private socket in a temporary folder; only that server is killed):
# the banner and the prompt; history recall with the up arrow and line
# editing; Ctrl-C dropping the line without stopping delver; log lines
# written above the line being typed, not into it; a control
# character shown as its picture, never raw; replies wrapped at the
# terminal's width on word boundaries, a new width followed; quit; the
# history kept across runs in $XDG_STATE_HOME/delver/history; Ctrl-D;
# under make (as make run starts it), Ctrl-C does not end make; letters
# outside ASCII typed, edited and recalled whole, under a UTF-8 locale
# and under the "C" locale alike; a table wider than the terminal in
# parts.
. tests/integration/lib.sh
DELVER=$(cd "$(dirname "$DELVER")" && pwd)/$(basename "$DELVER")
tmp=$(mktemp -d)
runs=0
cleanup() {
	for sock in "$tmp"/tmux.*.sock; do
		[ -S "$sock" ] && tmux -S "$sock" kill-server 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
fails=0
WIDTH=60
# What the terminal runs, in a file: the checkout's path may hold spaces,
# which a command line handed through tmux would split ($tmp holds none).
cat > "$tmp/run.sh" <<EOF
echo \$\$ > "$tmp/pid"
exec "$DELVER" --console --seed 1 --color never --user gm --state-dir "$tmp/state"
EOF

fail() {
	echo "FAIL $*"
	fails=$((fails + 1))
}

# The screen's lines, trailing spaces cut (-J joins the lines the terminal
# itself wrapped, so a line delver did not wrap shows whole).
screen() {
	tmux -S "$SOCK" capture-pane -p -J -t delver | sed 's/ *$//'
}

# wait_line TEXT: waits up to 20 s for a screen line equal to TEXT.
wait_line() {
	i=0
	while ! screen | unstamp | grep -qxF -- "$1"; do
		i=$((i + 1))
		if [ "$i" -gt 200 ]; then
			fail "no line '$1' on the screen; it shows:"
			screen
			return 1
		fi
		sleep 0.1
	done
}

# last_line TEXT: waits up to 20 s for the last non-empty line to be TEXT.
last_line() {
	i=0
	while [ "$(screen | grep -v '^$' | tail -n 1)" != "$1" ]; do
		i=$((i + 1))
		if [ "$i" -gt 200 ]; then
			fail "the last line is not '$1'; the screen shows:"
			screen
			return 1
		fi
		sleep 0.1
	done
}

keys() {
	tmux -S "$SOCK" send-keys -t delver "$@"
}

# start: delver in a fresh tmux server, $WIDTH columns wide, its locale
# set by $LOCALE (env's arguments). Each run has its own socket: a server
# just told to exit may still hold the old one.
LOCALE="-u LC_ALL -u LC_CTYPE LANG=C.UTF-8"
start() {
	runs=$((runs + 1))
	SOCK=$tmp/tmux.$runs.sock
	rm -f "$tmp/status"
	tmux -S "$SOCK" -f /dev/null new-session -d -s delver -x "$WIDTH" -y 50 \
		"env $LOCALE HOME='$tmp' XDG_STATE_HOME='$tmp/xdg' TERM=xterm sh $tmp/run.sh; \
		echo \$? > '$tmp/status'; sleep 600" ||
		{ echo "FAIL tmux could not start a session"; exit 1; }
}

# ended: waits up to 20 s for delver to exit 0.
ended() {
	if ! file_wait "$tmp/status" 20; then
		fail "delver did not exit ($1); the screen shows:"
		screen
		return 1
	fi
	[ "$(cat "$tmp/status")" = 0 ] || fail "delver exited $(cat "$tmp/status") ($1)"
	tmux -S "$SOCK" kill-server 2>/dev/null
}

start
wait_line "delver 0.1.0: dice and dungeon procedures, played in this"
wait_line "quit, exit or Ctrl-D leaves; Ctrl-C clears the line."
last_line "gm@table>"

keys "/roll 1d6" Enter
wait_line "1d6: [5] = 5"
last_line "gm@table>"

# The up arrow recalls the line; the end of it is edited before Enter.
keys Up
last_line "gm@table> /roll 1d6"
keys BSpace 20
last_line "gm@table> /roll 1d20"
keys Enter
wait_line "1d20: [11] = 11"

# Ctrl-C drops the line being typed (the GM seat stays free) and delver
# goes on.
keys "/gm claim"
last_line "gm@table> /gm claim"
keys C-c
last_line "gm@table>"
wait_line "gm@table> /gm claim^C"
keys "/gm" Enter
wait_line "Nobody is GM here yet; /gm claim makes you the GM."

# A log line (SIGHUP reloads the configuration) goes above the line being
# typed, which is drawn again whole, the cursor where it was.
keys "/roll 1d6" Left Left
last_line "gm@table> /roll 1d6"
kill -HUP "$(cat "$tmp/pid")"
wait_line "info: reloaded the configuration (defaults)"
last_line "gm@table> /roll 1d6"
keys 2
last_line "gm@table> /roll 12d6"
keys C-u

# A control character typed (Ctrl-V Esc) comes back as its picture.
keys "/x" C-v Escape "[A" Enter
wait_line "Unknown command 'x␛[A'; the commands are roll, gmroll, gm,"
if screen | grep -q "$(printf '\033')"; then
	fail "an escape character reached the screen"
fi

# Letters outside ASCII reach delver whole (libedit decodes keys with the
# locale's character type), a wide one edited as one character.
keys "/roll 1d6 # café 火" Enter
wait_line "gm rolls café 火"
keys "/as zoë" Enter
wait_line "You are now zoë."
last_line "zoë@table>"
keys "/as 火火" Left BSpace Enter
wait_line "You are now 火."
keys "/as gm" Enter
last_line "gm@table>"

# Replies wrap on word boundaries at the width: no line is longer, and the
# help table's descriptions keep to their column.
keys "/help" Enter
wait_line "/help          List the commands, or explain one"
screen | while IFS= read -r l; do
	[ "$(printf '%s' "$l" | LC_ALL=C.UTF-8 wc -m)" -le "$WIDTH" ] ||
		echo "$l"
done > "$tmp/long"
[ -s "$tmp/long" ] && fail "lines wider than $WIDTH columns: $(cat "$tmp/long")"
wait_line "/fungeon       Fungeon: masterless dungeon crawling with"
wait_line "               Thwack-O dice"
wait_line "/as NAME       Play as NAME; with no name, say who you are"
wait_line "               (console)"

# A narrower terminal (SIGWINCH): the next replies wrap at its width.
tmux -S "$SOCK" resize-window -t delver -x 40
keys "/help" Enter
wait_line "/encumbrance   The load band for a"
wait_line "               Strength modifier and a"

keys "quit" Enter
ended "quit"
# libedit's own format: a space is \040.
grep -qxF '/roll\0401d20' "$tmp/xdg/delver/history" ||
	fail "the history file does not hold '/roll 1d20'"

# The history survives the restart: quit, /help (typed twice in a row,
# kept once), the /as lines, the roll with a label outside ASCII, the line
# with the escape, /gm, ... back. This run's locale is "C": the console
# takes C.UTF-8 itself.
LOCALE="LC_ALL=C"
start
last_line "gm@table>"
keys Up
last_line "gm@table> quit"
keys Up Up Up Up Up
last_line "gm@table> /roll 1d6 # café 火"
keys Enter
wait_line "gm rolls café 火"
keys Up Up Up Up Up Up Up Up Up
last_line "gm@table> /gm"
keys C-u
last_line "gm@table>"
keys C-d
ended "Ctrl-D"

# Started by make, as make run does: Ctrl-C clears the line and reaches
# delver alone, so after quit make ends with delver's status, 0, not with
# an interrupted child's 130.
printf 'run:\n\t@"%s" --console --seed 1 --color never --user gm --state-dir %s/state\n' \
	"$DELVER" "$tmp" > "$tmp/Makefile"
runs=$((runs + 1))
SOCK=$tmp/tmux.$runs.sock
rm -f "$tmp/status"
tmux -S "$SOCK" -f /dev/null new-session -d -s delver -x "$WIDTH" -y 50 \
	"env HOME='$tmp' XDG_STATE_HOME='$tmp/xdg' TERM=xterm sh -c 'make -s -f $tmp/Makefile run; \
	echo \$? > $tmp/status; sleep 600'" ||
	{ echo "FAIL tmux could not start a session"; exit 1; }
last_line "gm@table>"
keys "/gm claim"
last_line "gm@table> /gm claim"
keys C-c
last_line "gm@table>"
keys "quit" Enter
file_wait "$tmp/status" 20 || : # ended says so
if screen | grep -q "Interrupt"; then
	fail "make reported an interrupt: $(screen | grep Interrupt)"
fi
ended "quit under make"

# A table wider than the terminal comes in parts, one under the other,
# each with the first column again, every cell under its own header
# (newcomer F14: at 50 columns /fungeon party's bonus went on under class).
WIDTH=40
start
last_line "gm@table>"
keys "/fungeon join Alba wizard 2" Enter
wait_line "hits, class bonus 1, 0 XP."
keys "/fungeon party" Enter
wait_line "  Fungeoneer  player  class   level"
wait_line "▶ Alba        gm      wizard  2"
wait_line "  Fungeoneer  hits   XP  bonus"
wait_line "▶ Alba        10/10  0   1"
keys "quit" Enter
ended "quit after the party"

[ "$fails" -eq 0 ] || exit 1
echo "ok"
