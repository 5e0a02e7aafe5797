#!/bin/sh
# The conformance lint (issue 25): checks the tables that hold each rule
# text of tests/conformance/ against the bot's tests and, when it can be
# read, against the text itself. The format is in tests/conformance/README.md.
#
#   sh tests/conformance/check.sh [TABLE.md ...]
#
# Without arguments it checks every tests/conformance/NNN_*.md. The texts
# are looked for in $DELVER_SEEDS, else ../shared/seeds beside the
# repository (or beside the main checkout, from a git worktree); where
# none is found, coverage and references are checked against each table's
# header alone. Every text must have its table: each one found in the
# seeds directory, or, without the texts, the five of issue 25. Prints one
# line per problem (TABLE:LINE: what is wrong) and exits 1 if there was any;
# else prints "ok   conformance ..." and exits 0.
set -u
here=$(cd "$(dirname "$0")" && pwd) || exit 2
top=$(git -C "$here" rev-parse --show-toplevel 2>/dev/null) ||
	top=$(cd "$here/../.." && pwd) || exit 2
# Paths given relative to the caller's directory stay valid after the cd.
orig=$(pwd)
if [ -n "${DELVER_SEEDS:-}" ]; then
	case $DELVER_SEEDS in
	/*) ;;
	*) DELVER_SEEDS=$orig/$DELVER_SEEDS ;;
	esac
fi
if [ "$orig" != "$top" ]; then
	for a in "$@"; do
		case $a in
		/*) set -- "$@" "$a" ;;
		*) set -- "$@" "$orig/$a" ;;
		esac
		shift
	done
fi
cd "$top" || exit 2

# The directory of the texts, or "" when none can be read.
seed_dir() {
	if [ -n "${DELVER_SEEDS:-}" ]; then
		[ -d "$DELVER_SEEDS" ] && (cd "$DELVER_SEEDS" && pwd)
		return 0
	fi
	if [ -d "$top/../shared/seeds" ]; then
		(cd "$top/../shared/seeds" && pwd)
		return 0
	fi
	common=$(git rev-parse --path-format=absolute --git-common-dir 2>/dev/null) || return 0
	[ -d "$common/../../shared/seeds" ] && (cd "$common/../../shared/seeds" && pwd)
	return 0
}
seeds=$(seed_dir)

# The tables of the five rule texts (issue 25): without the texts to list
# them, these must be there when the lint runs on its own.
required="000_fungeon.md 001_tension.md 002_exploration.md 003_delving.md 004_safe_areas.md"
defaulted=0
if [ $# -eq 0 ]; then
	defaulted=1
	set -- tests/conformance/[0-9][0-9][0-9]_*.md
	[ -f "$1" ] || set --
fi

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
problems=$tmp/problems
: > "$problems"
: > "$tmp/named"
rows=0

# problem TABLE LINE MESSAGE
problem() {
	echo "$1:$2: $3" >> "$problems"
}

# The line numbers of the non-blank lines of a text, as "a-b c d-e".
nonblank_ranges() {
	awk '
	function flush() {
		if (start == 0) return
		out = out (out == "" ? "" : " ") (start == prev ? start : start "-" prev)
	}
	/[^[:space:]]/ { if (start && prev == NR - 1) { prev = NR; next }
		flush(); start = NR; prev = NR; next }
	END { flush(); print out }' "$1"
}

# The lines of a text (a last line without its newline counts).
line_count() {
	awk 'END { print NR }' "$1"
}

# check_ref TABLE LINE REF: one "path:name" of a row's check column.
check_ref() {
	t=$1
	l=$2
	ref=$3
	path=${ref%%:*}
	name=${ref#*:}
	if [ "$path" = "$ref" ] || [ -z "$path" ] || [ -z "$name" ]; then
		problem "$t" "$l" "check '$ref' is not path:name, flavour or Ruling: ..."
		return
	fi
	case $path in
	/* | *..*)
		problem "$t" "$l" "check '$ref': the path must be relative to the repository, without '..'"
		return
		;;
	esac
	if [ ! -f "$path" ]; then
		problem "$t" "$l" "check '$ref': no file $path in the repository"
		return
	fi
	case $path in
	*.c)
		# A cmocka test: defined as "static void\nNAME(void **" (the
		# project's clang-format layout) and listed in a cmocka_unit_test*.
		if ! printf '%s' "$name" | grep -Eqx '[A-Za-z_][A-Za-z0-9_]*'; then
			problem "$t" "$l" "check '$ref': '$name' is not the name of a C function"
		elif ! awk -v n="$name" '
			index($0, n "(void **") == 1 && prev == "static void" { found = 1 }
			index($0, "static void " n "(void **") == 1 { found = 1 }
			{ prev = $0 }
			END { exit !found }' "$path"; then
			problem "$t" "$l" "check '$ref': $path defines no test function $name"
		elif ! grep -Eq "cmocka_unit_test[a-z_]*\\(${name}[,)]" "$path"; then
			problem "$t" "$l" "check '$ref': $path defines $name but never runs it (no cmocka_unit_test)"
		fi
		;;
	*.in)
		if ! grep -aFxq "# $name" "$path"; then
			problem "$t" "$l" "check '$ref': $path has no label line '# $name'"
		fi
		case $path in
		tests/integration/transcripts/*)
			tname=$(basename "$path" .in)
			if ! grep -Eq "^[[:space:]]*transcript $tname( |\$)" tests/integration/test_*.sh; then
				problem "$t" "$l" "check '$ref': no tests/integration/test_*.sh runs the transcript $tname"
			fi
			;;
		esac
		;;
	*.sh | *.py)
		if ! grep -Fq -- "$name" "$path"; then
			problem "$t" "$l" "check '$ref': '$name' does not appear in $path"
		fi
		;;
	*)
		problem "$t" "$l" "check '$ref': $path is not a test (a .c unit test, a transcript .in, a .sh or .py script)"
		;;
	esac
}

# check_table TABLE
check_table() {
	t=$1
	h1=$(sed -n 1p "$t")
	h2=$(sed -n 2p "$t")
	h3=$(sed -n 3p "$t")
	case $h1 in
	"# Conformance: "?*) ;;
	*)
		problem "$t" 1 "the first line must be '# Conformance: <title of the text>'"
		return
		;;
	esac
	# seed: NAME sha256 HEX lines N
	set -f
	# shellcheck disable=SC2086
	set -- $h2
	set +f
	if [ $# -ne 6 ] || [ "$1" != seed: ] || [ "$3" != sha256 ] || [ "$5" != lines ] ||
		! printf '%s' "$4" | grep -Eqx '[0-9a-f]{64}' ||
		! printf '%s' "$6" | grep -Eqx '[1-9][0-9]{0,5}'; then
		problem "$t" 2 "the second line must be 'seed: <seed file name> sha256 <64 hex digits> lines <N>'"
		return
	fi
	seed=$2
	sha=$4
	n=$6
	echo "$seed" >> "$tmp/named"
	case $h3 in
	"rule lines: "*) ruled=${h3#rule lines: } ;;
	*)
		problem "$t" 3 "the third line must be 'rule lines: <ranges of the non-blank lines of the text>'"
		return
		;;
	esac
	if [ -n "$seeds" ]; then
		text=$seeds/$seed
		if [ ! -f "$text" ]; then
			problem "$t" 2 "the seed text $seed is not in $seeds"
		else
			got=$(sha256sum < "$text" | cut -d' ' -f1)
			[ "$got" = "$sha" ] ||
				problem "$t" 2 "the text $seed changed (sha256 $got, the table says $sha): review the table"
			got=$(line_count "$text")
			[ "$got" = "$n" ] ||
				problem "$t" 2 "the text $seed has $got lines, the table says $n"
			got=$(nonblank_ranges "$text")
			[ "$got" = "$ruled" ] ||
				problem "$t" 3 "the non-blank lines of $seed are '$got', the table says '$ruled'"
		fi
	fi
	# The rows, as "MDLINE<tab>LINES<tab>RULE<tab>CHECK"; the header row and
	# the |---| row are the first two rows of the table.
	awk '
	/^\|/ {
		k++
		if (k <= 2) next
		row = $0
		sub(/^\|/, "", row)
		sub(/\|[[:space:]]*$/, "", row)
		n = split(row, c, "|")
		lines = c[1]
		chk = c[n]
		rule = ""
		for (i = 2; i < n; i++) rule = rule (i > 2 ? "|" : "") c[i]
		if (n < 3) { lines = row; rule = ""; chk = "" }
		gsub(/^[[:space:]]+|[[:space:]]+$/, "", lines)
		gsub(/^[[:space:]]+|[[:space:]]+$/, "", rule)
		gsub(/^[[:space:]]+|[[:space:]]+$/, "", chk)
		gsub(/\t/, " ", rule)
		gsub(/\t/, " ", chk)
		printf "%d\t%s\t%s\t%s\n", NR, lines, rule, chk
	}' "$t" > "$tmp/rows"
	if [ ! -s "$tmp/rows" ]; then
		problem "$t" 4 "no table rows (| line | the rule, in our words | check |)"
	fi
	# Every line of every row, as "MDLINE<tab>TEXTLINE"; bad ranges are
	# reported here.
	: > "$tmp/covered"
	while IFS='	' read -r ml lines rule chk; do
		rows=$((rows + 1))
		[ -n "$rule" ] || problem "$t" "$ml" "row '$lines' has no restatement of the rule"
		[ -n "$chk" ] || problem "$t" "$ml" "row '$lines' has no check (path:name, flavour or Ruling: ...)"
		echo "$lines" | awk -v ml="$ml" -v n="$n" -v t="$t" '
		{
			k = split($0, part, ",")
			if ($0 ~ /^[[:space:]]*$/) { printf "BAD\t%s:%d: row has no line numbers\n", t, ml; next }
			for (i = 1; i <= k; i++) {
				p = part[i]
				gsub(/^[[:space:]]+|[[:space:]]+$/, "", p)
				if (p ~ /^[0-9]+$/) { a = p + 0; b = a }
				else if (p ~ /^[0-9]+-[0-9]+$/) { split(p, ab, "-"); a = ab[1] + 0; b = ab[2] + 0 }
				else { printf "BAD\t%s:%d: '\''%s'\'' is not a line number or a range a-b\n", t, ml, p; continue }
				if (a > b) { printf "BAD\t%s:%d: range '\''%s'\'' runs backwards\n", t, ml, p; continue }
				if (a < 1 || b > n) { printf "BAD\t%s:%d: line '\''%s'\'' is outside the text (1..%d)\n", t, ml, p, n; continue }
				for (j = a; j <= b; j++) printf "%d\t%d\n", ml, j
			}
		}' >> "$tmp/covered"
		case $chk in
		"" | flavour) ;;
		Ruling:*)
			r=${chk#Ruling:}
			case $r in
			*[![:space:]]*) ;;
			*) problem "$t" "$ml" "row '$lines': 'Ruling:' without the ruling" ;;
			esac
			;;
		*)
			rest=$chk
			while [ -n "$rest" ]; do
				case $rest in
				*", "*)
					ref=${rest%%, *}
					rest=${rest#*, }
					;;
				*)
					ref=$rest
					rest=
					;;
				esac
				check_ref "$t" "$ml" "$ref"
			done
			;;
		esac
	done < "$tmp/rows"
	grep '^BAD	' "$tmp/covered" | cut -f2- >> "$problems"
	# Rows on blank lines, and rule lines without a row.
	echo "$ruled" | awk -v n="$n" -v t="$t" -v cov="$tmp/covered" '
	{
		k = split($0, part, " ")
		for (i = 1; i <= k; i++) {
			p = part[i]
			if (p ~ /^[0-9]+$/) { a = p + 0; b = a }
			else if (p ~ /^[0-9]+-[0-9]+$/) { split(p, ab, "-"); a = ab[1] + 0; b = ab[2] + 0 }
			else { printf "%s:3: '\''%s'\'' in rule lines is not a line number or a range a-b\n", t, p; continue }
			if (a > b || a < 1 || b > n) { printf "%s:3: rule lines '\''%s'\'' is outside the text (1..%d)\n", t, p, n; continue }
			for (j = a; j <= b; j++) rule[j] = 1
		}
	}
	END {
		while ((getline line < cov) > 0) {
			if (line ~ /^BAD\t/) continue
			split(line, f, "\t")
			if (!(f[2] in rule)) printf "%s:%d: line %d is blank in the text: no rule to check there\n", t, f[1], f[2]
			seen[f[2]] = 1
		}
		for (j = 1; j <= n; j++)
			if ((j in rule) && !(j in seen)) printf "%s:3: line %d of the text has no row\n", t, j
	}' >> "$problems"
}

for t in "$@"; do
	if [ ! -f "$t" ]; then
		problem "$t" 0 "no such table"
		continue
	fi
	check_table "$t"
done

# Every text has its table: each text in the seeds directory is named by a
# table checked; without the texts, the five tables are all there.
if [ -n "$seeds" ]; then
	for s in "$seeds"/[0-9][0-9][0-9]_*.txt; do
		[ -f "$s" ] || continue
		name=$(basename "$s")
		grep -Fxq "$name" "$tmp/named" ||
			problem "tests/conformance/${name%%_*}_<subject>.md" 0 "the text $name has no table"
	done
elif [ $defaulted -eq 1 ]; then
	for want in $required; do
		[ -f "tests/conformance/$want" ] ||
			problem "tests/conformance/$want" 0 "missing: every rule text needs its table"
	done
fi

if [ -s "$problems" ]; then
	cat "$problems"
	echo "conformance: $(wc -l < "$problems") problem(s) in $# table(s)"
	exit 1
fi
if [ -n "$seeds" ]; then
	echo "ok   conformance ($# tables, $rows rows, against the texts in $seeds)"
else
	echo "ok   conformance ($# tables, $rows rows; no seed texts found, so against the headers only)"
fi
exit 0
