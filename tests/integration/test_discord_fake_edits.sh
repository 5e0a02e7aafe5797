#!/bin/sh
# The fake Discord takes edits of an interaction's messages as Discord
# does, within the token's 15 minutes: @original after a type-4 answer
# (no deferral needed) and after a type-5 deferral (which it completes),
# and a follow-up the token made, by its id. An interaction answered with
# a modal, or whose callback was refused, has no @original: 404 Unknown
# Message (10008), and so has another interaction's message; each of those
# three is the caller's mistake, a violation. No bot runs: the callbacks
# and edits are made with curl, as the bot would make them.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

REC=$WORK/record.jsonl
fake_start --heartbeat 2000 --record "$REC"
ctl lenient on # nothing answers in time but what this script answers
# inter: "ID TOKEN APP" of a new interaction. Each must be answered
# within 3 s, so each is made when it is needed and read from the record
# with the shell alone (a loaded machine starts python slowly).
inter() {
	n=$(($(grep -c '"dir":"made"' "$REC") + 1))
	inject "{\"count\":1,\"rate\":1000,\"channels\":1,\"users\":1,\"templates\":[$(tmpl help '[]' '' null)]}"
	i=0
	until [ "$(grep -c '"dir":"made"' "$REC")" -ge $n ]; do
		i=$((i + 1))
		[ $i -gt 100 ] && fail "interaction $n was not made"
		sleep 0.05
	done
	grep '"dir":"made"' "$REC" | sed -n "${n}p" |
		sed 's/.*\\"token\\":\\"\([^\\]*\)\\",\\"id\\":\\"\([0-9]*\)\\".*\\"application_id\\":\\"\([0-9]*\)\\".*/\2 \1 \3/'
}
# call METHOD PATH [BODY]: prints the status; the body goes to $WORK/b
call() {
	curl -s -o "$WORK/b" -w '%{http_code}' -X "$1" \
		-H "User-Agent: DiscordBot (https://example.org, 1)" \
		${3:+-H "Content-Type: application/json" --data "$3"} "$REST$2"
}
field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$WORK/b" "$1"; }
msg() { printf '{"content":"%s","allowed_mentions":{"parse":[]}}' "$1"; }

# A: a type-4 answer, then its edit, a follow-up and the follow-up's edit.
set -- $(inter)
A=$1 TA=$2 APP=$3
[ "$(call POST "/interactions/$A/$TA/callback" "{\"type\":4,\"data\":$(msg one)}")" = 204 ] ||
	fail "A's callback: $(cat "$WORK/b")"
[ "$(call PATCH "/webhooks/$APP/$TA/messages/@original" "$(msg 'one, edited')")" = 200 ] ||
	fail "A's @original edit after type 4: $(cat "$WORK/b")"
[ "$(field content)" = "one, edited" ] || fail "A's edit answered: $(cat "$WORK/b")"
ORIG_A=$(field id)
[ "$(call POST "/webhooks/$APP/$TA" "$(msg two)")" = 200 ] || fail "A's follow-up: $(cat "$WORK/b")"
FOLLOW=$(field id)
[ "$(call PATCH "/webhooks/$APP/$TA/messages/$FOLLOW" "$(msg 'two, edited')")" = 200 ] ||
	fail "A's follow-up edit: $(cat "$WORK/b")"
[ "$(field content)" = "two, edited" ] || fail "A's follow-up edit answered: $(cat "$WORK/b")"

# B: a type-5 deferral, completed by its edit.
set -- $(inter)
B=$1 TB=$2
[ "$(call POST "/interactions/$B/$TB/callback" '{"type":5}')" = 204 ] ||
	fail "B's deferral: $(cat "$WORK/b")"
[ "$(call PATCH "/webhooks/$APP/$TB/messages/@original" "$(msg three)")" = 200 ] ||
	fail "B's @original edit after type 5: $(cat "$WORK/b")"
[ "$(stat interactions.deferred_open)" = 0 ] || fail "B's edit did not complete its deferral"
[ "$(stat violations)" = 0 ] || fail "allowed edits counted as violations: $(stats)"

# B's token cannot edit A's message.
[ "$(call PATCH "/webhooks/$APP/$TB/messages/$ORIG_A" "$(msg x)")" = 404 ] ||
	fail "B's token edited A's message: $(cat "$WORK/b")"
[ "$(field code)" = 10008 ] || fail "not Unknown Message: $(cat "$WORK/b")"

# C: a modal answers it, so it has no message to edit.
set -- $(inter)
C=$1 TC=$2
MODAL='{"type":9,"data":{"custom_id":"m","title":"Notes","components":[{"type":1,"components":[{"type":4,"custom_id":"t","label":"Text","style":1}]}]}}'
[ "$(call POST "/interactions/$C/$TC/callback" "$MODAL")" = 204 ] || fail "C's modal: $(cat "$WORK/b")"
[ "$(call PATCH "/webhooks/$APP/$TC/messages/@original" "$(msg x)")" = 404 ] ||
	fail "C's @original after a modal: $(cat "$WORK/b")"
[ "$(field code)" = 10008 ] || fail "not Unknown Message: $(cat "$WORK/b")"

# D: its callback is refused, so it has no message either.
set -- $(inter)
D=$1 TD=$2
ctl rest403 match=/callback count=1
[ "$(call POST "/interactions/$D/$TD/callback" "{\"type\":4,\"data\":$(msg four)}")" = 403 ] ||
	fail "D's callback was not refused: $(cat "$WORK/b")"
[ "$(call PATCH "/webhooks/$APP/$TD/messages/@original" "$(msg x)")" = 404 ] ||
	fail "D's @original after a refused callback: $(cat "$WORK/b")"
[ "$(field code)" = 10008 ] || fail "not Unknown Message: $(cat "$WORK/b")"

[ "$(stat interactions.edits)" = 2 ] && [ "$(stat interactions.followup_edits)" = 1 ] &&
	[ "$(stat interactions.edits_unknown)" = 3 ] && [ "$(stat violations)" = 3 ] ||
	fail "the counts: $(stats)"
kill -TERM "$FAKE_PID"
wait "$FAKE_PID"
status=$?
FAKE_PID=""
[ "$status" = 1 ] || fail "the fake exited $status after violations, not 1"
echo ok
