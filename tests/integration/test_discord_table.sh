#!/bin/sh
# Discord: /table set NAME alone opens a form (a MODAL callback, type 9) to
# paste a whole table into; its submit (a MODAL_SUBMIT interaction, type 5)
# carries the text back, and the table is saved from it as /table set with
# its entries would. The fake checks the modal as Discord's documentation
# bounds it and fills it in as a user would (from the user the form was
# opened for, in that channel); /table show then gives the text back line
# for line. A non-GM's form is refused before it opens; a bad table in the
# form is refused to its author alone; a player cannot submit another's
# form.
. tests/integration/lib.sh
. tests/integration/discord_lib.sh

one_channel_start
# A submit of the form opened for USER, typing TEXT (JSON) into entries.
submit() { # USER TEXT EXPECT PRIVATE
	printf '{"type":5,"user":%s,"submit":{"entries":%s},"expect":"%s","private":%s}' \
		"$1" "$2" "$3" "$4"
}
set_alone() { # NAME USER EXPECT PRIVATE
	tmpl table "[{\"type\":1,\"name\":\"set\",\"options\":[{\"type\":3,\"name\":\"name\",\"value\":\"$1\"}]}]" \
		"$3" "$4" ",\"user\":$2"
}

one "$(tmpl gm '[{"type":1,"name":"claim"}]' 'is now the GM' false ',"user":1')"

# The GM's /table set loot alone: a form, titled with the command.
one "$(set_alone loot 1 '/table set loot' false)"
[ "$(stat interactions.modals)" = 1 ] || fail "no modal opened: $(stats)"

# The GM fills it in: several lines at once, as pasted.
one "$(submit 1 '"1-2: a pouch of 2d6 silver\n3-5: 1d4 goblins\n6: a gem: [[gems]]"' 'Saved the table **loot**: d6, 3 entries.' false)"
[ "$(stat interactions.submits)" = 1 ] || fail "the form was not submitted: $(stats)"

# /table show gives the lines back, as the form took them (the brackets
# escaped from Markdown, which the client shows as typed).
one "$(tmpl table '[{"type":1,"name":"show","options":[{"type":3,"name":"name","value":"loot"}]}]' '**Table loot: d6, 3 entries**\n1-2: a pouch of 2d6 silver\n3-5: 1d4 goblins\n6: a gem: \\[\\[gems\\]\\]' false ',"user":2')"

# A form whose table is bad: refused to its author alone; nothing saved.
one "$(set_alone bad 1 '/table set bad' false)"
one "$(submit 1 '"1-2: a\n4-6: b"' 'The table bad was not saved: entry 2: result 3 is not covered by any entry.' true)"
one "$(tmpl table '[{"type":1,"name":"show","options":[{"type":3,"name":"name","value":"bad"}]}]' 'No table here is called bad' true ',"user":1')"

# A player may not change tables while the GM holds the seat: no form.
one "$(set_alone mine 2 'Only the GM, Player 1, changes the tables here.' true)"
[ "$(stat interactions.modals)" = 2 ] || fail "a refused /table set opened a form"

# Only the user a form was opened for can submit it: a player has none open.
alone "$(submit 2 '"1-6: x"' 'x' false)"
# The fake counts the form it has none of for that user as it delivers it.
wait_until "i['left_to_inject'] == 0" 10
[ "$(stat interactions.submit_missing)" = 1 ] || fail "a player submitted a form not theirs: $(stats)"
finish
