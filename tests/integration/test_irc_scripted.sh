#!/bin/sh
# IRC against a scripted server, for what ngircd cannot do: multi-line CAP
# LS, SASL PLAIN success and failure, message tags with escapes, account
# identity, 433/432, a silent server, ERROR, the default flood rate with
# PONG bypassing it, CTCP, NOTICEs, hostile lines (bare CR, NUL, control
# codes) that must never reach the wire, NickServ IDENTIFY and REGAIN, and
# a TLS handshake the server never answers (closed at 30 s).
. tests/integration/lib.sh
exec python3 tests/integration/irc_scripted.py "$BUILD"
