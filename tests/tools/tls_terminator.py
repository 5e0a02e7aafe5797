#!/usr/bin/env python3
"""A TLS terminator for tests: TLS on loopback in front of a plain TCP port.

tls_terminator.py CERT KEY BACKEND_PORT PORT_FILE STATS_FILE [STALLS]

Listens on 127.0.0.1 (a free port, written to PORT_FILE once listening),
takes TLS (python's ssl: TLS 1.3 where the client offers it, with its two
session tickets sent after each handshake) and relays each connection's
bytes to 127.0.0.1:BACKEND_PORT. STATS_FILE holds the count of TCP
connections accepted, rewritten at each. SIGUSR1 closes every connection
that has been quiet for 100 ms (an idle kept connection the server drops).
SIGUSR2 stalls the TLS handshakes of the next STALLS connections (0 unless
given): nothing is sent on them until the client closes them.
"""
import os
import select
import signal
import socket
import ssl
import sys
import threading
import time

cert, key, backend, port_file, stats_file = sys.argv[1:6]
stalls = int(sys.argv[6]) if len(sys.argv) > 6 else 0
to_stall = 0
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain(cert, key)
accepts = 0
drop_gen = 0
lock = threading.Lock()


def write_stats():
    tmp = stats_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % accepts)
    os.replace(tmp, stats_file)


def stall(raw):
    try:
        while raw.recv(65536):
            pass
    except OSError:
        pass
    raw.close()


def relay(raw):
    try:
        tls = ctx.wrap_socket(raw, server_side=True)
    except (ssl.SSLError, OSError):
        raw.close()
        return
    back = socket.create_connection(("127.0.0.1", int(backend)))
    gen = drop_gen
    last = time.monotonic()
    try:
        while True:
            if tls.pending():
                ready = [tls]
            else:
                ready, _, _ = select.select([tls, back], [], [], 0.05)
            if not ready and drop_gen != gen and time.monotonic() - last >= 0.1:
                return  # dropped while idle
            for s in ready:
                data = s.recv(65536)
                if not data:
                    return
                last = time.monotonic()
                (back if s is tls else tls).sendall(data)
    except (ssl.SSLError, OSError):
        pass
    finally:
        for s in (tls, back):
            try:
                s.close()
            except OSError:
                pass


def on_usr1(sig, frame):
    global drop_gen
    drop_gen += 1


def on_usr2(sig, frame):
    global to_stall
    to_stall = stalls


signal.signal(signal.SIGUSR1, on_usr1)
signal.signal(signal.SIGUSR2, on_usr2)
ls = socket.socket()
ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
ls.bind(("127.0.0.1", 0))
ls.listen(64)
write_stats()
with open(port_file + ".tmp", "w") as f:
    f.write("%d\n" % ls.getsockname()[1])
os.replace(port_file + ".tmp", port_file)
while True:
    try:
        c, _ = ls.accept()
    except InterruptedError:
        continue
    accepts += 1
    write_stats()
    serve = relay
    if to_stall > 0:
        to_stall -= 1
        serve = stall
    threading.Thread(target=serve, args=(c,), daemon=True).start()
