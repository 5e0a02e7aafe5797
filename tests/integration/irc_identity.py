"""delver's IRC identity and plain text against a real ngircd.

Usage: python3 irc_identity.py BUILD_DIR
"""
import hashlib
import os
import re
import signal
import ssl
import subprocess
import sys
import time

from irclib import Client, Delver, Ngircd, check, free_port, guarded, run, step, workdir

BOT = r"^:delver!\S+ "


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build/default"
    work = workdir()
    port, tls_port = free_port(), free_port()
    server = Ngircd(work, port, tls_port)
    server.start()
    cert = os.path.join(work, "cert.pem")
    with open(cert) as f:
        pin = hashlib.sha256(ssl.PEM_cert_to_DER_cert(f.read())).hexdigest().upper()
    pin = ":".join(pin[i:i + 2] for i in range(0, 64, 2))
    wrong = ("00" if not pin.startswith("00") else "11") + pin[2:]
    client = os.path.join(work, "client.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                    client, "-out", client + ".crt", "-days", "2", "-subj", "/CN=delver"],
                   check=True, capture_output=True)
    with open(client + ".crt") as f:
        crt = f.read()
    with open(client, "a") as f:
        f.write(crt)
    os.chmod(client, 0o600)
    tls_conf = """
[irc.ca]
host = localhost
port = %(tls)d
nick = dca
channels = #t
tls_ca_file = %(cert)s

[irc.pin]
host = 127.0.0.1
port = %(tls)d
nick = dpin
channels = #t
tls_fingerprint = %(pin)s

[irc.cert]
host = localhost
port = %(tls)d
nick = dcert
channels = #t
tls_verify = no
tls_cert_file = %(client)s

[irc.badpin]
host = localhost
port = %(tls)d
nick = dbad
channels = #t
tls_verify = no
tls_fingerprint = %(wrong)s
""" % {"tls": tls_port, "cert": cert, "pin": pin, "wrong": wrong, "client": client}
    conf = """
[irc.plain]
host = 127.0.0.1
port = %d
tls = no
nick = delver
channels = #a #p
plain_channels = #P
join_on_invite = yes
admins = *!~alice@127.0.0.1
""" % port
    bot = Delver(build + "/delver", work, "bot", conf + tls_conf)
    bot.start()
    bot.wait_log(r"irc plain: joined #a")
    bot.wait_log(r"irc plain: joined #p")
    alice = Client(port, "alice")
    alice.join("#a")
    alice.join("#p")

    step("TLS: tls_ca_file trusts the server's own CA; a pinned fingerprint replaces "
         "verification; a wrong pin is refused")
    bot.wait_log(r"irc ca: joined #t", timeout=20)
    bot.wait_log(r"irc pin: joined #t", timeout=20)
    bot.wait_log(r"irc badpin: the server's certificate does not match tls_fingerprint "
                 r"\(its SHA-256 is %s\)" % pin, timeout=20)
    check("irc badpin: registered" not in bot.log(), "the wrong pin registered")
    # With a client certificate (tls_cert_file) the link comes up as well;
    # ngircd shows no certificate fingerprint to others to check it by.
    bot.wait_log(r"irc cert: joined #t", timeout=20)

    step("alice claims the GM seat, changes nick twice and keeps it")
    alice.say("#a", "!gm claim")
    alice.expect(BOT + r"PRIVMSG #a :%s is now the GM of this channel\.$" % guarded("alice"))
    alice.send("NICK alice_")
    alice.expect(r"^:alice!\S+ NICK :?alice_$")
    alice.say("#a", "!gm claim")
    alice.expect(BOT + r"PRIVMSG #a :You are already the GM here\.$")
    alice.send("NICK Alice2")
    alice.expect(r"^:alice_!\S+ NICK :?Alice2$")
    alice.say("#a", "!gm claim")
    alice.expect(BOT + r"PRIVMSG #a :You are already the GM here\.$")

    step("someone takes the nick alice from another user@host: not the GM")
    mallory = Client(port, "alice", user="mallory")
    mallory.join("#a")
    mallory.say("#a", "!gm claim")
    # (the seat shows the name its holder last used: Alice2)
    mallory.expect(BOT + r"NOTICE alice :Alice2 is already the GM here; they can !gm release "
                   r"first\.$")
    mallory.say("#a", "!gm release")
    mallory.expect(BOT + r"NOTICE alice :Only Alice2 \(the GM\) or a channel admin can release")

    step("a secret roll goes to the GM's identity, not to whoever has the GM's last nick")
    bob = Client(port, "bob")
    bob.join("#a")
    bob.say("#a", "!gmroll 1d20+3 # sneak")
    alice.expect(BOT + r"NOTICE Alice2 :bob rolls sneak in secret")
    alice.send("NICK Alice3")
    alice.expect(r"^:Alice2!\S+ NICK :?Alice3$")
    thief = Client(port, "Alice2", user="thief")
    thief.join("#a")
    bob.say("#a", "!gmroll 1d20+4 # second")
    alice.expect(BOT + r"NOTICE Alice3 :bob rolls second in secret")
    bob.say("#a", "!roll 1d2")
    thief.expect(BOT + r"PRIVMSG #a :bob: 1d2: ")
    check(not any("NOTICE" in l and ("second" in l or "sneak" in l) for _, l in thief.seen),
          "the secret roll reached the holder of the GM's last nick")
    thief.quit()
    # The nick is free once the server has seen the thief leave (alice shares #a).
    alice.expect(r"^:Alice2!\S+ QUIT")
    alice.send("NICK Alice2")
    alice.expect(r"^:Alice3!\S+ NICK :?Alice2$")
    bob.say("#a", "!gmroll 1d20+5 # third")
    alice.expect(BOT + r"NOTICE Alice2 :bob rolls third in secret")
    bob.quit()

    step("addressing the bot by nick")
    alice.say("#a", "delver: roll 1d4")
    alice.expect(BOT + r"PRIVMSG #a :Alice2: 1d4: \[(\d)\] = \1$")
    alice.say("#a", "Delver, !roll 1d6")
    alice.expect(BOT + r"PRIVMSG #a :Alice2: 1d6: \[(\d)\] = \1$")

    step("help goes by NOTICE to the asker, not to the channel")
    mallory.expect(BOT + r"PRIVMSG #a :Alice2: 1d6: ")
    alice.say("#a", "!help")
    alice.expect(BOT + r"NOTICE Alice2 :")
    alice.say("#a", "!roll 1d2")
    # The roll waits behind the rest of the help (one user's replies keep
    # their order), paced at one line every 2 s once the burst is spent:
    # about 10 s for its five lines.
    line = mallory.expect(BOT + r"PRIVMSG #a :", timeout=25).string
    check(re.search(r"Alice2: 1d2: \[(\d)\] = \1$", line),
          "the channel saw something before the roll: %r" % line)

    step("a channel in plain_channels: no formatting; dropped dice keep ~~")
    alice.say("#p", "!roll 4d6kh3")
    m = alice.expect(BOT + r"PRIVMSG #p :(.*)$", raw=True)
    text = m.group(1)
    check(re.search(r"[\x02\x03\x0f\x1d\x1e\x1f]", text) is None,
          "formatting in a plain channel: %r" % text)
    check(re.match(r"Alice2: 4d6kh3: \[.*~~\d~~.*\] = \d+$", text),
          "no ~~ mark on the dropped die: %r" % text)
    alice.say("#a", "!roll 4d6kh3")
    m = alice.expect(BOT + r"PRIVMSG #a :(.*)$", raw=True)
    check("\x03" in m.group(1) and "~~" in m.group(1), "#a lost its formatting: %r" % m.group(1))

    step("join_on_invite: an INVITE is followed")
    alice.join("#inv")
    alice.send("INVITE delver #inv")
    alice.expect(BOT + r"JOIN :?#inv$")
    bot.wait_log(r"irc plain: Alice2 invited the bot to #inv; joining")

    step("owner commands from an admin's hostmask: status, join, part, reload")
    alice.say("delver", "status")
    alice.expect(BOT + r"NOTICE Alice2 :registered as delver; configured channels joined: "
                 r"#a #p; \d+ lines waiting to be sent\.$")
    alice.say("delver", "join #own")
    alice.expect(BOT + r"NOTICE Alice2 :Joining #own\.$")
    bot.wait_log(r"irc plain: joined #own")
    alice.say("delver", "part #own")
    alice.expect(BOT + r"NOTICE Alice2 :Leaving #own\.$")
    alice.say("delver", "part #a")
    alice.expect(BOT + r"NOTICE Alice2 :#a is in the configuration's channels")
    alice.say("delver", "reload")
    alice.expect(BOT + r"NOTICE Alice2 :Reloading the configuration")
    bot.wait_log(r"irc plain: reload: no change")
    mallory.say("delver", "status")
    mallory.expect(BOT + r"NOTICE alice :Unknown command 'status'")

    step("user control characters are escaped in the debug log")
    alice.say("#a", "!roll 1d2 # \x1b[31mred")
    alice.expect(BOT + r"NOTICE Alice2 :.*control characters")
    bot.wait_log(r"<- :Alice2!\S+ PRIVMSG #a :!roll 1d2 # \\x1b\[31mred$")
    check("\x1b" not in bot.log(), "a raw ESC reached the log")

    step("SIGTERM while a long reply is being written: it is finished, then QUIT")
    # The help on /tension (a reply of 3 lines or more) at full speed
    # first; a roll answered after it marks its end (one user's replies
    # keep their order).
    alice.say("delver", "help tension")
    alice.say("delver", "roll 1d2")
    help_lines = []
    while True:
        line = alice.expect(BOT + r"PRIVMSG Alice2 :(.*)$").group(1)
        if line.startswith("Alice2 rolls"):
            break
        help_lines.append(line)
    check(len(help_lines) >= 3, "help took %d lines" % len(help_lines))
    with open(bot.conf, "w") as f:
        f.write(conf + "flood_interval_ms = 5000\n" + tls_conf)
    bot.proc.send_signal(signal.SIGHUP)
    bot.wait_log(r"irc plain: reload: flood_interval_ms changed; applied")
    time.sleep(20.5)  # the bucket holds its 4 sends again
    # Two rolls spend half of it: the help's first lines go at once, the
    # rest one every 5 s.
    alice.say("delver", "roll 1d2")
    alice.say("delver", "roll 1d2")
    alice.say("delver", "help tension")
    for _ in range(2):
        alice.expect(BOT + r"PRIVMSG Alice2 :Alice2 rolls · 1d2: ", timeout=15)
    got = [alice.expect(BOT + r"PRIVMSG Alice2 :(.*)$", timeout=15).group(1)]
    bot.proc.send_signal(signal.SIGTERM)
    # The drain gives up after 10 s; the rest of the reply then goes whole.
    while len(got) < len(help_lines):
        got.append(alice.expect(BOT + r"PRIVMSG Alice2 :(.*)$", timeout=30).group(1))
    check(got == help_lines, "the reply at SIGTERM differs from the whole one")
    alice.expect(BOT + r"QUIT ", timeout=10)
    status = bot.proc.wait(30)
    check(status == 0, "delver exited with status %s" % status)


if __name__ == "__main__":
    run(main)
