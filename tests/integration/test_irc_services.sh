#!/bin/sh
# IRC against a real server with services: InspIRCd linked to Atheme on
# loopback (own ports, configuration and datastore in a temporary directory).
# SASL EXTERNAL with a client certificate bound to the account (NickServ
# CERT ADD), SASL PLAIN, NickServ IDENTIFY and REGAIN. The Python script
# stops both servers it starts, by PID, whatever happens.
. tests/integration/lib.sh
exec python3 tests/integration/irc_services.py "$BUILD"
