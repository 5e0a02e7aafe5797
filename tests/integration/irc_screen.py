"""Tables behind the GM's screen on IRC, against a real ngircd.

Usage: python3 irc_screen.py BUILD_DIR

gm holds the seat with Tension hidden; encounter names [[lair]], so lair is
behind the screen. gm replaces encounter: lair stays there (recheck11 F1),
and bob, a player, reads of it what he reads of a name no table has, by
show and by roll, before and after the bot restarts. gm's /table reveal
opens it to bob; /table hide puts it back; bob cannot do either, and no
line the bot sends bob holds lair's entries while it is hidden (what gm types
in the channel, the players read: delver(7) says so).
"""
import sys

from irclib import Client, bot_on_ngircd, check, run, step

BOT = r"^:delver!\S+ "
UNSEEN = (r"NOTICE bob :No table you may read here is called %s \(while Tension is hidden, "
          r"a table behind the G\S*M's screen reads as none to the players\); !table list "
          r"shows those you may read\.$")


def unseen(bob):
    """bob's show and roll of lair read as those of a name no table has."""
    for verb in ("show", "roll"):
        bob.say("#crawl", "!table %s lair" % verb)
        bob.expect(BOT + UNSEEN % "lair")
        bob.say("#crawl", "!table %s nosuch" % verb)
        bob.expect(BOT + UNSEEN % "nosuch")


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build/default"
    port, server, bot = bot_on_ngircd(build, "local", "#crawl", """user_burst = 60
user_interval_ms = 100
channel_burst = 60
channel_interval_ms = 100
flood_burst = 20
flood_interval_ms = 100
""", args=["--seed", "7"])
    gm = Client(port, "gm")
    gm.join("#crawl")
    bob = Client(port, "bob")
    bob.join("#crawl")

    step("encounter names lair while Tension is hidden: lair is behind the screen")
    gm.say("#crawl", "!gm claim")
    gm.expect(BOT + r"PRIVMSG #crawl :.*is now the G\S*M")
    gm.say("#crawl", "!tension mode hidden")
    gm.expect(BOT + r"PRIVMSG #crawl :Tension is now hidden")
    gm.say("#crawl", "!table set encounter 1-6: [[lair]]")
    gm.expect(BOT + r"NOTICE gm :Saved the table encounter: d6, 1 entry\.")
    gm.say("#crawl", "!table set lair 1-6: a sleeping wyrm")
    gm.expect(BOT + r"NOTICE gm :Saved the table lair: d6, 1 entry\.")
    unseen(bob)

    step("gm replaces encounter: lair stays behind the screen, and gm is told nothing of it")
    gm.say("#crawl", "!table set encounter 1-6: rats")
    gm.expect(BOT + r"NOTICE gm :Replaced the table encounter: d6, 1 entry\.")
    unseen(bob)

    step("after a restart, lair is still behind the screen")
    bot.stop()
    bot.start(args=["--seed", "7"])
    bot.wait_log(r"irc local: joined #crawl")
    unseen(bob)
    bob.say("#crawl", "!table reveal lair")
    bob.expect(BOT + r"NOTICE bob :Only the G\S*M can do that here; the G\S*M is \S+\.$")
    bob.say("#crawl", "!table hide encounter")
    bob.expect(BOT + r"NOTICE bob :Only the G\S*M can do that here; the G\S*M is \S+\.$")

    step("gm's list names lair privately; bob's does not")
    gm.say("#crawl", "!table list")
    gm.expect(BOT + r"NOTICE gm :Behind your screen .*lair")
    check(not any(l.startswith(":delver!") and "lair" in l and "bob :" not in l
                  for _, l in bob.seen),
          "the channel read lair's name from the bot")

    step("gm reveals lair: bob reads it; gm hides it: bob does not")
    gm.say("#crawl", "!table reveal lair")
    bob.expect(BOT + r"PRIVMSG #crawl :Took the table lair out from behind the G\S*M's screen")
    bob.say("#crawl", "!table show lair")
    bob.expect(BOT + r"PRIVMSG #crawl :Table lair: d6, 1 entry · 1-6: a sleeping wyrm$")
    gm.say("#crawl", "!table hide lair")
    bob.expect(BOT + r"PRIVMSG #crawl :The G\S*M put a table behind the screen\.$")
    gm.expect(BOT + r"NOTICE gm :Put the table lair behind the G\S*M's screen")
    unseen(bob)
    shown = [l for _, l in bob.seen if l.startswith(":delver!") and "sleeping wyrm" in l]
    check(len(shown) == 1, "bob read lair's entry %d times, not once (when revealed): %r"
          % (len(shown), shown))

    step("with Tension open, the channel reads only that the marks changed")
    gm.say("#crawl", "!tension mode open")
    gm.say("#crawl", "!table reveal lair")
    bob.expect(BOT + r"PRIVMSG #crawl :\S*The G\S*M changed which tables go behind the "
               r"screen while Tension is hidden\.\S*$")
    gm.expect(BOT + r"NOTICE gm :Took the table lair out from behind the G\S*M's screen")
    gm.say("#crawl", "!undo")
    bob.expect(BOT + r"PRIVMSG #crawl :g\S*m undid a change made behind the G\S*M's screen\. ")
    gm.expect(BOT + r"NOTICE gm :Undid gm's \S*!table reveal lair")
    named = [l for _, l in bob.seen if l.startswith(":delver!") and "reveal lair" in l]
    check(not named, "bob read which table the GM revealed: %r" % named)

    bot.stop()
    server.stop()


run(main)
