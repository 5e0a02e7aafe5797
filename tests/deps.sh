#!/bin/sh
# Installs the Debian packages delver needs, when any is missing:
#   tests/deps.sh run    what building and running delver needs (make run)
#   tests/deps.sh test   that and the test tools (make test, make deps)
#   tests/deps.sh man    what writes and reads the manual pages (make man)
# As root it runs apt-get itself (updating the package lists once first,
# since a fresh machine may have none); otherwise it prints the exact
# command to run and fails. It never starts, stops or kills any process.
set -eu

# Building and running: the compiler and the libraries' headers.
RUN_PKGS="make gcc pkg-config libwebsockets-dev libwebsockets-evlib-uv
libcurl4-openssl-dev libssl-dev zlib1g-dev libdeflate-dev libcjson-dev libinih-dev
libuv1-dev uthash-dev libutf8proc-dev libedit-dev libsqlite3-dev libpq-dev
libhttp-parser-dev"

# Testing: clang and its sanitizer runtime (fuzzing), clang-format (lint),
# cmocka (unit tests), valgrind, python3 and ngircd (IRC tests), inspircd and
# atheme-services (IRC with SASL and NickServ), tmux (the
# interactive console's test), openssl (test certificates), systemd
# (systemd-analyze), man-db, groff and lowdown (the manual pages), procps,
# curl (the Discord tests drive the fake Discord's control API with it),
# sqlite3 (to look into a state database), postgresql (a throwaway server for
# the store's tests: tests/tools/pg_cluster.sh), libseccomp-dev (the
# benchmarks' launcher under the unit's system call filter:
# tests/tools/unit_filter.c).
TEST_PKGS="clang libclang-rt-14-dev clang-format valgrind python3 libcmocka-dev
ngircd inspircd atheme-services tmux openssl curl systemd man-db groff-base lowdown procps sqlite3
postgresql libseccomp-dev"

# The manual pages: lowdown writes them from Markdown, man-db and groff show
# them.
MAN_PKGS="lowdown man-db groff-base"

case "${1:-test}" in
run) PKGS=$RUN_PKGS ;;
man) PKGS=$MAN_PKGS ;;
test) PKGS="$RUN_PKGS $TEST_PKGS" ;;
*)
	echo "usage: tests/deps.sh [run|test|man] (got '$1')" >&2
	exit 2
	;;
esac

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "delver needs these Debian packages:$missing" >&2
	echo "install them with: sudo apt-get update && sudo apt-get install -y$missing" >&2
	exit 1
fi

echo "installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
# A system ngircd or inspircd that a package may start is left alone: the tests run
# their own on a free port and stop it by PID.
