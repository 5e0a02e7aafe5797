#!/bin/sh
# Fails on the string calls STYLE.md bans, on formatting drift from the
# committed .clang-format, and on a .c under bot/, commands/ or rules/
# without its own header.
set -u
status=0
files=$(git ls-files '*.c' '*.h' 2>/dev/null)
[ -n "$files" ] || files=$(find bot commands rules tests -name '*.[ch]')
# shellcheck disable=SC2086
banned=$(grep -nE '(^|[^_[:alnum:]])(sprintf|strcpy|strcat|strtok|sscanf|gets)[[:space:]]*\(' $files)
if [ -n "$banned" ]; then
	echo "lint: banned calls (see STYLE.md 7):"
	echo "$banned"
	status=1
fi
# One clang-format for every file (one per file spent a minute starting it
# up); each drifting file is named by its first complaint, and a
# clang-format that fails otherwise (missing, a file it cannot read) fails
# the lint too.
# shellcheck disable=SC2086
complaints=$(clang-format --dry-run --Werror $files 2>&1 >/dev/null)
cf=$?
drift=$(printf '%s\n' "$complaints" |
	sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' |
	uniq | tr '\n' ' ')
drift=${drift% }
[ -n "$drift" ] && drift=" $drift"
if [ $cf -ne 0 ] && [ -z "$drift" ]; then
	echo "lint: clang-format failed: $(printf '%s\n' "$complaints" | head -n 3)"
	status=1
fi
if [ -n "$drift" ]; then
	echo "lint: formatting drift (run 'make format'):$drift"
	status=1
fi
# Every .c under bot/, commands/ and rules/ has its own header, same folder and
# stem (STYLE.md: a reader finds a function from its name, and its
# declaration beside its file). The exceptions, each with its reason:
#   bot/main.c           the program itself: it exports nothing.
#   rules/dice/dice_*.c  parts of the one dice module, which share its public
#                        header rules/dice/dice.h and its internal
#                        rules/dice/dice_impl.h.
headerless=""
for f in $files; do
	case $f in
	bot/main.c | rules/dice/dice_*.c) continue ;;
	bot/*.c | commands/*.c | rules/*.c) ;;
	*) continue ;;
	esac
	[ -f "${f%.c}.h" ] || headerless="$headerless $f"
done
if [ -n "$headerless" ]; then
	echo "lint: a .c without its own .h beside it (same stem):$headerless"
	status=1
fi
# The conformance tables of the rule texts (tests/conformance/README.md).
sh tests/conformance/check.sh || status=1
[ $status -eq 0 ] && echo "ok   lint"
exit $status
