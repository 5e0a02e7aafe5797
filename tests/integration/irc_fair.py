"""delver under a command flood on a real ngircd: fair and never cut.

Usage: python3 irc_fair.py BUILD_DIR
"""
import os
import re
import signal
import sys
import time

from irclib import Client, bot_on_ngircd, check, plain, run, step

FLOODERS = ("alice", "bob", "carol")
PER_USER = 50
NATURAL = {20: " · Natural 20!", 1: " · Natural 1."}
SLOW_DOWN = "You are sending commands faster than delver takes them"


def drain(clients, until):
    """Reads every client until `until` (a time), keeping what they got."""
    while time.time() < until:
        for c in clients:
            c._fill(0.02)


# The default flood rate (4 lines at once, then one every 2 s) and the
# default command limits: the target holds with the settings users get.
def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build/default"
    port, _, bot = bot_on_ngircd(build, "plain", "#a", level="info")
    users = [Client(port, n) for n in FLOODERS]
    dave = Client(port, "dave")
    for u in users + [dave]:
        u.join("#a")

    step("3 users x %d !roll within 2 s; dave rolls once during the flood" % PER_USER)
    start = time.time()
    sent = 0
    dave_at = None
    while sent < PER_USER:
        for u in users:
            u.say("#a", "!roll 1d6 #%s%d" % (u.nick, sent))
        sent += 1
        if sent == PER_USER // 2:
            dave.say("#a", "!roll 1d20")
            dave_at = time.time()
        time.sleep(2.0 / PER_USER)
    flood_took = time.time() - start
    # A lone d20's natural 20 or 1 is named after the total: 1 answer in
    # 10 ends so, and a pattern that stopped at the total waited its 60 s
    # for an answer that had come.
    m = dave.expect(r"^:delver!\S+ PRIVMSG #a :dave: 1d20: \[(\d+)\] = (\d+)"
                    r"( · Natural 20!| · Natural 1\.)?$", timeout=60)
    latency = dave.last_time - dave_at
    check(m.group(1) == m.group(2) and 1 <= int(m.group(1)) <= 20 and
          m.group(3) == NATURAL.get(int(m.group(1))), "a wrong roll: %s" % m.group(0))

    step("every flooder's command answered whole, or the flooder told to slow down")
    # Wait until the bot has been silent for 10 s (the queue is empty).
    last = time.time()
    seen = 0
    while time.time() - last < 10 and time.time() - start < 300:
        drain(users + [dave], time.time() + 0.5)
        if len(dave.seen) != seen:
            seen = len(dave.seen)
            last = time.time()
    channel = [plain(l) for _, l in dave.seen if l.startswith(":delver!")]
    for line in channel:
        check(re.match(r"^:delver!\S+ PRIVMSG #a :\S+: (\w+ · )?1d(6|20): \[\d+\] = \d+"
                       r"( · Natural 20!| · Natural 1\.)?$", line) or " 1d" not in line,
              "a reply was cut or malformed: %r" % line)
    report = []
    for u in users:
        answered = set()
        for line in channel:
            r = re.match(r"^:delver!\S+ PRIVMSG #a :%s: %s(\d+) · 1d6: \[(\d)\] = (\d)$"
                         % (u.nick, u.nick), line)
            if r:
                check(r.group(2) == r.group(3), "a wrong roll: %r" % line)
                answered.add(int(r.group(1)))
        notices = [l for _, l in u.seen if re.match(r"^:delver!\S+ NOTICE %s :" % u.nick, l)]
        told = [l for l in notices if SLOW_DOWN in l]
        dropped = [l for l in notices if "too many replies waiting" in l]
        check(len(told) <= 1, "%s was told %d times to slow down" % (u.nick, len(told)))
        check(len(answered) == PER_USER or told or dropped,
              "%s: %d of %d commands answered and no word about the others"
              % (u.nick, len(answered), PER_USER))
        check(len(answered) >= 1, "%s got no answer at all" % u.nick)
        report.append("%s %d answered%s" % (u.nick, len(answered), ", told once" if told else ""))
    check(bot.log().count("irc plain: connected;") == 1, "the bot reconnected during the flood")
    print("flood sent in %.1f s; %s; dave's roll answered %.2f s after he sent it"
          % (flood_took, "; ".join(report), latency), flush=True)

    step("after the flood, a flooder is answered again")
    time.sleep(4.5)
    users[0].say("#a", "!roll 1d4")
    users[0].expect(r"^:delver!\S+ PRIVMSG #a :alice: 1d4: \[\d\] = \d$", timeout=30)

    step("the bot stopped while five users flood: dave's roll, read after theirs, is answered")
    # While delver is stopped (SIGSTOP, as a machine that gives it no CPU),
    # five flooders send 8 rolls each; once dave has seen all 40 relayed
    # (so they wait in delver's socket), he rolls. delver then reads them
    # in one batch, every flooder's own burst refilled: between them they
    # could spend the channel's whole burst before dave's line.
    floods = users + [Client(port, n) for n in ("erin", "frank")]
    for u in floods[3:]:
        u.join("#a")
    stall = time.time()
    os.kill(bot.proc.pid, signal.SIGSTOP)
    try:
        for i in range(8):
            for u in floods:
                u.say("#a", "!roll 1d6 #stall%s%d" % (u.nick, i))
        relayed = set()
        while len(relayed) < 8 * len(floods):
            relayed.add(dave.expect(r"^:\S+ PRIVMSG #a :!roll 1d6 #stall(\w+)$",
                                    timeout=60).group(1))
        # Stopped 10 s at least: every user's burst and the channel's are
        # full again, whatever was spent before.
        time.sleep(max(0.0, 10 - (time.time() - stall)))
        dave.say("#a", "!roll 1d8")
        time.sleep(1)
    finally:
        os.kill(bot.proc.pid, signal.SIGCONT)
    resumed = time.time()
    m = dave.expect(r"^:delver!\S+ PRIVMSG #a :dave: 1d8: \[(\d+)\] = (\d+)$",
                    timeout=90)
    check(m.group(1) == m.group(2) and 1 <= int(m.group(1)) <= 8, "a wrong roll: %s" % m.group(0))
    print("delver stopped %.1f s; dave's roll answered %.2f s after it went on"
          % (resumed - stall, dave.last_time - resumed), flush=True)
    status = bot.stop()
    check(status == 0, "delver exited with status %s" % status)


if __name__ == "__main__":
    run(main)
