"""delver under a flood of strangers, against a scripted IRC server that
sends faster than the bot may answer (test_irc_flood.sh).

Usage: python3 irc_flood.py BUILD_DIR

20,000 private messages, each from a nick never seen before, each a roll.
The bot answers what its send queue holds and refuses the rest, and:
  - says so once in the log, then sums it up every 10 s (it used to write
    a warning per dropped line: 35,905 for these 20,000);
  - keeps no record of a stranger who only rolled (no channel or user row,
    none in memory: it used to keep 20,000);
  - stays within a few MB of what it held before the flood (it grew by
    about 150 MB here).
Prints the figures.
"""
import os
import re
import sqlite3
import sys
import time

from irclib import Delver, Fail, check, run, workdir
from irc_scripted import Server, register

BUILD = sys.argv[1]
N = 20000


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        return int(re.search(r"VmRSS:\s+(\d+) kB", f.read()).group(1))


def main():
    work = workdir()
    srv = Server()
    conf = "[irc.s]\nhost = 127.0.0.1\nport = %d\ntls = no\nnick = delver\nchannels = #a\n" \
        % srv.port
    bot = Delver(BUILD + "/delver", work, "flood", conf)
    bot.start(level="info")
    p = srv.accept()
    register(p)
    before = rss_kb(bot.proc.pid)
    t0 = time.time()
    lines = [":s%05d!u@h%d PRIVMSG delver :roll 1d20" % (i, i) for i in range(N)]
    for i in range(0, N, 500):
        p.sock.setblocking(True)
        p.sock.sendall(("\r\n".join(lines[i:i + 500]) + "\r\n").encode())
    # Whatever the bot sends meanwhile is read, slowly, as a server paces
    # it; the bot has read everything once a last PING comes back.
    p.send("PING :flooded")
    p.expect(r"^PONG :?flooded$", timeout=120)
    after = rss_kb(bot.proc.pid)
    elapsed = time.time() - t0
    check(bot.stop() == 0, "delver did not stop cleanly")
    log = bot.log()
    full = log.count("the send queue is full")
    summaries = re.findall(r"the send queue stayed full: (\d+) replies and (\d+) other", log)
    refused = sum(int(r) for r, _ in summaries)
    db = sqlite3.connect(os.path.join(bot.statedir, "delver.db"))
    chans = db.execute("SELECT count(*) FROM channels").fetchone()[0]
    users = db.execute("SELECT count(*) FROM users").fetchone()[0]
    print("%d private messages in %.1f s: %d warning, %d summaries (%d replies refused), "
          "%d log lines; RSS %d kB before, %d kB after; %d channel rows, %d user rows"
          % (N, elapsed, full, len(summaries), refused, log.count("\n"), before, after,
             chans, users))
    check(full == 1, "the full queue was said %d times, not once" % full)
    # One summary per 10 s while it lasted, and the one at the stop.
    check(len(summaries) <= elapsed / 10 + 2,
          "%d summaries in %.0f s" % (len(summaries), elapsed))
    check(refused >= N // 2, "only %d refusals were counted" % refused)
    check(chans == 0 and users == 0,
          "strangers who only rolled left %d channel and %d user rows" % (chans, users))
    check(after - before < 8192, "the flood grew delver by %d kB" % (after - before))


run(main)
