#!/bin/sh
# IRC against a real ngircd on loopback (plain and TLS): registration with
# a taken nick, two channels with separate state, !roll, operators as GM,
# private messages, a secret roll (!gmroll) by NOTICE to the GM, TLS with
# and without verification, rejoin after KICK,
# nick regain, 50 commands at once, a server restart, SIGTERM. The Python
# script stops every server it starts, whatever happens.
. tests/integration/lib.sh
exec python3 tests/integration/irc_ngircd.py "$BUILD"
