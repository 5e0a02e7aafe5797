#!/bin/sh
# Fails on the string calls STYLE.md bans and on formatting drift from the
# committed .clang-format.
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
drift=""
for f in $files; do
	if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then
		drift="$drift $f"
	fi
done
if [ -n "$drift" ]; then
	echo "lint: formatting drift (run 'make format'):$drift"
	status=1
fi
[ $status -eq 0 ] && echo "ok   lint"
exit $status
