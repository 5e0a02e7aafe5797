"""Hidden means hidden on Discord, against the fake (test_discord_hidden.sh).

Usage: discord_hidden.py PORT

Walks every command and subcommand the bot registered (the command table as
Discord holds it: a new command is walked with no change here), as
tests/unit/helpers/cmdwalk.c walks the table, in channels where the GM (user
1) hid Tension at 8, set both tables to entries no other text uses, made a
table of its own behind the screen (effects-9), struck one, changed Tension
with a reason, rolled Tension and the hazard die, and a player (user 3)
made a secret roll:
  - as a player (user 2) in channels 0 and 1 (the two orders of the setup:
    the newest change is a hazard roll, or the hidden change), with
    autocomplete of every option that has it: no message answering them
    may hold a secret, their ephemeral ones included ("forbid");
  - as the GM, each case in a channel of its own: no public message may
    ("forbid_public"); opening the screen (tension mode open) is left out,
    since showing Tension is what it is for;
  - then every button of a public message, pressed by the player where it
    was shown (the live panel's too: a press updates it);
  - last, the live panels of those channels as they stand (posted and
    edited with the bot's token, they answer no interaction): none holds a
    secret.
The fake records a violation for each message that breaks this; the shell
script fails on any. Prints the counts.
"""
import json
import sys
import time
import urllib.request

PORT = sys.argv[1]
BASE = "http://127.0.0.1:%s/_control" % PORT

SECRETS = ["Quillfang", "Morrowisp", "Gloamjaw", "Vexthorn", "Drowsmire", "Ashveil",
           "Brinecall", "ambushready", "8/10", "Tension 8", "tension 8", "\u2192 8",
           "\u2588" * 8 + "\u2591\u2591", "Nightjar", "1d20+7", "1d20 + 7", "+ 7",
           "effects-9", "Cinderhall"]

# (user, path, {option: value}) in order; the last is left out in the
# second order.
SETUP = [
    (1, "gm claim", {}),
    (1, "tension table set", {"kind": "encounter", "text": "1-4 Quillfang; 5-8 Morrowisp; "
                                                           "9-12 Gloamjaw; 13-16 Vexthorn; "
                                                           "17-20 Drowsmire"}),
    (1, "tension table set", {"kind": "effects", "text": "1-10 Ashveil; 11-20 Brinecall"}),
    (1, "tension mode", {"mode": "hidden"}),
    (1, "table set", {"name": "effects-9", "entries": "1-20: Cinderhall"}),
    (1, "tension strike", {"entry": "Gloamjaw"}),
    (1, "tension roll", {}),
] + [(1, "hazard roll", {})] * 6 + [
    (1, "wander check", {}),
    (3, "gmroll", {"expression": "1d20+7", "label": "Nightjar"}),
    (1, "tension set", {"value": 8, "reason": "ambushready"}),
    (1, "hazard roll", {}),
]

WORDS = {"expression": "1d20+2", "name": "Alba", "who": "Alba", "command": "tension",
         "text": "1-20 a quiet hall", "class": "fighter", "reason": "checking",
         "label": "look", "entry": "a quiet hall"}


def get(path):
    with urllib.request.urlopen(BASE + path, timeout=10) as r:
        return json.loads(r.read())


def post(path, body):
    req = urllib.request.Request(BASE + path, data=json.dumps(body).encode(), method="POST")
    with urllib.request.urlopen(req, timeout=10) as r:
        out = r.read().decode().strip()
    if out != "ok":
        sys.exit("inject: %s" % out)


def sample(opt):
    if opt.get("choices"):
        return opt["choices"][0]["value"]
    t = opt["type"]
    if t in (4, 10):
        lo = opt.get("min_value", 1)
        return 1 if lo <= 1 <= opt.get("max_value", 1 << 30) else lo
    if t == 5:
        return True
    if t == 6:
        return "1400000000000000003"
    return WORDS.get(opt["name"], "x")


def leaves(commands):
    """Every (path names, leaf options) the registration holds."""
    for c in commands:
        opts = c.get("options", [])
        subs = [o for o in opts if o["type"] in (1, 2)]
        if not subs:
            yield [c["name"]], opts
            continue
        for s in subs:
            if s["type"] == 1:
                yield [c["name"], s["name"]], s.get("options", [])
            else:
                for g in s.get("options", []):
                    yield [c["name"], s["name"], g["name"]], g.get("options", [])


def data(path, leaf_opts, values, focused=None):
    """The interaction data of path with values (option name -> value);
    focused: the option being typed (autocomplete), its value as typed."""
    typed = {o["name"]: o["type"] for o in leaf_opts}
    level = []
    for name, value in values.items():
        o = {"type": typed[name], "name": name, "value": value}
        if name == focused:
            o["value"] = str(value)
            o["focused"] = True
        level.append(o)
    if len(path) == 3:
        level = [{"type": 2, "name": path[1],
                  "options": [{"type": 1, "name": path[2], "options": level}]}]
    elif len(path) == 2:
        level = [{"type": 1, "name": path[1], "options": level}]
    return {"type": 1, "name": path[0], "options": level}


def cases(commands):
    """Like cmdwalk: required options alone, every option, each choice."""
    for path, opts in leaves(commands):
        plain = [o for o in opts if o["type"] not in (1, 2)]
        req = {o["name"]: sample(o) for o in plain if o.get("required")}
        yield path, plain, dict(req)
        yield path, plain, {o["name"]: sample(o) for o in plain}
        for o in plain:
            for ch in o.get("choices", []):
                v = dict(req)
                v[o["name"]] = ch["value"]
                yield path, plain, v


def tmpl(user, chan, path, opts, values, forbid, public, itype=2, focused=None):
    t = {"user": user, "channel": chan, "type": itype,
         "data": data(path, opts, values, focused)}
    if forbid:
        t["forbid"] = SECRETS
        if public:
            t["forbid_public"] = True
    return t


def setup(by_path, chan, lines):
    out = []
    for user, p, values in lines:
        path = p.split()
        out.append(tmpl(user, chan, path, by_path[tuple(path)], values, False, False))
    return out


def wait(what, cond, limit):
    deadline = time.time() + limit
    while time.time() < deadline:
        st = get("/stats")["interactions"]
        if cond(st):
            return
        time.sleep(0.1)
    sys.exit("%s: %s" % (what, json.dumps(get("/stats")["interactions"])))


def run(templates):
    """Injects the templates in order (a batch is injected whole, and
    answered, before the next starts, so each channel's commands arrive in
    order and the bot is never more than a batch behind: what is walked is
    what hidden means, not how much a loaded machine answers in 3 s)."""
    c0 = get("/stats")["interactions"]
    for i in range(0, len(templates), 200):
        batch = templates[i:i + 200]
        post("/interact", {"count": len(batch), "rate": 200, "templates": batch})
        wait("the injection did not end", lambda st: st["left_to_inject"] == 0,
             30 + len(batch) / 50)
        wait("the walk was not answered in time",
             lambda st: st["answered"] - c0["answered"] >= st["created"] - c0["created"],
             30 + len(batch) / 50)


def main():
    commands = get("/commands")
    by_path = {tuple(p): o for p, o in leaves(commands)}
    # /undo first: the player's own commands would otherwise be the
    # changes it meets.
    walk = sorted(cases(commands), key=lambda c: c[0] != ["undo"])
    player = []
    for chan, lines in ((0, SETUP), (1, SETUP[:-1])):
        player += setup(by_path, chan, lines)
        for path, opts, values in walk:
            player.append(tmpl(2, chan, path, opts, values, True, False))
            for o in opts:
                if o.get("autocomplete"):
                    for partial in ("", "o", "Q"):
                        v = dict(values)
                        v[o["name"]] = partial
                        player.append(tmpl(2, chan, path, opts, v, True, False, 4,
                                           focused=o["name"]))
    run(player)
    gm = []
    chan = 2
    for path, opts, values in walk:
        if path == ["tension", "mode"] and values.get("mode") == "open":
            continue
        # The secret roll reaches the GM by direct message; one a channel
        # would only spend the DM channel's rate limit: the player walk
        # has it.
        gm += setup(by_path, chan, [line for line in SETUP if line[1] != "gmroll"])
        gm.append(tmpl(1, chan, path, opts, values, True, True))
        chan += 1
    run(gm)
    presses = []
    for c in range(chan):
        labels = set()
        for m in get("/messages/%d" % (1300000000000000000 + c)):
            if m.get("flags", 0) & 64:
                continue
            for row in m.get("components", []):
                for b in row.get("components", []):
                    if b.get("label"):
                        labels.add(b["label"])
        for label in sorted(labels):
            presses.append({"user": 2, "channel": c, "type": 3, "press": label,
                            "forbid": SECRETS})
    if not presses:
        sys.exit("no public message had a button: nothing was pressed")
    run(presses)
    # The live panels as they stand now: posted with the bot's token and
    # edited since (each change edits them), they answer no interaction,
    # so the checks above never saw them: none may hold a secret. (The
    # setup's own messages, before Tension was hidden, may.)
    time.sleep(3)
    panels = leaks = 0
    for c in range(chan):
        for m in get("/messages/%d" % (1300000000000000000 + c)):
            if m.get("flags", 0) & 64:
                continue
            labels = [b.get("label") for row in m.get("components", [])
                      for b in row.get("components", [])]
            if "Next turn" not in labels or "interaction" in m:
                continue
            panels += 1
            for secret in SECRETS:
                if secret in m["content"]:
                    leaks += 1
                    print("channel %d, message %s holds %r: %s" % (c, m["id"], secret,
                                                                   m["content"][:200]))
    if panels == 0:
        sys.exit("no live panel was posted: /panel was not walked")
    if leaks:
        sys.exit("%d secrets in messages everyone sees" % leaks)
    print("walked %d cases as a player in 2 channels (%d interactions), %d as the GM, "
          "pressed %d buttons; %d live panels hold no secret"
          % (len(walk), len(player), chan - 2, len(presses), panels))


main()
