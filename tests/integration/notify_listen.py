"""notify_listen SOCKET OUT: a stand-in for systemd's notify socket.

Binds a unix datagram socket at SOCKET and appends each line of each
notification (READY=1, WATCHDOG=1, STOPPING=1, ...) to OUT, one a line,
until killed.
"""
import socket
import sys

sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
sock.bind(sys.argv[1])
with open(sys.argv[2], "a", buffering=1) as out:
    while True:
        for line in sock.recv(4096).decode(errors="replace").split("\n"):
            if line:
                out.write(line + "\n")
