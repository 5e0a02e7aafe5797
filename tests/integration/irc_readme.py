"""README.md's IRC session, replayed against a real ngircd.

Usage: python3 irc_readme.py BUILD_DIR

The session is the fenced block after "A session with ngircd" in the IRC
section: "<alice> text" is what alice types in the channel, "<delver> text"
what the bot says there and "-delver- text" what it tells alice alone,
formatting codes and the invisible joiners that keep nicks from notifying
removed. delver runs with the seed the README names, so every line must come
out as written, in order. With UPDATE=1 the script prints the session as it
came out instead of failing, to be read line by line before it goes in.
"""
import os
import re
import sys

from irclib import ZWJ, Client, Fail, bot_on_ngircd, check, plain, run

CHANNEL = "#crawl"


def session():
    """The README's session: (seed, [(who, text)])."""
    with open("README.md", encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"A session with ngircd \(.*?--seed (\d+)`.*?\n```\n(.*?)\n```", text, re.S)
    check(m, "README.md has no IRC session naming its --seed")
    lines = []
    for line in m.group(2).splitlines():
        r = re.match(r"^(<alice>|<delver>|-delver-) (.*)$", line)
        check(r, "a line of the README's IRC session is neither typed nor said: %r" % line)
        lines.append((r.group(1), r.group(2)))
    return int(m.group(1)), lines


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build/default"
    seed, lines = session()
    port, _, bot = bot_on_ngircd(build, "local", CHANNEL, args=["--seed", str(seed)])
    alice = Client(port, "alice")
    alice.join(CHANNEL)
    bob = Client(port, "bob")
    bob.join(CHANNEL)
    said = r"^:delver!\S+ (PRIVMSG %s|NOTICE alice) :(.*)$" % re.escape(CHANNEL)
    got, diffs = [], []
    update = os.environ.get("UPDATE")
    for who, text in lines:
        if who == "<alice>":
            alice.say(CHANNEL, text)
            got.append("<alice> " + text)
            while update:
                try:
                    m = alice.expect(said, timeout=3)
                except Fail:
                    break
                kind = "<delver>" if m.group(1).startswith("PRIVMSG") else "-delver-"
                got.append("%s %s" % (kind, plain(m.group(2)).replace(ZWJ, "")))
            continue
        if update:
            continue
        try:
            m = alice.expect(said, timeout=15)
        except Fail:
            diffs.append("missing: %s %s" % (who, text))
            break
        kind = "<delver>" if m.group(1).startswith("PRIVMSG") else "-delver-"
        out = plain(m.group(2)).replace(ZWJ, "")
        got.append("%s %s" % (kind, out))
        if (kind, out) != (who, text):
            diffs.append("want: %s %s\n  got:  %s %s" % (who, text, kind, out))
    if update:
        print("\n".join(got))
        return
    check(not diffs, "the README's IRC session differs:\n" + "\n".join(diffs))
    status = bot.stop()
    check(status == 0, "delver exited with status %s" % status)


if __name__ == "__main__":
    run(main)
