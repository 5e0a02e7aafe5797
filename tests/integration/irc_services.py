"""delver against a real IRC server with services: InspIRCd linked to Atheme
on loopback (Debian 12 has no IRC server with built-in services; its 'ergo'
package is a quantum chemistry program). Checks SASL EXTERNAL with a client
certificate, SASL PLAIN, and NickServ IDENTIFY and REGAIN.

Usage: python3 irc_services.py BUILD_DIR
"""
import os
import resource
import shutil
import socket
import ssl
import subprocess
import sys
import time

from irclib import (LOGS, PROCS, Client, Delver, Lines, check, free_port, run, step, wait_port,
                    workdir)

PASSWORD = "correct-horse-7"


def make_cert(work, name, cn):
    cert = os.path.join(work, name + ".crt")
    key = os.path.join(work, name + ".key")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key,
                    "-out", cert, "-days", "2", "-subj", "/CN=" + cn],
                   check=True, capture_output=True)
    return cert, key


def no_core():
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


class Network:
    """InspIRCd (plain and TLS client ports) with Atheme linked to it."""

    def __init__(self, work):
        self.work = work
        self.port, self.tls_port, self.link_port = free_port(), free_port(), free_port()
        cert, key = make_cert(work, "server", "localhost")
        self.insp_conf = os.path.join(work, "inspircd.conf")
        self.insp_log = os.path.join(work, "inspircd.log")
        with open(self.insp_conf, "w") as f:
            f.write("""<config format="xml">
<server name="irc.test" description="delver test" network="Test">
<admin name="test" nick="test" email="test@test.invalid">
<bind address="127.0.0.1" port="%(port)d" type="clients">
<bind address="127.0.0.1" port="%(tls)d" type="clients" sslprofile="main">
<bind address="127.0.0.1" port="%(link)d" type="servers">
<module name="ssl_gnutls">
<sslprofile name="main" provider="gnutls" certfile="%(cert)s" keyfile="%(key)s" requestclientcert="yes">
<module name="spanningtree">
<module name="services_account">
<module name="sasl">
<module name="cap">
<module name="sslinfo">
<module name="svshold">
<link name="services.test" ipaddr="127.0.0.1" port="%(link)d" allowmask="127.0.0.0/8" sendpass="linkpw" recvpass="linkpw">
<uline server="services.test" silent="yes">
<sasl target="services.test" requiressl="no">
<connect name="main" allow="*" maxlocal="100" maxglobal="100" localmax="100" globalmax="100" useident="no" limit="1000" timeout="60" pingfreq="120" threshold="1000" commandrate="100000">
<dns timeout="1">
<performance clonesonconnect="no">
<log method="file" type="* -USERINPUT -USEROUTPUT" level="default" target="%(log)s">
<path configdir="%(work)s" datadir="%(work)s" logdir="%(work)s" runtimedir="%(work)s">
<pid file="%(work)s/inspircd.pid">
""" % {"port": self.port, "tls": self.tls_port, "link": self.link_port, "cert": cert,
                "key": key, "log": self.insp_log, "work": work})
        self.data = os.path.join(work, "atheme")
        os.mkdir(self.data)
        self.atheme_conf = os.path.join(work, "atheme.conf")
        self.atheme_log = os.path.join(work, "atheme.log")
        # Only what the test needs (REGAIN is in the enforce module in 7.2).
        mods = ("protocol/inspircd", "backend/opensex", "crypto/posix", "nickserv/main",
                "nickserv/register", "nickserv/identify", "nickserv/cert", "nickserv/enforce",
                "saslserv/main", "saslserv/plain", "saslserv/external")
        t = "".join('loadmodule "modules/%s";\n' % m for m in mods)
        t += """serverinfo {
	name = "services.test"; desc = "delver test services"; numeric = "00A";
	recontime = 1; netname = "Test"; hidehostsuffix = "users.test";
	adminname = "test"; adminemail = "test@test.invalid";
	registeremail = "noreply@test.invalid"; auth = none; maxnicks = 5;
	maxchans = 5; mintslen = 3; casemapping = rfc1459;
};
uplink "irc.test" {
	host = "127.0.0.1"; send_password = "linkpw"; receive_password = "linkpw"; port = %d;
};
nickserv { nick = "NickServ"; user = "NickServ"; host = "services.test"; real = "Nick"; };
saslserv { nick = "SaslServ"; user = "SaslServ"; host = "services.test"; real = "SASL"; };
general { maxlogins = 5; commit_interval = 5; };
""" % self.link_port
        with open(self.atheme_conf, "w") as f:
            f.write(t)
        LOGS.append(("inspircd", self.insp_log))
        LOGS.append(("atheme", self.atheme_log))

    def start(self):
        out = open(os.path.join(self.work, "inspircd.out"), "ab")
        cmd = [shutil.which("inspircd") or "/usr/sbin/inspircd", "--config=" + self.insp_conf, "--nofork", "--nopid"]
        if os.geteuid() == 0:
            cmd.append("--runasroot")
        # InspIRCd 3.15 sometimes crashes as it exits on SIGTERM: no core
        # file, and none in the source tree (it runs in the work directory).
        PROCS.append(subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=self.work,
                                      preexec_fn=no_core))
        wait_port(self.port)
        wait_port(self.tls_port)
        wait_port(self.link_port)
        out = open(os.path.join(self.work, "atheme.out"), "ab")
        PROCS.append(subprocess.Popen(["atheme-services", "-n", "-c", self.atheme_conf, "-D",
                                       self.data, "-l", self.atheme_log, "-p",
                                       os.path.join(self.work, "atheme.pid")],
                                      stdout=out, stderr=subprocess.STDOUT))


class TlsClient(Client):
    """An IRC user over TLS presenting a client certificate."""

    def __init__(self, port, nick, cert, key):
        ctx = ssl.create_default_context()
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
        ctx.load_cert_chain(cert, key)
        sock = ctx.wrap_socket(socket.create_connection(("127.0.0.1", port), 5))
        Lines.__init__(self, sock, nick)
        self.nick = nick
        self.send("NICK %s" % nick)
        self.send("USER %s 0 * :test user" % nick)
        self.expect(r"^:\S+ 001 ")


def ns(client, text, reply):
    client.say("NickServ", text)
    return client.expect(r"^:NickServ!\S+ NOTICE %s :.*%s" % (client.nick, reply))


def account_of(who, nick):
    """The account WHOIS shows for nick (None when not logged in)."""
    who.send("WHOIS %s" % nick)
    account = None
    while True:
        line = who.expect(r"^:\S+ (330|318) ")
        if line.group(1) == "318":
            return account
        account = line.string.split()[4]


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build/default"
    work = workdir()
    net = Network(work)
    net.start()
    ccert, ckey = make_cert(work, "client", "delver")
    pem = os.path.join(work, "client.pem")
    with open(pem, "w") as f:
        f.write(open(ccert).read() + open(ckey).read())
    os.chmod(pem, 0o600)

    step("the services link, then an account with the client certificate's fingerprint")
    owner = TlsClient(net.tls_port, "delver", ccert, ckey)
    # NickServ exists once Atheme has linked and finished its burst.
    for _ in range(100):
        owner.send("WHOIS NickServ")
        found = owner.expect(r"^:\S+ (311|401) ").group(1) == "311"
        owner.expect(r"^:\S+ 318 ")
        if found:
            break
        time.sleep(0.1)
    ns(owner, "REGISTER %s delver@test.invalid" % PASSWORD, "registered")
    ns(owner, "CERT ADD", "[Aa]dded fingerprint")
    owner.quit()
    watcher = Client(net.port, "watcher")

    step("SASL EXTERNAL with tls_cert_file")
    bot = Delver(build + "/delver", work, "external", """
[irc.svc]
host = 127.0.0.1
port = %d
tls = yes
tls_verify = no
tls_cert_file = %s
sasl_external = yes
nick = dext
channels = #a
""" % (net.tls_port, pem))
    bot.start()
    bot.wait_log(r"irc svc: <- :irc\.test 900 ")
    bot.wait_log(r"irc svc: logged in as delver$")
    bot.wait_log(r"irc svc: <- :irc\.test 903 ")
    bot.wait_log(r"irc svc: joined #a")
    check(account_of(watcher, "dext") == "delver", "WHOIS dext shows no account delver")
    bot.stop()

    step("SASL PLAIN with password_source")
    bot = Delver(build + "/delver", work, "plain", """
[irc.svc]
host = 127.0.0.1
port = %d
tls = no
sasl_user = delver
password_source = env:DELVER_TEST_PW
nick = dplain
channels = #a
""" % net.port, env={"DELVER_TEST_PW": PASSWORD})
    bot.start()
    bot.wait_log(r"irc svc: <- :irc\.test 900 ")
    bot.wait_log(r"irc svc: logged in as delver$")
    bot.wait_log(r"irc svc: <- :irc\.test 903 ")
    bot.wait_log(r"irc svc: joined #a")
    check(account_of(watcher, "dplain") == "delver", "WHOIS dplain shows no account delver")
    check(PASSWORD not in bot.log(), "the password is in the log")
    bot.stop()

    step("NickServ IDENTIFY, and REGAIN of the nick someone else holds")
    holder = Client(net.port, "delver", "holder")
    bot = Delver(build + "/delver", work, "nickserv", """
[irc.svc]
host = 127.0.0.1
port = %d
tls = no
nick = delver
alt_nicks = delver_
nickserv_password_source = env:DELVER_TEST_NSPW
channels = #a
""" % net.port, env={"DELVER_TEST_NSPW": PASSWORD})
    bot.start()
    bot.wait_log(r"irc svc: registered as delver_$")
    bot.wait_log(r"irc svc: <- :NickServ!\S+ NOTICE delver_ :You are now identified for .*delver")
    bot.wait_log(r"irc svc: asking NickServ to regain delver$")
    # Atheme renames the holder (or disconnects it), then renames the bot.
    lost = holder.expect(r"^(:delver!\S+ NICK :?\S+|ERROR .*|:\S+ KILL delver .*)$").group(1)
    print("   the holder got: " + lost, flush=True)
    bot.wait_log(r"irc svc: now known as delver$")
    bot.wait_log(r"irc svc: joined #a")
    for _ in range(100):
        if account_of(watcher, "delver") == "delver":
            break
        time.sleep(0.1)
    check(account_of(watcher, "delver") == "delver", "delver is not logged in as delver")
    watcher.send("WHOIS delver")
    line = watcher.expect(r"^:\S+ 311 \S+ delver (\S+) ")
    check(line.group(1).lstrip("~") == "delver", "the nick delver is not the bot's: %s" % line.string)
    watcher.expect(r"^:\S+ 318 ")
    check(PASSWORD not in bot.log(), "the NickServ password is in the log")
    bot.stop()


if __name__ == "__main__":
    run(main)
