/* The seventh independent play-test of Fungeon
 * (notes/playtest-fungeon-7.md), its findings each played at a table as
 * the report found it, with what the rule text (or a Ruling where it
 * is silent) wants instead. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/fungeon/fungeon_channel.h"
#include "tests/unit/helpers/fgtable.h"

/* S1 (line 175: the held may not act; Ruling: a trap triggered for
 * everyone leaves the held out, one named is refused): with all three
 * held, the trap's maker triggering it for everyone hears every held one
 * named; with Bo alone free, the roll says who was left out and why;
 * two held named are both named. */
static void
s1_every_held_one_is_named(void **unused)
{
	static const char *const d[] = {
	    "/fungeon trap add pit annoy 2 pain 1 type spikes",
	    "/fungeon monster add vine level 2 ability grab annoy 4 hold type plant", NULL};
	struct fgtable *t = fgtable_new(2301);
	const char *trapper;
	char *text;

	(void)unused;
	fgtable_fighters(t, 3, 3);
	fgtable_room_made(t, d);
	trapper = fgtable_holder(t, FUNGEON_CAT_TRAPS);
	fgtable_held(t, 0, "vine/grab", 4, "plant");
	fgtable_held(t, 2, "vine/grab", 4, "plant");
	fgtable_fails_unchanged(t, trapper, "/fungeon trigger pit Al Cy",
	                        "Al and Cy are held by vine/grab and may not act until rolls in "
	                        "combat turns break the holds (/fungeon combat).");
	text = fgtable_said(t, trapper, "/fungeon trigger pit all");
	fgtable_holds(text, "Left out: Al and Cy are held by vine/grab and may not act.\n");
	fgtable_holds(text, "\nBo (bo): ");
	free(text);
	fgtable_held(t, 1, "vine/grab", 4, "plant");
	fgtable_fails_unchanged(t, trapper, "/fungeon trigger pit all",
	                        "Nobody in room 1 is free to face pit: Al, Bo and Cy are held by "
	                        "vine/grab and may not act until rolls in combat turns break the "
	                        "holds (/fungeon combat).");
	fgtable_free(t);
}

/* S2 (line 297: half the points, rounded down, fcheck F3; once over a
 * visit's sales, recheck13 F2): a treasure's price says what it credits in
 * town as the sale does, and an odd one that it gives a point more after
 * another odd sale of the visit. */
static void
s2_a_price_says_the_sale(void **unused)
{
	static const char *const d[] = {"/fungeon monster add rat level 3", NULL};
	struct fgtable *t = fgtable_new(2302);

	(void)unused;
	fgtable_alone_on_floor(t, 3, d[0]);
	fgtable_ok(t, "al", "/fungeon hallway confirm:true");
	fgtable_says(t, "al", "/fungeon treasure add coin mundane",
	             "Cost: 1 point. Sells in town for 0 points (one more after an odd-point "
	             "sale in the same visit).\n");
	fgtable_says(t, "al", "/fungeon cost treasure mundane value 1",
	             "Cost: 2 points. Sells in town for 1 point.\n");
	fgtable_says(t, "al", "/fungeon treasure add coin3 mundane value 2",
	             "Cost: 3 points. Sells in town for 1 point (one more after an odd-point "
	             "sale in the same visit).\n");
	fgtable_free(t);
}

/* S12 (delver(7) Limits: a name is 1 to 24 characters; what a user types
 * is shown without invisible characters): a name, class, class type,
 * piece name or design word that holds an invisible character, or starts
 * with an accent that has no letter under it, is refused, so that no
 * Fungeoneer or piece is shown with an empty name or looks like
 * another. */
static void
s12_what_does_not_show_is_refused(void **unused)
{
	static const char *const name =
	    "A Fungeoneer's name shows as it is typed: this one holds an invisible character or "
	    "a control, or an accent with no letter under it.";
	struct fgtable *t = fgtable_new(2312);

	(void)unused;
	fgtable_fighters(t, 1, 3);
	fgtable_fails_unchanged(t, "hy", "/fungeon join \xe2\x80\x8b mage", name);
	fgtable_fails_unchanged(t, "hy", "/fungeon join Al\xe2\x80\x8b mage", name);
	fgtable_fails_unchanged(t, "hy", "/fungeon join \xcc\x81 mage", name);
	fgtable_fails_unchanged(t, "hy", "/fungeon join Hy \xe2\x80\x8b",
	                        "A class shows as it is typed: this one holds an invisible "
	                        "character or a control, or an accent with no letter under it.");
	fgtable_fails_unchanged(t, "hy",
	                        "/fungeon join Hy mage 3 type:\xe2\x80\x8b"
	                        "fire",
	                        "A class type shows as it is typed: this one holds an invisible "
	                        "character or a control, or an accent with no letter under it.");
	fgtable_fails_unchanged(t, "hy", "/fungeon join Hy\xe2\x80\x8c mage", name);
	fgtable_fails_unchanged(t, "hy", "/fungeon join \xe2\x80\x8dHy mage", name);
	/* a non-joiner inside a Persian name is part of its spelling */
	fgtable_ok(
	    t, "fa",
	    "/fungeon join \xd8\xb9\xd9\x84\xdb\x8c\xe2\x80\x8c\xd8\xb1\xd8\xb6\xd8\xa7 bard 3");
	fgtable_ok(t, "hy", "/fungeon join Hy Shadow-Mage\xcc\x81 3");
	fgtable_ok(t, "al", "/fungeon hallway");
	fgtable_pick_all(t);
	fgtable_fails_unchanged(t, fgtable_holder(t, FUNGEON_CAT_TRAPS),
	                        "/fungeon trap add \xe2\x80\x8b annoy 2 pain 1 type fire",
	                        "A name shows as it is typed: this one holds an invisible "
	                        "character or a control, or an accent with no letter under it.");
	fgtable_fails_unchanged(t, fgtable_holder(t, FUNGEON_CAT_TRAPS),
	                        "/fungeon trap add pit annoy 2 pain 1 type \xe2\x80\x8b",
	                        "A design shows as it is typed: this one holds an invisible "
	                        "character or a control, or an accent with no letter under it.");
	fgtable_free(t);
}

/* S3 (line 67: every point given is spent): a piece that does not fit
 * what is left says what helps: with nothing left, that the budget is
 * spent and a piece must be unmade first; with less left than any new
 * piece costs, that too, or that the holder may let those go; "make it
 * cheaper" only where a cheaper piece could fit. */
static void
s3_a_spent_budget_says_so(void **unused)
{
	struct fgtable *t = fgtable_new(2303);
	const char *tr, *mo;

	(void)unused;
	fgtable_drawn(t, 3, 3);
	tr = fgtable_holder(t, FUNGEON_CAT_TREASURE);
	fgtable_ok(t, tr, "/fungeon treasure add gem mundane value 5");
	fgtable_fails_unchanged(t, tr, "/fungeon treasure add ring mundane",
	                        "The Treasure budget of room 1 is spent (6 of 6): nothing more can "
	                        "be made; unmake a piece first (/fungeon treasure remove NAME) to "
	                        "change the room.");
	mo = fgtable_holder(t, FUNGEON_CAT_MONSTERS);
	fgtable_ok(t, mo, "/fungeon monster add ogre level 10");
	fgtable_fails_unchanged(t, mo, "/fungeon monster add rat level 3",
	                        "rat costs 3 but the Monsters budget has 2 left this room (budget "
	                        "12, spent 10), less than any new monster costs here (at least 3): "
	                        "unmake a piece first (/fungeon monster remove NAME) to make it "
	                        "again bigger, or let the 2 go (/fungeon enter waive:true).");
	fgtable_ok(t, mo, "/fungeon monster remove ogre");
	fgtable_ok(t, mo, "/fungeon monster add ogre level 6");
	fgtable_fails_unchanged(t, mo, "/fungeon monster add rat level 7",
	                        "rat costs 7 but the Monsters budget has 6 left this room (budget "
	                        "12, spent 6); make it cheaper.");
	fgtable_free(t);
}

/* S5 (lines 53 and 254: the dead are out until the hallway, where their
 * players make new Fungeoneers): after a total party kill in a room, a
 * dead Fungeoneer's player trying to act hears that nobody is in play
 * and what comes first, not only "until the next hallway", which nobody
 * may call before the new Fungeoneers are made. */
static void
s5_after_a_total_party_kill_each_refusal_says_what_next(void **unused)
{
	static const char *const d[] = {"/fungeon trap add gas annoy 2 pain 1 type poison",
	                                "/fungeon monster add ogre level 6",
	                                "/fungeon treasure add idol mundane", NULL};
	static const char *const al =
	    "Al is dead, as is every Fungeoneer of the party: al makes a new one first (/fungeon "
	    "join NAME CLASS, level 2), then any of the party goes on to the hallway (/fungeon "
	    "hallway).";
	struct fgtable *t = fgtable_new(2305);

	(void)unused;
	fgtable_two_in_room(t, 3, d);
	fgtable_all_fall(t);
	fgtable_fails_unchanged(t, "al", "/fungeon take idol", al);
	fgtable_fails_unchanged(t, "al", "/fungeon trigger gas", al);
	fgtable_fails_unchanged(t, "al", "/fungeon find gas", al);
	fgtable_ok(t, "bo", "/fungeon join Bo2 fighter 2");
	fgtable_fails_unchanged(t, "bo", "/fungeon take idol",
	                        "Bo2 is a replacement: bo is out until the next hallway, where Bo2 "
	                        "joins the party; nobody of the party is in play, so any of its "
	                        "players goes on to it (/fungeon hallway).");
	fgtable_fails_unchanged(t, "al", "/fungeon take idol", al);
	fgtable_free(t);
}

/* S7 (lines 53 and 299, town): with the whole party dead in town,
 * selling, buying, a new game session and the party's list each say
 * who makes a new Fungeoneer first, not what a living one would hear. */
static void
s7_in_town_after_a_total_party_kill_the_dead_are_named(void **unused)
{
	static const char *const dead =
	    "Al is dead: al makes a new Fungeoneer here in town (/fungeon join NAME CLASS).";
	struct fgtable *t = fgtable_new(2307);
	char *text;

	(void)unused;
	fgtable_fighters(t, 2, 3);
	fgtable_gm(t, "/fungeon adjust Al hits:-99");
	fgtable_gm(t, "/fungeon adjust Bo hits:-99");
	fgtable_fails_unchanged(t, "al", "/fungeon town sell gem", dead);
	fgtable_fails_unchanged(t, "al", "/fungeon town buy gem mundane", dead);
	text = fgtable_said(t, "al", "/fungeon town session");
	fgtable_holds(text, "A new game session begins: nobody of the party lives.\nal's Al and "
	                    "bo's Bo died: each player makes a new Fungeoneer here in town "
	                    "(/fungeon join NAME CLASS) before the hallway.\n");
	free(text);
	text = fgtable_said(t, "al", "/fungeon party");
	fgtable_holds(text, "al's Al and bo's Bo died: each player makes a new Fungeoneer here "
	                    "in town (/fungeon join NAME CLASS) before the hallway.\n");
	assert_null(strstr(text, "Categories are drawn"));
	free(text);
	fgtable_ok(t, "al", "/fungeon join Al2 fighter 3");
	text = fgtable_said(t, "al", "/fungeon party");
	fgtable_holds(text, "bo's Bo died: bo makes a new Fungeoneer here in town (/fungeon join "
	                    "NAME CLASS) before the hallway.\n");
	free(text);
	fgtable_free(t);
}

/* S4 (delver(7), the panel: its buttons are the step that moves the
 * party on): after a total party kill in a room with a monster standing,
 * the panel says nobody is in play and what comes first, marks the
 * replacement waiting for the hallway, and offers the hallway, not a
 * combat turn nobody may take. */
static void
s4_the_panel_after_a_total_party_kill(void **unused)
{
	static const char *const d[] = {"/fungeon monster add ogre level 6", NULL};
	struct fgtable *t = fgtable_new(2304);
	const struct reply_msg *m;
	char *text;

	(void)unused;
	fgtable_two_in_room(t, 3, d);
	fgtable_all_fall(t);
	fgtable_ok(t, "bo", "/fungeon join Bo2 fighter 2");
	text = fgtable_said(t, "al", "/panel");
	fgtable_holds(text, "Fungeon: the party is in room 1 on floor 3");
	fgtable_holds(text, " · nobody of the party is in play: new Fungeoneers first, then the "
	                    "hallway\n");
	fgtable_holds(text, "Party: Al (dead), Bo2 L2 10/10 hits 0 XP (joins in the hallway)\n");
	free(text);
	m = reply_msg(t->last, REPLY_CHANNEL);
	assert_string_equal(m->buttons[m->nbuttons - 1].action, "fungeon hallway");
	for (size_t i = 0; i < m->nbuttons; i++)
		assert_string_not_equal(m->buttons[i].action, "fungeon combat");
	fgtable_free(t);
}

/* S6 (R3; delver(7): names never clash, whatever their case): names that
 * differ only by full case folding (ß and SS, the ﬁ ligature and FI) are
 * one name, for Fungeoneers and pieces alike, and a sheet finds one by
 * the other. */
static void
s6_names_fold_in_full(void **unused)
{
	struct fgtable *t = fgtable_new(2306);

	(void)unused;
	fgtable_ok(t, "al", "/fungeon join Straße mage 1");
	fgtable_fails_unchanged(t, "bo", "/fungeon join STRASSE knight 1",
	                        "The name STRASSE is taken here by al's Fungeoneer; pick another.");
	fgtable_ok(t, "bo", "/fungeon join \xef\xac\x81re knight 1");
	fgtable_fails_unchanged(t, "cy", "/fungeon join FIRE rogue 1",
	                        "The name FIRE is taken here by bo's Fungeoneer; pick another.");
	fgtable_says(t, "cy", "/fungeon sheet strasse", "Straße");
	/* S15: a compatibility form (fullwidth letters) is the plain name */
	fgtable_fails_unchanged(t, "cy",
	                        "/fungeon join \xef\xbd\x93\xef\xbd\x94\xef\xbd\x92"
	                        "asse rogue 1",
	                        "The name \xef\xbd\x93\xef\xbd\x94\xef\xbd\x92"
	                        "asse is taken here by al's Fungeoneer; pick another.");
	fgtable_free(t);
}

/* S26 (line 246: combat is a guaranteed result; the bot keeps at most 4
 * continuous effects on a Fungeoneer): one who carries 4 still triggers a
 * continuous trap and fights a monster with a continuous ability; the
 * rolls go on as the text has them, and a fifth effect is not started,
 * which the reply says. */
static void
s26_four_effects_never_stop_play(void **unused)
{
	static const char *const d[] = {
	    "/fungeon trap add c5 annoy 10 pain 1 continuous type acid",
	    "/fungeon monster add w level 6 ability s annoy 2 pain 1 continuous type acid", NULL};
	struct fgtable *t = fgtable_new(2326);
	struct fungeon_channel *c;
	char *text;

	(void)unused;
	fgtable_fighters(t, 2, 6);
	fgtable_room_made(t, d);
	c = fgtable_fungeon(t);
	for (int i = 0; i < FUNGEON_EFFECTS_MAX; i++) {
		struct fungeon_effect e = {.kind = FUNGEON_EFFECT_DAMAGE,
		                           .from = FUNGEON_FROM_TRAP,
		                           .annoy = 1,
		                           .pain = 1,
		                           .type = "acid"};

		snprintf(e.source, sizeof(e.source), "e%d", i + 1);
		assert_int_equal(fungeon_effect_add(&c->m[0], &e), 0);
	}
	text = fgtable_said(t, "al", "/fungeon trigger c5 Al");
	fgtable_holds(text, "Al carries 4 continuous effects already, the most the bot keeps: "
	                    "c5's is not added.\n");
	free(text);
	assert_int_equal(c->m[0].neffects, FUNGEON_EFFECTS_MAX);
	text = fgtable_said(t, "al", "/fungeon combat");
	fgtable_holds(text, "3. Painful conflict\n");
	free(text);
	assert_int_equal(c->m[0].neffects, FUNGEON_EFFECTS_MAX);
	fgtable_free(t);
}

/* S22 (delver(7): where a channel has a GM, the GM may decide for anyone,
 * for a player who is away; line 53 makes the new Fungeoneer a step of
 * the hallway): a dead player who is away no longer holds the hallway
 * shut: the GM takes their Fungeoneer out of the party; a player may not
 * take out another's. */
static void
s22_the_gm_takes_out_an_away_player(void **unused)
{
	static const char *const d[] = {"/fungeon monster add rat level 3", NULL};
	struct fgtable *t = fgtable_new(2322);
	struct fungeon_channel *c;

	(void)unused;
	fgtable_two_in_room(t, 3, d);
	fgtable_ok(t, "bo", "/fungeon adjust Bo hits:-99");
	c = fgtable_fungeon(t);
	c->d.room.p[FUNGEON_MONSTER][0].hits = 0;
	fgtable_fails_unchanged(t, "al", "/fungeon leave Bo",
	                        "Bo is bo's Fungeoneer: only the GM takes another player's "
	                        "Fungeoneer out of the party (for a player who is away).");
	fgtable_gm(t, "/fungeon leave Bo");
	assert_int_equal(c->n, 1);
	fgtable_ok(t, "al", "/fungeon hallway confirm:true");
	assert_int_equal(c->d.phase, FUNGEON_HALLWAY);
	fgtable_free(t);

	/* the addendum: on the way back, an away player's wandering monster
	 * to build holds the party until the GM takes that player out */
	t = fgtable_new(2323);
	fgtable_fighters(t, 2, 3);
	c = fgtable_heading_back(t);
	c->m[0].nwander = 1;
	c->m[0].wanderer[0] = 4;
	fgtable_fails_unchanged(t, "bo", "/fungeon retreat",
	                        "al has a wandering monster of 4 points to build in room 1 first "
	                        "(/fungeon monster add NAME DESIGN).");
	fgtable_gm(t, "/fungeon leave Al");
	fgtable_ok(t, "bo", "/fungeon retreat");
	assert_int_equal(c->d.phase, FUNGEON_TOWN);
	fgtable_free(t);
}

/* S17 (line 53: a new Fungeoneer is made in the hallway at the current
 * floor minus one): one made in a room before the party went deeper joins
 * in the hallway at that hallway's floor - 1, as one made after would. */
static void
s17_a_replacement_joins_at_the_hallways_floor(void **unused)
{
	static const char *const d[] = {"/fungeon monster add rat level 3", NULL};
	struct fgtable *t = fgtable_new(2317);
	struct fungeon_channel *c;
	char *text;

	(void)unused;
	c = fgtable_two_in_room(t, 3, d);
	fgtable_ok(t, "bo", "/fungeon adjust Bo hits:-99");
	fgtable_says(t, "bo", "/fungeon join Bo2 fighter", "Bo2, level 2 fighter");
	c->d.room.p[FUNGEON_MONSTER][0].hits = 0;
	fgtable_gm(t, "/fungeon floor 6");
	text = fgtable_said(t, "al", "/fungeon hallway confirm:true");
	fgtable_holds(text, "bo's new Fungeoneer Bo2 joins the party at level 5 (floor 6 - 1; it "
	                    "was made at level 2, on the floor before).\n");
	free(text);
	assert_int_equal(c->m[1].level, 5);
	assert_int_equal(c->m[1].hits, 25);
	fgtable_free(t);
}

/* S20 (line 46: the entrance opens onto a floor equal to Party Min): at
 * the entrance, before the first hallway, joins and leaves move the
 * floor with Party Min, and the reply says so. */
static void
s20_the_entrance_follows_party_min(void **unused)
{
	struct fgtable *t = fgtable_new(2320);
	struct fungeon_channel *c;

	(void)unused;
	fgtable_ok(t, "a", "/fungeon join A1 x 2");
	fgtable_ok(t, "b", "/fungeon join B1 y 2");
	fgtable_ok(t, "a", "/fungeon entrance");
	c = fgtable_fungeon(t);
	assert_int_equal(c->d.floor, 2);
	fgtable_ok(t, "b", "/fungeon leave");
	fgtable_ok(t, "b", "/fungeon join B1 y 5");
	assert_int_equal(c->d.floor, 2);
	fgtable_says(t, "a", "/fungeon leave", "The entrance now opens on floor 5, the Party Min.");
	assert_int_equal(c->d.floor, 5);
	fgtable_ok(t, "a", "/fungeon join A1 x 5");
	fgtable_says(t, "c", "/fungeon join C1 z 3",
	             "The entrance now opens on floor 3, the Party Min.");
	fgtable_ok(t, "c", "/fungeon leave");
	fgtable_says(t, "a", "/fungeon hallway", "Hallway: room 1 next, floor 5");
	fgtable_free(t);
}

/* S29 (delver(7): a mark is symbols, emoji or letters, so that dice are
 * told apart where colour does not show): a mark that would read as part
 * of the die (a digit of any script, + - . ,) or change how a line shows
 * (Discord's ~ * _ ` |) is refused; symbols and letters still are marks. */
static void
s29_a_mark_never_reads_as_a_number(void **unused)
{
	static const char *const refused =
	    "A mark may not hold digits, number signs (+ - . ,) or the formatting characters "
	    "~ * _ ` | \\, which would read as part of the die; pick 1 or 2 symbols or emoji, or "
	    "up to 4 letters.";
	static const char *const bad[] = {
	    "12",           "6",  "-",  "+", ".", "\xc2\xb9", "\xef\xbc\x91",
	    "\xe2\x85\xab", "~~", "**", "_", "`", "a1"};
	struct fgtable *t = fgtable_new(2329);
	char line[64];

	(void)unused;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(line, sizeof(line), "/thwacko style red %s", bad[i]);
		fgtable_fails_unchanged(t, "ann", line, refused);
	}
	fgtable_ok(t, "ann", "/thwacko style red \xe2\x9c\x9a");
	fgtable_ok(t, "ann", "/thwacko style red abcd");
	fgtable_free(t);
}

/* S30: a name that is a bare number or one of the words the bot's
 * replies and options give a meaning (none, all, tie, dead) is refused,
 * so that a rank table or an order never reads two ways. */
static void
s30_a_name_is_never_a_word_of_the_bots(void **unused)
{
	static const char *const words[] = {"6",    "none", "All", "tie",
	                                    "dead", "-5",   "+7",  "\xe2\x85\xab"};
	struct fgtable *t = fgtable_new(2330);
	char line[64], want[240];

	(void)unused;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		snprintf(line, sizeof(line), "/fungeon join %s knight 3", words[i]);
		snprintf(want, sizeof(want),
		         "'%s' reads as a number or as a word the bot's replies and options use "
		         "(none, all, tie, dead); pick another name.",
		         words[i]);
		fgtable_fails_unchanged(t, "a", line, want);
	}
	fgtable_ok(t, "a", "/fungeon join Tie2 knight 3");
	fgtable_free(t);
}

/* S18 (delver(7): names never clash): an item bought in town may not
 * take a Fungeoneer's or a player's name, the buyer's own included, as a
 * piece made in a room may not. */
static void
s18_an_item_bought_takes_no_ones_name(void **unused)
{
	struct fgtable *t = fgtable_new(2318);
	struct fungeon_channel *c;

	(void)unused;
	fgtable_fighters(t, 2, 3);
	c = fgtable_fungeon(t);
	c->m[1].credit = 5;
	fgtable_fails_unchanged(t, "bo", "/fungeon town buy Al mundane",
	                        "The name Al is taken here by al's Fungeoneer; pick another.");
	fgtable_fails_unchanged(t, "bo", "/fungeon town buy Bo mundane",
	                        "The name Bo is taken here by bo's Fungeoneer; pick another.");
	fgtable_ok(t, "bo", "/fungeon town buy gem mundane");
	fgtable_free(t);
}

/* S9 (delver(7): setting the floor is the GM's correction outside the
 * rules): a player setting it in the hallway hears that it is the GM's,
 * not where the GM could set it. */
static void
s9_a_player_setting_the_floor_hears_it_is_the_gms(void **unused)
{
	struct fgtable *t = fgtable_new(2309);

	(void)unused;
	fgtable_drawn(t, 1, 3);
	fgtable_fails_unchanged(
	    t, "al", "/fungeon floor 9",
	    "Only the GM sets the floor by hand, a correction outside the "
	    "rules: the entrance opens on Party Min, and a downward stair leads "
	    "one floor deeper (/fungeon stair).");
	fgtable_free(t);
}

/* S13, S14, S21 (orders: who>target, target alone for one's own, none for
 * the default): an empty targets: or use: is refused in one sentence; a
 * second '>' is refused, not dropped; none alone puts one's own
 * Fungeoneer back to the default. */
static void
s13_s14_orders_read_one_way(void **unused)
{
	static const char *const d[] = {"/fungeon monster add rat level 3",
	                                "/fungeon monster add rat2 level 3", NULL};
	struct fgtable *t = fgtable_new(2313);
	struct fungeon_channel *c;

	(void)unused;
	c = fgtable_two_in_room(t, 3, d);
	fgtable_fails_unchanged(t, "al", "/fungeon orders targets:",
	                        "targets: needs an order, who>target (Alba>goblin), or a target "
	                        "alone for your own Fungeoneer (none: back to the default).");
	fgtable_fails_unchanged(t, "al", "/fungeon orders targets:Al>rat>rat2",
	                        "An order is who>target, with one '>' (Alba>goblin); 'Al>rat>rat2' "
	                        "has more: separate orders with commas (Alba>goblin, Brom>rat).");
	fgtable_says(t, "al", "/fungeon orders targets:rat", "Al's won ranks hurt rat");
	assert_string_equal(c->m[0].aim, "rat");
	fgtable_says(t, "al", "/fungeon orders targets:none",
	             "Al's won ranks hurt the other side's lowest die again (the default).");
	assert_string_equal(c->m[0].aim, "");
	fgtable_free(t);
}

/* S24 (Ruling: a trap is found before it is disarmed, and one who
 * searched in vain stays in blissful ignorance): that one, trying to
 * disarm it, hears why not and what the others may do, not "search for
 * it first", which it may not. */
static void
s24_one_who_searched_in_vain_hears_why_it_cannot_disarm(void **unused)
{
	static const char *const d[] = {"/fungeon trap add pit annoy 2 pain 1 type spikes", NULL};
	struct fgtable *t = fgtable_new(2324);
	struct fungeon_channel *c;

	(void)unused;
	c = fgtable_two_in_room(t, 3, d);
	c->d.room.p[FUNGEON_TRAP][0].unaware = 1u << 1; /* Bo searched and failed */
	fgtable_fails_unchanged(t, "bo", "/fungeon disarm pit",
	                        "Bo searched for pit and found nothing, so cannot disarm it "
	                        "(blissful ignorance, a Ruling): another may search for it, or "
	                        "anyone may get past it by triggering it.");
	fgtable_free(t);
}

/* S25 (line 226: a healing item works once): using one on a Fungeoneer
 * with all its hits and no continuous damage is refused, the item kept;
 * once wounded, it heals. */
static void
s25_a_healing_item_is_not_spent_on_nothing(void **unused)
{
	struct fgtable *t = fgtable_new(2325);
	struct fungeon_channel *c;

	(void)unused;
	fgtable_fighters(t, 1, 4);
	c = fgtable_fungeon(t);
	c->m[0].credit = 5;
	fgtable_ok(t, "al", "/fungeon town buy p fancy heal 1");
	fgtable_fails_unchanged(t, "al", "/fungeon use p",
	                        "Al has all 20 hits and no continuous damage: p would heal "
	                        "nothing, and it works once; keep it.");
	c->m[0].hits = 18;
	fgtable_says(t, "al", "/fungeon use p", "Al heals 1 with Al's p, used up: 19/20 hits.");
	fgtable_free(t);
}

/* S19 (issue 25: each Ruling is shown in /help and delver(7)): the
 * Rulings on a monster's maker earning XP and on the most pieces a room
 * holds are in /help where a table looks for them. */
static void
s19_the_rulings_are_in_help(void **unused)
{
	struct fgtable *t = fgtable_new(1);

	(void)unused;
	fgtable_says(t, "al", "/help fungeon combat steps",
	             "Ruling: its maker's Fungeoneer too (a wandering one's as well), as a "
	             "trap's maker's Fungeoneer earns it from the trap.");
	fgtable_says(t, "al", "/help fungeon monster add",
	             "Ruling: a room holds at most 24 monsters made for it");
	fgtable_says(t, "al", "/help fungeon treasure add",
	             "Ruling: a room holds at most 24 treasures made for it");
	fgtable_free(t);
}

/* S23 (line 86: the stair leads to the next floor; Ruling: taking it is
 * the party's choice): the confirmation before leaving a room with
 * treasure behind names its stair not taken too. */
static void
s23_leaving_names_the_stair_not_taken(void **unused)
{
	static const char *const d[] = {"/fungeon treasure add gem mundane", NULL};
	struct fgtable *t = fgtable_new(2323);
	struct fungeon_channel *c;

	(void)unused;
	fgtable_fighters(t, 1, 3);
	fgtable_room_made(t, d);
	c = fgtable_fungeon(t);
	c->d.room.stair = true;
	fgtable_says(t, "al", "/fungeon hallway",
	             "Going on leaves room 1 with 1 treasure untaken (gem) and its downward stair "
	             "to floor 4, not taken (/fungeon stair), behind for good. Go with /fungeon "
	             "hallway confirm:true.");
	fgtable_free(t);
}

/* S10 (delver(7) Limits: floors 1 to 61): when Party Min rises on floor
 * 61, the hallway says no stair leads deeper instead of placing one that
 * /fungeon stair then refuses, and the room has none. */
static void
s10_no_stair_past_the_deepest_floor(void **unused)
{
	struct fgtable *t = fgtable_new(2310);
	struct fungeon_channel *c;
	char *text;

	(void)unused;
	c = fgtable_alone_on_floor(t, 61, "/fungeon treasure add gem mundane");
	fgtable_gm(t, "/fungeon adjust Al xp:999999999999");
	text = fgtable_said(t, "al", "/fungeon hallway confirm:true");
	fgtable_holds(text, "but floor 61 is the deepest the bot counts: no stair leads deeper.\n");
	assert_null(strstr(text, "floor 62"));
	free(text);
	assert_false(c->d.room.stair);
	fgtable_free(t);
}

/* S27 (line 299: hits heal only through magic treasure bought): the
 * healer, short of credit for every hit missing, says what the credit
 * buys, and says "sell treasure first" only to one who carries some. */
static void
s27_the_healer_says_what_the_credit_buys(void **unused)
{
	struct fgtable *t = fgtable_new(2327);
	struct fungeon_channel *c;

	(void)unused;
	fgtable_fighters(t, 1, 4);
	c = fgtable_fungeon(t);
	c->m[0].hits = 9;
	c->m[0].credit = 10;
	fgtable_fails_unchanged(t, "al", "/fungeon town healer",
	                        "Healing 11 hits costs 13 points (a fancy item, 2, with Heal 11) "
	                        "but Al has 10 points of credit: it buys Heal 8 (/fungeon town "
	                        "healer hits:8).");
	c->m[0].credit = 2;
	fgtable_fails_unchanged(t, "al", "/fungeon town healer",
	                        "Healing 11 hits costs 13 points (a fancy item, 2, with Heal 11) "
	                        "but Al has 2 points of credit, and nothing to sell.");
	fgtable_free(t);
}

/* S31: a name saved before invisible characters were refused ("Al<U+200B>ba",
 * shown as Alba) is found by what it shows, and a new "Alba" clashes with
 * it. */
static void
s31_a_saved_name_is_matched_by_what_it_shows(void **unused)
{
	struct fgtable *t = fgtable_new(2331);
	struct fungeon_channel *c;

	(void)unused;
	fgtable_fighters(t, 1, 3);
	c = fgtable_fungeon(t);
	snprintf(c->m[0].name, sizeof(c->m[0].name),
	         "Al\xe2\x80\x8b"
	         "ba");
	fgtable_says(t, "bo", "/fungeon sheet Alba", "Alba");
	fgtable_fails_unchanged(t, "zz", "/fungeon join Alba knight 3",
	                        "The name Alba is taken here by al's Fungeoneer; pick another.");
	fgtable_free(t);
}

/* S8 (line 18: the level is a number): a level written as a word is not
 * taken as the class type; the reply shows how to write both. */
static void
s8_a_level_in_words_is_no_class_type(void **unused)
{
	struct fgtable *t = fgtable_new(2308);

	(void)unused;
	fgtable_fails_unchanged(t, "zz", "/fungeon join Zed fighter three",
	                        "'three' reads as a level written in words, not a class type: a "
	                        "level is a number (/fungeon join Zed fighter 3), a class type a "
	                        "word such as fire (type:fire).");
	fgtable_says(t, "zz", "/fungeon join Zed fighter 3", "level 3 fighter");
	fgtable_free(t);
}

/* S11 (Ruling: one who dies in a hallway leaves its treasure in the room
 * that hallway leads to; line 254: for the others to plunder): that
 * treasure is plundered in that room, not from the hallway before it. */
static void
s11_what_the_hallway_dead_left_waits_in_the_room(void **unused)
{
	struct fgtable *t = fgtable_new(2311);
	struct fungeon_channel *c;
	struct fungeon_piece *p;

	(void)unused;
	c = fgtable_drawn(t, 2, 3);
	p = fungeon_room_add(&c->d.room, FUNGEON_TREASURE);
	snprintf(p->name, sizeof(p->name), "antidote");
	p->d.kind = FUNGEON_TREASURE;
	p->cost = 4;
	p->left = true;
	fgtable_fails_unchanged(t, "al", "/fungeon take antidote",
	                        "The party is in the hallway before room 1, and what the dead left "
	                        "needs the room: once its designs are made, go in with /fungeon "
	                        "enter.");
	fgtable_free(t);
}

/* S16 (line 295: whoever fails creates a wandering monster with its
 * points): on the way back, unmaking one says it stays, not that nothing
 * is made there; and while a wanderer is still to be built, the panel
 * offers no combat turn (which would be refused) nor a step back. */
static void
s16_a_wanderer_built_stays(void **unused)
{
	struct fgtable *t = fgtable_new(2316);
	struct fungeon_channel *c;
	const struct reply_msg *m;
	char *text;

	(void)unused;
	fgtable_fighters(t, 2, 3);
	c = fgtable_heading_back(t);
	c->m[0].nwander = 1;
	c->m[0].wanderer[0] = 4;
	c->m[1].nwander = 1;
	c->m[1].wanderer[0] = 4;
	fgtable_ok(t, "bo", "/fungeon monster add w3 level 4");
	fgtable_fails_unchanged(t, "bo", "/fungeon monster remove w3",
	                        "On the way back a wandering monster, once built, stays: whoever "
	                        "failed the roll creates it with all its points (/undo takes back "
	                        "a build made by mistake).");
	text = fgtable_said(t, "al", "/panel");
	free(text);
	m = reply_msg(t->last, REPLY_CHANNEL);
	for (size_t i = 0; i < m->nbuttons; i++) {
		assert_string_not_equal(m->buttons[i].action, "fungeon combat");
		assert_string_not_equal(m->buttons[i].action, "fungeon retreat");
	}
	fgtable_free(t);
}

/* S28 (delver(7): in town the players choose the level; Ruling: on the
 * way back a new Fungeoneer joins in town): one who joins on the way back
 * takes the level typed, and joins the party in town. */
static void
s28_joining_on_the_way_back_is_joining_in_town(void **unused)
{
	struct fgtable *t = fgtable_new(2328);

	(void)unused;
	fgtable_fighters(t, 2, 3);
	fgtable_heading_back(t);
	fgtable_says(t, "nu", "/fungeon join Newt rogue 3",
	             "nu joins as Newt, level 3 rogue: 15 hits, class bonus 1, 0 XP. Newt joins "
	             "the party when it reaches town (no hallway comes on the way back).");
	fgtable_free(t);
}

/* S21: the parts of use: and bonus: say what is missing: a monster/ with
 * no ability, a /ability with no monster, an ability asked of a monster
 * that has none, an empty bonus:. */
static void
s21_empty_parts_are_named(void **unused)
{
	static const char *const d[] = {
	    "/fungeon monster add wolf level 3 ability howl annoy 2 type fear",
	    "/fungeon monster add imp level 3", NULL};
	struct fgtable *t = fgtable_new(2321);

	(void)unused;
	fgtable_two_in_room(t, 3, d);
	fgtable_fails_unchanged(t, fgtable_holder(t, FUNGEON_CAT_MONSTERS),
	                        "/fungeon orders use:wolf/",
	                        "'wolf/' names no ability: an ability is written monster/ability "
	                        "(wolf/howl), or monster/none.");
	fgtable_fails_unchanged(t, fgtable_holder(t, FUNGEON_CAT_MONSTERS),
	                        "/fungeon orders use:/howl",
	                        "'/howl' names no monster: an ability is written monster/ability "
	                        "(wolf/howl), or monster/none.");
	fgtable_fails_unchanged(
	    t, fgtable_holder(t, FUNGEON_CAT_MONSTERS), "/fungeon orders use:imp/howl",
	    "The monster imp has no special ability: imp/none is all it takes.");
	fgtable_fails_unchanged(t, "al", "/fungeon combat bonus:",
	                        "bonus: needs the names of those whose class fits, or all.");
	fgtable_free(t);
}

/* playtest8 T8 (line 53: whoever died makes a new one, before the draw):
 * a whole party dead in the hallway's continuous damage leaves nobody to
 * draw, and the table was stuck ("has run already", nobody holds a
 * category). Once the new Fungeoneers have joined, the hallway runs again
 * for the same room: they join, draw and make it, and what the dead left
 * lies in it. */
static void
t8_a_hallway_that_killed_everyone_runs_again(void **unused)
{
	struct fgtable *t = fgtable_new(2400);
	struct fungeon_channel *c;
	const struct reply_msg *m;
	char *text;

	(void)unused;
	fgtable_fighters(t, 1, 3);
	fgtable_ok(t, "al", "/fungeon hallway");
	fgtable_enter_waived(t);
	fgtable_doomed(t, 0, "gem");
	text = fgtable_said(t, "al", "/fungeon hallway confirm:true");
	assert_non_null(strstr(text, "Al dies!"));
	assert_non_null(strstr(text, "No Fungeoneer is alive to draw a category"));
	free(text);
	/* the panel offers the hallway, not the room nobody can make */
	free(fgtable_said(t, "al", "/panel"));
	m = reply_msg(t->last, REPLY_CHANNEL);
	assert_string_equal(m->buttons[m->nbuttons - 1].label, "Hallway");
	assert_string_equal(m->buttons[m->nbuttons - 1].action, "fungeon hallway");
	fgtable_ok(t, "al", "/fungeon join Al2 fighter");
	text = fgtable_said(t, "al", "/fungeon hallway");
	assert_non_null(strstr(text, "Hallway: room 2 next"));
	assert_non_null(strstr(text, "A lone player makes the whole room: al holds Traps, "
	                             "Monsters and Treasure, and so describes the room and "
	                             "draws it on the map first."));
	free(text);
	c = fgtable_fungeon(t);
	assert_int_equal(c->d.room.number, 2);
	assert_int_equal(c->d.room.picks.n, 1);
	assert_int_equal(c->d.room.n[FUNGEON_TREASURE], 1);
	assert_string_equal(c->d.room.p[FUNGEON_TREASURE][0].name, "gem");
	/* run, it is not run a third time */
	fgtable_fails_unchanged(t, "al", "/fungeon hallway",
	                        "The hallway before room 2 has run already; make its designs, "
	                        "then go in with /fungeon enter.");
	fgtable_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(s1_every_held_one_is_named),
	    cmocka_unit_test(s2_a_price_says_the_sale),
	    cmocka_unit_test(s3_a_spent_budget_says_so),
	    cmocka_unit_test(s4_the_panel_after_a_total_party_kill),
	    cmocka_unit_test(s5_after_a_total_party_kill_each_refusal_says_what_next),
	    cmocka_unit_test(s7_in_town_after_a_total_party_kill_the_dead_are_named),
	    cmocka_unit_test(s6_names_fold_in_full),
	    cmocka_unit_test(s8_a_level_in_words_is_no_class_type),
	    cmocka_unit_test(s9_a_player_setting_the_floor_hears_it_is_the_gms),
	    cmocka_unit_test(s10_no_stair_past_the_deepest_floor),
	    cmocka_unit_test(s11_what_the_hallway_dead_left_waits_in_the_room),
	    cmocka_unit_test(s12_what_does_not_show_is_refused),
	    cmocka_unit_test(s13_s14_orders_read_one_way),
	    cmocka_unit_test(s16_a_wanderer_built_stays),
	    cmocka_unit_test(s17_a_replacement_joins_at_the_hallways_floor),
	    cmocka_unit_test(s18_an_item_bought_takes_no_ones_name),
	    cmocka_unit_test(s19_the_rulings_are_in_help),
	    cmocka_unit_test(s20_the_entrance_follows_party_min),
	    cmocka_unit_test(s21_empty_parts_are_named),
	    cmocka_unit_test(s22_the_gm_takes_out_an_away_player),
	    cmocka_unit_test(s23_leaving_names_the_stair_not_taken),
	    cmocka_unit_test(s24_one_who_searched_in_vain_hears_why_it_cannot_disarm),
	    cmocka_unit_test(s25_a_healing_item_is_not_spent_on_nothing),
	    cmocka_unit_test(s26_four_effects_never_stop_play),
	    cmocka_unit_test(s27_the_healer_says_what_the_credit_buys),
	    cmocka_unit_test(s28_joining_on_the_way_back_is_joining_in_town),
	    cmocka_unit_test(s29_a_mark_never_reads_as_a_number),
	    cmocka_unit_test(s30_a_name_is_never_a_word_of_the_bots),
	    cmocka_unit_test(s31_a_saved_name_is_matched_by_what_it_shows),
	    cmocka_unit_test(t8_a_hallway_that_killed_everyone_runs_again),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
