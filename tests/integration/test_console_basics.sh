#!/bin/sh
# The console: GM seat, help, bad input (long lines, invalid UTF-8, unknown
# commands), /as switching players, /channel switching channels, both
# saying the current one with no name, and quit ending the input.
. tests/integration/lib.sh
transcript basics 1
[ $? -eq 0 ] || exit 1

# Names from the command line take the road /as and /channel take: a name
# too long is refused in the same words, with the status of a wrong command
# line; a bidi control is removed, never echoed.
long=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
rule='a name is 1 to 63 bytes of UTF-8 with no spaces, colons or control characters (got 64 bytes).'
err=$(delver_fresh --console --user "$long" < /dev/null 2>&1)
rc=$?
[ "$rc" -eq 2 ] || { echo "--user of 64 bytes: exit $rc, not 2"; exit 1; }
# The command line's error line ends with the status instead of a full stop.
end="; exiting with status 2 (a restart will not mend it: see delver(8), EXIT STATUS)"
[ "$err" = "error: --user NAME: ${rule%.}$end" ] || { echo "--user of 64 bytes: $err"; exit 1; }
err=$(delver_fresh --console --channel "$long" < /dev/null 2>&1)
[ $? -eq 2 ] || { echo "--channel of 64 bytes was not refused with status 2"; exit 1; }
[ "$err" = "error: --channel NAME: ${rule%.}$end" ] ||
	{ echo "--channel of 64 bytes: $err"; exit 1; }
out=$(printf '/as %s\n/as\n/channel\n' "$long" |
	delver_fresh --console --color never --user "b$(printf '\342\200\256')ob" \
		--channel "cr$(printf '\342\200\256')ypt" 2>&1)
want="bob> /as $long
/as NAME: $rule
bob> /as
You are bob; /as NAME changes it.
bob> /channel
You are in channel crypt; /channel NAME changes it."
[ "$out" = "$want" ] || { printf 'names from the command line:\n%s\n' "$out"; exit 1; }
# Closed standard descriptors are held open on /dev/null before anything
# else takes their numbers: with stdin closed the console reads an empty
# input and stops cleanly (the event loop's epoll once took fd 0 and the
# stop aborted), and a change piped in with stdout and stderr closed is kept.
state=$(mktemp -d)
"$DELVER" --state-dir "$state" --console <&-
rc=$?
[ "$rc" -eq 0 ] || { echo "stdin closed: exit $rc, not 0"; exit 1; }
printf '/save hit 1d20+4\n' | "$DELVER" --state-dir "$state" --console --user gm >&- 2>&-
rc=$?
[ "$rc" -eq 0 ] || { echo "stdout and stderr closed: exit $rc, not 0"; exit 1; }
out=$(printf '/saved\n' | "$DELVER" --state-dir "$state" --console --color never --user gm 2>&1)
case "$out" in
*"hit"*"1d20+4"*) ;;
*) printf 'the save made with stdout and stderr closed:\n%s\n' "$out"; exit 1 ;;
esac
"$DELVER" --state-dir "$state" --console <&- >&- 2>&-
rc=$?
rm -rf "$state"
[ "$rc" -eq 0 ] || { echo "all three closed: exit $rc, not 0"; exit 1; }
echo "ok   console_basics"
