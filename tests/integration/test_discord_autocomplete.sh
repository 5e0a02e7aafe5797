#!/bin/sh
# Discord autocomplete against state it cannot read: a channel whose saved
# record is damaged after the start (it was left on disk, being idle) gets
# an empty list of suggestions, not a crash; a command there is refused
# with a clear reply; the bot goes on answering elsewhere. /table copy's name
# suggests the tables of the channel its from: names. Autocomplete in
# a channel that never played creates no record.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

REC=$WORK/record.jsonl
BROKEN=1300000000000000000
DB=$WORK/state/delver.db
# sql QUERY [ARG]: runs one statement on the bot's database (as another
# process would) and prints the first column of each row.
sql() { python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1], timeout=10)
for r in c.execute(sys.argv[2], sys.argv[3:]): print(r[0])
c.commit()' "$DB" "$@"; }
fake_start --heartbeat 2000 --identify-interval 500 --record "$REC"
BOT_EXTRA='evict_after = 1'
bot_start
wait_until "g['ready']" 10
# Channel 0 gets a party, so its record holds something to suggest.
inject "{\"count\":1,\"channels\":1,\"templates\":[$(tmpl fungeon '[{"type":1,"name":"join","options":[{"type":3,"name":"name","value":"Alba"},{"type":3,"name":"class","value":"fighter"}]}]' 'Alba' false)]}"
wait_until "i['answered'] == 1" 10
bot_stop
[ "$(sql "SELECT count(*) FROM channels WHERE key = ? AND CAST(rec AS TEXT) LIKE '%\"Alba\"%'" "discord:$BROKEN")" = 1 ] ||
	fail "the party was not saved"

# Idle for longer than evict_after: the next start leaves it on disk.
sleep 2
identify_window
bot_start
wait_until "g['ready']" 10
# Damage the channel's row (one byte of its record): its checksum no longer
# matches when the bot reads it on demand.
sql "UPDATE channels SET rec = CAST(replace(CAST(rec AS TEXT), '\"Alba\"', '\"Blba\"') AS BLOB) WHERE key = ?" "discord:$BROKEN" ||
	fail "cannot damage the record"

WHO='[{"type":1,"name":"sheet","options":[{"type":3,"name":"who","value":"","focused":true}]}]'
inject "{\"count\":1,\"channels\":1,\"templates\":[{\"type\":4,\"data\":{\"type\":1,\"name\":\"fungeon\",\"options\":$WHO}}]}"
wait_until "i['answered'] == 2" 10
kill -0 "$BOT_PID" 2>/dev/null || fail "the bot died on autocomplete in an unreadable channel"
grep -q "cannot load channel 'discord:$BROKEN'" "$BOT_LOG" || fail "the load failure was not logged"
# choices N: the suggestions of the Nth autocomplete answer, as JSON.
choices() { python3 -c 'import json, sys
ac = [json.loads(l) for l in open(sys.argv[1])]
ac = [json.loads(l["body"]) for l in ac if l["dir"] == "rest" and "/callback" in l["what"]]
ac = [b for b in ac if b.get("type") == 8]
print(json.dumps([c["value"] for c in ac[int(sys.argv[2]) - 1]["data"]["choices"]]))' "$REC" "$1"; }
[ "$(choices 1)" = '[]' ] || fail "the suggestions for an unreadable channel: $(choices 1)"

# A command there is refused with a clear reply.
inject "{\"count\":1,\"channels\":1,\"templates\":[$(tmpl fungeon '[{"type":1,"name":"party"}]' 'cannot be read right now' true)]}"
wait_until "i['answered'] == 3" 10

# Repaired, the record loads and its party is suggested again.
sql "UPDATE channels SET rec = CAST(replace(CAST(rec AS TEXT), '\"Blba\"', '\"Alba\"') AS BLOB) WHERE key = ?" "discord:$BROKEN"
inject "{\"count\":1,\"channels\":1,\"templates\":[{\"type\":4,\"data\":{\"type\":1,\"name\":\"fungeon\",\"options\":$WHO}}]}"
wait_until "i['answered'] == 4" 10
[ "$(choices 2)" = '["Alba"]' ] || fail "the repaired channel suggests $(choices 2)"

# /table copy's name, with from: naming another channel where the same user
# holds the GM seat, is answered with * and that channel's tables (it once
# went unanswered: check-26 F10).
C5=',"channel":5,"user":1'
C6=',"channel":6,"user":1'
inject "{\"count\":1,\"channels\":7,\"templates\":[$(tmpl gm '[{"type":1,"name":"claim"}]' 'GM' false "$C5")]}"
wait_until "i['answered'] == 5" 10
inject "{\"count\":1,\"channels\":7,\"templates\":[$(tmpl table '[{"type":1,"name":"set","options":[{"type":3,"name":"name","value":"rumours"},{"type":3,"name":"entries","value":"1-6: the duke lies"}]}]' 'rumours' false "$C5")]}"
wait_until "i['answered'] == 6" 10
inject "{\"count\":1,\"channels\":7,\"templates\":[$(tmpl gm '[{"type":1,"name":"claim"}]' 'GM' false "$C6")]}"
wait_until "i['answered'] == 7" 10
COPY='[{"type":1,"name":"copy","options":[{"type":3,"name":"name","value":"","focused":true},{"type":3,"name":"from","value":"<#1300000000000000005>"}]}]'
inject "{\"count\":1,\"channels\":7,\"templates\":[{\"type\":4,\"channel\":6,\"user\":1,\"data\":{\"type\":1,\"name\":\"table\",\"options\":$COPY}}]}"
wait_until "i['answered'] == 8" 10
[ "$(choices 3)" = '["*", "rumours"]' ] || fail "/table copy suggests $(choices 3)"

# Autocomplete in channels that never played creates no record.
inject "{\"count\":2,\"channels\":3,\"templates\":[{\"type\":4,\"data\":{\"type\":1,\"name\":\"fungeon\",\"options\":$WHO}}]}"
wait_until "i['answered'] == 10" 10
bot_stop
[ "$(sql "SELECT count(*) FROM channels WHERE key IN ('discord:1300000000000000001', 'discord:1300000000000000002')")" = 0 ] ||
	fail "autocomplete created a record for a channel that never played"
finish
