#!/bin/sh
# /undo on the console: a mistaken kill undone by its maker, a refusal to
# another player, a wrong Tension raise and a light undone by the GM, steps
# back to an empty channel; then the history survives a restart. With
# Tension hidden, the GM's /light fail, which the channel read whole, is
# named to everyone by /undo, not as made behind the screen.
. tests/integration/lib.sh
transcript undo 7 || exit 1

sdir=$(mktemp -d)
out=$(mktemp)
trap 'rm -rf "$sdir" "$out"' EXIT
printf '/as alice\n/fungeon join Alba wizard 2\n/fungeon adjust Alba hits:-12\n' |
	"$DELVER" --console --seed 1 --color never --user gm --state-dir "$sdir/state" \
		> /dev/null 2>&1 || { echo "first run failed"; exit 1; }
printf '/as alice\n/undo\n/fungeon sheet Alba\n' |
	"$DELVER" --console --seed 1 --color never --user gm --state-dir "$sdir/state" \
		> "$out" 2>&1 || { echo "second run failed"; cat "$out"; exit 1; }
cat > "$sdir/want" <<'W'
gm> /as alice
You are now alice.
alice> /undo
Undid alice's /fungeon adjust Alba hits:-12: Fungeon state is as it was before.
1 more change can be undone; the next is alice's /fungeon join Alba wizard 2.
alice> /fungeon sheet Alba
Alba (alice): level 2 wizard
Hits 10/10 · class bonus 1 · XP 0 (level 3 at 40)
W
if ! diff -u "$sdir/want" "$out"; then
	echo "the undo history did not survive a restart"
	exit 1
fi
printf '%s\n' '/gm claim' '/tension mode hidden' '/as alice' '/light add torch' \
	'/as gm' '/light fail' '/as alice' '/undo' '/as gm' '/undo' |
	"$DELVER" --console --seed 1 --color never --user gm --state-dir "$sdir/hidden" \
		2>&1 | grep -A1 '/undo$' > "$out"
cat > "$sdir/want" <<'W'
alice> /undo
The last change here is gm's /light fail; only gm or the GM can undo it.
--
gm> /undo
Undid gm's /light fail: dungeon procedure state is as it was before.
W
if ! diff -u "$sdir/want" "$out"; then
	echo "a public change of the GM's read as made behind the screen"
	exit 1
fi
echo "ok   console_undo"
