#!/bin/sh
# The fake Discord's channel message routes, which the bot's channel
# messages (a live panel) rely on, answer as Discord does: POST makes a
# message (200, the message, X-RateLimit headers of the channel's bucket),
# 5 per 5 s per channel and then a 429 (Retry-After, scope user) while
# another channel's bucket is untouched; PATCH edits the bot's message;
# DELETE removes it (204); a message someone deleted is 404 code 10008; a
# channel the bot reaches only through a user install is 403 code 50001.
# No bot runs: requests are made with curl, as the bot would make them.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

fake_start --heartbeat 2000
ctl lenient on # no bot answers the interactions that make the channels known
inject "{\"count\":2,\"rate\":100,\"channels\":2,\"users\":1,\"templates\":[$(tmpl help '[]' '' null)]}"
wait_until "i['created'] == 2" 5
inject "{\"count\":1,\"rate\":100,\"channels\":1,\"users\":1,\"templates\":[$(tmpl help '[]' '' null ',"where":"group_dm","install":"user"')]}"
wait_until "i['created'] == 3" 5
C1=1300000000000000000
C2=1300000000000000001
GDM=1330000000000000000

# call METHOD PATH [BODY]: prints the status, then the headers and body to $WORK/h, $WORK/b
call() {
	curl -s -o "$WORK/b" -D "$WORK/h" -w '%{http_code}' -X "$1" \
		-H "Authorization: Bot $TOKEN" -H "User-Agent: DiscordBot (https://example.org, 1)" \
		${3:+-H "Content-Type: application/json" --data "$3"} "$REST$2"
}
header() { sed -n "s/^$1: *//Ip" "$WORK/h" | tr -d '\r'; }
field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$WORK/b" "$1"; }
MSG='{"content":"Turn 1","allowed_mentions":{"parse":[]}}'

[ "$(call POST /channels/$C1/messages "$MSG")" = 200 ] || fail "POST: $(cat "$WORK/b")"
ID=$(field id)
[ "$(header X-RateLimit-Limit)" = 5 ] && [ "$(header X-RateLimit-Remaining)" = 4 ] ||
	fail "the first POST's headers: $(cat "$WORK/h")"
[ -n "$(header X-RateLimit-Bucket)" ] && [ -n "$(header X-RateLimit-Reset-After)" ] ||
	fail "no bucket or reset in: $(cat "$WORK/h")"
for k in 2 3 4 5; do
	[ "$(call POST /channels/$C1/messages "$MSG")" = 200 ] || fail "POST $k: $(cat "$WORK/b")"
done
[ "$(call POST /channels/$C1/messages "$MSG")" = 429 ] || fail "the sixth POST in 5 s was not refused"
[ "$(header X-RateLimit-Scope)" = user ] && [ -n "$(header Retry-After)" ] ||
	fail "the 429's headers: $(cat "$WORK/h")"
python3 -c 'import json,sys; b=json.load(open(sys.argv[1])); assert 0 < b["retry_after"] <= 5 and b["global"] is False' "$WORK/b" ||
	fail "the 429's body: $(cat "$WORK/b")"
# Another channel: its own bucket.
[ "$(call POST /channels/$C2/messages "$MSG")" = 200 ] || fail "another channel's POST: $(cat "$WORK/b")"

[ "$(call PATCH /channels/$C2/messages/$(field id) '{"content":"Turn 2","allowed_mentions":{"parse":[]}}')" = 200 ] ||
	fail "PATCH: $(cat "$WORK/b")"
[ "$(field content)" = "Turn 2" ] || fail "the edit answered: $(cat "$WORK/b")"
ID2=$(field id)
[ "$(call DELETE /channels/$C2/messages/$ID2)" = 204 ] || fail "DELETE: $(cat "$WORK/b")"
[ "$(call PATCH /channels/$C2/messages/$ID2 '{"content":"x","allowed_mentions":{"parse":[]}}')" = 404 ] ||
	fail "an edit of a deleted message: $(cat "$WORK/b")"
[ "$(field code)" = 10008 ] || fail "not Unknown Message: $(cat "$WORK/b")"
[ "$(stat rest.channel_posts)" = 6 ] && [ "$(stat rest.channel_edits)" = 1 ] &&
	[ "$(stat rest.channel_deletes)" = 1 ] || fail "the counts: $(stats)"

# Someone deletes the bot's message: its next edit is refused once it is gone.
ctl msgdelete "$ID"
[ "$(call GET /channels/$C1/messages/$ID)" = 404 ] || fail "a deleted message was read"
# A group DM the bot reaches only through a user install: no access.
[ "$(call POST /channels/$GDM/messages "$MSG")" = 403 ] || fail "a group DM took a message"
[ "$(field code)" = 50001 ] || fail "not Missing Access: $(cat "$WORK/b")"
[ "$(stat rest.invalid)" = 2 ] || fail "the fake counts $(stat rest.invalid) invalid requests, not 2 (a 429, a 403)"
finish
