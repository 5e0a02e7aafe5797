/*
 * The GM's screen when the seat changes hands (issue 25's play-test, L3).
 * A GM who releases the seat while Tension is hidden is told, privately,
 * what the next holder will read. The next holder reads the current
 * Tension value (needed to run the game) and that earlier changes were
 * made behind another GM's screen, not their text; the secret rolls sent
 * to the earlier GM stay theirs (/log secret shows a GM the rolls sent to
 * them alone); the changes behind the earlier screen are neither named to
 * the new GM by /undo nor undone by them. The earlier GM back in the seat
 * reads them all again, and opening the screen shows the channel what was
 * behind the opener's own screen only. The marks are saved and read back.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/dice/rollchan.h"
#include "commands/tables/tables_state.h"
#include "commands/tension/tension_state.h"
#include "tests/unit/helpers/fgtable.h"

/* The text of line run by user, which must not be an error. */
static char *
said(struct fgtable *t, const char *user, const char *line)
{
	char *text = fgtable_run(t, user, line);

	if (reply_is_error(t->last))
		fail_msg("'%s' failed: %s", line, text);
	return text;
}

/* Checks that line run by user says want (exactly). */
static void
says(struct fgtable *t, const char *user, const char *line, const char *want)
{
	char *text = fgtable_run(t, user, line);

	assert_string_equal(text, want);
	free(text);
}

/* gm runs the game behind the screen: a change with its reason, a
 * player's secret roll and the GM's own. */
static void
play_behind_the_screen(struct fgtable *t)
{
	fgtable_ok(t, "gm", "/gm claim");
	fgtable_ok(t, "gm", "/tension mode hidden");
	fgtable_ok(t, "gm", "/tension set 8 # secret alarm");
	fgtable_ok(t, "alice", "/gmroll 1d20+3 # alice stealth");
	fgtable_ok(t, "gm", "/gmroll 1d20 # trap DC 14");
}

static void
the_next_gm_reads_the_value_alone(void **unused)
{
	struct fgtable *t = fgtable_new(11);
	char *text;

	(void)unused;
	play_behind_the_screen(t);
	says(t, "gm", "/gm release",
	     "gm is no longer the GM; anyone may /gm claim.\n[private]\nTension is behind the "
	     "GM's screen here: whoever claims the seat next reads its value, the tables behind "
	     "the screen and a Sign's creature still to come, and runs the game from them (the "
	     "changes, secret rolls and undo history behind your screen stay yours); /gm claim "
	     "takes the seat back while nobody has.\n");
	fgtable_ok(t, "bob", "/gm claim");
	says(t, "bob", "/tension",
	     "[private]\nTension ████████░░ 8/10\nMode: hidden (only the GM sees Tension and "
	     "its rolls).\nLast changes, oldest first:\n  - | - | made "
	     "behind another GM's screen\n");
	says(t, "bob", "/log secret",
	     "[private]\nNo secret rolls here were sent to you (those made before you took the "
	     "seat stay with that GM); /gmroll rolls in secret.\n");
	says(t, "bob", "/undo",
	     "The last change here was made behind another GM's screen, so only that GM can "
	     "undo it.\n");
	/* The new GM's own changes are theirs. */
	fgtable_ok(t, "bob", "/tension raise door");
	text = said(t, "bob", "/tension");
	assert_non_null(strstr(text, "  - | - | made behind another GM's screen\n  +1 | 8 → 9 | "
	                             "breaking down a stuck or locked door\n"));
	assert_null(strstr(text, "secret alarm"));
	free(text);
	text = said(t, "bob", "/undo");
	assert_non_null(strstr(text, "[private]\nUndid bob's /tension raise door: Tension state "
	                             "is as it was before.\n"));
	free(text);
	/* The earlier GM back in the seat reads what was behind their screen. */
	fgtable_ok(t, "bob", "/gm release");
	fgtable_ok(t, "gm", "/gm claim");
	text = said(t, "gm", "/tension");
	assert_non_null(strstr(text, "  set 8 | 1 → 8 | secret alarm\n"));
	free(text);
	text = said(t, "gm", "/log secret");
	assert_non_null(strstr(text, "The last 2 secret rolls here, newest first"));
	assert_non_null(strstr(text, "alice stealth"));
	free(text);
	fgtable_free(t);
}

/* A GM who changed nothing hidden is told nothing on leaving; nor is one
 * leaving an open channel. */
static void
no_word_when_nothing_is_hidden(void **unused)
{
	struct fgtable *t = fgtable_new(11);

	(void)unused;
	fgtable_ok(t, "gm", "/gm claim");
	fgtable_ok(t, "gm", "/tension set 8");
	says(t, "gm", "/gm release", "gm is no longer the GM; anyone may /gm claim.\n");
	fgtable_free(t);
}

/* Checks that line run by user, a channel admin who does not hold the
 * seat, says want (exactly). */
static void
admin_says(struct fgtable *t, const char *user, const char *line, const char *want)
{
	struct origin o = {.platform = "console", .platform_admin = true};
	char *text;

	snprintf(o.chan_key, sizeof(o.chan_key), "console:t");
	snprintf(o.user_key, sizeof(o.user_key), "console:%s", user);
	snprintf(o.user_name, sizeof(o.user_name), "%s", user);
	reply_clear(t->last);
	dispatch_line(t->d, &o, line, strlen(line), 1000, t->last);
	text = reply_plain(t->last);
	assert_string_equal(text, want);
	free(text);
}

/* A channel admin who releases the seat while Tension is hidden reads
 * what the next holder reads; the GM who lost the seat is told, as what
 * is behind the screen reaches them, with the way back (hide23 F1:
 * before, the admin read the GM's own words and the GM nothing). */
static void
an_admin_release_tells_the_gm(void **unused)
{
	struct fgtable *t = fgtable_new(11);

	(void)unused;
	play_behind_the_screen(t);
	admin_says(t, "ops", "/gm release",
	           "gm is no longer the GM; anyone may /gm claim.\n[private]\nTension is behind "
	           "the GM's screen here: whoever claims the seat next reads its value, the tables "
	           "behind the screen and a Sign's creature still to come; the changes, secret "
	           "rolls and undo history behind gm's screen stay theirs.\n[to the GM, gm]\nops "
	           "released your GM seat while Tension is behind your screen: whoever claims the "
	           "seat next reads its value, the tables behind the screen and a Sign's creature "
	           "still to come, and runs the game from them (the changes, secret rolls and undo "
	           "history behind your screen stay yours); /gm claim takes the seat back while "
	           "nobody has.\n");
	assert_string_equal(reply_gm_what(t->last), "the warning that whoever claims the seat "
	                                            "next reads what is behind their screen");
	/* An admin who holds the seat releases it as its GM. */
	fgtable_ok(t, "gm", "/gm claim");
	fgtable_ok(t, "gm", "/gm release");
	admin_says(t, "ops", "/gm claim", "ops is now the GM of this channel.\n");
	admin_says(t, "ops", "/gm release",
	           "ops is no longer the GM; anyone may /gm claim.\n[private]\nTension is behind "
	           "the GM's screen here: whoever claims the seat next reads its value, the "
	           "tables behind the screen and a Sign's creature still to come, and runs the "
	           "game from them (the changes, secret rolls and undo history behind your "
	           "screen stay yours); /gm claim takes the seat back while nobody has.\n");
	fgtable_free(t);
}

/* After a second GM's hidden change, the first GM's stays behind their
 * screen even once they are back; opening the screen shows the channel
 * the opener's changes, not the earlier GM's. */
static void
opening_shows_the_openers_screen(void **unused)
{
	struct fgtable *t = fgtable_new(11);
	char *text;

	(void)unused;
	play_behind_the_screen(t);
	fgtable_ok(t, "gm", "/gm release");
	fgtable_ok(t, "bob", "/gm claim");
	fgtable_ok(t, "bob", "/tension lower secret # a hidden door");
	fgtable_ok(t, "bob", "/tension mode open");
	text = said(t, "alice", "/tension");
	assert_non_null(strstr(text, "  - | - | made behind another GM's screen\n  -1 | 8 → 7 | "
	                             "discovering a secret (a hidden door)\n"));
	assert_null(strstr(text, "secret alarm"));
	free(text);
	fgtable_free(t);
}

/* Once another GM opens the screen, the earlier GM's changes behind their
 * own screen stay hidden from everyone in a public reply, that GM's own
 * /tension too; back in the seat behind a hidden screen, they read them
 * again, privately. */
static void
the_earlier_gm_reads_no_hidden_row_aloud(void **unused)
{
	static const char *const aloud =
	    "Tension ████████░░ 8/10\nMode: open (everyone sees Tension and its rolls).\nLast "
	    "changes, oldest first:\n  - | - | made behind another GM's screen\n";
	struct fgtable *t = fgtable_new(11);
	char *text;

	(void)unused;
	play_behind_the_screen(t);
	fgtable_ok(t, "gm", "/gm release");
	fgtable_ok(t, "alice", "/gm claim");
	fgtable_ok(t, "alice", "/tension mode open");
	says(t, "gm", "/tension", aloud);
	fgtable_ok(t, "alice", "/gm release");
	fgtable_ok(t, "gm", "/gm claim");
	says(t, "gm", "/tension", aloud);
	fgtable_ok(t, "gm", "/tension mode hidden");
	text = said(t, "gm", "/tension");
	assert_non_null(strstr(text, "[private]\n"));
	assert_non_null(strstr(text, "  set 8 | 1 → 8 | secret alarm\n"));
	free(text);
	fgtable_free(t);
}

/* alice's /tension after five open changes, then hidden ones made behind
 * gm's screen, then bob's claim and opening. */
static char *
history_after_hidden(int hidden)
{
	struct fgtable *t = fgtable_new(11);
	char *text;

	fgtable_ok(t, "gm", "/gm claim");
	for (int i = 0; i < 5; i++)
		fgtable_ok(t, "gm", "/tension raise door");
	fgtable_ok(t, "gm", "/tension mode hidden");
	for (int i = 0; i < hidden; i++)
		fgtable_ok(t, "gm", i % 2 == 0 ? "/tension lower secret" : "/tension raise door");
	fgtable_ok(t, "gm", "/gm release");
	fgtable_ok(t, "bob", "/gm claim");
	fgtable_ok(t, "bob", "/tension mode open");
	text = said(t, "alice", "/tension");
	fgtable_free(t);
	return text;
}

/* The history tells players nothing of how many changes were made behind
 * another GM's screen: one row for them all, pushing out as many open rows
 * as one, however many more than the history keeps. */
static void
hidden_changes_are_not_counted(void **unused)
{
	char *one = history_after_hidden(1), *three = history_after_hidden(3);
	char *many = history_after_hidden(TENSION_HISTORY_MAX + 8);

	(void)unused;
	assert_non_null(strstr(one, "Last changes, oldest first:\n"
	                            "  +1 | 2 → 3 | breaking down a stuck or locked door\n"
	                            "  +1 | 3 → 4 | breaking down a stuck or locked door\n"
	                            "  +1 | 4 → 5 | breaking down a stuck or locked door\n"
	                            "  +1 | 5 → 6 | breaking down a stuck or locked door\n"
	                            "  - | - | made behind another GM's screen\n"));
	assert_string_equal(strstr(one, "Last changes"), strstr(three, "Last changes"));
	assert_string_equal(strstr(one, "Last changes"), strstr(many, "Last changes"));
	free(one);
	free(three);
	free(many);
}

/* The marks survive a save and a load; damaged ones are refused. */
static void
screens_are_saved(void **unused)
{
	struct fgtable *t = fgtable_new(11);
	struct channel *ch;
	const void *mod;
	cJSON *o;
	void *back;
	char err[256], *a, *b;

	(void)unused;
	play_behind_the_screen(t);
	ch = state_channel(t->st, "console:t");
	for (int m = 0; m < 2; m++) {
		const struct chanmod *cm = m == 0 ? &tension_chanmod : &rollchan_mod;

		mod = channel_mod_peek(ch, m == 0 ? CHANMOD_TENSION : CHANMOD_ROLL);
		o = cm->save(mod);
		a = cJSON_PrintUnformatted(o);
		assert_non_null(strstr(a, m == 0 ? "\"screen\":1,\"screen_gm\":\"console:gm\""
		                                 : "\"gm\":\"console:gm\""));
		back = cm->create();
		assert_int_equal(cm->load(back, o, err, sizeof(err)), 0);
		cJSON_Delete(o);
		o = cm->save(back);
		b = cJSON_PrintUnformatted(o);
		assert_string_equal(a, b);
		cm->destroy(back);
		cJSON_Delete(o);
		free(a);
		free(b);
	}
	o = cJSON_Parse(
	    "{\"value\":3,\"mode\":\"hidden\",\"screen\":1,\"screen_gm\":\"console:gm\","
	    "\"history\":[{\"kind\":\"set\",\"from\":1,\"to\":3,\"amount\":2,"
	    "\"clamped\":false,\"reason\":\"x\",\"screen\":2}],"
	    "\"encounter\":{\"text\":\"1-20 a\",\"struck\":[]},"
	    "\"effects\":{\"text\":\"1-20 b\",\"struck\":[]}}");
	back = tension_chanmod.create();
	assert_int_equal(tension_chanmod.load(back, o, err, sizeof(err)), -1);
	assert_string_equal(err, "tension: 'screen' must be a whole number from 0 to 1.");
	tension_chanmod.destroy(back);
	cJSON_Delete(o);
	fgtable_free(t);
}

/* Undoing /tension mode open hides Tension again: the step now next,
 * made behind another GM's screen, is not named in the channel, nor to
 * the GM who undid (issue 26's check, F5). */
static void
undoing_the_opening_keeps_the_earlier_screen(void **unused)
{
	struct fgtable *t = fgtable_new(5);

	(void)unused;
	fgtable_ok(t, "gm", "/gm claim");
	fgtable_ok(t, "gm", "/tension mode hidden");
	fgtable_ok(t, "gm", "/tension set 9 # ambush ready");
	fgtable_ok(t, "gm", "/hazard table delving");
	fgtable_ok(t, "gm", "/hazard sign a grey ooze");
	fgtable_ok(t, "gm", "/gm release");
	fgtable_ok(t, "carol", "/gm claim");
	fgtable_ok(t, "carol", "/tension mode open");
	says(t, "carol", "/undo",
	     "Undid carol's /tension mode open: Tension state is as it was before.\nMore "
	     "can be undone; the next is a change made behind the GM's screen.\n"
	     "[private]\nUndid carol's /tension mode open: Tension state is as it was before.\n"
	     "More can be undone; the next is a change made behind the GM's "
	     "screen.\n");
	/* The GM behind whose screen it was made reads it. */
	fgtable_ok(t, "carol", "/gm release");
	fgtable_ok(t, "gm", "/gm claim");
	fgtable_ok(t, "gm", "/light add torch");
	says(
	    t, "gm", "/undo",
	    "Undid gm's /light add torch: dungeon procedure state is as it was before.\nMore "
	    "can be undone; the next is a change made behind the GM's screen.\n"
	    "[private]\nUndid gm's /light add torch: dungeon procedure state is as it was before.\n"
	    "4 more changes can be undone; the next is gm's /hazard sign a grey ooze.\n");
	fgtable_free(t);
}

/* /undo gives the next GM and the channel no count of the changes left
 * when some were made behind a screen they may not look behind: 1 secret
 * raise or 4 read alike (recheck11 F2; before, 2 and 5; recheck20 item 7:
 * a count that folded such runs into one was not the true count). */
static void
the_count_hides_how_many_secret_changes(void **unused)
{
	(void)unused;
	for (int k = 1; k <= 4; k += 3) {
		struct fgtable *t = fgtable_new(3);

		fgtable_ok(t, "gm", "/gm claim");
		fgtable_ok(t, "gm", "/tension mode hidden");
		for (int i = 0; i < k; i++)
			fgtable_ok(t, "gm", "/tension raise 1 # r");
		fgtable_ok(t, "gm", "/gm release");
		fgtable_ok(t, "alice", "/gm claim");
		fgtable_ok(t, "alice", "/light add torch");
		says(
		    t, "alice", "/undo",
		    "Undid alice's /light add torch: dungeon procedure state is as it was before.\n"
		    "More can be undone; the next is a change made behind the GM's "
		    "screen.\n[private]\nUndid alice's /light add torch: dungeon procedure "
		    "state is as it was before.\nMore can be undone; the next is a "
		    "change made behind the GM's screen.\n");
		fgtable_free(t);
	}
}

/* What /undo says the next change is, and how many are left, reads as
 * the next /undo will tell them: the next is read once the change is
 * undone (undoing /tension mode hidden opens what was made before it),
 * and a change made while Tension was open is not folded into a run of
 * changes behind the screen (recheck16 F2; before, "1 more change" and
 * "the next is a change made behind the GM's screen" twice). */
static void
the_next_reads_as_the_next_undo_tells_it(void **unused)
{
	struct fgtable *t = fgtable_new(4);

	(void)unused;
	fgtable_ok(t, "gm", "/gm claim");
	fgtable_ok(t, "gm", "/table set pub 1-6: a");
	fgtable_ok(t, "gm", "/tension mode hidden");
	fgtable_ok(t, "gm", "/tension raise amount:1 reason:x");
	says(t, "gm", "/undo",
	     "gm undid a change made behind the GM's screen.\nMore can be undone; the "
	     "next is a change made behind the GM's screen.\n[private]\nUndid gm's /tension "
	     "raise amount:1 reason:x: Tension state is as it was before.\n2 more changes can be "
	     "undone; the "
	     "next is gm's /tension mode hidden.\n");
	says(t, "gm", "/undo",
	     "gm undid a change made behind the GM's screen.\n1 more change can be undone; the "
	     "next is gm's /table set pub 1-6: a.\n[private]\nUndid gm's /tension mode hidden: "
	     "Tension state is as it was before.\n1 more change can be undone; the next is gm's "
	     "/table set pub 1-6: a.\n");
	says(t, "gm", "/undo",
	     "Undid gm's /table set pub 1-6: a: the channel's tables are as they were before.\n"
	     "Nothing more can be undone here.\n");
	fgtable_free(t);
}

/* What a player reads of a table they may not read, and of a name no
 * table has: the same sentence. */
#define UNSEEN(name)                                                                               \
	"No table you may read here is called " name " (while Tension is hidden, a table "         \
	"behind the GM's screen reads as none to the players); /table list shows those you "       \
	"may read.\n"

/* Checks that alice, a player, can neither show nor roll lairxyz: she
 * reads what she reads of a name no table has. */
static void
unseen(struct fgtable *t)
{
	says(t, "alice", "/table show lairxyz", UNSEEN("lairxyz"));
	says(t, "alice", "/table roll lairxyz", UNSEEN("lairxyz"));
	says(t, "alice", "/table show nosuchxyz", UNSEEN("nosuchxyz"));
}

/* A table behind the screen because encounter names it stays there when
 * the GM's change drops that reference, Tension still hidden: encounter
 * replaced, deleted, the change that named it undone, encounter copied
 * over (recheck11 F1; before, the players could read it at once). The
 * GM is told nothing of it; opening Tension opens it. */
static void
a_table_keeps_the_screen_when_its_reference_goes(void **unused)
{
	struct fgtable *t = fgtable_new(2);

	(void)unused;
	t->chan = "home";
	fgtable_ok(t, "gm", "/gm claim");
	fgtable_ok(t, "gm", "/table set encounter 1-20: plain goblins");
	t->chan = NULL;
	fgtable_ok(t, "gm", "/gm claim");
	fgtable_ok(t, "gm", "/tension mode hidden");
	fgtable_ok(t, "gm", "/table set encounter 1-20: [[lairxyz]]");
	says(t, "gm", "/table set lairxyz 1-6: wyrmXYZ",
	     "The GM changed a table behind the screen.\n[private]\nSaved the table lairxyz: d6, 1 "
	     "entry.\n");
	unseen(t);
	says(t, "gm", "/table set encounter 1-20: plain goblins",
	     "The GM changed a table behind the screen.\n[private]\nReplaced the table "
	     "encounter: d20, 1 entry.\nThe channel's encounter rolls now use it (by its own "
	     "die; Tension's rolls read a table of 1-20 with d10 + Tension).\n");
	unseen(t);
	fgtable_ok(t, "gm", "/undo");
	says(t, "gm", "/table delete encounter",
	     "The GM changed a table behind the screen.\n[private]\nDeleted the table "
	     "encounter; /undo brings it back.\n");
	unseen(t);
	fgtable_ok(t, "gm", "/undo");
	/* the change that named it undone */
	fgtable_ok(t, "gm", "/table set encounter 1-20: plain goblins");
	fgtable_ok(t, "gm", "/table set encounter 1-20: [[lairxyz]]");
	fgtable_ok(t, "gm", "/undo");
	unseen(t);
	/* copied over from a channel where encounter names nothing */
	fgtable_ok(t, "gm", "/table set encounter 1-20: [[lairxyz]]");
	fgtable_ok(t, "gm", "/table copy encounter from:#home");
	unseen(t);
	/* the players' list holds none of it; the GM's says where it is */
	says(t, "alice", "/table list",
	     "Tables here: 2 of 32; 0 bytes of text in the 0 open to all\n2 more are behind the "
	     "GM's screen (Tension is hidden).\n");
	/* opening Tension opens it */
	fgtable_ok(t, "gm", "/tension mode open");
	says(t, "alice", "/table show lairxyz", "Table lairxyz: d6, 1 entry\n1-6: wyrmXYZ\n");
	fgtable_free(t);
}

/* /table hide and /table reveal: the GM's alone (a player's try reads
 * the same whatever the name), each a change /undo takes back; reveal is
 * refused while a name or a marked table's reference keeps the table
 * behind the screen, naming which; hide takes along the tables a table
 * names; the GM's list says which are behind the screen, with Tension
 * open too. */
static void
hide_and_reveal(void **unused)
{
	struct fgtable *t = fgtable_new(3);

	(void)unused;
	fgtable_ok(t, "gm", "/gm claim");
	fgtable_ok(t, "gm", "/tension mode hidden");
	fgtable_ok(t, "gm", "/table set encounter 1-6: [[lairxyz]]");
	fgtable_ok(t, "gm", "/table set lairxyz 1-6: [[gemsxyz]]");
	fgtable_ok(t, "gm", "/table set gemsxyz 1-6: ruby");
	fgtable_ok(t, "gm", "/table set trove 1-6: [[coins]]");
	fgtable_ok(t, "gm", "/table set coins 1-6: copper");
	says(t, "alice", "/table hide trove", "Only the GM can do that here; the GM is gm.\n");
	says(t, "alice", "/table reveal lairxyz", "Only the GM can do that here; the GM is gm.\n");
	says(t, "alice", "/table reveal nosuchxyz",
	     "Only the GM can do that here; the GM is gm.\n");
	says(t, "gm", "/table hide trove",
	     "The GM put a table behind the screen.\n[private]\nPut the table trove behind the "
	     "GM's screen, with coins, which it names: while Tension is hidden, the players can "
	     "neither show, roll nor list them; /table reveal trove takes it out.\n");
	says(t, "alice", "/table show coins", UNSEEN("coins"));
	says(t, "gm", "/table hide trove",
	     "The table trove is behind the GM's screen already; /table list shows you which "
	     "tables are.\n");
	says(t, "gm", "/table hide encounter",
	     "The table encounter is behind the GM's screen already, by its name (a procedure "
	     "rolls it while Tension is hidden).\n");
	says(t, "gm", "/table hide effects",
	     "No table here is called effects of the channel's own (Tension's are behind the "
	     "screen by their names); /table list shows those there are.\n");
	fgtable_ok(t, "gm", "/undo");
	says(t, "alice", "/table show coins", "Table coins: d6, 1 entry\n1-6: copper\n");
	says(t, "gm", "/table reveal gemsxyz",
	     "The table gemsxyz stays behind the GM's screen while the table lairxyz, behind it "
	     "too, names it by [[gemsxyz]]; take that reference out of lairxyz first.\n");
	says(t, "gm", "/table reveal encounter",
	     "The table encounter stays behind the GM's screen by its name: a procedure rolls it "
	     "while Tension is hidden (encounter, effects and their -N tables), and /tension "
	     "mode open shows every table.\n");
	says(t, "gm", "/table reveal coins",
	     "The table coins is not behind the GM's screen; /table hide coins puts it there.\n");
	says(t, "gm", "/table reveal nosuchxyz",
	     "No table here is called nosuchxyz; /table list shows those there are.\n");
	fgtable_ok(t, "gm", "/table set encounter 1-6: rats");
	says(t, "gm", "/table reveal lairxyz",
	     "Took the table lairxyz out from behind the GM's screen: the players can show and "
	     "roll it whether Tension is hidden or open.\n[private]\nStill behind the screen "
	     "among the tables lairxyz names: gemsxyz (reveal each you mean to open).\n");
	says(t, "alice", "/table show lairxyz", "Table lairxyz: d6, 1 entry\n1-6: [[gemsxyz]]\n");
	says(t, "alice", "/table show gemsxyz", UNSEEN("gemsxyz"));
	fgtable_ok(t, "gm", "/undo");
	says(t, "alice", "/table show lairxyz", UNSEEN("lairxyz"));
	says(t, "gm", "/table list",
	     "Tables here: 5 of 32; 25 bytes of text in the 2 open to all\n  coins | d6 | 1 | \n"
	     "  trove | d6 | 1 | \n3 more are behind the GM's screen (Tension is hidden).\n"
	     "[private]\nBehind your screen (all tables: 59 of 32000 bytes of text):\n"
	     "  encounter | d6 | 1 | encounters: hazard die, wandering checks, Tension\n"
	     "  gemsxyz | d6 | 1 | \n  lairxyz | d6 | 1 | \n");
	fgtable_ok(t, "gm", "/tension mode open");
	says(t, "gm", "/table list",
	     "Tables here: 5 of 32, 59 of 32000 bytes of text\n  coins | d6 | 1 | \n"
	     "  encounter | d6 | 1 | encounters: hazard die, wandering checks, Tension\n"
	     "  gemsxyz | d6 | 1 | \n  lairxyz | d6 | 1 | \n  trove | d6 | 1 | \n"
	     "[private]\nBehind your screen once Tension is hidden: encounter, gemsxyz, "
	     "lairxyz.\n");
	says(t, "alice", "/table list",
	     "Tables here: 5 of 32, 59 of 32000 bytes of text\n  coins | d6 | 1 | \n"
	     "  encounter | d6 | 1 | encounters: hazard die, wandering checks, Tension\n"
	     "  gemsxyz | d6 | 1 | \n  lairxyz | d6 | 1 | \n  trove | d6 | 1 | \n");
	/* with Tension open the marks are the GM's to read alone */
	says(t, "gm", "/table hide coins",
	     "The GM changed which tables go behind the screen while Tension is hidden.\n"
	     "[private]\nPut the table coins behind the GM's screen: while Tension is hidden, "
	     "the players can neither show, roll nor list it; /table reveal coins takes it "
	     "out.\n");
	says(t, "alice", "/undo",
	     "The last change here was made behind the GM's screen; only the GM can undo it.\n");
	/* recheck20 item 7: the channel's part gives no count (it read 2,
	 * the GM's true count 8) */
	says(t, "gm", "/undo",
	     "gm undid a change made behind the GM's screen.\nMore can be undone; the "
	     "next is gm's /tension mode open.\n[private]\nUndid gm's /table hide coins: the "
	     "channel's tables are as they were before.\n8 more changes can be undone; the next "
	     "is gm's /tension mode open.\n");
	says(t, "gm", "/table reveal lairxyz",
	     "The GM changed which tables go behind the screen while Tension is hidden.\n"
	     "[private]\nTook the table lairxyz out from behind the GM's screen: the players can "
	     "show and roll it whether Tension is hidden or open.\nStill behind the screen among "
	     "the tables lairxyz names: gemsxyz (reveal each you mean to open).\n");
	fgtable_ok(t, "gm", "/undo");
	fgtable_ok(t, "gm", "/tension mode hidden");
	says(t, "alice", "/table show coins", "Table coins: d6, 1 entry\n1-6: copper\n");
	fgtable_free(t);
}

/* The marks are spread on loading (coins, which the marked trove names)
 * and saved where the names of encounter and effects do not give them; a
 * mark that is not true or false is refused. */
static void
marks_are_saved(void **unused)
{
	static const char saved[] =
	    "{\"tables\":[{\"name\":\"coins\",\"text\":\"1-6: copper\"},{\"name\":\"encounter\","
	    "\"text\":\"1-6: [[lair]]\"},{\"name\":\"lair\",\"text\":\"1-6: a wyrm\"},{\"name\":"
	    "\"loot\",\"text\":\"1-6: gold\"},{\"name\":\"trove\",\"text\":\"1-6: [[coins]]\","
	    "\"screened\":true}]}";
	cJSON *o = cJSON_Parse(saved);
	struct tables_state *s = tables_mod.create();
	char err[256], *back;

	(void)unused;
	assert_int_equal(tables_mod.load(s, o, err, sizeof(err)), 0);
	cJSON_Delete(o);
	for (size_t i = 0; i < s->n; i++)
		assert_int_equal(s->v[i].screened, strcmp(s->v[i].name, "loot") != 0);
	o = tables_mod.save(s);
	back = cJSON_PrintUnformatted(o);
	assert_string_equal(back, "{\"tables\":[{\"name\":\"coins\",\"text\":\"1-6: copper\","
	                          "\"screened\":true},{\"name\":\"encounter\",\"text\":\"1-6: "
	                          "[[lair]]\"},{\"name\":\"lair\",\"text\":\"1-6: a wyrm\"},"
	                          "{\"name\":\"loot\",\"text\":\"1-6: gold\"},{\"name\":"
	                          "\"trove\",\"text\":\"1-6: [[coins]]\",\"screened\":true}]}");
	cJSON_Delete(o);
	free(back);
	tables_mod.destroy(s);
	o = cJSON_Parse("{\"tables\":[{\"name\":\"loot\",\"text\":\"1-6: gold\",\"screened\":1}]}");
	s = tables_mod.create();
	assert_int_equal(tables_mod.load(s, o, err, sizeof(err)), -1);
	assert_string_equal(err, "tables: the table loot's screened is not true or false.");
	cJSON_Delete(o);
	tables_mod.destroy(s);
}

/* Every refusal a player (the seat empty, Tension hidden) reads of a table
 * kept behind the screen after encounter stopped naming it is, word for
 * word, the one of a name no table has, and so is a roll through it. */
static void
a_kept_table_reads_as_none_to_a_player(void **unused)
{
	/* each line, before and after the table's name */
	static const char *const lines[][2] = {
	    {"/table show ", ""},
	    {"/table roll ", ""},
	    {"/table roll ", " secret:true"},
	    {"/table delete ", ""},
	    {"/table set ", " 1-6: mine"},
	    {"/table hide ", ""},
	    {"/table reveal ", ""},
	    {"/table set mine 1-6: [[", "]]"},
	};
	struct fgtable *t = fgtable_new(5);

	(void)unused;
	fgtable_ok(t, "gm", "/gm claim");
	fgtable_ok(t, "gm", "/tension mode hidden");
	fgtable_ok(t, "gm", "/table set encounter 1-6: [[lairxyz]]");
	fgtable_ok(t, "gm", "/table set lairxyz 1-6: a wyrm");
	fgtable_ok(t, "gm", "/table set encounter 1-6: goblins");
	fgtable_ok(t, "gm", "/table set loot 1-6: [[lairxyz]]");
	fgtable_ok(t, "gm", "/table set mine 1-6: open");
	fgtable_ok(t, "gm", "/gm release");
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		char kept[100], none[100], *a, *b, *p;

		snprintf(kept, sizeof(kept), "%slairxyz%s", lines[i][0], lines[i][1]);
		snprintf(none, sizeof(none), "%snonexyz%s", lines[i][0], lines[i][1]);
		a = fgtable_run(t, "alice", kept);
		b = fgtable_run(t, "alice", none);
		while ((p = strstr(a, "lairxyz")) != NULL)
			memcpy(p, "nonexyz", 7);
		assert_string_equal(a, b);
		free(a);
		free(b);
	}
	says(t, "alice", "/table roll loot",
	     "alice rolls on the table loot (d6)\n> 1-6 | [[lairxyz]]\nRolled 2 on the d6: "
	     "[[lairxyz]]\n↳ [[lairxyz]]: no table here has that name.\n");
	fgtable_free(t);
}

/* recheck18 F1: with Tension hidden, the GM's /table delete of a table
 * behind the screen (by a reference, or by /table hide) tells the channel
 * only that the GM changed a table there; the name and the hidden tables
 * naming it reach the GM alone. Before, the reply was worked out after
 * the deletion, when the table no longer counted as behind the screen. */
static void
deleting_a_hidden_table_is_told_behind_the_screen(void **unused)
{
	struct fgtable *t = fgtable_new(11);

	(void)unused;
	fgtable_ok(t, "gm", "/gm claim");
	fgtable_ok(t, "gm", "/tension mode hidden");
	fgtable_ok(t, "gm", "/table set encounter 1-3: [[lair]]; 4-6: a rat");
	fgtable_ok(t, "gm", "/table set lair 1-6: dragon [[gems]]");
	fgtable_ok(t, "gm", "/table set gems 1-6: ruby");
	fgtable_ok(t, "gm", "/table set loot 1-6: gold");
	fgtable_ok(t, "gm", "/table hide loot");
	says(t, "gm", "/table delete gems",
	     "The GM changed a table behind the screen.\n[private]\nDeleted the table gems; "
	     "/undo brings it back.\nStill naming [[gems]], which rolls now leave as written: "
	     "lair.\n");
	says(t, "gm", "/table delete loot",
	     "The GM changed a table behind the screen.\n[private]\nDeleted the table loot; "
	     "/undo brings it back.\n");
	/* An open table's deletion is the channel's, as before. */
	fgtable_ok(t, "gm", "/table set pub 1-6: ale");
	says(t, "gm", "/table delete pub", "Deleted the table pub; /undo brings it back.\n");
	fgtable_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(deleting_a_hidden_table_is_told_behind_the_screen),
	    cmocka_unit_test(the_next_gm_reads_the_value_alone),
	    cmocka_unit_test(no_word_when_nothing_is_hidden),
	    cmocka_unit_test(an_admin_release_tells_the_gm),
	    cmocka_unit_test(opening_shows_the_openers_screen),
	    cmocka_unit_test(the_earlier_gm_reads_no_hidden_row_aloud),
	    cmocka_unit_test(hidden_changes_are_not_counted),
	    cmocka_unit_test(screens_are_saved),
	    cmocka_unit_test(undoing_the_opening_keeps_the_earlier_screen),
	    cmocka_unit_test(the_count_hides_how_many_secret_changes),
	    cmocka_unit_test(the_next_reads_as_the_next_undo_tells_it),
	    cmocka_unit_test(a_table_keeps_the_screen_when_its_reference_goes),
	    cmocka_unit_test(hide_and_reveal),
	    cmocka_unit_test(marks_are_saved),
	    cmocka_unit_test(a_kept_table_reads_as_none_to_a_player),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
