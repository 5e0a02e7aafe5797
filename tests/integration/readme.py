"""README.md's console transcripts and its tour, replayed.

Usage: python3 readme.py DELVER

Each check runs delver as README.md says and compares what it prints with
what README.md shows, so the two cannot drift apart:
  - make run makes you the player First time names and the tour's /as
    comes back to;
  - the session at the table (the command line README.md gives, a fresh
    state directory, the lines fed from a file);
  - the GM's tour, its commands in order as the player make run makes you,
    twice on the same state (a second run must work too): no reply may be
    an error (on a colour terminal errors are red from their first
    character), and the fixed-dice output is compared with
    tests/integration/transcripts/tour*.expected (UPDATE=1 rewrites them, to
    be read line by line before they are committed);
  - the restart example of Saved state;
  - the two --check-config examples of Configure.
Prints "ok   NAME" or "FAIL: NAME: ..." for each; exits 1 when one failed.
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

DELVER = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build/default/delver")
TDIR = "tests/integration/transcripts"
ERROR_START = "\x1b[0;31m"  # an error reply, on a colour terminal
fails = 0


def result(name, problem):
    global fails
    if problem:
        fails += 1
        print("FAIL: %s: %s" % (name, problem))
    else:
        print("ok   %s" % name)


def readme():
    with open("README.md", encoding="utf-8") as f:
        return f.read()


def block_after(text, marker):
    """The fenced block that follows marker (its words, however the
    paragraph is wrapped)."""
    words = marker.split()
    found = re.compile(r"\s+".join(re.escape(w) for w in words)).search(text)
    if found is None:
        raise ValueError("README.md no longer says %r" % marker)
    i = found.start()
    m = re.compile(r"\n```[a-z]*\n(.*?)\n```", re.S).search(text, i)
    return m.group(1)


def run(args, stdin, cwd=None, env=None):
    p = subprocess.run([DELVER] + args, input=stdin.encode(), capture_output=True, cwd=cwd,
                       env=env, timeout=60)
    return p.returncode, p.stdout.decode("utf-8", "replace") + p.stderr.decode("utf-8",
                                                                               "replace")


def diff(want, got):
    """The first line where want and got differ, or None."""
    w, g = want.splitlines(), got.splitlines()
    for i in range(max(len(w), len(g))):
        a = w[i] if i < len(w) else "(nothing)"
        b = g[i] if i < len(g) else "(nothing)"
        if a != b:
            return "line %d: README %r, delver %r" % (i + 1, a, b)
    return None


def session():
    text = readme()
    m = re.search(r"A session at the table \(`([^`]*)`", text)
    if not m:
        return result("session", "README.md names no command line for its session")
    args = shlex.split(m.group(1).replace('"$(mktemp -d)"', "STATE"))
    block = block_after(text, "A session at the table")
    lines = [l.split("> ", 1)[1] for l in block.splitlines()
             if re.match(r"^[a-z]+> /", l)]
    with tempfile.TemporaryDirectory() as d:
        args = [a if a != "STATE" else d for a in args[1:]]  # without ./delver
        rc, out = run(args + ["--color", "never"], "".join(l + "\n" for l in lines))
    result("session", "exit %d" % rc if rc else diff(block, out.rstrip("\n")))


def tour_commands(text):
    """The commands of the numbered tour, in order, placeholders left out."""
    start = text.index("A first session for a GM")
    end = text.index("A session at the table")
    cmds = []
    for line in text[start:end].splitlines():
        if not re.match(r"^\d+\. ", line):
            continue
        for c in re.findall(r"`([^`]+)`", line):
            if (c.startswith("/") and not re.search(r"[A-Z]", c)) or c == "quit":
                cmds.append(c)
    return cmds


def tour():
    stdin = "".join(c + "\n" for c in tour_commands(readme()))
    args = ["--user", "gm", "--seed", "11", "--state-dir"]
    # In colour, to tell error replies apart: a fresh table, then again.
    with tempfile.TemporaryDirectory() as d:
        for name in ("tour", "tour-again"):
            rc, out = run(args + [d, "--color", "always"], stdin)
            errors = [l for l in out.splitlines() if l.startswith(ERROR_START)]
            result(name, "exit %d; error replies: %r" % (rc, errors) if rc or errors else None)
    # Without colour, compared with what was read and kept.
    with tempfile.TemporaryDirectory() as d:
        for name in ("tour", "tour-again"):
            rc, out = run(args + [d, "--color", "never"], stdin)
            path = os.path.join(TDIR, name + ".expected")
            if os.environ.get("UPDATE"):
                with open(path, "w", encoding="utf-8") as f:
                    f.write(out)
                continue
            with open(path, encoding="utf-8") as f:
                want = f.read()
            result(name + " transcript", "exit %d" % rc if rc else diff(want, out))


def restart():
    text = readme()
    block = block_after(text, "A restart picks\nup where the table left off")
    got = []
    with tempfile.TemporaryDirectory() as d:
        for line in block.splitlines():
            m = re.match(r"^\$ printf '(.*)' \| delver (.*)$", line)
            if m:
                got.append(line)
                rc, out = run(shlex.split(m.group(2)) + ["--state-dir", d, "--color", "never"],
                              m.group(1).replace("\\n", "\n"))
                got.append(out.rstrip("\n"))
    result("restart", diff(block, "\n".join(got)))


def check_config():
    text = readme()
    block = block_after(text, "`delver --check-config` checks a file")
    outs = [l for l in block.splitlines() if not l.startswith("$ ")]
    files = ["[discord]\ntoken_source = env:DELVER_README_TOKEN\nshard_count = 2\n"
             "[irc.libera]\nhost = irc.libera.chat\nnick = delver\nchannels = #a #b\n",
             "[bot]\nlog_level = chatty\n"]
    env = dict(os.environ, DELVER_README_TOKEN="not-a-token")
    env.pop("CREDENTIALS_DIRECTORY", None)
    got = []
    with tempfile.TemporaryDirectory() as d:
        for conf in files:
            with open(os.path.join(d, "delver.conf"), "w") as f:
                f.write(conf)
            rc, out = run(["--check-config", "--config", "delver.conf"], "", cwd=d, env=env)
            got.append(out.rstrip("\n"))
    result("check-config", diff("\n".join(outs), "\n".join(got)))


def make_run_user():
    """make run makes you the player the tour comes back to with /as."""
    with open("Makefile", encoding="utf-8") as f:
        m = re.search(r"^\t@\./delver --user (\S+) \$\(ARGS\)$", f.read(), re.M)
    back = re.search(r"`/as (\w+)` to come back", readme())
    first = re.search(r"you are the player `(\w+)`", readme())
    if not (m and back and first):
        return result("make-run-user", "make run, the tour or First time names no player")
    result("make-run-user", None if m.group(1) == back.group(1) == first.group(1) else
           "make run is %s, First time says %s, the tour comes back to %s"
           % (m.group(1), first.group(1), back.group(1)))


make_run_user()
session()
tour()
restart()
check_config()
sys.exit(1 if fails else 0)
