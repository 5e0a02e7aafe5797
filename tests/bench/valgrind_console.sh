#!/bin/sh
# Runs 100,000 console commands through ./delver under valgrind and prints
# its leak summary; exits non-zero when valgrind finds a leak or an error.
set -eu
build=${1:-build/default}
in=$(mktemp)
trap 'rm -f "$in"' EXIT
python3 - "$in" <<'PY'
import sys
mix = ["/roll 4d6kh3", "/roll 10d10!>8f1 # attack", "/gm claim", "/gm release",
       "/roll 6x 4d6kh3", "/help roll", "/roll 1d20+", "/as bob", "/as gm"]
with open(sys.argv[1], "w") as f:
    for i in range(100000):
        f.write(mix[i % len(mix)] + "\n")
PY
start=$(date +%s)
valgrind --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect \
	--error-exitcode=3 "$build/delver" --console --seed 1 --color never < "$in" > /dev/null 2> build/valgrind.log || {
	tail -n 30 build/valgrind.log
	exit 1
}
echo "valgrind: 100,000 console commands in $(( $(date +%s) - start ))s:"
grep -E "in use at exit|definitely lost|indirectly lost|ERROR SUMMARY" build/valgrind.log
