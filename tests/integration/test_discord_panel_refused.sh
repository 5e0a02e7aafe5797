#!/bin/sh
# Discord: /panel where the bot may not post. Its answer waits for the
# panel's post and says, once and to the invoker alone, either that the
# panel was posted or why not, naming the permission the bot lacks; never
# "posted" then a contradicting line, never a follow-up before the
# interaction's initial response (the fake counts that as a violation).
#  - 5 /panel where the bot lacks Send Messages, as the interaction's
#    app_permissions say: answered at once, nothing posted;
#  - 5 /panel where the interaction says it may post but Discord refuses
#    the post (403, Missing Permissions): answered after the post;
#  - 1 /panel whose post takes 2.5 s: deferred in time (type 5,
#    ephemeral), then "posted" as the deferral's edit;
#  - 1 /panel in a thread where it lacks Send Messages in Threads;
#  - 1 /panel where it may not view the channel;
#  - 1 /panel where it may post: "posted", once;
#  - 1 /panel in a group DM and 1 in a server without the bot, where a
#    user install brought it: refused at once, nothing tried.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh
. tests/integration/panel_lib.sh

one_channel_start

one "$(tmpl gm '[{"type":1,"name":"claim"}]' 'is now the GM' false ',"user":1')"

# The messages answering interactions in channel $2 (CHAN by default), from
# the id after $1:
# "N M E" = interactions answered, messages in all, ephemeral messages;
# then every message's content, one a line.
answers() {
	curl -s "http://127.0.0.1:$PORT/_control/messages/${2:-$CHAN}" | python3 -c '
import json, sys
after = int(sys.argv[1])
m = [x for x in json.load(sys.stdin) if "interaction" in x and int(x["interaction"]) > after]
m.sort(key=lambda x: int(x["id"]))
print(len({x["interaction"] for x in m}), len(m), len([x for x in m if x["flags"] & 64]))
for x in m: print(x["content"].replace("\n", " / "))' "$1"
}
last_id() {
	curl -s "http://127.0.0.1:$PORT/_control/messages/$CHAN" | python3 -c '
import json, sys
print(max([int(x["interaction"]) for x in json.load(sys.stdin) if "interaction" in x] + [0]))'
}

# refused_round NAME WHY: 5 /panel that are refused; each gets one
# private answer holding WHY and none says posted; nothing is posted.
# Their answers stay in $WORK/NAME.txt.
refused_round() {
	from=$(last_id)
	for i in 1 2 3 4 5; do
		one "$(tmpl panel '[]' 'delver may not post in this channel' true ',"user":1')"
	done
	answers "$from" > "$WORK/$1.txt"
	[ "$(head -n 1 "$WORK/$1.txt")" = "5 5 5" ] ||
		fail "5 refused /panel got (interactions, messages, private): $(head -n 1 "$WORK/$1.txt")"
	[ "$(grep -c "$2" "$WORK/$1.txt")" = 5 ] ||
		fail "the refusals do not say '$2': $(cat "$WORK/$1.txt")"
	grep -q 'Panel posted' "$WORK/$1.txt" && fail "a refused /panel said it was posted"
	[ "$(stat rest.channel_posts)" = 0 ] || fail "a panel was posted where the bot may not post"
}

# Send Messages taken away: the interaction says so; nothing is posted.
ctl "nosend $CHAN"
refused_round nosend 'it needs the Send Messages permission here'
grep -q 'Discord answered' "$WORK/nosend.txt" &&
	fail "a refusal told from the interaction's permissions says Discord answered: $(head -n 2 "$WORK/nosend.txt")"
[ "$(stat rest.posts_refused)" = 0 ] || fail "the bot tried $(stat rest.posts_refused) posts it knew would be refused"

# The interaction says the bot may post, but Discord refuses the post.
ctl "nosend $CHAN off"
ctl "rest403 match=/channels/$CHAN/messages count=5"
refused_round refused 'Missing Permissions), so the panel was not posted: it needs the Send Messages permission'
[ "$(stat rest.r403)" = 5 ] || fail "$(stat rest.r403) posts refused, not 5"
[ "$(stat violations)" = 0 ] || fail "the fake saw violations: $(stat violation_list)"
[ "$(stat interactions.late)" = 0 ] || fail "$(stat interactions.late) answers came after 3 s"

# A post that takes 2.5 s: the interaction is deferred in time, privately,
# and the deferral says "posted" once the post is answered.
deferred=$(stat interactions.deferred)
ctl "restslow match=/channels/$CHAN/messages count=1 ms=2500"
from=$(last_id)
one "$(tmpl panel '[]' 'Panel posted' true ',"user":1')"
wait_until "r['channel_posts'] == 1" 10
[ "$(stat interactions.deferred)" = $((deferred + 1)) ] || fail "the slow post's /panel was not deferred"
answers "$from" > "$WORK/slow.txt"
[ "$(head -n 1 "$WORK/slow.txt")" = "1 1 1" ] ||
	fail "the slow /panel got (interactions, messages, private): $(cat "$WORK/slow.txt")"
[ "$(count_panels)" = 1 ] || fail "$(count_panels) panels in the channel"
note_points_right || fail "the slow /panel's answer points the wrong way"

# In a thread, posting needs Send Messages in Threads: the refusal names
# that one.
THREAD=1310000000000000000 # the thread of the fake's first channel
ctl "nosend $THREAD"
from=$(last_id)
one "$(tmpl panel '[]' 'it needs the Send Messages in Threads permission here' true ',"user":1,"where":"thread"')"
answers "$from" "$THREAD" > "$WORK/thread.txt"
[ "$(head -n 1 "$WORK/thread.txt")" = "1 1 1" ] ||
	fail "the refused /panel in a thread got: $(cat "$WORK/thread.txt")"

# Where the bot may not even view the channel (a slash command still
# reaches it): the refusal names View Channel; nothing is tried.
ctl "noview $CHAN"
from=$(last_id)
access=$(stat rest.missing_access)
one "$(tmpl panel '[]' 'delver cannot see this channel' true ',"user":1')"
answers "$from" > "$WORK/noview.txt"
[ "$(head -n 1 "$WORK/noview.txt")" = "1 1 1" ] ||
	fail "the /panel where the bot cannot view got: $(cat "$WORK/noview.txt")"
grep -q 'View Channel and Send Messages permissions here' "$WORK/noview.txt" ||
	fail "the refusal does not name View Channel: $(cat "$WORK/noview.txt")"
grep -q 'Discord answered' "$WORK/noview.txt" &&
	fail "a refusal told from the interaction's permissions says Discord answered: $(cat "$WORK/noview.txt")"
[ "$(stat rest.missing_access)" = "$access" ] || fail "the bot tried a post it knew would be refused"
ctl "noview $CHAN off"

# Where it may post: one answer, "posted"; the panel moved.
first=$(field 1)
from=$(last_id)
one "$(tmpl panel '[]' 'Panel posted' true ',"user":1')"
wait_until "r['channel_posts'] == 2 and r['channel_deletes'] == 1" 10
answers "$from" > "$WORK/posted.txt"
[ "$(head -n 1 "$WORK/posted.txt")" = "1 1 1" ] ||
	fail "the /panel got (interactions, messages, private): $(cat "$WORK/posted.txt")"
[ "$(grep -c 'Panel posted' "$WORK/posted.txt")" = 1 ] || fail "the answer: $(cat "$WORK/posted.txt")"
[ "$(field 1)" != "$first" ] || fail "the panel did not move"
[ "$(count_panels)" = 1 ] || fail "$(count_panels) panels in the channel"
[ "$(stat violations)" = 0 ] || fail "the fake saw violations: $(stat violation_list)"

# Installed to users too: in a group DM and in a server that never added
# the bot, a user install brings /panel, but the bot user is not there and
# Create Message would answer 403 (an invalid request): nothing is tried.
bot_stop
identify_window
bot_start user_install=yes
wait_until "g['ready'] and r['registrations'] == 2" 10
access=$(stat rest.missing_access)
posts=$(stat rest.channel_posts)
for w in group_dm foreign; do
	case $w in
	group_dm) where=1330000000000000000 said='delver may not post in this conversation (it was not added to it)' ;;
	foreign) where=1350000000000000000 said='delver may not post in this server (it was not added to it)' ;;
	esac
	from=$(last_id)
	one "$(tmpl panel '[]' "$said" true ",\"user\":3,\"where\":\"$w\"")"
	answers "$from" "$where" > "$WORK/$w.txt"
	[ "$(head -n 1 "$WORK/$w.txt")" = "1 1 1" ] ||
		fail "the /panel in a $w got (interactions, messages, private): $(cat "$WORK/$w.txt")"
done
[ "$(stat rest.missing_access)" = "$access" ] || fail "the bot tried a post where it was not added"
[ "$(stat rest.channel_posts)" = "$posts" ] || fail "a panel was posted where the bot was not added"
[ "$(stat violations)" = 0 ] || fail "the fake saw violations: $(stat violation_list)"
echo "refused: 10 answered once each; slow post: deferred, then posted; user installs: not tried"
finish
