#!/bin/sh
# The conformance lint (tests/conformance/check.sh) on a fixture: a tiny
# rule text and a table that covers it. The good table passes, with the text
# and without it (a machine without the texts checks the header alone); each
# broken copy fails with the one problem it was broken for.
set -u
fix=tests/conformance/fixtures
lint=tests/conformance/check.sh
fails=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/seeds"
cp "$fix/seeds/900_fixture.txt" "$tmp/seeds/"

# expect NAME STATUS SEEDS TABLE EXPECTED: runs the lint on TABLE with
# DELVER_SEEDS=SEEDS; its exit status must be STATUS and its output, with
# the table's path written as T, exactly EXPECTED.
expect() {
	name=$1
	want_rc=$2
	seeds=$3
	table=$4
	want=$5
	out=$(DELVER_SEEDS=$seeds sh "$lint" "$table" 2>&1)
	rc=$?
	got=$(printf '%s\n' "$out" | sed "s|$table|T|g; s|$tmp|TMP|g")
	if [ "$rc" -ne "$want_rc" ] || [ "$got" != "$want" ]; then
		echo "FAIL: $name: status $rc (want $want_rc); output:"
		printf '%s\n' "$got"
		echo "--- wanted:"
		printf '%s\n' "$want"
		fails=$((fails + 1))
	else
		echo "ok   $name"
	fi
}

# variant NAME SED-SCRIPT: a copy of the good table, edited.
variant() {
	sed "$2" "$fix/good.md" > "$tmp/$1.md"
	echo "$tmp/$1.md"
}

cp "$fix/good.md" "$tmp/good.md"
expect "good table, with the text" 0 "$tmp/seeds" "$tmp/good.md" \
	"ok   conformance (1 tables, 5 rows, against the texts in TMP/seeds)"
expect "good table, without the text" 0 "$tmp/none" "$tmp/good.md" \
	"ok   conformance (1 tables, 5 rows; no seed texts found, so against the headers only)"

t=$(variant missing_row '/| 8 |/d')
expect "a missing row fails, with the text" 1 "$tmp/seeds" "$t" \
	"T:3: line 8 of the text has no row
conformance: 1 problem(s) in 1 table(s)"
expect "a missing row fails, without the text" 1 "$tmp/none" "$t" \
	"T:3: line 8 of the text has no row
conformance: 1 problem(s) in 1 table(s)"

t=$(variant missing_test 's/torch_lasts_six_turns/torch_lasts_seven_turns/')
expect "a missing test name fails" 1 "$tmp/none" "$t" \
	"T:10: check 'tests/conformance/fixtures/fixture_test.c:torch_lasts_seven_turns': tests/conformance/fixtures/fixture_test.c defines no test function torch_lasts_seven_turns
conformance: 1 problem(s) in 1 table(s)"

t=$(variant never_run 's/torch_lasts_six_turns/defined_but_never_run/')
expect "a test that is never run fails" 1 "$tmp/none" "$t" \
	"T:10: check 'tests/conformance/fixtures/fixture_test.c:defined_but_never_run': tests/conformance/fixtures/fixture_test.c defines defined_but_never_run but never runs it (no cmocka_unit_test)
conformance: 1 problem(s) in 1 table(s)"

t=$(variant missing_label 's/a trouble row/a row of trouble/')
expect "a missing transcript label fails" 1 "$tmp/none" "$t" \
	"T:9: check 'tests/conformance/fixtures/fixture.in:a row of trouble': tests/conformance/fixtures/fixture.in has no label line '# a row of trouble'
conformance: 1 problem(s) in 1 table(s)"

t=$(variant missing_file '/^| 3 |/s|fixtures/fixture_test.c:turn|fixtures/no_such_test.c:turn|')
expect "a missing test file fails" 1 "$tmp/none" "$t" \
	"T:8: check 'tests/conformance/fixtures/no_such_test.c:turn_die_is_a_d6': no file tests/conformance/fixtures/no_such_test.c in the repository
conformance: 1 problem(s) in 1 table(s)"

t=$(variant blank_line 's/^| 1 | title/| 1-2 | title/')
expect "a row on a blank line fails" 1 "$tmp/none" "$t" \
	"T:7: line 2 is blank in the text: no rule to check there
conformance: 1 problem(s) in 1 table(s)"

t=$(variant outside 's/^| 8 | a torch burns/| 8, 9 | a torch burns/')
expect "a row past the end of the text fails" 1 "$tmp/none" "$t" \
	"T:10: line '9' is outside the text (1..8)
conformance: 1 problem(s) in 1 table(s)"

t=$(variant empty_ruling 's/Ruling: the GM may keep it burning/Ruling:/')
expect "a ruling without its text fails" 1 "$tmp/none" "$t" \
	"T:11: row '8': 'Ruling:' without the ruling
conformance: 1 problem(s) in 1 table(s)"

t=$(variant misspelt 's/| flavour |/| flavor |/')
expect "a check that is none of the allowed kinds fails" 1 "$tmp/none" "$t" \
	"T:7: check 'flavor' is not path:name, flavour or Ruling: ...
conformance: 1 problem(s) in 1 table(s)"

t=$(variant bad_header 's/^seed: 900_fixture.txt sha256 e7/seed: 900_fixture.txt sha1 e7/')
expect "a malformed header fails" 1 "$tmp/none" "$t" \
	"T:2: the second line must be 'seed: <seed file name> sha256 <64 hex digits> lines <N>'
conformance: 1 problem(s) in 1 table(s)"

# The text changes under the table: one word, then one more line.
cp "$fix/good.md" "$tmp/good.md"
sed 's/6 turns/5 turns/' "$fix/seeds/900_fixture.txt" > "$tmp/seeds/900_fixture.txt"
sum=$(sha256sum < "$tmp/seeds/900_fixture.txt" | cut -d' ' -f1)
expect "a changed seed text fails" 1 "$tmp/seeds" "$tmp/good.md" \
	"T:2: the text 900_fixture.txt changed (sha256 $sum, the table says e7c8e5a76a206c413f47f1a78b17244338f55d3ff513ed5e6c8cced16a706979): review the table
conformance: 1 problem(s) in 1 table(s)"
expect "a changed seed text passes where the text cannot be read" 0 "$tmp/none" "$tmp/good.md" \
	"ok   conformance (1 tables, 5 rows; no seed texts found, so against the headers only)"
{
	cat "$fix/seeds/900_fixture.txt"
	printf '\nCandles last 1 hour.'
} > "$tmp/seeds/900_fixture.txt"
sum=$(sha256sum < "$tmp/seeds/900_fixture.txt" | cut -d' ' -f1)
expect "a seed text with a new line fails" 1 "$tmp/seeds" "$tmp/good.md" \
	"T:2: the text 900_fixture.txt changed (sha256 $sum, the table says e7c8e5a76a206c413f47f1a78b17244338f55d3ff513ed5e6c8cced16a706979): review the table
T:2: the text 900_fixture.txt has 9 lines, the table says 8
T:3: the non-blank lines of 900_fixture.txt are '1 3-6 8-9', the table says '1 3-6 8'
conformance: 3 problem(s) in 1 table(s)"
cp "$fix/seeds/900_fixture.txt" "$tmp/seeds/"
printf 'Another text\n' > "$tmp/seeds/901_other.txt"
expect "a text without a table fails" 1 "$tmp/seeds" "$tmp/good.md" \
	"tests/conformance/901_<subject>.md:0: the text 901_other.txt has no table
conformance: 1 problem(s) in 1 table(s)"
rm "$tmp/seeds/901_other.txt"
rm "$tmp/seeds/900_fixture.txt"
expect "a seed text that is gone from the texts fails" 1 "$tmp/seeds" "$tmp/good.md" \
	"T:2: the seed text 900_fixture.txt is not in TMP/seeds
conformance: 1 problem(s) in 1 table(s)"

[ "$fails" -eq 0 ] || exit 1
