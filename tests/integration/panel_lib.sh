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
# panel_wait GLOB SECONDS
#                     waits until the panel's content (field 3) matches
#                     the shell pattern GLOB (no quotes in it: they would
#                     be matched as characters); returns 1 when SECONDS pass
#                     first. The last change's edit is coalesced, paced
#                     and then makes its trip: on a loaded machine it
#                     comes when it comes. A caller first waits until that
#                     edit is due on an idle machine, so a panel already
#                     past GLOB (a change applied twice) is what it reads
#                     first, and never matches later.
# note_points_right   the newest "Panel posted" answer says where the panel
#                     is truly: "below" only when the panel came after it,
#                     "above" only when before (a /panel's answer goes
#                     after its post, unless it was deferred first)
# burst WAIT TEMPLATES
#                     50 interactions in CHAN, 10 a second (TEMPLATES in
#                     turn), waited on until answered, then WAIT seconds
#                     more (the last edit's pacing and trip); sets edits
#                     (the channel's edits meanwhile) and rate ("N in S s
#                     (R a second)")
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
panel_wait() {
	pw_end=$(($(date +%s) + $2))
	while :; do
		# GLOB unquoted: a pattern, as in a case of the caller's.
		case "$(field 3)" in
		$1) return 0 ;;
		esac
		[ "$(date +%s)" -ge "$pw_end" ] && return 1
		sleep 0.2
	done
}
note_points_right() {
	# A deferred /panel's note is written by its later edit of the
	# answer: it is waited for (10 s), not taken as missing.
	_np=0
	while :; do
		curl -s "http://127.0.0.1:$PORT/_control/messages/$CHAN" | python3 -c '
import json, re, sys
ms = json.load(sys.stdin)
panels = [x for x in ms if "interaction" not in x and any(
    c.get("label") == "Next turn" for r in x["components"] for c in r["components"])]
notes = [x for x in ms if "Panel posted" in x["content"]]
if not panels or not notes:
    sys.exit(3)
panel = max(panels, key=lambda x: int(x["id"]))
note = max(notes, key=lambda x: int(x["id"]))
after = int(panel["id"]) > int(note["id"])
if re.search(r"\bbelow\b", note["content"]) and not after or \
        re.search(r"\babove\b", note["content"]) and after:
    sys.exit("the answer says %r, but the panel (%s) came %s it (%s)"
             % (note["content"], panel["id"], "after" if after else "before", note["id"]))'
		_rc=$?
		[ "$_rc" = 3 ] && [ "$_np" -lt 50 ] || break
		_np=$((_np + 1))
		sleep 0.2
	done
	[ "$_rc" = 3 ] && echo "no panel and 'Panel posted' answer in the channel after 10 s" >&2
	return "$_rc"
}
burst() {
	edits0=$(stat rest.channel_edits)
	t0=$(date +%s.%N)
	inject "{\"count\":50,\"rate\":10,\"channels\":1,\"users\":1,\"templates\":[$2]}"
	n=$((n + 50))
	wait_until "i['created'] == $n and i['answered'] == $n and i['parts_missing'] == 0" 20
	t1=$(date +%s.%N)
	sleep "$1"
	edits=$(($(stat rest.channel_edits) - edits0))
	rate=$(python3 -c "print('%d in %.1f s (%.2f a second)' % ($edits, $t1 - $t0 + $1, $edits / ($t1 - $t0 + $1)))")
}
