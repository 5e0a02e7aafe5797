"""A table typed line by line on IRC, against a real ngircd.

Usage: python3 irc_table.py BUILD_DIR

alice starts a table with "!table set NAME" alone and sends its entries one
line at a time while bob talks in the channel and alice runs another
command; bob's "!table end" is not hers; hers saves the table, which shows
as the lines she sent. Then: the one-line form with ';', a cancel, a table
dropped when another starts, a table too long, the same in a private
conversation, and two users entering tables at once in one channel.
"""
import sys

from irclib import Client, bot_on_ngircd, check, run, step

BOT = r"^:delver!\S+ "


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build/default"
    port, server, bot = bot_on_ngircd(build, "local", "#crawl", """user_burst = 60
user_interval_ms = 100
channel_burst = 60
channel_interval_ms = 100
flood_burst = 20
flood_interval_ms = 100
""", args=["--seed", "7"])
    alice = Client(port, "alice")
    alice.join("#crawl")
    bob = Client(port, "bob")
    bob.join("#crawl")

    step("!table set NAME alone asks for the entries, line by line")
    alice.say("#crawl", "!table set loot")
    alice.expect(BOT + r"PRIVMSG #crawl :Send the entries of the table loot, one a line "
                 r".*then !table end; !table cancel drops them\.")

    step("her lines join the table; bob's lines and her commands do not")
    alice.say("#crawl", "1-2: a pouch of 2d6 silver")
    bob.say("#crawl", "1-6: bob's joke")
    alice.say("#crawl", "!roll 1d20")
    alice.expect(BOT + r"PRIVMSG #crawl :alice: 1d20: \[\d+\] = \d+$")
    alice.say("#crawl", "3-6: a gem: [[gems]]")
    bob.say("#crawl", "!table end")
    bob.expect(BOT + r"NOTICE bob :No table is being entered here")
    alice.say("#crawl", "!table end")
    alice.expect(BOT + r"PRIVMSG #crawl :Saved the table loot: d6, 2 entries\. · No table "
                 r"here is called \[\[gems\]\] yet")

    step("show -> set -> show: IRC's line, pasted back, makes the same table")
    alice.say("#crawl", "!table show loot")
    shown = alice.expect(BOT + r"PRIVMSG #crawl :Table loot: d6, 2 entries · (.*)$").group(1)
    check(shown == "1-2: a pouch of 2d6 silver · 3-6: a gem: [[gems]]",
          "the table shows as %r" % shown)
    alice.say("#crawl", "!table set copy " + shown)
    alice.expect(BOT + r"PRIVMSG #crawl :Saved the table copy: d6, 2 entries\.")
    alice.say("#crawl", "!table show copy")
    again = alice.expect(BOT + r"PRIVMSG #crawl :Table copy: d6, 2 entries · (.*)$").group(1)
    check(again == shown, "the copy shows as %r, not %r" % (again, shown))

    step("the whole line !table show sends, heading included, is taken back")
    alice.say("#crawl", "!table show loot")
    whole = alice.expect(BOT + r"PRIVMSG #crawl :(.*Table loot: d6, 2 entries.* · .*)$").group(1)
    alice.say("#crawl", "!table set whole " + whole)
    alice.expect(BOT + r"PRIVMSG #crawl :Saved the table whole: d6, 2 entries\.")
    alice.say("#crawl", "!table show whole")
    third = alice.expect(BOT + r"PRIVMSG #crawl :Table whole: d6, 2 entries · (.*)$").group(1)
    check(third == shown, "the whole line pasted shows as %r, not %r" % (third, shown))

    step("the one-line form, and a roll through the nested table")
    alice.say("#crawl", "!table set gems 1x a ruby; 3x a pearl")
    alice.expect(BOT + r"PRIVMSG #crawl :Saved the table gems: weighted d4, 2 entries\.")
    alice.say("#crawl", "!table roll loot")
    alice.expect(BOT + r"PRIVMSG #crawl :.*Rolled \d on the d6: ")

    step("cancel drops it; another table drops the one under way")
    alice.say("#crawl", "!table set scratch")
    alice.expect(BOT + r"PRIVMSG #crawl :Send the entries of the table scratch")
    alice.say("#crawl", "1-6: nothing")
    alice.say("#crawl", "!table cancel")
    alice.expect(BOT + r"PRIVMSG #crawl :Dropped what you were entering for table set "
                 r"scratch \(1 line\)\.$")
    alice.say("#crawl", "!table set first")
    alice.expect(BOT + r"PRIVMSG #crawl :Send the entries of the table first")
    alice.say("#crawl", "1-6: one")
    alice.say("#crawl", "!table set second")
    alice.expect(BOT + r"PRIVMSG #crawl :Send the entries of the table second.* · What you "
                 r"were entering for table set first was dropped for this\.$")
    alice.say("#crawl", "1-6: two")
    alice.say("#crawl", "!table end")
    alice.expect(BOT + r"PRIVMSG #crawl :Saved the table second: d6, 1 entry\.")

    step("two users enter tables at once in one channel")
    alice.say("#crawl", "!table set hers")
    alice.expect(BOT + r"PRIVMSG #crawl :Send the entries of the table hers")
    bob.say("#crawl", "!table set his")
    bob.expect(BOT + r"PRIVMSG #crawl :Send the entries of the table his")
    alice.say("#crawl", "1-3: her first")
    bob.say("#crawl", "1-6: his only")
    alice.say("#crawl", "4-6: her second")
    bob.say("#crawl", "!table end")
    bob.expect(BOT + r"PRIVMSG #crawl :Saved the table his: d6, 1 entry\.")
    alice.say("#crawl", "!table end")
    alice.expect(BOT + r"PRIVMSG #crawl :Saved the table hers: d6, 2 entries\.")

    step("a bad table is refused at the end, naming the numbers; it stays open for more")
    alice.say("#crawl", "!table set bad")
    alice.expect(BOT + r"PRIVMSG #crawl :Send the entries of the table bad")
    alice.say("#crawl", "1-2: a")
    alice.say("#crawl", "4-6: b")
    alice.say("#crawl", "!table end")
    alice.expect(BOT + r"NOTICE alice :The table bad was not saved: entry 2: result 3 is not "
                 r"covered by any entry\. The 2 lines you sent are still open: send more, "
                 r"then !table end again; !table cancel drops them, and !table set bad starts "
                 r"afresh\. · What you sent, on one line: 1-2: a; 4-6: b$")
    alice.say("#crawl", "3: c")
    alice.say("#crawl", "!table end")
    alice.expect(BOT + r"PRIVMSG #crawl :Saved the table bad: d6, 3 entries\.$")

    step("a table past 4000 bytes is dropped as it grows, and said so; the rest of the "
         "paste is dropped with it, never run, until !table end")
    alice.say("#crawl", "!table set huge")
    alice.expect(BOT + r"PRIVMSG #crawl :Send the entries of the table huge")
    for i in range(1, 31):
        alice.say("#crawl", "%d: %s" % (i, "x" * 150))
    alice.expect(BOT + r"NOTICE alice :What you were entering for table set huge was dropped: "
                 r"it passed 4000 bytes \(or 200 lines\), the most it takes; the lines you "
                 r"send here until !table end are dropped with it, never run\.$", timeout=20)
    alice.say("#crawl", "!table end")
    alice.expect(BOT + r"PRIVMSG #crawl :Dropped what you were entering for table set huge "
                 r"\(30 lines\)\.$")

    step("in a private conversation, lines that name no command")
    alice.say("delver", "table set mine")
    alice.expect(BOT + r"(NOTICE|PRIVMSG) alice :Send the entries of the table mine")
    alice.say("delver", "1-6: a secret")
    alice.say("delver", "table end")
    alice.expect(BOT + r"(NOTICE|PRIVMSG) alice :Saved the table mine: d6, 1 entry\.")

    step("a screened table written in private messages, copied from:me")
    alice.say("#crawl", "!gm claim")
    alice.expect(BOT + r"PRIVMSG #crawl :.*is now the GM")
    alice.say("#crawl", "!tension mode hidden")
    alice.expect(BOT + r"PRIVMSG #crawl :.*hidden")
    alice.say("delver", "gm claim")
    alice.expect(BOT + r"(NOTICE|PRIVMSG) alice :.*GM")
    alice.say("delver", "table set encounter 1-6: a PM wolf")
    alice.expect(BOT + r"(NOTICE|PRIVMSG) alice :Saved the table encounter: d6, 1 entry\.")
    alice.say("#crawl", "!table copy encounter from:me")
    bob.expect(BOT + r"PRIVMSG #crawl :The GM changed a table behind the screen\.$")
    alice.expect(BOT + r"(NOTICE|PRIVMSG) alice :Copied 1 table from your private messages: "
                 r"encounter; nothing in them is struck\.$")
    bob.say("#crawl", "!table show encounter")
    bob.expect(BOT + r"NOTICE bob :No table you may read here is called encounter \(while "
               r"Tension is hidden, a table behind the G\S*M's screen reads as none")
    check(not any("PM wolf" in line for line in bob.seen),
          "bob read the screened table")

    step("a channel named as IRC writes it, in any case, from a private conversation")
    alice.say("delver", "table copy copy from:#CRAWL")
    alice.expect(BOT + r"(NOTICE|PRIVMSG) alice :Copied 1 table from #crawl: copy; "
                 r"nothing in them is struck\. ")
    alice.say("delver", "table copy copy from:crawl")
    alice.expect(BOT + r"(NOTICE|PRIVMSG) alice :'crawl' is not a channel here: name it as "
                 r"#channel \(on Discord a mention or its id\)\.$")

    bot.stop()
    server.stop()


run(main)
