"""delver(7)'s console sessions, replayed.

Usage: python3 man7_sessions.py DELVER

Every fenced block of bot/man/delver.7.md that shows prompts ("gm> ...")
after the last command line naming delver's options before it (`delver --console --seed 8`)
is replayed: its typed lines are fed to delver with those options, a fresh
state directory, no colour and the first prompt's user (the block's own
/as lines change who types), after a /gm claim
whose answer is not shown when the text before the block says "after
`/gm claim`"; what delver prints must be the block, line for line, a line
"..." standing for lines the page leaves out. Prints "ok   NAME" or
"FAIL: NAME: ..." for each (a line of "..." may be indented as the rows it
stands for); exits 1 when one failed.
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

DELVER = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build/default/delver")
PROMPT = re.compile(r"^([a-z]+)> (.*)$")
FENCE = re.compile(r"\n```[a-z]*\n(.*?)\n```", re.S)
fails = 0


def compare(want, got):
    """The first difference of got from want ("..." skips lines), or None."""
    g = 0
    for i, line in enumerate(want):
        if line.strip() == "...":
            nxt = want[i + 1] if i + 1 < len(want) else None
            while g < len(got) and got[g] != nxt:
                g += 1
            continue
        have = got[g] if g < len(got) else "(nothing)"
        if have != line:
            return "line %d: delver(7) %r, delver %r" % (i + 1, line, have)
        g += 1
    if g < len(got):
        return "delver goes on: %r" % got[g]
    return None


def main():
    global fails
    with open("bot/man/delver.7.md", encoding="utf-8") as f:
        text = f.read()
    checked = 0
    found = list(re.finditer(r"`(?:\./)?delver (--[^`]*)`", text))
    for k, m in enumerate(found):
        b = FENCE.search(text, m.end())
        if b is None or "```" in text[m.end():b.start() + 1]:
            continue
        # the block is the last command line's before it
        if k + 1 < len(found) and found[k + 1].start() < b.start():
            continue
        lines = b.group(1).splitlines()
        prompts = [PROMPT.match(l) for l in lines if PROMPT.match(l)]
        if not prompts:
            continue
        name = "delver %s" % " ".join(m.group(1).split())
        claim = "after `/gm claim`" in text[m.start():b.start()]
        args = [a for a in shlex.split(m.group(1)) if a != "--console"]
        state = tempfile.mkdtemp()
        cmd = [DELVER, "--console", "--color", "never", "--state-dir", state + "/state"] + args
        if "--user" not in args:
            cmd += ["--user", prompts[0].group(1)]
        feed = "".join("%s\n" % p.group(2) for p in prompts)
        if claim:
            feed = "/gm claim\n" + feed
        p = subprocess.run(cmd, input=feed.encode(), capture_output=True, timeout=60)
        got = p.stdout.decode("utf-8", "replace").splitlines()
        subprocess.run(["rm", "-rf", state])
        if claim:  # its prompt and answer are not on the page
            got = got[2:]
        problem = compare(lines, got)
        checked += 1
        if problem:
            fails += 1
            print("FAIL: %s: %s" % (name, problem))
        else:
            print("ok   %s" % name)
    if checked < 5:
        fails += 1
        print("FAIL: only %d sessions found in delver(7)" % checked)
    sys.exit(1 if fails else 0)


main()
