# Helpers for the Discord tests of the live panel (sourced after
# discord_lib.sh; CHAN is the channel under test).
#
# one, press          discord_lib's; one also waits until no answer
#                     misses a part (ONE_ALSO)
# panel               the panel: the bot's newest channel message with a
#                     "Next turn" button, as "ID|EDITS|CONTENT" (without
#                     markdown's bold, lines joined by " / "), or "none"
# field N             field N of panel's output
# count_panels        how many such messages the channel holds
n=0
ONE_ALSO="i['parts_missing'] == 0"
panel() {
	curl -s "http://127.0.0.1:$PORT/_control/messages/$CHAN" | python3 -c '
import json, sys
m = [x for x in json.load(sys.stdin)
     if any(c.get("label") == "Next turn" for r in x["components"] for c in r["components"])
     and "interaction" not in x]
m.sort(key=lambda x: int(x["id"]))
print("none" if not m else "%s|%d|%s" % (m[-1]["id"], m[-1]["edits"],
                                       m[-1]["content"].replace("**", "").replace("\n", " / ")))'
}
count_panels() {
	curl -s "http://127.0.0.1:$PORT/_control/messages/$CHAN" | python3 -c '
import json, sys
print(len([x for x in json.load(sys.stdin)
           if any(c.get("label") == "Next turn" for r in x["components"] for c in r["components"])
           and "interaction" not in x]))'
}
field() {
	panel | cut -d'|' -f"$1"
}
