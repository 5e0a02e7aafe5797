"""Helpers for delver's IRC integration tests (python3 standard library only).

Every process a test starts (ngircd, delver) is recorded and stopped when the
test exits, however it exits (normal end, failure, SIGTERM, SIGINT).
"""
import atexit
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

PROCS = []
LOGS = []  # (name, path) of every log, shown when a test fails
FORMAT = re.compile(r"\x03(\d{1,2}(,\d{1,2})?)?|[\x02\x0f\x11\x16\x1d\x1e\x1f]")


class Fail(Exception):
    pass


def _cleanup():
    for p in PROCS:
        if p.poll() is None:
            p.terminate()
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def _on_signal(signum, frame):
    sys.exit(128 + signum)


atexit.register(_cleanup)
signal.signal(signal.SIGTERM, _on_signal)
signal.signal(signal.SIGINT, _on_signal)


def check(cond, msg):
    if not cond:
        raise Fail(msg)


def plain(line):
    """The line without mIRC formatting codes."""
    return FORMAT.sub("", line)


# The control codes a reply may hold (render_irc.h's RENDER_IRC_CODES):
# bold, colour, reset, italic, which every common client shows.
ALLOWED_CODES = "\x02\x03\x0f\x1d"
ZWJ = "\u200d"


def bad_codes(line):
    """The control characters of line outside ALLOWED_CODES (a list)."""
    return [c for c in line if (ord(c) < 0x20 or ord(c) == 0x7f) and c not in ALLOWED_CODES]


def mentions(line, nick):
    """Whether a client would take line (formatting removed) for a mention
    of nick: nick as a word, with no letter or digit on either side."""
    return re.search(r"(?<![A-Za-z0-9])%s(?![A-Za-z0-9])" % re.escape(nick), plain(line),
                     re.I) is not None


def guarded(nick):
    """nick as delver writes another member's nick: a zero-width joiner
    after its first letter (a regex)."""
    return re.escape(nick[0]) + ZWJ + re.escape(nick[1:])


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait_port(port, timeout=10):
    end = time.time() + timeout
    while time.time() < end:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise Fail("nothing listens on port %d after %d s" % (port, timeout))


def workdir():
    d = tempfile.mkdtemp(prefix="delver-irc-")
    os.chmod(d, 0o755)  # ngircd started as root reads its files as nobody
    atexit.register(shutil.rmtree, d, True)
    return d


class Ngircd:
    """A real ngircd on loopback, with a TLS port when tls_port is given."""

    def __init__(self, work, port, tls_port=None):
        self.port = port
        self.conf = os.path.join(work, "ngircd.conf")
        self.logpath = os.path.join(work, "ngircd.log")
        self.proc = None
        ssl = ""
        if tls_port:
            cert = os.path.join(work, "cert.pem")
            key = os.path.join(work, "key.pem")
            subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                            "-keyout", key, "-out", cert, "-days", "2", "-subj",
                            "/CN=localhost"], check=True, capture_output=True)
            for f in (cert, key):
                os.chmod(f, 0o644)
            ssl = ("[SSL]\nCertFile = %s\nKeyFile = %s\nPorts = %d\n" % (cert, key, tls_port))
        with open(self.conf, "w") as f:
            f.write("[Global]\nName = irc.test\nInfo = delver test server\n"
                    "Listen = 127.0.0.1\nPorts = %d\nMotdPhrase = test\n"
                    "[Limits]\nMaxConnectionsIP = 0\nMaxNickLength = 30\n"
                    "PingTimeout = 120\nPongTimeout = 20\n"
                    "[Options]\nPAM = no\nIdent = no\nDNS = no\n%s" % (port, ssl))
        os.chmod(self.conf, 0o644)
        LOGS.append(("ngircd", self.logpath))

    def start(self):
        log = open(self.logpath, "ab")
        self.proc = subprocess.Popen(["ngircd", "-n", "-f", self.conf], stdout=log,
                                     stderr=subprocess.STDOUT)
        PROCS.append(self.proc)
        wait_port(self.port)

    def stop(self):
        self.proc.terminate()
        self.proc.wait(10)


class Delver:
    """delver with a generated configuration; its log is kept in a file."""

    def __init__(self, binary, work, name, conf, env=None):
        self.binary = os.path.abspath(binary)
        self.conf = os.path.join(work, name + ".conf")
        self.logpath = os.path.join(work, name + ".log")
        # Each bot keeps its own state for the whole test (across its own
        # restarts), never the ./state of another run.
        self.statedir = os.path.join(work, name + ".state")
        self.env = dict(os.environ, **(env or {}))
        self.proc = None
        with open(self.conf, "w") as f:
            f.write(conf)
        os.chmod(self.conf, 0o600)
        LOGS.append(("delver " + name, self.logpath))

    def start(self, level="debug", args=()):
        log = open(self.logpath, "wb")
        self.proc = subprocess.Popen([self.binary, "--config", self.conf, "--log-level", level,
                                      "--state-dir", self.statedir] + list(args),
                                     stdin=subprocess.DEVNULL, stdout=log,
                                     stderr=subprocess.STDOUT, env=self.env)
        PROCS.append(self.proc)

    def log(self):
        with open(self.logpath, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def wait_log(self, pattern, timeout=10, count=1):
        end = time.time() + timeout
        while time.time() < end:
            if len(re.findall(pattern, self.log(), re.M)) >= count:
                return
            check(self.proc.poll() is None, "delver exited (%s); its log:\n%s"
                  % (self.proc.returncode, self.log()))
            time.sleep(0.05)
        raise Fail("no %d log lines matching %r within %d s; the log:\n%s"
                   % (count, pattern, timeout, self.log()[-4000:]))

    def stop(self, timeout=15):
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            raise Fail("delver did not stop within %d s of SIGTERM" % timeout)


def step(what):
    """Prints the step a test is at, so its output shows where a failure came."""
    print("-- " + what, flush=True)


def bot_on_ngircd(build, net, chan, settings="", level="debug", args=()):
    """Starts a ngircd on a free port and delver (build's binary) joined to
    chan on it, as network net: plain TCP, nick delver, settings (lines of
    more keys for [irc.net]) after those. Returns (port, server, bot); both
    processes are stopped when the test exits."""
    work = workdir()
    port = free_port()
    server = Ngircd(work, port)
    server.start()
    conf = ("\n[irc.%s]\nhost = 127.0.0.1\nport = %d\ntls = no\nnick = delver\n"
            "channels = %s\n%s" % (net, port, chan, settings))
    bot = Delver(build + "/delver", work, "bot", conf)
    bot.start(level=level, args=args)
    bot.wait_log(r"irc %s: joined %s" % (net, re.escape(chan)))
    return port, server, bot


class Lines:
    """A line-based peer over a socket: expect() waits for a matching line."""

    def __init__(self, sock, name):
        self.sock = sock
        self.name = name
        self.buf = b""
        self.lines = []  # received, not yet consumed
        self.seen = []   # everything received, for failure messages
        self.closed = False
        self.sock.setblocking(False)

    def send(self, line):
        data = line.encode() if isinstance(line, str) else line
        self.sock.sendall(data + b"\r\n")

    def _fill(self, timeout):
        if self.closed:
            return
        self.sock.settimeout(max(timeout, 0.001))
        try:
            data = self.sock.recv(65536)
        except (socket.timeout, BlockingIOError):
            return
        except OSError:
            data = b""
        if not data:
            self.closed = True
            return
        self.buf += data
        while b"\n" in self.buf:
            raw, self.buf = self.buf.split(b"\n", 1)
            line = raw.rstrip(b"\r").decode("utf-8", "replace")
            self.seen.append((time.time(), line))
            if self.on_line(line):
                self.lines.append((time.time(), line))

    def on_line(self, line):
        return True

    def expect(self, pattern, timeout=10, raw=False):
        """The first unconsumed line matching pattern (searched in the line
        without formatting unless raw); earlier lines are consumed."""
        end = time.time() + timeout
        rx = re.compile(pattern)
        while True:
            while self.lines:
                when, line = self.lines.pop(0)
                m = rx.search(line if raw else plain(line))
                if m:
                    self.last_time = when
                    return m
            left = end - time.time()
            if left <= 0 or self.closed:
                break
            self._fill(min(left, 0.5))
        raise Fail("%s: no line matching %r within %d s%s; it got:\n%s"
                   % (self.name, pattern, timeout, " (connection closed)" if self.closed else "",
                      "\n".join(l for _, l in self.seen[-25:])))

    def next_line(self, timeout=5):
        return self.expect(r"", timeout, raw=True).string

    def expect_closed(self, timeout=5):
        end = time.time() + timeout
        while not self.closed and time.time() < end:
            self._fill(min(end - time.time(), 0.5))
            self.lines.clear()
        check(self.closed, "%s: the connection is still open after %d s" % (self.name, timeout))

    def close(self):
        self.sock.close()


class Client(Lines):
    """An IRC user on the test server; answers PINGs by itself."""

    def __init__(self, port, nick, user=None):
        super().__init__(socket.create_connection(("127.0.0.1", port), 5), nick)
        self.nick = nick
        self.send("NICK %s" % nick)
        self.send("USER %s 0 * :test user" % (user or nick))
        self.expect(r"^:\S+ 001 ")

    def on_line(self, line):
        if line.startswith("PING "):
            self.send("PONG " + line[5:])
            return False
        return True

    def join(self, chan):
        """Joins chan; returns the nicks of the NAMES reply."""
        self.send("JOIN %s" % chan)
        names = self.expect(r"^:\S+ 353 \S+ . %s :(.*)$" % re.escape(chan)).group(1)
        self.expect(r"^:\S+ 366 ")
        return names.split()

    def say(self, target, text):
        self.send("PRIVMSG %s :%s" % (target, text))

    def quit(self):
        self.send("QUIT :bye")
        self.close()


def run(main):
    """Runs main(), printing one line per step; exits 0 or 1."""
    start = time.time()
    try:
        main()
    except Fail as e:
        print("FAIL: %s" % e)
        for name, path in LOGS:
            try:
                with open(path, "rb") as f:
                    tail = f.read().decode("utf-8", "replace").splitlines()[-int(os.environ.get("LOG_LINES", "30")):]
            except OSError:
                continue
            print("== the end of the %s log:" % name)
            print("\n".join(tail))
        sys.exit(1)
    print("ok (%.1f s)" % (time.time() - start))
