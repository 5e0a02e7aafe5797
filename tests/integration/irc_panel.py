"""!panel on IRC, against a real ngircd.

Usage: python3 irc_panel.py BUILD_DIR

The panel on IRC is text shown when asked: at most three lines in the
channel, no buttons, nothing edited later, pinging nobody. While Tension is
hidden the channel's panel says only that; the GM who asks gets the bar in
a copy of their own, privately; a player gets none.
"""
import sys

from irclib import Client, bot_on_ngircd, check, mentions, plain, run, step

BOT = r"^:delver!\S+ "


def bot_lines(client, marker, timeout=10):
    """Every line of the bot's that client gets until the one matching
    the text marker (the answer to a command sent after the one under test),
    formatting removed; the marker's line is not included."""
    got = []
    while True:
        line = client.expect(BOT, timeout).string
        if marker in plain(line):
            return got
        got.append(plain(line))


MARK = [0]


def ask(sender, others, line):
    """sender says line in #crawl, then a roll that marks its end; returns
    the bot's lines sender got until the mark (every other client reads
    past it too)."""
    MARK[0] += 1
    mark = " + %d: [1] + %d = " % (MARK[0], MARK[0])
    sender.say("#crawl", line)
    sender.say("#crawl", "!roll 1d1+%d" % MARK[0])
    got = bot_lines(sender, mark)
    for o in others:
        bot_lines(o, mark)
    return got


def text(lines):
    """The text of the bot's lines (after "TARGET :"), formatting removed,
    joined as IRC's continuation joins them."""
    return " · ".join(plain(l).split(" :", 1)[1] for l in lines)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build/default"
    # The bot answers each line at once: the test is about what, not when.
    port, server, bot = bot_on_ngircd(
        build, "local", "#crawl", "flood_burst = 20\nflood_interval_ms = 100\nuser_burst = 40\n",
        args=["--seed", "7"])
    alice = Client(port, "alice")
    alice.join("#crawl")
    bob = Client(port, "bob")
    bob.join("#crawl")

    alice.say("#crawl", "!gm claim")
    alice.expect(BOT + r"PRIVMSG #crawl :.*is now the GM of this channel\.")
    alice.say("#crawl", "!light add torch")
    alice.expect(BOT + r"PRIVMSG #crawl :.*Lit 1 torch")
    alice.say("#crawl", "!tension raise amount:2 reason:noise")
    alice.expect(BOT + r"PRIVMSG #crawl :.*Tension raised 1 → 3")
    bob.expect(BOT + r"PRIVMSG #crawl :.*Tension raised 1 → 3")

    step("!panel: the state in the channel in at most three lines, no buttons, no pings")
    lines = ask(bob, [alice], "!panel")
    check(1 <= len(lines) <= 3, "!panel gave %d lines: %r" % (len(lines), lines))
    check(all(" PRIVMSG #crawl :" in l for l in lines), "not all in the channel: %r" % lines)
    check(text(lines) == "Turn 0 (0 min in the dungeon) · 0 turns since the last rest · "
          "Lights: torch #1 6 turns left · Tension ███░░░░░░░ 3/10 · Hazard die: exploration",
          "the panel: %r" % text(lines))
    check(not any(mentions(text([l]), n) for l in lines for n in ("alice", "bob")),
          "the panel pings someone: %r" % lines)

    step("a change: nothing is edited or posted again on IRC")
    after = ask(alice, [bob], "!hazard roll")
    check(not any("Hazard die: exploration" in l for l in after),
          "a change showed the panel again: %r" % after)

    step("hidden Tension: the channel's panel says only that; the GM gets a copy")
    check(any("Tension is now hidden" in l for l in ask(alice, [bob], "!tension mode hidden")),
          "Tension was not hidden")
    lines = ask(bob, [alice], "!panel")
    check(1 <= len(lines) <= 3 and text(lines).endswith(
        " · Tension: hidden behind the GM's screen · Hazard die: exploration"),
          "a player's panel in hidden mode: %r" % lines)
    check(not any("█" in l for l in lines), "a player saw the bar: %r" % lines)
    seen = len(bob.seen)
    lines = ask(alice, [bob], "!panel")
    public = [l for l in lines if " PRIVMSG #crawl :" in l]
    private = [l for l in lines if " PRIVMSG #crawl :" not in l]
    check(1 <= len(public) <= 3 and "Tension: hidden behind the GM's screen" in text(public),
          "the GM's panel in the channel: %r" % lines)
    check(1 <= len(private) <= 3 and all(" alice :" in l for l in private) and
          text(private).endswith(" · Tension ███░░░░░░░ 3/10 · Hazard die: exploration"),
          "the GM's copy: %r" % lines)
    check(not any("█" in l for _, l in bob.seen[seen:]), "bob saw the GM's copy")

    bot.stop()
    server.stop()


run(main)
