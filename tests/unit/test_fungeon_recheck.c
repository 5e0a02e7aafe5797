/* The outside recheck's findings on Fungeon's join (F7, F8) and on the
 * name a Fungeoneer's player goes by (F14): each played at a table as the
 * report found it, with what the rule text (or delver(7)) wants instead. */
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

/* F7 (line 18: a level is a number, "First, Second or Third Level"; line
 * 16: a class is a career): a class that reads as a level is refused
 * however it is typed, quoted ("level 3", "level three", "wizard 3") or
 * joined by - ("wizard-3", "third-level"), and a CJK numeral is a number
 * as ٣ is ("三" as a type, "三級" as a class); a class with a number word
 * that is no level stays a class. */
static void
f7_a_quoted_level_is_no_class(void **unused)
{
	struct fgtable *t = fgtable_new(1407);

	(void)unused;
	fgtable_fails_unchanged(t, "al", "/fungeon join Alba \"level 3\"",
	                        "'level 3' reads as a level, not a class: a class is any career, "
	                        "such as fighter, and the level is typed after it as a word of "
	                        "its own, in the digits 0 to 9 (/fungeon join Alba CLASS 3).");
	fgtable_fails_unchanged(t, "v6", "/fungeon join Vee6 \"lvl 3\" 2",
	                        "'lvl 3' reads as a level, not a class: a class is any career, "
	                        "such as fighter, and the level is typed after it as a word of "
	                        "its own, in the digits 0 to 9 (/fungeon join Vee6 CLASS 2).");
	fgtable_fails_unchanged(t, "v8", "/fungeon join Vee8 \"Level 3\"",
	                        "'Level 3' reads as a level, not a class: a class is any career, "
	                        "such as fighter, and the level is typed after it as a word of "
	                        "its own, in the digits 0 to 9 (/fungeon join Vee8 CLASS 3).");
	fgtable_fails_unchanged(t, "v7", "/fungeon join Vee7 \"level three\"",
	                        "'level three' reads as a level, not a class: a class is any "
	                        "career, such as fighter, and the level is typed after it as a "
	                        "word of its own, in the digits 0 to 9 (/fungeon join Vee7 CLASS "
	                        "3).");
	fgtable_fails_unchanged(t, "v10", "/fungeon join Vee10 \"level \xef\xbc\x93\"",
	                        "'level \xef\xbc\x93' reads as a level, not a class: a class is "
	                        "any career, such as fighter, and the level is typed after it as "
	                        "a word of its own, in the digits 0 to 9 (/fungeon join Vee10 "
	                        "CLASS LEVEL).");
	fgtable_fails_unchanged(t, "v3", "/fungeon join Vee3 \"wizard 3\"",
	                        "'wizard 3' holds a level, which a class may not: the level is "
	                        "typed after the class as a word of its own, in the digits 0 to 9 "
	                        "(/fungeon join Vee3 wizard 3).");
	fgtable_fails_unchanged(t, "v3", "/fungeon join Vee3 \"Shadow Mage three\"",
	                        "'Shadow Mage three' holds a level, which a class may not: the "
	                        "level is typed after the class as a word of its own, in the "
	                        "digits 0 to 9 (/fungeon join Vee3 \"Shadow Mage\" 3).");
	fgtable_fails_unchanged(t, "v3", "/fungeon join Vee3 wizard-3",
	                        "'wizard-3' holds a level, which a class may not: the level is "
	                        "typed after the class as a word of its own, in the digits 0 to 9 "
	                        "(/fungeon join Vee3 wizard 3).");
	fgtable_fails_unchanged(t, "v3", "/fungeon join Vee3 third-level",
	                        "'third-level' reads as a level, not a class: a class is any "
	                        "career, such as fighter, and the level is typed after it as a "
	                        "word of its own, in the digits 0 to 9 (/fungeon join Vee3 CLASS "
	                        "3).");
	/* CJK numerals read as ٣ does */
	fgtable_fails_unchanged(t, "w7", "/fungeon join W7 wizard 3 type:\xe4\xb8\x89",
	                        "'\xe4\xb8\x89' reads as a number, not a class type: a level is a "
	                        "whole number from 1 to 60 in the digits 0 to 9, a class type a "
	                        "word such as fire (type:fire).");
	fgtable_fails_unchanged(t, "w7", "/fungeon join W7 wizard 3 type:\xd9\xa3",
	                        "'\xd9\xa3' reads as a number, not a class type: a level is a "
	                        "whole number from 1 to 60 in the digits 0 to 9, a class type a "
	                        "word such as fire (type:fire).");
	fgtable_fails_unchanged(t, "w7", "/fungeon join W7 \xe4\xb8\x89\xe7\xb4\x9a",
	                        "'\xe4\xb8\x89\xe7\xb4\x9a' reads as a level, not a class: a class "
	                        "is any career, such as fighter, and the level after it a whole "
	                        "number from 1 to 60 in the digits 0 to 9.");
	/* a number word that is no level, and a CJK class holding 一 */
	fgtable_says(t, "al", "/fungeon join Alba \"Third Eye Monk\" 2",
	             "al joins as Alba, level 2 Third Eye Monk: 10 hits");
	fgtable_says(t, "w7", "/fungeon join W7 \xe4\xb8\x80\xe5\x88\x80\xe6\xb5\x81 2",
	             "w7 joins as W7, level 2 \xe4\xb8\x80\xe5\x88\x80\xe6\xb5\x81: 10 hits");
	fgtable_free(t);
}

/* F8 (line 16: "any career, such as Warrior, Shadow Mage or Drazzorian
 * Puddle Thumper"; line 20: "the Thrice-Mad Barbarian Class"): a word
 * typed after the class where the level goes still becomes the class type
 * (as delver(7) has it), but the reply says so and how to quote a class of
 * several words; a class of three words typed bare is refused saying to
 * quote it. */
static void
f8_a_class_of_several_words_is_pointed_out(void **unused)
{
	struct fgtable *t = fgtable_new(1408);

	(void)unused;
	fgtable_says(t, "c", "/fungeon join Shade Shadow Mage 3",
	             "c joins as Shade, level 3 Shadow (class type Mage): 15 hits, class bonus "
	             "1, 0 XP. Mage is taken as the class type, the damage the class bonus "
	             "counts against; if \"Shadow Mage\" is one class, quote it (/fungeon join "
	             "Shade \"Shadow Mage\" 3).");
	fgtable_says(t, "a", "/fungeon join Brinks Thrice-Mad Barbarian",
	             "Barbarian is taken as the class type, the damage the class bonus counts "
	             "against; if \"Thrice-Mad Barbarian\" is one class, quote it (/fungeon join "
	             "Brinks \"Thrice-Mad Barbarian\").");
	fgtable_fails_unchanged(t, "b", "/fungeon join Rupert Drazzorian Puddle Thumper 2",
	                        "Level must be a whole number from 1 to 60 (got 'Puddle'); if "
	                        "\"Drazzorian Puddle Thumper\" is one class, quote it; usage: "
	                        "/fungeon join <name> <class> [level] [type]");
	/* quoted, the text's classes are classes; a type given after the
	 * level or by name is said as before */
	fgtable_says(t, "b", "/fungeon join Rupert \"Drazzorian Puddle Thumper\" 2",
	             "b joins as Rupert, level 2 Drazzorian Puddle Thumper: 10 hits, class bonus "
	             "1, 0 XP.");
	fgtable_says(t, "d", "/fungeon join Fia \"Fire Mage\" 2 fire",
	             "d joins as Fia, level 2 Fire Mage (class type fire): 10 hits, class bonus "
	             "1, 0 XP.");
	fgtable_free(t);
}

/* The name the platform knows a key by now (the origin's name_now): one
 * renamed key, as an IRC nick after a NICK. */
static const char *renamed_key, *renamed_to;
static int renamed_asked; /* how often the renamed key's name was asked */

static const char *
nick_now(void *ctx, const char *key)
{
	(void)ctx;
	if (renamed_key == NULL || strcmp(key, renamed_key) != 0)
		return NULL;
	renamed_asked++;
	return renamed_to;
}

/* A command typed in the table's channel by user key under the name
 * name, on a platform whose names change (IRC). */
static char *
typed_as(struct fgtable *t, const char *key, const char *name, const char *line)
{
	struct origin o = {.platform = "irc", .name_now = nick_now};

	snprintf(o.chan_key, sizeof(o.chan_key), "console:t");
	snprintf(o.user_key, sizeof(o.user_key), "console:%s", key);
	snprintf(o.user_name, sizeof(o.user_name), "%s", name);
	reply_clear(t->last);
	dispatch_line(t->d, &o, line, strlen(line), 1000, t->last);
	return reply_plain(t->last);
}

/* F14 (delver(8): replies that name the GM name the nick used now): a
 * Fungeoneer's player is named by the nick they use now, on their own
 * sheet after their NICK, and in the party another asks for. */
static void
f14_a_player_is_named_by_the_nick_now(void **unused)
{
	struct fgtable *t = fgtable_new(1414);
	char *text;

	(void)unused;
	fgtable_ok(t, "bob", "/fungeon join Brom fighter 2");
	fgtable_ok(t, "al", "/fungeon join Alba wizard 2");
	text = typed_as(t, "bob", "bob_", "/fungeon sheet");
	fgtable_holds(text, "Brom (bob_): level 2 fighter");
	free(text);
	renamed_key = "console:bob";
	renamed_to = "Bobby";
	text = typed_as(t, "al", "al", "/fungeon party");
	fgtable_holds(text, "Bobby");
	assert_null(strstr(text, "bob_"));
	free(text);
	renamed_key = NULL;
	fgtable_free(t);
}

/* F14, every command: the players are named by the nick used now once
 * before each command in the channel, where the GM seat is
 * (commands/core/dispatch.c), not by Fungeon's commands alone: /thwacko,
 * which lists the party's dice by player, names the new nick too. */
static void
f14_the_nick_now_comes_before_every_command(void **unused)
{
	struct fgtable *t = fgtable_new(1415);
	char *text;

	(void)unused;
	fgtable_ok(t, "bob", "/fungeon join Brom fighter 2");
	renamed_key = "console:bob";
	renamed_to = "Bobby";
	renamed_asked = 0;
	text = typed_as(t, "al", "al", "/thwacko");
	assert_int_equal(renamed_asked, 1);
	fgtable_holds(text, "Bobby");
	assert_null(strstr(text, "bob"));
	free(text);
	renamed_asked = 0;
	text = typed_as(t, "al", "al", "/fungeon party");
	assert_int_equal(renamed_asked, 1);
	fgtable_holds(text, "Brom | Bobby");
	free(text);
	renamed_key = NULL;
	fgtable_free(t);
}

/* recheck20 finding 2 by a NICK: a new nick that would leave a
 * Fungeoneer nobody can name (bob's Al, once a player is called Al while
 * bob is alice's Fungeoneer's name), which /fungeon join refuses, is not
 * taken either: the party keeps the old one, and tells its player so on
 * a /fungeon command, in one sentence to them alone. The same for a nick
 * that would strand the player's own Fungeoneer. */
static void
a_nick_that_strands_a_fungeoneer_is_not_taken(void **unused)
{
	struct fgtable *t = fgtable_new(2020);
	char *text;

	(void)unused;
	fgtable_ok(t, "alice", "/fungeon join bob wizard 2");
	fgtable_ok(t, "bob", "/fungeon join Al fighter 2");
	fgtable_ok(t, "carl", "/fungeon join Zed thief 2");
	fgtable_ok(t, "zara", "/fungeon join Zed2 thief 2");
	renamed_key = "console:carl";
	renamed_to = "Al";
	text = typed_as(t, "alice", "alice", "/fungeon party");
	fgtable_holds(text, "Zed | carl");
	assert_null(strstr(text, "This party still calls"));
	free(text);
	text = typed_as(t, "carl", "Al", "/fungeon sheet");
	assert_string_equal(
	    text, "Zed (carl): level 2 thief\nHits 10/10 · class bonus 1 · XP 0 (level 3 at 40)\n"
	          "[private]\nThis party still calls you carl, not Al: Al is bob's Fungeoneer's "
	          "name, whose "
	          "other name, bob, is alice's Fungeoneer's too, so no command could name bob's Al "
	          "any more; take another nick, or this one once bob's Al has left the party.\n");
	free(text);
	fgtable_says(t, "alice", "/fungeon sheet Al", "Al (bob)");
	/* carl's own Zed: called bob, carl would clash with alice's bob, and
	 * Zed with the player zara, were she called Zed */
	renamed_key = "console:zara";
	renamed_to = "Zed";
	free(typed_as(t, "alice", "alice", "/fungeon party"));
	renamed_key = "console:carl";
	renamed_to = "bob";
	text = typed_as(t, "carl", "bob", "/fungeon sheet");
	fgtable_holds(text, "This party still calls you carl, not bob: bob is alice's "
	                    "Fungeoneer's name and your Fungeoneer's, Zed, is another player's, so "
	                    "no command could name your Zed any more; take another nick.");
	free(text);
	fgtable_says(t, "alice", "/fungeon sheet carl", "Zed (carl)");
	renamed_key = NULL;
	fgtable_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(f7_a_quoted_level_is_no_class),
	    cmocka_unit_test(f8_a_class_of_several_words_is_pointed_out),
	    cmocka_unit_test(f14_a_player_is_named_by_the_nick_now),
	    cmocka_unit_test(a_nick_that_strands_a_fungeoneer_is_not_taken),
	    cmocka_unit_test(f14_the_nick_now_comes_before_every_command),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
