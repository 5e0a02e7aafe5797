#!/bin/sh
# make install into a scratch DESTDIR with PREFIX=/usr, then the installed
# binary with the installed example configuration (--check-config and a short
# console run), --help against the installed man page (every option of one
# is in the other), and make uninstall leaving no file behind.
. tests/integration/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

fail() {
	echo "FAIL $*"
	fails=$((fails + 1))
}

dest=$tmp/root
# user_make ARGS: make as an operator types it in a shell, not as a child
# of the make that runs this test (whose jobserver it cannot reach, and
# says so on stderr).
user_make() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory "$@"
}
user_make install DESTDIR="$dest" PREFIX=/usr > "$tmp/make.log" 2>&1 ||
	{ cat "$tmp/make.log"; exit 1; }
bin=$dest/usr/bin/delver
example=$dest/usr/share/doc/delver/delver.conf.example
man=$dest/usr/share/man/man8/delver.8
find "$dest" ! -type d | sed "s|^$dest||" | sort > "$tmp/files"
cat > "$tmp/want" <<'EOF'
/usr/bin/delver
/usr/lib/systemd/system/delver.service
/usr/lib/systemd/system/delver@.service
/usr/share/doc/delver/delver.conf.example
/usr/share/man/man5/delver.conf.5
/usr/share/man/man7/delver.7
/usr/share/man/man8/delver.8
EOF
diff -u "$tmp/want" "$tmp/files" || fail "make install wrote other files"
[ -d "$dest/etc/delver" ] || fail "make install made no /etc/delver"
grep -qx 'ExecStart=/usr/bin/delver --config /etc/delver/delver.conf' \
	"$dest/usr/lib/systemd/system/delver.service" || fail "delver.service runs another path"

out=$("$bin" --check-config --config "$example" 2>&1)
[ "$out" = "$example is valid; it enables the console (as a service, which has no terminal, it needs a [discord] or an [irc.NETWORK] section)" ] ||
	fail "--check-config: $out"
[ "$("$bin" --version)" = "delver 0.1.0" ] || fail "--version: $("$bin" --version)"

out=$(printf '/gm claim\n/gm\n' | "$bin" --config "$example" --seed 1 --color never --user gm \
	--state-dir "$tmp/state" 2>&1)
want="gm> /gm claim
gm is now the GM of this channel.
gm> /gm
The GM here is gm."
[ "$out" = "$want" ] || fail "console run: $out"
# The example as it is, run as a service (systemd sets INVOCATION_ID; no
# terminal): refused with status 3 and a line that says what to add.
out=$(INVOCATION_ID=0123456789abcdef "$bin" --config "$example" --state-dir "$tmp/svc" \
	< /dev/null 2>&1)
rc=$?
[ "$rc" -eq 3 ] || fail "the console alone as a service: status $rc"
[ "$out" = "error: $example configures no transport but the console, and a service has no terminal to play on: add a [discord] or an [irc.NETWORK] section (delver(8), CONFIGURATION); exiting with status 3 (a restart will not mend it: see delver(8), EXIT STATUS)" ] ||
	fail "the console alone as a service: $out"

# Every option of --help is in the man page's OPTIONS, and back.
"$bin" --help | grep -o -- '--[a-z][a-z-]*' | sort -u > "$tmp/help-opts"
sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$man" | grep '^\.B' | sed 's/\\-/-/g' |
	grep -o -- '--[a-z][a-z-]*' | sort -u > "$tmp/man-opts"
diff -u "$tmp/help-opts" "$tmp/man-opts" || fail "--help and delver(8) list other options"
[ "$(wc -l < "$tmp/help-opts")" -ge 10 ] || fail "too few options found in --help"
# The usage lines at the top of --help name every option it describes.
"$bin" --help | sed '/^$/q' | grep -o -- '--[a-z][a-z-]*' | sort -u > "$tmp/usage-opts"
diff -u "$tmp/help-opts" "$tmp/usage-opts" || fail "--help's usage lines leave out options"
# Each page is formatted as man formats it: tables through tbl, which the
# page's first line asks for (man reads it; a page without it shows its
# tables as roff requests), and no warning in 80 columns.
for page in "$dest"/usr/share/man/man*/*; do
	# A font-alternating request (.BR, .IR, ...) joins its arguments with no
	# blank between them: two plain words in a row are prose run together.
	awk '/^\.(BR|IR|RB|RI|BI|IB) / { l = $0; gsub(/"[^"]*"/, "Q", l); n = split(l, a, " ");
		for (i = 2; i < n; i++) if (a[i] ~ /^[a-z]+$/ && a[i + 1] ~ /^[a-z]+$/) { print FNR ": " $0; break } }' \
		"$page" | grep . && fail "$(basename "$page") runs words together in a font request"
	# A font change between two letters or digits splits one word: an
	# underscore a conversion read as italics (INTERACTION_CREATE shown as
	# INTERACTIONCREATE), or two words with no blank between them.
	sed -E 's/\\f(\([A-Z]{2}|\[[A-Z]*\]|[A-Z])/@@/g' "$page" | grep -nE '[[:alnum:]](@@)+[[:alnum:]]' &&
		fail "$(basename "$page") changes font inside a word"
	[ "$(head -n 1 "$page")" = "'\\\" t" ] ||
		fail "$(basename "$page") does not start with the line that asks man for tbl"
	groff -k -t -Tutf8 -man -rLL=80n -ww -z "$page" 2> "$tmp/groff" && [ ! -s "$tmp/groff" ] ||
		{ fail "$(basename "$page") has troff warnings"; cat "$tmp/groff"; }
	# man as a reader on a UTF-8 terminal runs it (as groff's -Tutf8 above):
	# in the POSIX locale, a bare machine's default, man renders for ASCII,
	# which has no glyph for the pages' non-ASCII characters.
	LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$page" 2> "$tmp/man" | grep -n '^ *\.\(TS\|TE\|TH\|SH\|PP\|IP\|TP\)' &&
		fail "$(basename "$page") shows roff requests as text"
	[ ! -s "$tmp/man" ] || { fail "man -l $(basename "$page") warns"; cat "$tmp/man"; }
done
# The build prints one line per file it installs or removes, as the
# compiler's lines: no raw shell commands.
grep -v '^  INSTALL /' "$tmp/make.log" | grep -v '^  [A-Z]* ' && fail "make install printed more than its files"

user_make uninstall DESTDIR="$dest" PREFIX=/usr > "$tmp/make.log" 2>&1 ||
	{ cat "$tmp/make.log"; exit 1; }
grep -v '^  RM      /' "$tmp/make.log" && fail "make uninstall printed more than its files"
left=$(find "$dest" ! -type d -o -name '*delver*')
[ -z "$left" ] || fail "make uninstall left: $left"

[ "$fails" -eq 0 ]
