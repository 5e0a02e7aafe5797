#!/bin/sh
# Fungeon at a table of three (/as alice, bob, carol): the hallway and its
# category draw, each category made by its holder, the room entered, a
# trap found, triggered together and sprung, combat turns with a
# continuous sting, XP and level-ups; a whole dungeon played (transcript
# room); the rule text's worked examples (fungeon_party, fungeon_vanity,
# fungeon_wasps, fungeon_ring); then the first game in colour, checking
# that each player's Thwack-O die is drawn in that player's ANSI colour
# with their mark, never in anyone else's.
. tests/integration/lib.sh
transcript fungeon 7 || exit 1
# A whole dungeon by three players, checked by hand against the rule text:
# the entrance, the hallway and choosing in turn, a guarded treasure, a
# trap that springs once, a universal monster, a death and the treasure it
# leaves, a replacement (out until the next hallway), plunder, the next
# hallway, the way back with a wandering monster, town and a new dungeon.
transcript room 70 || exit 1
# The text's worked examples, each played as written.
transcript fungeon_party 39 || exit 1
transcript fungeon_vanity 9 || exit 1
transcript fungeon_wasps 4 || exit 1
transcript fungeon_ring 335 || exit 1

out=$(mktemp)
if ! transcript_input fungeon | delver_fresh --console --seed 7 --color always --user gm \
	> "$out" 2>&1; then
	echo "delver failed in colour"
	cat "$out"
	rm -f "$out"
	exit 1
fi
esc=$(printf '\033')
status=0

fail() {
	echo "colour check: $*"
	status=1
}

# Each line of the output prefixed with where it is: "T<n>|" in the n-th
# combat turn (from its title to the line naming its narrator), "O|"
# outside combat.
tagged=$(awk -v title="${esc}[1mCombat turn${esc}[0m" '
	$0 == title { t++; inturn = 1 }
	{ print (inturn ? "T" t : "O") "|" $0 }
	inturn && /^Narrative control: / { inturn = 0 }' "$out")

# check PLAYER FUNGEONEER SGR-COLOUR MARK (styles from /thwacko show):
# outside combat every dice line of the Fungeoneer carries the player's
# Thwack-O die; in a combat turn the player rolls one in the whole turn
# (text 000, line 271), so exactly one dice line of the turn carries it.
check() {
	player=$1
	name=$2
	code=$3
	mark=$4
	die="${esc}\[0;1;${code};4m${mark}[1-6]${esc}\[0m"
	all=$(grep -c "^$name ($player): " "$out")
	lines=$(printf '%s\n' "$tagged" | grep -c "^O|$name ($player): ")
	good=$(printf '%s\n' "$tagged" | grep "^O|$name ($player): " | grep -c "$die")
	twice=$(grep "^$name ($player): " "$out" | grep -c "$die.*$die")
	[ "$all" -ge 3 ] || fail "$name has only $all dice lines"
	[ "$good" -eq "$lines" ] ||
		fail "$good of $lines dice lines of $name outside combat carry $player's die"
	[ "$twice" -eq 0 ] || fail "$twice dice lines of $name carry two Thwack-O dice"
	for turn in $(printf '%s\n' "$tagged" | grep -o '^T[0-9]*' | sort -u); do
		# dice lines: "label: dice", not the narration lines
		n=$(printf '%s\n' "$tagged" | grep "^$turn|" | grep -v "|Narrative control\|Thwack-O" |
			grep "^$turn|[^ ][^:]*: .*$die" | grep -c "$die")
		[ "$n" -eq 1 ] || fail "$player's Thwack-O die is on $n dice lines of combat turn $turn"
	done
	grep -q "^$player: $die" "$out" || fail "$player's category draw die is not in style"
	grep -q "^Narrative control\( so far this turn\)\?: ${esc}\[0;1m$player${esc}\[0m ($name), Thwack-O $die" "$out" ||
		fail "no narration line for $player in style"
	others=$(grep -o "${esc}\[0;1;[0-9]*;4m${mark}" "$out" | grep -vc "\[0;1;${code};4m")
	[ "$others" -eq 0 ] || fail "$player's mark $mark is drawn in another colour $others times"
}

check alice Alba 31 "◆"
check bob Brom 33 "■"
check carol Cora 34 "▲"
# carol rolls the trap she placed when her own Fungeoneer is not in the roll
grep -q "^pit: ${esc}\[0;1;34;4m▲[1-6]" "$out" || fail "carol's Thwack-O is not on the pit"
rm -f "$out"
exit $status
