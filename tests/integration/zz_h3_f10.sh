#!/bin/sh
. tests/integration/lib.sh
. tests/integration/discord_lib.sh
REC=$WORK/record.jsonl
fake_start --heartbeat 2000 --identify-interval 500 --record "$REC"
bot_start
wait_until "g['ready']" 10
inject "{\"count\":1,\"channels\":1,\"templates\":[$(tmpl table '[{"type":1,"name":"set","options":[{"type":3,"name":"name","value":"loot"},{"type":3,"name":"entries","value":"1-6: gold"}]}]' 'loot' false)]}"
wait_until "i['answered'] == 1" 10
inject '{"count":1,"channels":1,"templates":[{"type":4,"data":{"type":1,"name":"table","options":[{"type":1,"name":"copy","options":[{"type":3,"name":"name","value":"","focused":true}]}]}}]}'
inject '{"count":1,"channels":1,"templates":[{"type":4,"user":0,"data":{"type":1,"name":"gm","options":[{"type":1,"name":"claim","options":[]}]}}]}'
inject "{\"count\":1,\"channels\":1,\"templates\":[$(tmpl gm '[{"type":1,"name":"claim"}]' 'GM' false ',"user":1')]}"
sleep 1
inject '{"count":1,"channels":1,"user":1,"templates":[{"type":4,"user":1,"data":{"type":1,"name":"table","options":[{"type":1,"name":"copy","options":[{"type":3,"name":"name","value":"","focused":true}]}]}}]}'
inject '{"count":1,"channels":1,"templates":[{"type":4,"user":2,"data":{"type":1,"name":"table","options":[{"type":1,"name":"copy","options":[{"type":3,"name":"name","value":"","focused":true},{"type":3,"name":"from","value":"<#1300000000000000005>"}]}]}}]}'
inject '{"count":1,"channels":1,"templates":[{"type":4,"user":2,"data":{"type":1,"name":"table","options":[{"type":1,"name":"copy","options":[{"type":3,"name":"from","value":"1300000000000000005"},{"type":3,"name":"name","value":"l","focused":true}]}]}}]}'
sleep 3
stats | python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["interactions"])'
python3 -c 'import json, sys
ac = [json.loads(l) for l in open(sys.argv[1])]
ac = [json.loads(l["body"]) for l in ac if l["dir"] == "rest" and "/callback" in l["what"]]
print([b for b in ac if b.get("type") == 8])' "$REC"
tail -5 "$BOT_LOG"
finish
