#!/bin/sh
# Installs the Debian packages delver needs to build, test and run, when any
# is missing. As root it runs apt-get itself (updating the package lists
# once first, since a fresh machine may have none); otherwise it prints the
# exact command to run and fails.
set -eu

PKGS="make gcc clang libclang-rt-14-dev pkg-config clang-format valgrind
python3 libwebsockets-dev libwebsockets-evlib-uv libcurl4-openssl-dev
libssl-dev zlib1g-dev libcjson-dev libcmocka-dev libinih-dev libsystemd-dev libuv1-dev uthash-dev
libutf8proc-dev libsqlite3-dev sqlite3 ngircd openssl systemd man-db groff-base procps"

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
# A system ngircd that the package may start is left alone: the tests run
# their own on a free port and stop it by PID.
