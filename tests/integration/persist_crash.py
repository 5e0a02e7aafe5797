#!/usr/bin/env python3
"""Crash test for delver's persistence (run by test_persist_crash.sh).

Runs ./delver on the console with --fsync always and a fixed seed, feeds it
GM claims and releases across many channels, kills it with SIGKILL at a
random moment, restarts it, and checks that every change whose reply was
printed is still there (and that the files always load). Repeats ROUNDS
times. Snapshot files are written every second and idle channels are
evicted after two, so kills also land while a snapshot file is written or a
channel is reloaded.

usage: persist_crash.py DELVER [ROUNDS] [SEED]
"""
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

CHANNELS = [f"ch{i}" for i in range(24)]
USERS = [f"u{i}" for i in range(8)]


class Run:
    """One delver process, its output lines collected by a thread."""

    def __init__(self, delver, state_dir, errlog):
        self.proc = subprocess.Popen(
            [delver, "--console", "--seed", "7", "--color", "never",
             "--user", "u0", "--channel", "ch0", "--state-dir", state_dir,
             "--fsync", "always", "--snapshot-interval", "1",
             "--evict-after", "2"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errlog)
        self.lines = []
        self.cond = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for raw in self.proc.stdout:
            with self.cond:
                self.lines.append(raw.decode("utf-8", "replace").rstrip("\n"))
                self.cond.notify_all()
        with self.cond:
            self.lines.append(None)  # end of output
            self.cond.notify_all()

    def send(self, text):
        self.proc.stdin.write(text.encode())
        self.proc.stdin.flush()

    def wait_lines(self, n, timeout=20.0):
        end = time.monotonic() + timeout
        with self.cond:
            while len(self.lines) < n and None not in self.lines:
                left = end - time.monotonic()
                if left <= 0:
                    break
                self.cond.wait(left)
            return list(self.lines)

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.reader.join()
        return [l for l in self.lines if l is not None]


def fail(msg, errfile=None):
    print("FAIL: " + msg)
    if errfile is not None:
        errfile.seek(0)
        print("delver's stderr:\n" + errfile.read().decode(errors="replace")[-3000:])
    sys.exit(1)


def verify(run, chans, known, possible, errlog):
    """Asks each channel of chans for its GM; checks the answer against what
    was acknowledged (and what was sent but not acknowledged)."""
    script = "".join(f"/channel {c}\n/gm\n" for c in chans)
    run.send(script)
    # Each line echoes ("u0> ...") and answers with one line.
    lines = run.wait_lines(4 * len(chans))
    if len(lines) < 4 * len(chans) or None in lines:
        fail(f"delver did not answer the checks (got {len(lines)} lines): "
             f"{lines[-4:]}", errlog)
    for i, c in enumerate(chans):
        answer = lines[4 * i + 3]
        if answer.startswith("The GM here is "):
            seen = answer[len("The GM here is "):-1]
        elif answer.startswith("Nobody is GM here yet"):
            seen = None
        else:
            fail(f"unexpected answer in {c}: {answer!r}", errlog)
        allowed = possible.pop(c, [known[c]])
        if seen not in allowed:
            fail(f"{c}: GM is {seen!r} after a restart, but the last acknowledged "
                 f"change made it {allowed[0]!r} (unacknowledged: {allowed[1:]})",
                 errlog)
        known[c] = seen
    return 4 * len(chans)


def count_acked(out, steps, errlog):
    """How many of steps were acknowledged: each /gm claim or release echo
    line is followed by its reply, and replies come in the order sent."""
    k = 0
    for i, line in enumerate(out):
        if not re.match(r"^\S+> /gm (claim|release)$", line):
            continue
        if i + 1 == len(out):
            break  # killed before it answered
        if out[i + 1] != steps[k][2]:
            fail(f"change {k} answered {out[i + 1]!r}, expected {steps[k][2]!r}", errlog)
        k += 1
    return k


def mutations(rng, known, hot, count):
    """Claims and releases in the hot channels that succeed given known;
    returns the script and the list of (channel, new GM, reply line)."""
    expect = dict(known)
    script, steps = [], []
    for _ in range(count):
        c = rng.choice(hot)
        if expect[c] is None:
            u = rng.choice(USERS)
            script.append(f"/as {u}\n/channel {c}\n/gm claim\n")
            steps.append((c, u, f"{u} is now the GM of this channel."))
            expect[c] = u
        else:
            u = expect[c]
            script.append(f"/as {u}\n/channel {c}\n/gm release\n")
            steps.append((c, None, f"{u} is no longer the GM; anyone may /gm claim."))
            expect[c] = None
    return "".join(script), steps


def main():
    delver = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 12345)
    top = tempfile.mkdtemp(prefix="delver-crash-")
    state_dir = os.path.join(top, "state")
    known = {c: None for c in CHANNELS}  # each channel's GM, when certain
    possible = {}  # channel -> GMs it may have (an unanswered change)
    acked_total = 0
    started = time.monotonic()
    try:
        for rnd in range(rounds):
            errlog = tempfile.TemporaryFile()
            run = Run(delver, state_dir, errlog)
            # Check the uncertain channels and a few others; the rest stay
            # cold: evicted, or left on disk by restore, across snapshots.
            check = sorted(set(possible) | set(rng.sample(CHANNELS, 4)))
            base = verify(run, check, known, possible, errlog)
            hot = rng.sample([c for c in CHANNELS if c not in possible], 6)
            script, steps = mutations(rng, known, hot, 400)
            writer = threading.Thread(target=lambda: _send_quietly(run, script),
                                      daemon=True)
            writer.start()
            time.sleep(rng.uniform(0.0, 1.6))
            lines = run.kill()
            out = lines[base:]
            if any(l.startswith("Warning:") for l in out):
                fail("a reply said a change could not be saved", errlog)
            acked = count_acked(out, steps, errlog)
            for c, gm, _ in steps[:acked]:
                known[c] = gm
            for c, gm, _ in steps[acked:]:
                possible.setdefault(c, [known[c]]).append(gm)
            acked_total += acked
            errlog.seek(0)
            err = errlog.read().decode(errors="replace")
            if "error:" in err:
                fail(f"round {rnd}: delver logged an error", errlog)
            errlog.close()
        # A last clean start must load everything too.
        errlog = tempfile.TemporaryFile()
        run = Run(delver, state_dir, errlog)
        verify(run, CHANNELS, known, possible, errlog)
        run.proc.stdin.close()
        if run.proc.wait(timeout=20) != 0:
            fail("the last clean run did not exit 0", errlog)
        print(f"ok: {rounds} kills, {acked_total} acknowledged changes checked, "
              f"{time.monotonic() - started:.1f} s")
    finally:
        shutil.rmtree(top, ignore_errors=True)


def _send_quietly(run, script):
    try:
        run.send(script)
    except (BrokenPipeError, OSError):
        pass  # killed while we were still writing


if __name__ == "__main__":
    main()
