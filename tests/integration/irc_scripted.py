"""delver against a scripted IRC server, for what ngircd cannot do: SASL
success and failure, multi-line CAP LS, message tags with escapes, 433/432,
a silent server, ERROR, flood pacing at the default rate, CTCP, NOTICEs and
lines a hostile server could send.

Usage: python3 irc_scripted.py BUILD_DIR
"""
import base64
import re
import signal
import socket
import sys
import time

from irclib import Delver, Fail, Lines, check, run, step, workdir

SECRET = "s3cret-pass-4-tests"


class Server:
    def __init__(self):
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(4)
        self.port = self.sock.getsockname()[1]

    def accept(self, timeout=10):
        self.sock.settimeout(timeout)
        try:
            conn, _ = self.sock.accept()
        except socket.timeout:
            raise Fail("the bot did not connect within %d s" % timeout)
        return Lines(conn, "server")


def config(port, extra=""):
    return """
[irc.s]
host = 127.0.0.1
port = %d
tls = no
nick = delver
alt_nicks = delver2
channels = #a
%s
""" % (port, extra)


def start(work, name, extra="", env=None):
    srv = Server()
    bot = Delver(BUILD + "/delver", work, name, config(srv.port, extra), env)
    bot.start()
    return srv, bot, srv.accept()


def register(p, nick="delver", caps=""):
    """Plays a registration without SASL; returns when the bot joined #a."""
    p.expect(r"^CAP LS 302$")
    p.expect(r"^NICK delver$")
    p.expect(r"^USER delver 0 \* :delver dice bot$")
    p.send(":srv CAP * LS :" + caps)
    if caps:
        p.expect(r"^CAP REQ :")
        p.send(":srv CAP %s ACK :%s" % (nick, caps))
    p.expect(r"^CAP END$")
    welcome(p, nick)


def welcome(p, nick):
    p.send(":srv 001 %s :Welcome" % nick)
    p.send(":srv 005 %s CASEMAPPING=rfc1459 PREFIX=(ov)@+ CHANTYPES=# :are supported" % nick)
    p.expect(r"^JOIN #a$")
    p.send(":%s!~d@127.0.0.1 JOIN #a" % nick)
    # The users the scripts speak as are in #a: a channel takes commands
    # from its members alone.
    p.send(":srv 353 %s = #a :%s al al2 alice bob x" % (nick, nick))
    p.send(":srv 366 %s #a :End of /NAMES list." % nick)


def stop(bot, p):
    """SIGTERM: the bot says QUIT, the server hangs up, the bot exits 0."""
    bot.proc.send_signal(signal.SIGTERM)
    p.expect(r"^QUIT :delver is shutting down$")
    p.close()
    status = bot.proc.wait(10)
    check(status == 0, "delver exited with status %s" % status)
    check("handles were left open" not in bot.log(), "the loop did not end by itself")


def quiet(p, marker):
    """Checks the bot sent nothing before answering PING marker."""
    p.send("PING :" + marker)
    line = p.next_line()
    check(line == "PONG " + marker, "expected only PONG %s, got %r" % (marker, line))


def sasl_and_tags(work):
    step("multi-line CAP LS, SASL PLAIN, message tags with escapes, CTCP, NOTICEs")
    srv, bot, p = start(work, "sasl", "sasl_user = bot\npassword_source = env:IRC_PW\n",
                        {"IRC_PW": SECRET})
    p.expect(r"^CAP LS 302$")
    p.expect(r"^NICK delver$")
    p.expect(r"^USER ")
    p.send(":srv CAP * LS * :account-tag away-notify message-tags")
    p.send(":srv CAP * LS :server-time sasl=EXTERNAL,PLAIN")
    p.expect(r"^CAP REQ :account-tag message-tags server-time sasl$")
    p.send(":srv CAP delver ACK :account-tag message-tags server-time sasl")
    p.expect(r"^AUTHENTICATE PLAIN$")
    p.send("AUTHENTICATE +")
    payload = p.expect(r"^AUTHENTICATE (\S+)$").group(1)
    check(base64.b64decode(payload) == b"bot\0bot\0" + SECRET.encode(),
          "a wrong SASL payload: %r" % payload)
    p.send(":srv 900 delver delver!~d@h bot :You are now logged in as bot")
    p.send(":srv 903 delver :SASL authentication successful")
    p.expect(r"^CAP END$")
    welcome(p, "delver")
    p.send("@time=2026-01-01T00:00:00.000Z;+example.org/x=a\\sb\\:c\\\\;account=alice "
           ":al!a@h PRIVMSG #a :!gm claim")
    # a member's name is broken by a zero-width joiner: it never pings
    p.expect("^PRIVMSG #a :a\u200dl is now the GM of this channel\\.$")
    p.send("@account=alice;+x=\\ :al2!a@h PRIVMSG #a :!gm claim")
    p.expect(r"^PRIVMSG #a :You are already the GM here\.$")
    # A nick equal to the account's name, not logged in, is someone else;
    # the seat shows the name its holder last used (al2).
    p.send(":alice!x@evil PRIVMSG #a :!gm release")
    p.expect(r"^NOTICE alice :Only al2 \(the GM\) or a channel admin can release")
    p.send(":bob!b@h PRIVMSG delver :\x01VERSION\x01")
    p.expect(r"^NOTICE bob :\x01VERSION delver \S+\x01$", raw=True)
    p.send(":bob!b@h NOTICE delver :gm")
    p.send(":bob!b@h NOTICE #a :!gm")
    p.send(":bob!b@h PRIVMSG #a :\x01VERSION\x01")
    quiet(p, "after-notices")
    stop(bot, p)
    log = bot.log()
    check(SECRET not in log and payload not in log, "the password reached the log")
    check("AUTHENTICATE PLAIN" in log, "the debug log lacks the exchange")


def hostile_lines(work):
    step("lines that must not reach the wire: bare CR, NUL, control codes in echoed text")
    srv, bot, p = start(work, "hostile")
    register(p)
    p.send(":bob!b@h PRIVMSG #a :!gm\rQUIT :pwned")
    p.send(":bob!b@h PRIVMSG #a :!gm\x00claim")
    quiet(p, "after-cr")
    # Text echoed back keeps none of the control bytes it came with (the
    # formatting codes a client adds are removed before the command is
    # read; the others when the word is echoed).
    p.send(":bob!b@h PRIVMSG #a :!gm x\x01y\x07\x03" "04z\x02")
    line = p.expect("^NOTICE bob :\x03" "04\x02\x02Unknown subcommand 'xyz'",
                    raw=True).string
    check("\x01" not in line, "a CTCP marker reached the wire: %r" % line)
    check(line.count("\x03") == 1, "user text changed the colours: %r" % line)
    stop(bot, p)


def sasl_failure(work):
    step("SASL failure: no registration, a new attempt after a backoff")
    srv, bot, p = start(work, "saslfail", "sasl_user = bot\npassword_source = env:IRC_PW\n",
                        {"IRC_PW": "wrong-password"})
    p.expect(r"^USER ")
    p.send(":srv CAP * LS :sasl")
    p.expect(r"^CAP REQ :?sasl$")
    p.send(":srv CAP delver ACK :sasl")
    p.expect(r"^AUTHENTICATE PLAIN$")
    p.send("AUTHENTICATE +")
    p.expect(r"^AUTHENTICATE \S+$")
    p.send(":srv 904 delver :SASL authentication failed")
    p.expect_closed(5)
    check(not any(l == "CAP END" for _, l in p.seen), "the bot ended CAP after a failed SASL")
    p2 = srv.accept(5)
    p2.expect(r"^CAP LS 302$")
    bot.wait_log(r"SASL authentication as bot failed \(904")
    stop(bot, p2)


def hostile_echoes(work):
    step("a hostile server echoes the SASL payload and a 3-character channel key")
    pw = "echoed-pass-4-tests"
    srv, bot, p = start(work, "echo", "sasl_user = bot\npassword_source = env:IRC_PW\n",
                        {"IRC_PW": pw})
    p.expect(r"^USER ")
    p.send(":srv CAP * LS :sasl")
    p.expect(r"^CAP REQ :?sasl$")
    p.send(":srv CAP delver ACK :sasl")
    p.expect(r"^AUTHENTICATE PLAIN$")
    p.send("AUTHENTICATE +")
    payload = p.expect(r"^AUTHENTICATE (\S+)$").group(1)
    p.send(":srv 904 delver :SASL authentication failed: %s is not %s" % (payload, pw))
    p.expect_closed(5)
    p2 = srv.accept(5)
    p2.expect(r"^CAP LS 302$")
    bot.wait_log(r"SASL authentication as bot failed \(904")
    stop(bot, p2)
    log = bot.log()
    for bad in (pw, payload, payload[:-1], payload[:-4]):
        check(bad not in log, "%r reached the log:\n%s" % (bad, log[-3000:]))

    key = "k3y"
    srv = Server()
    conf = config(srv.port).replace("channels = #a", "channels = #a:" + key)
    bot = Delver(BUILD + "/delver", work, "key", conf)
    bot.start()
    p = srv.accept()
    p.expect(r"^CAP LS 302$")
    p.send(":srv CAP * LS :")
    p.expect(r"^CAP END$")
    p.send(":srv 001 delver :Welcome")
    p.expect(r"^JOIN #a %s$" % key)
    p.send(":delver!~d@127.0.0.1 JOIN #a")
    p.send(":srv 324 delver #a +k %s" % key)
    p.send(":op!o@h MODE #a +k %s" % key)
    p.send(":srv NOTICE delver :the key of #a is %s" % key)
    quiet(p, "after-key")
    bot.wait_log(r"<- PING :after-key")
    stop(bot, p)
    log = bot.log()
    check(re.search(r"\b%s\b" % key, log) is None,
          "the channel key reached the log:\n%s" % log[-3000:])
    check("+k [redacted]" in log, "the debug log lacks the MODE line")


def nick_refused(work):
    step("433 and 432: the next nick is tried")
    srv, bot, p = start(work, "nick")
    p.expect(r"^USER ")
    p.send(":srv CAP * LS :")
    p.expect(r"^CAP END$")
    p.send(":srv 433 * delver :Nickname is already in use")
    p.expect(r"^NICK delver2$")
    p.send(":srv 432 * delver2 :Erroneous nickname")
    p.expect(r"^NICK delver_$")
    welcome(p, "delver_")
    p.send(":x!y@z PRIVMSG #a :!gm")
    p.expect(r"^PRIVMSG #a :Nobody is GM here yet")
    stop(bot, p)


def silent_server(work):
    step("a silent server is detected and the link recycled; ERROR too")
    srv, bot, p = start(work, "silent", "ping_interval = 1\nping_timeout = 1\n")
    register(p)
    t0 = time.time()
    p.expect(r"^PING :?delver$", timeout=3)
    p.expect_closed(3)
    took = time.time() - t0
    check(1.5 <= took <= 4.0, "the silent link was dropped after %.1f s, not about 2 s" % took)
    p = srv.accept(5)
    register(p)
    p.send("ERROR :Closing Link: 127.0.0.1 (Excess Flood)")
    p.close()
    p = srv.accept(5)
    p.expect(r"^CAP LS 302$")
    bot.wait_log(r"the server ended the link: Closing Link")
    stop(bot, p)


def tls_handshake_timeout(work):
    step("a server that never answers the TLS handshake: logged and closed at 30 s")
    srv = Server()
    conf = config(srv.port).replace("tls = no", "tls = yes")
    bot = Delver(BUILD + "/delver", work, "tlshang", conf)
    bot.start()
    p = srv.accept()
    t0 = time.time()
    # Before the fix the link stayed open until 60 s; 45 s is the bound.
    p.expect_closed(45)
    took = time.time() - t0
    bot.wait_log(r"irc s: the TLS handshake did not finish within 30 s")
    check(took >= 25, "the link was closed after %.1f s, before the handshake timeout" % took)
    bot.stop()


def nickserv(work):
    step("NickServ: IDENTIFY with the password from its source, REGAIN of a taken nick")
    srv, bot, p = start(work, "nickserv", "nickserv_password_source = env:NS_PW\n",
                        {"NS_PW": SECRET})
    p.expect(r"^CAP LS 302$")
    p.expect(r"^NICK delver$")
    p.expect(r"^USER ")
    p.send(":srv 433 * delver :Nickname is already in use")
    p.expect(r"^NICK delver2$")
    p.send(":srv CAP * LS :")
    p.expect(r"^CAP END$")
    p.send(":srv 001 delver2 :Welcome")
    p.expect(r"^PRIVMSG NickServ :IDENTIFY delver %s$" % SECRET)
    p.expect(r"^PRIVMSG NickServ :REGAIN delver %s$" % SECRET)
    p.expect(r"^JOIN #a$")
    bot.wait_log(r"irc s: asking NickServ to regain delver")
    check(SECRET not in bot.log(), "the NickServ password reached the log")
    stop(bot, p)


def flood_default(work):
    step("default flood control: a burst of 4, then one line per 2 s; PONG bypasses")
    srv, bot, p = start(work, "flood")
    register(p)
    time.sleep(2.2)  # the JOIN's token comes back
    # Six users (one alone would meet its own command limit of 3 at once),
    # each in #a.
    for i in range(6):
        p.send(":bob%d!b@h JOIN #a" % i)
    for i in range(6):
        p.send(":bob%d!b@h PRIVMSG #a :!help x%d" % (i, i))
    times = []
    for i in range(6):
        p.expect(r"^NOTICE bob%d :There is no command 'x%d'" % (i, i))
        times.append(p.last_time)
        if i == 3:
            # Two replies wait for the bucket; a PONG does not.
            p.send("PING :urgent")
            line = p.next_line(1)
            check(line == "PONG urgent", "expected PONG urgent at once, got %r" % line)
    t0 = times[0]
    check(times[3] - t0 < 0.5, "the burst of 4 took %.2f s" % (times[3] - t0))
    check(1.7 <= times[4] - t0 <= 2.6, "the 5th line came %.2f s in" % (times[4] - t0))
    check(1.7 <= times[5] - times[4] <= 2.6, "the 6th line came %.2f s after the 5th"
          % (times[5] - times[4]))
    stop(bot, p)


def main():
    global BUILD
    BUILD = sys.argv[1] if len(sys.argv) > 1 else "build/default"
    work = workdir()
    sasl_and_tags(work)
    hostile_lines(work)
    sasl_failure(work)
    hostile_echoes(work)
    nick_refused(work)
    silent_server(work)
    flood_default(work)
    nickserv(work)
    tls_handshake_timeout(work)


if __name__ == "__main__":
    run(main)
