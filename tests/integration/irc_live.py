"""delver's IRC settings applied live (SIGHUP) and channel keys, against ngircd.

Usage: python3 irc_live.py BUILD_DIR
"""
import re
import signal
import sys
import time

from irclib import Client, Delver, Ngircd, check, free_port, run, step, workdir

CONF = """
[irc.live]
host = 127.0.0.1
port = %(port)d
tls = no
nick = %(nick)s
channels = #open #secret:hunter2 #wrong:%(wrongkey)s
prefix = %(prefix)s
flood_interval_ms = 300
%(more)s"""

SECOND = """
[irc.second]
host = 127.0.0.1
port = %(port)d
tls = no
nick = dsecond
channels = #open
"""


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build/default"
    work = workdir()
    port = free_port()
    server = Ngircd(work, port)
    server.start()
    settings = {"port": port, "nick": "delver", "wrongkey": "badkey1", "prefix": "!",
                "more": ""}

    def write(bot, **changes):
        settings.update(changes)
        with open(bot.conf, "w") as f:
            f.write(CONF % settings)

    step("an operator holds #secret (+k hunter2) and #wrong (+k right1)")
    keeper = Client(port, "keeper")
    keeper.join("#secret")
    keeper.send("MODE #secret +k hunter2")
    keeper.expect(r"^:keeper!\S+ MODE #secret \+k :?hunter2$")
    keeper.join("#wrong")
    keeper.send("MODE #wrong +k right1")
    keeper.expect(r"^:keeper!\S+ MODE #wrong \+k :?right1$")
    keeper.join("#open")

    bot = Delver(build + "/delver", work, "bot", CONF % settings)
    bot.start()

    step("the keyed channel is joined with its key; the wrong key is refused once")
    keeper.expect(r"^:delver!\S+ JOIN :?#secret$")
    bot.wait_log(r"irc live: joined #open")
    bot.wait_log(r"warn: irc live: cannot join #wrong: the server refused its key \(475\); "
                 r"not retrying until the key changes in the configuration \(SIGHUP\) or the "
                 r"bot reconnects$")
    joins = re.findall(r"-> JOIN (\S+)(.*)$", bot.log(), re.M)
    check(joins == [("#secret,#wrong,#open", " (keys not shown)")],
          "the JOIN lines logged: %r" % joins)

    step("kicked from the keyed channel: it rejoins with the key")
    keeper.send("KICK #secret delver :out")
    keeper.expect(r"^:keeper!\S+ KICK #secret delver")
    keeper.expect(r"^:delver!\S+ JOIN :?#secret$", timeout=12)
    check(bot.log().count("cannot join #wrong") == 1, "the wrong key was retried:\n" + bot.log())

    step("SIGHUP with the right key: it joins at once, on the same connection")
    alice = Client(port, "alice")
    alice.join("#open")
    write(bot, wrongkey="right1")
    bot.proc.send_signal(signal.SIGHUP)
    keeper.expect(r"^:delver!\S+ JOIN :?#wrong$", timeout=5)
    bot.wait_log(r"info: irc live: reload: channels \(key of #wrong\) changed; applied on the "
                 r"live connection$")

    step("SIGHUP with a new prefix: '.' works, '!' no longer does, same connection")
    write(bot, prefix=".")
    bot.proc.send_signal(signal.SIGHUP)
    bot.wait_log(r"irc live: reload: prefix changed; applied on the live connection$")
    alice.say("#open", "!gm")
    alice.say("#open", ".gm")
    line = alice.expect(r"^:delver!\S+ PRIVMSG #open :").string
    check(line.endswith("Nobody is GM here yet; .gm claim makes you the GM."),
          "the first reply after the new prefix: %r" % line)
    check(bot.log().count("irc live: connected;") == 1, "a live change reconnected")

    step("SIGHUP with a new nick: QUIT with a reason, then back as the new nick, with keys")
    write(bot, nick="delver3")
    bot.proc.send_signal(signal.SIGHUP)
    # ngircd quotes a QUIT reason
    keeper.expect(r'^:delver!\S+ QUIT :"?reconnecting with new settings"?$')
    bot.wait_log(r"irc live: reload: nick, username changed; reconnecting$")
    keeper.expect(r"^:delver3!\S+ JOIN :?#secret$", timeout=10)
    keeper.expect(r"^:delver3!\S+ JOIN :?#wrong$", timeout=5)
    alice.say("#open", ".roll 1d4")
    alice.expect(r"^:delver3!\S+ PRIVMSG #open :alice: 1d4: \[\d\] = \d$")

    step("SIGHUP adding a network: it connects; removing it: it QUITs")
    write(bot, more=SECOND % settings)
    bot.proc.send_signal(signal.SIGHUP)
    keeper.expect(r"^:dsecond!\S+ JOIN :?#open$", timeout=10)
    bot.wait_log(r"irc live: reload: no change$")
    bot.wait_log(r"irc second: reload: a new network; connecting$")
    write(bot, more="")
    bot.proc.send_signal(signal.SIGHUP)
    keeper.expect(r"^:dsecond!\S+ QUIT :\"?leaving: this network was removed from delver's "
                  r"configuration\"?$")
    bot.wait_log(r"irc second: its section is gone from the configuration; leaving the network$")

    step("SIGHUP with a bad file: the error is logged and the settings in use are kept")
    with open(bot.conf, "a") as f:
        f.write("max_lines = lots\n")
    bot.proc.send_signal(signal.SIGHUP)
    bot.wait_log(r"error: reload: \S+bot.conf:\d+: \[irc.live\] max_lines must be a whole "
                 r"number of lines from 1 to 100 \(got 'lots'\); keeping the configuration in use$")
    alice.say("#open", ".gm")
    alice.expect(r"^:delver3!\S+ PRIVMSG #open :Nobody is GM here yet; \.gm claim")

    step("SIGTERM: a clean exit; no key ever reached the log")
    check(bot.stop() == 0, "delver did not exit with status 0")
    log = bot.log()
    for secret in ("hunter2", "right1", "badkey1", "[redacted]"):
        check(secret not in log, "%r is in the log" % secret)
    check(len(re.findall(r"^(\S+Z )?error:", log, re.M)) == 1, "unexpected errors:\n" + log)

    step("a delver with no transport at start is refused; one left with none by SIGHUP "
         "gets a network back by SIGHUP")
    late = Delver(build + "/delver", work, "late", "[console]\nenabled = no\n")
    late.start()
    check(late.proc.wait(15) == 3, "the late delver with nothing to serve did not exit with 3")
    check(re.search(r"^error: \S+late.conf enables no transport .*; exiting with status 3 ",
                    late.log(), re.M) is not None, "no refusal in its log:\n" + late.log())
    with open(late.conf, "w") as f:
        f.write("[console]\nenabled = no\n" + SECOND % settings)
    late.start()
    keeper.expect(r"^:dsecond!\S+ JOIN :?#open$", timeout=10)
    with open(late.conf, "w") as f:
        f.write("[console]\nenabled = no\n")
    late.proc.send_signal(signal.SIGHUP)
    keeper.expect(r"^:dsecond!\S+ QUIT :\"?leaving: this network was removed from delver's "
                  r"configuration\"?$")
    with open(late.conf, "w") as f:
        f.write("[console]\nenabled = no\n" + SECOND % settings)
    late.proc.send_signal(signal.SIGHUP)
    keeper.expect(r"^:dsecond!\S+ JOIN :?#open$", timeout=10)
    check(late.stop() == 0, "the late delver did not exit with status 0")
    keeper.expect(r'^:dsecond!\S+ QUIT :"?delver is shutting down"?$')
    check("handles were left open" not in late.log(), "the loop did not end by itself")


if __name__ == "__main__":
    run(main)
