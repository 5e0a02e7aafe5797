"""The largest Fungeon combat turn on IRC, against a real ngircd.

Usage: python3 irc_fungeon_turn.py BUILD_DIR

Eight players of 30-character nicks (two of level 60, six of level 1) and a
bot of a 30-character nick fight 24 monsters of 24-character names, the
first five with a special ability of 9 Annoy dice. The turn is longer than max_lines (4):
it comes whole, in parts of at most 4 lines, each after the first starting
"Combat turn (continued) · ", every line within IRC's 512 bytes, no hit,
defeat, XP or narrator lost (every point dealt is a point taken), and
another player's command, typed while the parts go out, is answered
between two of them.
"""
import re
import sys

from irclib import Client, Delver, Ngircd, check, free_port, run, step, workdir

BOTNICK = "delverbot_with_a_30_char_nick_"[:30]
BOT = r"^:%s!\S+ " % BOTNICK
CHAN = "#big"
# five monsters with a special ability few resist: the turn's longest reports
ABILITY = " ability s annoy 9 pain 1 type t"


def text(line):
    """A line without formatting and without the joiners that keep nicks
    from notifying."""
    from irclib import plain
    return plain(line).replace("\u200d", "")


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build/default"
    work = workdir()
    port = free_port()
    server = Ngircd(work, port)
    server.start()
    conf = ("\n[irc.local]\nhost = 127.0.0.1\nport = %d\ntls = no\nnick = %s\n"
            "channels = %s\nmax_lines = 4\nflood_burst = 4\nflood_interval_ms = 250\n"
            "user_burst = 60\nuser_interval_ms = 100\nchannel_burst = 60\n"
            "channel_interval_ms = 100\n" % (port, BOTNICK, CHAN))
    bot = Delver(build + "/delver", work, "bot", conf)
    bot.start(args=["--seed", "1501"])
    bot.wait_log(r"irc local: joined %s" % re.escape(CHAN))

    step("eight players of 30-character nicks join the party")
    nicks = ["p%d_long_nick_abcdefghijklmnopq" % (i + 1) for i in range(8)]
    check(all(len(n) == 30 for n in nicks) and len(BOTNICK) == 30, "a nick is not 30 long")
    players = {}
    for i, nick in enumerate(nicks):
        players[nick] = c = Client(port, nick)
        c.join(CHAN)
        c.say(CHAN, "!fungeon join HeroWithALongName%07d fighter %d" % (i + 1, 60 if i < 2 else 1))
        c.expect(BOT + r"PRIVMSG %s :.*joins as HeroWithALongName%07d" % (CHAN, i + 1))
    first = players[nicks[0]]
    first.say(CHAN, "!gm claim")
    first.expect(BOT + r"PRIVMSG %s :.* is now the GM of this channel" % CHAN)

    step("the hallway, the categories chosen in the draw's order, 24 monsters made")
    first.say(CHAN, "!fungeon hallway")
    who = nicks[0]
    holder = {}
    for cat in ("monsters", "traps", "treasure"):
        while who is not None:
            players[who].say(CHAN, "!fungeon pick %s" % cat)
            m = players[who].expect(r"(?i)(It is (\S+)'s turn to choose|chooses %s)" % cat)
            line = text(m.string)
            turn = re.search(r"It is (\S+)'s turn to choose", line)
            if turn:
                who = turn.group(1)
                continue
            holder[cat] = who
            nxt = re.search(r"Next to choose: (\S+)\.", line)
            who = nxt.group(1) if nxt else None  # the last category falls to the last
            break
    holder["monsters"] = re.search(r"Monsters: (\S+) ·", line).group(1) if "monsters" not in \
        holder else holder["monsters"]
    maker = players[holder["monsters"]]
    for i in range(24):
        maker.say(CHAN, "!fungeon monster add MMMMMMMMMMMMMMMMMMMMMM%02d level 1%s"
                  % (i, ABILITY if i < 5 else ""))
        maker.expect(BOT + r"PRIVMSG %s :.*Made monster MMMMMMMMMMMMMMMMMMMMMM%02d " % (CHAN, i))
    first.say(CHAN, "!fungeon enter waive:true")
    first.expect(BOT + r"PRIVMSG %s :.*waived by" % CHAN)

    step("a combat turn: whole, in parts of at most 4 lines, each line within 512 bytes")
    other = players[nicks[7]]
    first.say(CHAN, "!fungeon combat")
    got = [first.expect(BOT + r"PRIVMSG %s :.*Combat turn" % CHAN).string]
    other.say(CHAN, "!roll 1d1 # between the parts")
    while True:
        try:
            line = first.expect(BOT + r"PRIVMSG %s :" % CHAN, timeout=8).string
        except Exception:
            break
        got.append(line)
        if "3. Painful conflict" in "".join(got) and \
                text(line).split(" · ")[-1].startswith("Narrative control: "):
            break
    raw = [l for _, l in first.seen if re.match(BOT + r"PRIVMSG %s :" % CHAN, l)]
    for l in raw:
        check(len(l.encode()) + 2 <= 512, "a line of %d bytes: %r" % (len(l.encode()) + 2, l))
    turn = [text(l).split(" :", 1)[1] for l in got]
    rolls = [i for i, l in enumerate(turn) if "1d1" in l and "between the parts" in l]
    parts, cur = [], []
    for i, l in enumerate(turn):
        if i in rolls:
            continue
        if l.startswith("Combat turn (continued) · ") and cur:
            parts.append(cur)
            cur = []
        cur.append(l)
    parts.append(cur)
    print("   %d lines in %d parts, the roll after line %d" % (sum(len(p) for p in parts), len(parts), rolls[0] if rolls else -1))
    check(len(parts) > 1, "the turn came in one part: %r" % turn)
    check(all(len(p) <= 4 for p in parts), "a part holds more than 4 lines: %r" % parts)
    check(not any("not shown" in l for l in turn), "lines were left out: %r" % turn)
    check(rolls and 0 < rolls[0] < len(turn) - 1,
          "the other player's roll did not come between two parts: %r" % turn)

    step("no hit, defeat, XP or narrator lost")
    whole = " · ".join(" · ".join(p) for p in parts).replace("Combat turn (continued) · ", "")
    dealt = sum(int(d) for d in re.findall(r" deals (\d+) and takes \d+", whole))
    taken = sum(int(t) for t in re.findall(r" deals \d+ and takes (\d+)", whole))
    check(dealt > 0 and dealt == taken, "%d points dealt but %d taken: %r" % (dealt, taken, whole))
    for name in re.findall(r"(MMMMMMMMMMMMMMMMMMMMMM\d\d) deals \d+ and takes \d+: 0/3 hits", whole):
        check("%s is defeated!" % name in whole, "%s's defeat is not there" % name)
    for m in re.finditer(r"(HeroWithALongName\d+) deals (\d+) and takes \d+: [^·]*", whole):
        if int(m.group(2)) > 0:
            check(" XP" in m.group(0), "%s's XP is not there: %r" % (m.group(1), m.group(0)))
    check(whole.split(" · ")[-1].startswith("Narrative control: "),
          "the turn does not end with its narrator: %r" % whole[-300:])
    bot.stop()


if __name__ == "__main__":
    run(main)
