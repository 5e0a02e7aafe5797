#!/bin/sh
# Answers a slow store holds past Discord's 3 s are deferred, then edited,
# none lost, none answered twice (issue 12). delver on a throwaway
# PostgreSQL cluster (tests/tools/pg_cluster.sh), the fake Discord:
#  1. A normal rate, the store fast: 200 /turn advance at 40/s, each in a
#     channel of its own (a read by key, then a commit): every one answered
#     by its callback with the same exact text, nothing deferred; one more
#     in one of them gives the exact text of a second advance.
#  2. The store frozen: the server process serving delver's connection
#     (found by its application_name in pg_stat_activity) is stopped with
#     SIGSTOP, 16 /turn advance sent meanwhile: 8 in channels of phase 1
#     (in memory: their commits are held) and 8 in new ones (their reads
#     park them), then 4 presses of the button /turn advance's reply carries,
#     in new channels. Once the fake saw all 20 deferred, the server goes on
#     (SIGCONT; also in the trap, whatever happens). Each command's deferral
#     must then be edited with the exact text a normal answer has (Turn 2
#     or Turn 1), each button's answer follow up with it, once; the fake
#     checks that nothing was answered twice or late, and the stats line
#     counts the deferrals.
#  3. The store frozen past its 10 s watchdog: a command whose read fails
#     edits its deferral with the error (public: the deferral was). delver
#     then connects again on its own; phase 4 waits for that connection.
#  4. Two deferrals answered 3 s late by the fake, the store thawed at
#     once: the answers wait for their deferrals, then edit them.
# No timing is asserted: the freeze lasts until the fake saw the deferrals.
# Every process started here, the cluster's server included, is stopped by
# its PID; only the one PID found is ever stopped with SIGSTOP.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

pg_freezable_start slow-store

fake_start --heartbeat 5000
bot_start
wait_until "g['ready']" 20

ADV=$(tmpl turn '[{"type":1,"name":"advance"}]' 'turn passes without a hazard roll' false \
	',"permissions":"8","keep":true')

# 1. The store fast, a normal rate: nothing deferred.
inject "{\"count\":200,\"rate\":40,\"channels\":200,\"templates\":[$ADV]}"
wait_until "i['left_to_inject'] == 0 and i['answered'] == 200" 60
[ "$(stat interactions.deferred)" = 0 ] ||
	fail "$(stat interactions.deferred) answers deferred at 40/s with the store fast"
TURN1=$(channels | python3 -c '
import json, sys
ch = json.load(sys.stdin)
texts = set(c["kept"] for c in ch.values())
if len(ch) != 200 or len(texts) != 1:
    print("%d channels, %d different answers" % (len(ch), len(texts)), file=sys.stderr)
    sys.exit(1)
print(texts.pop())') || fail "phase 1: not one answer per channel, all alike"
# The exact text of a second /turn advance, answered normally: channel 8
# (k = 200, 200 % 12 = 8) advances again.
inject "{\"count\":1,\"channels\":12,\"templates\":[$ADV]}"
wait_until "i['answered'] == 201" 20
TURN2=$(channels | python3 -c '
import json, sys
print(json.load(sys.stdin)[str(1300000000000000008)]["kept"])')
case "$TURN2" in
"$TURN1" | *"turns since the last rest"*) ;;
*) fail "phase 1: a second /turn advance answers $TURN2" ;;
esac
[ "$TURN2" != "$TURN1" ] || fail "phase 1: the second /turn advance answers as the first"
[ "$(stat interactions.deferred)" = 0 ] || fail "an answer was deferred with the store fast"

# 2. The store frozen.
freeze
frozen_at=$(date +%s)
# k = 201..216: channels 201..208 are new, k 209..216 are channels 0..7.
inject "{\"count\":16,\"rate\":50,\"channels\":209,\"templates\":[$ADV]}"
wait_until "i['created'] == 217" 20
# k = 217..220: the button a reply of /turn advance would carry, pressed in
# new channels 217..220 (deferred with type 6; the answer follows up).
BTN='{"type":3,"data":{"custom_id":"a:turn advance","component_type":2},"expect":"turn passes without a hazard roll","private":false,"permissions":"8","keep":true}'
inject "{\"count\":4,\"rate\":50,\"channels\":1000,\"templates\":[$BTN]}"
wait_until "i['deferred'] == 20" 20
# Frozen about 4 s in all; answers are still held (none edited yet).
[ "$(stat interactions.edits)" = 0 ] || fail "an answer came while the store was frozen"
left=$((4 - ($(date +%s) - frozen_at)))
[ "$left" -gt 0 ] && sleep "$left"
thaw
wait_until "i['deferred_open'] == 0 and i['answered'] == 221" 30

channels | TURN1="$TURN1" TURN2="$TURN2" python3 -c '
import json, os, sys
t1, t2 = os.environ["TURN1"], os.environ["TURN2"]
ch = json.load(sys.stdin)
bad = []
for key, c in ch.items():
    n = int(key) - 1300000000000000000
    want_deferred = 1 if n < 8 or n > 200 else 0
    want = t2 if n <= 8 else t1
    if c["deferred"] != want_deferred:
        bad.append("channel %d: %d deferred, not %d" % (n, c["deferred"], want_deferred))
    if c["kept"] != want:
        bad.append("channel %d: %r" % (n, c["kept"]))
    if c["late"] != 0 or c["answered"] != c["created"]:
        bad.append("channel %d: %d created, %d answered, %d late" %
                   (n, c["created"], c["answered"], c["late"]))
if len(ch) != 212:
    bad.append("%d channels, not 212" % len(ch))
if str(1300000000000000200) in ch:
    bad.append("channel 200 was used")
if bad:
    print("\n".join(bad[:10]))
    sys.exit(1)
' || fail "a deferred answer was lost, doubled or not the exact text (above)"
[ "$(stat interactions.edits)" = 16 ] || fail "$(stat interactions.edits) edits, not 16"
[ "$(stat interactions.deferred_updates)" = 4 ] ||
	fail "$(stat interactions.deferred_updates) deferrals of type 6, not the 4 buttons'"
[ "$(stat interactions.followups)" = 4 ] ||
	fail "$(stat interactions.followups) follow-ups, not the 4 buttons' answers"
[ "$(stat interactions.duplicates)" = 0 ] || fail "answered twice"

# 3. The store frozen past its 10 s watchdog: a command in a new channel
# (k = 221) waits for a read that fails; its deferral is edited with the
# error saying so, not left hanging.
freeze
ERR=$(tmpl turn '[{"type":1,"name":"advance"}]' "saved state cannot be read right now" false \
	',"permissions":"8","keep":true')
inject "{\"count\":1,\"channels\":5000,\"templates\":[$ERR]}"
wait_until "i['deferred'] == 21 and i['deferred_open'] == 0" 40
DROPPED=$FROZEN
thaw
# The watchdog dropped that connection and delver makes a new one on its
# own. Phase 4 must freeze the new one, so wait until the dropped backend
# has exited and a backend of delver's is listed again.
n=0
until [ "$(psql "$CONNINFO" -Atc "SELECT count(*) FILTER (WHERE pid = $DROPPED) = 0
	AND count(*) > 0 FROM pg_stat_activity WHERE application_name = '$APPNAME'")" = t ]; do
	n=$((n + 1))
	[ "$n" -le 300 ] || fail "delver did not connect again after the watchdog dropped $DROPPED"
	sleep 0.1
done
channels | python3 -c '
import json, sys
c = json.load(sys.stdin)[str(1300000000000000221)]
sys.exit(0 if c["deferred"] == 1 and "cannot be read right now" in c["kept"] else 1)' ||
	fail "the failed read did not edit its deferral with the error"

# 4. The answer ready while its deferral is still on its way (the fake
# answers the two deferrals 3 s late): it waits for the deferral, then
# edits it (k = 222, 223: new channels).
freeze
ctl "restslow match=/callback count=2 ms=3000"
inject "{\"count\":2,\"rate\":50,\"channels\":5000,\"templates\":[$ADV]}"
wait_until "i['deferred'] == 23" 20
thaw
wait_until "i['deferred_open'] == 0 and r['slow'] == 2" 30
channels | TURN1="$TURN1" python3 -c '
import json, os, sys
ch = json.load(sys.stdin)
sys.exit(0 if all(ch[str(1300000000000000000 + n)]["kept"] == os.environ["TURN1"]
                  for n in (222, 223)) else 1)' ||
	fail "an answer ready before its deferral went did not edit it"

bot_stats
grep -q "discord stats: interactions answered 224, shed 0, failed 0; deferred 23;" "$BOT_LOG" ||
	fail "the stats line does not count 23 deferrals: $(grep "discord stats:" "$BOT_LOG")"
finish
