/* Unit tests for /roll's dice lists: a large pool is compacted as chat
 * rollers do (a run of equal dice as "6x3"), a small one never is, and
 * what is not shown is counted. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/discord/discord_interact.h"
#include "bot/store/crc32.h"
#include "bot/store/store_record.h"
#include "commands/core/dispatch.h"
#include "commands/core/memstore.h"
#include "commands/dice/rollchan.h"
#include "rules/base/buf.h"
#include "rules/base/rng.h"
#include "rules/base/utf8.h"
#include "tests/unit/helpers/cmdrun.h"

/* The plain text of /roll line with a seeded RNG (the caller frees it). */
static char *
roll(const char *line)
{
	struct cmdrun one;
	char *text;

	cmdrun_open(&one, 5);
	assert_false(reply_is_error(cmdrun_line(&one, "t", "al", line, 1000)));
	text = strdup(cmdrun_plain(&one));
	cmdrun_close(&one);
	return text;
}

static void
small_pool_as_is(void **unused)
{
	char *t = roll("/roll 20d1");

	assert_non_null(strstr(t, "[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1] "
	                          "= 20"));
	free(t);
}

static void
large_pool_compacted(void **unused)
{
	char *t = roll("/roll 21d1");

	assert_non_null(strstr(t, "[1x21] = 21"));
	free(t);
	/* Sorted, a pool becomes a count of each face. */
	t = roll("/roll 60d3s");
	assert_non_null(strstr(t, "[1x"));
	assert_non_null(strstr(t, ", 2x"));
	assert_non_null(strstr(t, ", 3x"));
	assert_null(strstr(t, "1, 1"));
	free(t);
	/* Runs of two stay two dice. */
	t = roll("/roll 22d1 + 2d1");
	assert_non_null(strstr(t, "[1x22] + [1, 1] = 24"));
	free(t);
}

/* At most 100 entries, then how many dice are left. */
static void
rest_counted(void **unused)
{
	char *t = roll("/roll 1000d1000");

	assert_non_null(strstr(t, ", … 900 more]"));
	free(t);
	/* 1000 dice of 2 faces: runs take fewer entries, so more dice show. */
	t = roll("/roll 1000d2");
	assert_non_null(strstr(t, "more]"));
	assert_null(strstr(t, ", … 900 more]"));
	free(t);
	t = roll("/roll 300d1");
	assert_non_null(strstr(t, "[1x300] = 300"));
	free(t);
}

/* A reroll chain stopped at its cap shows its start, its last reroll and
 * the die that counts (the total), never "… 1 more" in its place; a
 * chain of three rerolls or fewer is shown whole. */
static void
capped_chain_shows_the_die(void **unused)
{
	char *t = roll("/roll 1d1000000r<=999999"), *end, *start;
	long long shown, sum;

	assert_non_null(strstr(t, "r, … 98 more rerolled, "));
	assert_null(strstr(t, " 1 more]"));
	end = strstr(t, "…] = ");
	assert_non_null(end);
	for (start = end; start > t && start[-1] >= '0' && start[-1] <= '9'; start--)
		;
	shown = strtoll(start, NULL, 10);
	sum = strtoll(end + strlen("…] = "), NULL, 10);
	assert_true(shown >= 1 && shown == sum);
	free(t);
	t = roll("/roll 8d6r<=3");
	assert_non_null(strstr(t, "r, "));
	assert_null(strstr(t, "rerolled"));
	free(t);
}

/* The state, RNG (seed 5) and dispatcher of the tests below, anew for
 * each. */
CMDRUN_FIXTURE(5)

/* One command in the test's state, as user (key console:<user>) in
 * channel console:t; the reply stays cr's until the next one. */
static const struct reply *
run_as(const char *user, const char *line)
{
	return cmdrun_line(&cr, "t", user, line, 1000);
}

/* Sets the channel "console:t"'s channel for secret rolls. */
static void
rc_set_secret(const char *key)
{
	rollchan_set_secret_to(rollchan_of(state_channel(cr.st, "console:t")), key, "console:bo");
}

static void
assert_plain(const struct reply *r, const char *want)
{
	char *t = reply_plain(r);

	assert_string_equal(t, want);
	free(t);
}

/* /gmroll: the channel sees who rolls in secret and nothing else (not the
 * dice, which give the modifier away, nor the label), the GM seat's holder
 * alone the roll; the GM's own is for the GM alone; with no GM it is
 * refused; it is not in /log, but in the GM's /log secret, which only the
 * GM sees, privately; with a channel set for secret rolls, the reply names
 * it for the transport. */
static void
gmroll_audiences(void **unused)
{
	const struct reply *r;

	r = run_as("al", "/gmroll 1d20+5 # stealth");
	assert_true(reply_is_error(r));
	assert_string_equal(reply_error_text(r),
	                    "Nobody is GM here, so a secret roll would reach nobody; the GM takes "
	                    "the seat with /gm claim, or roll in the open with /roll.");
	run_as("bo", "/gm claim");
	r = run_as("al", "/gmroll 1d20+5 # stealth");
	assert_null(reply_msg(r, REPLY_INVOKER));
	assert_non_null(reply_msg(r, REPLY_GM));
	assert_null(reply_msg(r, REPLY_CHANNEL)->buttons);
	assert_string_equal(reply_gm_key(r), "console:bo");
	assert_string_equal(reply_gm_name(r), "bo");
	assert_null(reply_gm_fallback_key(r));
	assert_plain(r, "al rolls in secret: only the GM, bo, sees the result.\n"
	                "[to the GM, bo]\n"
	                "al rolls stealth in secret\n"
	                "1d20 + 5: [13] + 5 = 18\n");
	r = run_as("bo", "/gmroll 2d6");
	assert_null(reply_msg(r, REPLY_GM));
	assert_null(reply_gm_key(r));
	assert_plain(r, "bo (GM) rolls behind the screen.\n"
	                "[private]\n"
	                "bo rolls in secret\n"
	                "2d6: [4, 5] = 9\n");
	r = run_as("al", "/log");
	assert_plain(r, "No rolls here yet; /roll rolls dice (private and secret rolls are not in "
	                "this log).\n");
	r = run_as("al", "/log secret");
	assert_true(reply_is_error(r));
	assert_string_equal(reply_error_text(r), "Only the GM can do that here; the GM is bo.");
	r = run_as("bo", "/log secret");
	assert_null(reply_msg(r, REPLY_CHANNEL));
	assert_plain(r, "[private]\n"
	                "The last 2 secret rolls here, newest first\n"
	                "  just now | bo | 2d6 | 9\n"
	                "  just now | al | 1d20 + 5 # stealth | 18\n");
	/* On Discord, the GM's channel for secret rolls goes with the reply. */
	rc_set_secret("discord:1300000000000000005");
	r = run_as("al", "/gmroll 1d4");
	assert_string_equal(reply_gm_fallback_key(r), "discord:1300000000000000005");
}

/* One command on Discord as user discord:<user> (a channel admin when
 * admin), in channel 1300000000000000000 or, when thread is set, in that
 * thread of it; the reply stays cr's until the next one. */
static const struct reply *
run_discord_at(const char *user, bool admin, const char *thread, const char *line)
{
	struct origin o = {.platform = "discord",
	                   .platform_admin = admin,
	                   .channel_named = discord_interact_channel_named};

	snprintf(o.chan_key, sizeof(o.chan_key), "%s",
	         thread != NULL ? thread : "discord:1300000000000000000");
	if (thread != NULL)
		snprintf(o.parent_key, sizeof(o.parent_key), "discord:1300000000000000000");
	snprintf(o.user_key, sizeof(o.user_key), "discord:%s", user);
	snprintf(o.user_name, sizeof(o.user_name), "%s", user);
	return cmdrun_from(&cr, &o, line, 1000);
}

static const struct reply *
run_discord(const char *user, bool admin, const char *line)
{
	return run_discord_at(user, admin, NULL, line);
}

static const struct reply *
run_discord_in(const char *user, const char *thread, const char *line)
{
	return run_discord_at(user, false, thread, line);
}

/* The secret rolls of the player cy go to the seat's holder, and to the
 * channel that holder named when they take no direct message, never to a
 * channel named by someone else: a player who held the empty seat, or
 * the GM before, or a channel admin. A new holder is told where their
 * secret rolls go. */
static void
secret_channel_is_the_gms_own(void **unused)
{
	const struct reply *r;

	(void)unused;
	run_discord("al", false, "/gm claim");
	run_discord("al", false, "/gm secret-channel <#1300000000000000008>");
	run_discord("al", false, "/gm release");
	r = run_discord("bo", false, "/gm claim");
	assert_plain(r, "bo is now the GM of this channel.\n[private]\nSecret rolls reach you by "
	                "direct message; if you take none from delver, /gm secret-channel "
	                "channel:#channel names a channel or thread only you read for them.\n");
	r = run_discord("cy", false, "/gmroll 1d4");
	assert_string_equal(reply_gm_key(r), "discord:bo");
	assert_null(reply_gm_fallback_key(r));
	r = run_discord("bo", false, "/gm secret-channel");
	assert_plain(r, "[private]\nSecret rolls go to the GM by direct message only; /gm "
	                "secret-channel channel:#channel names a channel or thread where the GM "
	                "reads them when the GM takes no direct messages.\n");
	/* A channel admin who does not hold the seat names none for bo. */
	r = run_discord("ad", true, "/gm secret-channel <#1300000000000000009>");
	assert_true(reply_is_error(r));
	assert_string_equal(reply_error_text(r),
	                    "Only the GM, bo, names where the secret rolls sent to them go.");
	run_discord("bo", false, "/gm secret-channel <#1300000000000000005>");
	r = run_discord("cy", false, "/gmroll 1d4");
	assert_string_equal(reply_gm_fallback_key(r), "discord:1300000000000000005");
	/* hidden4 H11: 5 is a thread of the channel, and a roll made in it
	 * would be posted where it was made, for all there: by direct message
	 * alone. */
	r = run_discord_in("cy", "discord:1300000000000000005", "/gmroll 1d4");
	assert_string_equal(reply_gm_key(r), "discord:bo");
	assert_null(reply_gm_fallback_key(r));
	/* bo's channel is not al's when al holds the seat again, and is bo's
	 * again when bo does. */
	run_discord("bo", false, "/gm release");
	run_discord("al", false, "/gm claim");
	r = run_discord("cy", false, "/gmroll 1d4");
	assert_string_equal(reply_gm_key(r), "discord:al");
	assert_null(reply_gm_fallback_key(r));
	run_discord("al", false, "/gm release");
	r = run_discord("bo", false, "/gm claim");
	assert_plain(r, "bo is now the GM of this channel.\n[private]\nSecret rolls reach you by "
	                "direct message; when you take none, in discord:1300000000000000005, the "
	                "channel you named for them.\n");
}

static int persisted_users, persisted_channels;

static int
count_user(struct user *u, void *ctx)
{
	persisted_users++;
	return 0;
}

static int
count_channel(struct channel *ch, void *ctx)
{
	persisted_channels++;
	return 0;
}

/* A player's saved rolls follow them to every channel; a channel's stay
 * in it, after the player's own. A channel record written by the previous
 * version, with the player's roll kept in the channel, still finds it, and
 * on first use moves it to the player's record. */
static void
saved_rolls_follow_the_player(void **unused)
{
	static const char json[] =
	    "{\"t\":\"c\",\"key\":\"console:t\",\"last_used\":1,\"mods\":{\"roll\":{"
	    "\"natural\":true,\"log\":[],\"saved\":[{\"owner\":\"console:al\",\"name\":"
	    "\"atk\",\"roll\":\"1d1+5\"},{\"owner\":\"\",\"name\":\"boom\",\"roll\":"
	    "\"2d1\"},{\"owner\":\"\",\"name\":\"atk\",\"roll\":\"1d1+100\"}]}}}";
	struct memstore m;
	struct store_record rec;
	char line[1024], err[256];
	const struct reply *r;

	snprintf(line, sizeof(line), "%08x %s", (unsigned)crc32_of(json, strlen(json)), json);
	assert_int_equal(store_record_decode(line, strlen(line), STORE_RECORD_VERSION,
	                                     store_record_builtin_mods(), &rec, err, sizeof(err)),
	                 0);
	store_record_to_channel(&rec, state_channel(cr.st, "console:t"));
	store_record_clear(&rec, store_record_builtin_mods());
	memstore_init(&m, cr.st);
	m.chan_fn = count_channel;
	m.user_fn = count_user;
	dispatch_set_store(cr.d, &memstore_ops, &m);
	persisted_users = persisted_channels = 0;
	/* In the old channel: al's own, then moved to al's record. */
	r = run_as("al", "/roll atk");
	assert_plain(r, "al rolls\n1d1 + 5: [1] + 5 = 6\n");
	assert_int_equal(user_nsaved(state_user(cr.st, "console:al")), 1);
	/* Both records were handed to persistence: the move is durable. */
	assert_int_equal(persisted_users, 1);
	assert_int_equal(persisted_channels, 1);
	/* The channel's own stays the channel's; another player gets its atk. */
	r = run_as("cy", "/roll atk");
	assert_plain(r, "cy rolls\n1d1 + 100: [1] + 100 = 101\n");
	/* In another channel: al's roll follows, the channel's do not. */
	assert_plain(cmdrun_line(&cr, "elsewhere", "al", "/roll atk +1 # again", 1000),
	             "al rolls again\n1d1 + 5 + 1: [1] + 5 + 1 = 7\n");
	assert_true(reply_is_error(cmdrun_line(&cr, "elsewhere", "al", "/roll boom", 1000)));
	assert_false(reply_is_error(cmdrun_line(&cr, "elsewhere", "al", "/save zap 3d1", 1000)));
	r = run_as("al", "/saved");
	assert_plain(r,
	             "[private]\nYour saved rolls\n  atk | 1d1+5\n  zap | 3d1\nThe channel's saved "
	             "rolls\n  boom | 2d1\n  atk | 1d1+100\n");
	run_as("al", "/saved delete zap");
	assert_int_equal(user_nsaved(state_user(cr.st, "console:al")), 1);
	dispatch_set_store(cr.d, NULL, NULL); /* m goes with this test */
	memstore_clear(&m);
}

/* private:true typed after a label is the option the user meant, never
 * label text: the roll goes to the invoker alone (F7 of check-26), with
 * the word out of the label, on the text platforms and in Discord's label
 * option alike; a value that is no yes/no and a contradiction with the
 * option given by name are refused. */
static void
private_after_the_label(void **unused)
{
	/* In this order (the rolls follow one seeded rng): what is typed, the
	 * invoker's reply, and its button's action. */
	static const struct {
		const char *line, *plain, *action;
	} privately[] = {
	    {"/roll 1d20+7 # insight private:true",
	     "[private]\nal rolls insight\n1d20 + 7: [6] + 7 = 13\n",
	     "roll private:true 1d20+7 # insight"},
	    {"/roll 1d20 # private:yes", "[private]\nal rolls\n1d20: [13] = 13\n",
	     "roll private:true 1d20"},
	    {"/roll 1d20 label:\"stealth PRIVATE:on\"",
	     "[private]\nal rolls stealth\n1d20: [13] = 13\n", "roll private:true 1d20 # stealth"},
	};
	const struct reply *r;

	for (size_t i = 0; i < sizeof(privately) / sizeof(privately[0]); i++) {
		r = run_as("al", privately[i].line);
		assert_null(reply_msg(r, REPLY_CHANNEL));
		assert_plain(r, privately[i].plain);
		assert_string_equal(reply_msg(r, REPLY_INVOKER)->buttons[0].action,
		                    privately[i].action);
	}
	r = run_as("al", "/roll 1d20 # insight private:maybe");
	assert_true(reply_is_error(r));
	assert_string_equal(reply_error_text(r),
	                    "'private:maybe' in the label of /roll asks for the private option, "
	                    "which takes true or false, yes or no, on or off, 1 or 0 (/roll \"1d20 "
	                    "# insight\" private:true is a roll only you see).");
	r = run_as("al", "/roll 1d20 private:false # insight private:true");
	assert_true(reply_is_error(r));
	assert_string_equal(reply_error_text(r),
	                    "The private option of /roll is given twice, as private:false and in "
	                    "the label as private:true; give it once.");
	/* Only a word of its own: "notprivate:true" stays label text. */
	r = run_as("al", "/roll 1d20 # notprivate:true");
	assert_non_null(reply_msg(r, REPLY_CHANNEL));
}

/* A player's own saved rolls are said to them alone: saving one for a
 * later /gmroll must not tell the table its modifier and label (check-26
 * F7's /save). The channel's, the GM's to save, are said in the open. */
static void
own_saved_rolls_are_private(void **unused)
{
	const struct reply *r;

	r = run_as("al", "/save sneak 1d20+9 # backstab plan");
	assert_null(reply_msg(r, REPLY_CHANNEL));
	assert_plain(r, "[private]\nSaved your roll sneak = 1d20+9 # backstab plan; roll it with "
	                "/roll sneak (more may follow: /roll sneak +2).\n");
	r = run_as("al", "/saved show sneak");
	assert_null(reply_msg(r, REPLY_CHANNEL));
	r = run_as("al", "/saved");
	assert_null(reply_msg(r, REPLY_CHANNEL));
	/* what the channel sees of the secret roll it is made for */
	run_as("bo", "/gm claim");
	r = run_as("al", "/gmroll sneak");
	assert_plain(r, "al rolls in secret: only the GM, bo, sees the result.\n"
	                "[to the GM, bo]\n"
	                "al rolls backstab plan in secret\n"
	                "1d20 + 9: [6] + 9 = 15\n");
	r = run_as("al", "/saved delete sneak");
	assert_null(reply_msg(r, REPLY_CHANNEL));
	r = run_as("bo", "/save boom 2d6 channel:true");
	assert_non_null(reply_msg(r, REPLY_CHANNEL));
	assert_null(reply_msg(r, REPLY_INVOKER));
}

/* newcomer F1: a roll labelled both by the label option and after '#' is
 * refused, as an option given twice is, naming both labels, typed on the
 * console or on Discord, for /roll and /gmroll alike; the label option
 * replaces a saved roll's label (only one was given), and an empty label
 * after '#' beside it is no second label. */
static void
one_label_a_roll(void **unused)
{
	const struct reply *r;

	r = run_as("al", "/roll 3d6 label:fire # more");
	assert_true(reply_is_error(r));
	assert_string_equal(reply_error_text(r),
	                    "The label is given twice, as label:fire and as '# more' in the "
	                    "expression; give it once, as label: or after ' # '; usage: /roll "
	                    "<expression> [label:text] [private:true|false]");
	r = run_discord("al", false, "/roll 3d6 label:fire # more");
	assert_true(reply_is_error(r));
	assert_string_equal(reply_error_text(r),
	                    "The label is given twice, as label:fire and as '# more' in the "
	                    "expression; give it once, as label: or after ' # '; usage: /roll "
	                    "<expression> [label:text] [private:true|false]");
	run_as("bo", "/gm claim");
	r = run_as("al", "/gmroll 1d20 label:sneak # stealth");
	assert_true(reply_is_error(r));
	assert_null(reply_msg(r, REPLY_GM));
	/* A saved roll's label gives way to the label option. */
	run_as("al", "/save atk 1d1+5 # attack");
	r = run_as("al", "/roll atk label:smite");
	assert_plain(r, "al rolls smite\n1d1 + 5: [1] + 5 = 6\n");
	assert_string_equal(reply_msg(r, REPLY_CHANNEL)->buttons[0].action, "roll atk # smite");
	r = run_as("al", "/roll 1d1 label:fire #");
	assert_plain(r, "al rolls fire\n1d1: [1] = 1\n");
}

/* A '#' inside a term's [label] is label text, not the start of the
 * command's label: a saved roll holding one expands whole, an option typed
 * after such a term is still seen as one, and a private: word inside it
 * is label text. */
static void
hash_in_term_label(void **unused)
{
	const struct reply *r;

	run_as("al", "/save boom 2d1[x#y] # fire");
	r = run_as("al", "/roll boom +1");
	assert_plain(r, "al rolls fire\n2d1[x#y] + 1: [1, 1] x#y + 1 = 3\n");
	r = run_as("al", "/roll 1d1[a#b] lable:fire");
	assert_true(reply_is_error(r));
	assert_string_equal(reply_error_text(r),
	                    "'lable:' at column 10 of the expression is no option of /roll (its "
	                    "options are label: and private:); did you mean label:?");
	r = run_as("al", "/roll expression:\"1d1[a# private:maybe] # hi\"");
	assert_plain(r, "al rolls hi\n1d1[a# private:maybe]: [1] a# private:maybe = 1\n");
	/* unquoted the same: the option parser keeps the [label] whole */
	r = run_as("al", "/roll 1d1[a# private:maybe] # hi");
	assert_plain(r, "al rolls hi\n1d1[a# private:maybe]: [1] a# private:maybe = 1\n");
	r = run_as("al", "/roll 1d1 [a # label:x private:true]");
	assert_plain(r, "al rolls\n1d1[a # label:x private:true]: [1] a # label:x private:true = "
	                "1\n");
	r = run_as("al", "/save br 1d1[x channel:true]");
	assert_plain(r, "[private]\nSaved your roll br = 1d1[x channel:true]; roll it with /roll "
	                "br (more may follow: /roll br +2).\n");
	run_as("bo", "/gm claim");
	r = run_as("al", "/gmroll 1d1[a#b] private:true");
	assert_true(reply_is_error(r));
	assert_string_equal(
	    reply_error_text(r),
	    "A secret roll takes no private option: it already goes to the GM alone "
	    "(/roll 1d20 private:true is a roll only you see).");
	/* in a term's [label] it is label text */
	r = run_as("bo", "/gmroll 1d1[a private:true]");
	assert_plain(r, "bo (GM) rolls behind the screen.\n[private]\nbo rolls in secret\n"
	                "1d1[a private:true]: [1] a private:true = 1\n");
}

/* recheck6 F8: a saved roll's name but for an invisible character is
 * refused naming it, on /save, /roll and /gmroll, not read as dice; a
 * dice expression holding one stays the dice parser's to name. */
static void
saved_name_with_an_invisible_character(void **unused)
{
	static const char rule[] = "a saved roll's name is 1 to 24 letters (of any alphabet), "
	                           "digits, '-' or '_', starting with a letter other than d.";
	char want[300];

	run_as("al", "/save boom 2d1 # fire");
	snprintf(want, sizeof(want), "'b' holds an invisible character U+200B at column 2: %s",
	         rule);
	assert_string_equal(reply_error_text(run_as("al", "/save b\xe2\x80\x8b 1d6")), want);
	snprintf(want, sizeof(want), "'boom' holds an invisible character U+200B at column 3: %s",
	         rule);
	assert_string_equal(reply_error_text(run_as("al", "/roll bo\xe2\x80\x8bom +1")), want);
	run_as("bo", "/gm claim");
	assert_string_equal(reply_error_text(run_as("al", "/gmroll bo\xe2\x80\x8bom")), want);
	assert_string_equal(
	    reply_error_text(run_as("al", "/roll 1d\xe2\x80\x8b"
	                                  "6")),
	    "Expected the number of sides, '%' or 'F' after 'd' at column 3, not an "
	    "invisible character U+200B.");
}

/* newcomer F17: an empty or blank label option is no label, as an empty
 * "# " is: no trailing blank after who rolls, and no "# " in the button's
 * command; blanks around a label are not part of it. */
static void
empty_label_is_none(void **unused)
{
	const struct reply *r;

	r = run_as("al", "/roll 1d1 label:");
	assert_plain(r, "al rolls\n1d1: [1] = 1\n");
	assert_string_equal(reply_msg(r, REPLY_CHANNEL)->buttons[0].action, "roll 1d1");
	r = run_as("al", "/roll 1d1 label:\"  \"");
	assert_plain(r, "al rolls\n1d1: [1] = 1\n");
	assert_string_equal(reply_msg(r, REPLY_CHANNEL)->buttons[0].action, "roll 1d1");
	r = run_as("al", "/roll 1d1 label:\" x  \"");
	assert_plain(r, "al rolls x\n1d1: [1] = 1\n");
	assert_string_equal(reply_msg(r, REPLY_CHANNEL)->buttons[0].action, "roll 1d1 # x");
}

/* recheck6 F2: a label that would show as nothing for its invisible
 * characters is refused naming the first and where, after '#', in a
 * term's [label], in the label option, on /roll, /gmroll and /save; none
 * is rolled, logged, given a button or saved. A label with a word that
 * shows keeps the word. */
static void
invisible_label_is_refused(void **unused)
{
	static const struct {
		const char *line, *err;
	} refused[] = {
	    {"/roll 1d1 # \xe2\x80\x8b",
	     "The label at column 5 holds nothing but an invisible character U+200B at column 7; "
	     "write a label that shows, or none."},
	    {"/roll 1d1 #\xe2\x80\xae",
	     "The label at column 5 holds nothing but an invisible character U+202E at column 6; "
	     "write a label that shows, or none."},
	    {"/roll 1d1[ \xef\xbb\xbf ]",
	     "The label at column 4 holds nothing but an invisible character U+FEFF at column 6; "
	     "write a label that shows, or none."},
	    {"/roll 1d1 label:\xe2\x80\x8b",
	     "The label option holds nothing but an invisible character U+200B at column 1 of it; "
	     "write a label that shows, or none."},
	    {"/roll 1d1 label:\" \xe2\x81\xa0\"",
	     "The label option holds nothing but an invisible character U+2060 at column 2 of it; "
	     "write a label that shows, or none."},
	    {"/gmroll 1d1 # \xe2\x80\x8b",
	     "The label at column 5 holds nothing but an invisible character U+200B at column 7; "
	     "write a label that shows, or none."},
	    {"/gmroll 1d1 label:\xe2\x80\x8b",
	     "The label option holds nothing but an invisible character U+200B at column 1 of it; "
	     "write a label that shows, or none."},
	    {"/save bl 1d6 # \xe2\x80\x8b",
	     "That roll does not parse: the label at column 5 holds nothing but an invisible "
	     "character U+200B at column 7; write a label that shows, or none."},
	};
	const struct reply *r;

	run_as("bo", "/gm claim");
	r = run_as("al", "/roll 1d1 # fi\xe2\x80\x8bre");
	assert_plain(r, "al rolls fire\n1d1: [1] = 1\n");
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		r = run_as("al", refused[i].line);
		assert_true(reply_is_error(r));
		assert_null(reply_msg(r, REPLY_GM));
		assert_string_equal(reply_error_text(r), refused[i].err);
	}
	assert_plain(run_as("al", "/log"), "The last roll here\n"
	                                   "  just now | al | 1d1 # fire | 1\n");
	assert_true(reply_is_error(run_as("al", "/saved show bl")));
}

/* recheck6 F14: a channel: word among the words of /save's label is the
 * option, as a private: word is /roll's: the GM's roll is saved for the
 * channel, with the word out of its label (and the '#' when it was all of
 * it); a value that is no yes/no, and a contradiction with the option
 * given before, are refused; a player still may not save the channel's. */
static void
channel_after_the_label(void **unused)
{
	const struct reply *r;

	run_as("bo", "/gm claim");
	r = run_as("bo", "/save cboom 2d1[x#y] # fire channel:true");
	assert_null(reply_msg(r, REPLY_INVOKER));
	assert_plain(r, "Saved the channel's roll cboom = 2d1[x#y] # fire; roll it with /roll "
	                "cboom (more may follow: /roll cboom +2).\n");
	assert_plain(run_as("al", "/roll cboom +1"),
	             "al rolls fire\n2d1[x#y] + 1: [1, 1] x#y + 1 = 3\n");
	r = run_as("bo", "/save plain 1d1 # CHANNEL:yes");
	assert_plain(r, "Saved the channel's roll plain = 1d1; roll it with /roll plain (more may "
	                "follow: /roll plain +2).\n");
	r = run_as("bo", "/save mine 1d1 # x channel:off");
	assert_plain(r, "[private]\nSaved your roll mine = 1d1 # x; roll it with /roll mine (more "
	                "may follow: /roll mine +2).\n");
	assert_string_equal(reply_error_text(run_as("bo", "/save c2 1d1 # x channel:maybe")),
	                    "'channel:maybe' in the label of /save asks for the channel option, "
	                    "which takes true or false, yes or no, on or off, 1 or 0.");
	assert_string_equal(reply_error_text(run_as("bo", "/save c3 1d1 channel:false # x "
	                                                  "channel:true")),
	                    "The channel option of /save is given twice, as channel:false and in "
	                    "the label as channel:true; give it once.");
	assert_string_equal(reply_error_text(run_as("al", "/save c4 1d1 # x channel:true")),
	                    "Only the GM saves or deletes the channel's rolls; save your own "
	                    "without channel:true.");
	/* a word only ending so stays label text */
	r = run_as("bo", "/save c5 1d1 # nochannel:true");
	assert_plain(r, "[private]\nSaved your roll c5 = 1d1 # nochannel:true; roll it with /roll "
	                "c5 (more may follow: /roll c5 +2).\n");
}

/* recheck6 F3: a word written as an option /save has not, in its roll,
 * is said to be one, as /roll and /gmroll say it, after a [label] holding
 * '#' too; label: is told where a saved roll's label goes. */
static void
save_option_typo(void **unused)
{
	assert_string_equal(reply_error_text(run_as("al", "/save boom 2d1[x#y] chanel:true")),
	                    "'chanel:' at column 10 of the roll is no option of /save (its options "
	                    "are name: and channel:); did you mean channel:?");
	assert_string_equal(reply_error_text(run_as("al", "/save boom 2d1 chanel:true # fire")),
	                    "'chanel:' at column 5 of the roll is no option of /save (its options "
	                    "are name: and channel:); did you mean channel:?");
	assert_string_equal(reply_error_text(run_as("al", "/save z2 1d6 label:fire")),
	                    "'label:' at column 5 of the roll is no option of /save (its options "
	                    "are name: and channel:); a label goes after ' # ' in the roll, as in "
	                    "8d6 # fire.");
	assert_true(reply_is_error(run_as("al", "/saved show boom")));
}

/* recheck6 F4: after a saved roll's name, an error's columns count in
 * what was typed, not in the saved roll's text put in its place; a fault
 * that lies in the saved roll with what follows it is said so, quoting
 * the text its columns count in. */
static void
saved_roll_errors_in_typed_columns(void **unused)
{
	static const char nofn[] = " is no dice function; floor(), ceil(), round() and abs() are.";
	char want[200];

	run_as("al", "/save boom 2d1[x#y] # fire");
	run_as("al", "/save \xc3\xa9"
	             "clair 1d1");
	run_as("al", "/save five d6;d6;d6;d6;d6");
	snprintf(want, sizeof(want), "'zzz' at column 9%s", nofn);
	assert_string_equal(reply_error_text(run_as("al", "/roll boom +1;zzz")), want);
	snprintf(want, sizeof(want), "'boom' at column 10%s", nofn);
	assert_string_equal(reply_error_text(run_as("al", "/roll boom;1d6;boom")), want);
	snprintf(want, sizeof(want), "'zz' at column 9%s", nofn);
	assert_string_equal(reply_error_text(run_as("al", "/roll \xc3\xa9"
	                                                  "clair +zz")),
	                    want);
	run_as("bo", "/gm claim");
	snprintf(want, sizeof(want), "'boom' at column 6%s", nofn);
	assert_string_equal(reply_error_text(run_as("al", "/gmroll boom;boom")), want);
	/* ten rolls are allowed; six typed after five saved make eleven */
	assert_string_equal(reply_error_text(run_as("al", "/roll five;d6;d6;d6;d6;d6;d6")),
	                    "With what follows it, the saved roll five reads "
	                    "'d6;d6;d6;d6;d6;d6;d6;d6;d6;d6;d6', where a roll may have at most 10 "
	                    "expressions separated by ';' (the ';' at column 30 starts one more).");
	/* the advantage shorthand's own errors too */
	run_as("al", "/save atk 1d20+5");
	assert_string_equal(reply_error_text(run_as("al", "/roll atk adv + 2")),
	                    "The word 'adv' at column 5 must come last in its roll (before any "
	                    "';' or '# label'), as in 1d20+5 adv; 2d6.");
	assert_string_equal(reply_error_text(run_as("al", "/roll atk; 2d6 dis x")),
	                    "The word 'dis' at column 10 must come last in its roll (before any "
	                    "';' or '# label'), as in 1d20+5 adv; 2d6.");
	assert_string_equal(reply_error_text(run_as("al", "/roll atk adv\u200b")),
	                    "Unexpected invisible character U+200B at column 8, after the word "
	                    "'adv'; the end, ';' or '# label' may follow it, as in 1d20+5 adv; "
	                    "2d6.");
}

/* recheck2 F5: a label: word among the words after '#' is the label
 * option typed there (as a private: word is), so a label given both ways
 * is refused in either order, and alone it is the label; an empty label
 * after '#' is no label, so neither the reply nor Roll again keeps the
 * bare '#' ("roll 1d1", and with label:fire "roll 1d1 # fire", not
 * "roll 1d1 # # fire"). */
static void
label_word_after_the_hash(void **unused)
{
	const char *twice = "The label is given twice, as label:stealth and as '# sneak' in the "
	                    "expression; give it once, as label: or after ' # '; usage: /roll "
	                    "<expression> [label:text] [private:true|false]";
	const struct reply *r;

	r = run_as("al", "/roll 1d1+5 # sneak label:stealth");
	assert_true(reply_is_error(r));
	assert_string_equal(reply_error_text(r), twice);
	r = run_as("al", "/roll 1d1+5 label:stealth # sneak");
	assert_string_equal(reply_error_text(r), twice);
	r = run_as("al", "/roll 1d1+5 # label:\"two words\" sneak");
	assert_string_equal(reply_error_text(r),
	                    "The label is given twice, as label:two words and as '# sneak' in the "
	                    "expression; give it once, as label: or after ' # '; usage: /roll "
	                    "<expression> [label:text] [private:true|false]");
	run_as("bo", "/gm claim");
	r = run_as("al", "/gmroll 1d20+7 # sneak label:x");
	assert_true(reply_is_error(r));
	assert_null(reply_msg(r, REPLY_GM));
	/* alone, it is the label */
	r = run_as("al", "/roll 1d1 # label:stealth");
	assert_plain(r, "al rolls stealth\n1d1: [1] = 1\n");
	assert_string_equal(reply_msg(r, REPLY_CHANNEL)->buttons[0].action, "roll 1d1 # stealth");
	r = run_as("al", "/roll 1d1 # label: sneak");
	assert_plain(r, "al rolls sneak\n1d1: [1] = 1\n");
	/* an empty '#' is no label */
	r = run_as("al", "/roll 1d1 #");
	assert_plain(r, "al rolls\n1d1: [1] = 1\n");
	assert_string_equal(reply_msg(r, REPLY_CHANNEL)->buttons[0].action, "roll 1d1");
	r = run_as("al", "/roll 1d1 #   ");
	assert_string_equal(reply_msg(r, REPLY_CHANNEL)->buttons[0].action, "roll 1d1");
	r = run_as("al", "/roll 1d1 label:fire #");
	assert_string_equal(reply_msg(r, REPLY_CHANNEL)->buttons[0].action, "roll 1d1 # fire");
	/* a '#' inside a term's [label] is that label's text */
	r = run_as("al", "/roll 1d1[#] # label:x");
	assert_plain(r, "al rolls x\n1d1[#]: [1] # = 1\n");
	/* a word only beginning so stays label text */
	r = run_as("al", "/roll 1d1 # mislabel:x");
	assert_plain(r, "al rolls mislabel:x\n1d1: [1] = 1\n");
	assert_plain(run_as("al", "/log 3"), "The last 3 rolls here, newest first\n"
	                                     "  just now | al | 1d1 # mislabel:x | 1\n"
	                                     "  just now | al | 1d1[#] # x | 1\n"
	                                     "  just now | al | 1d1 # fire | 1\n");
}

/* newcomer F5: /log says one roll as one ("The last roll here", no
 * "newest first" of one), and /log secret no longer says that only the GM
 * sees it, which each transport says of every private reply. */
static void
log_counts_in_words(void **unused)
{
	const struct reply *r;

	run_as("al", "/roll 1d1");
	assert_plain(run_as("al", "/log"), "The last roll here\n  just now | al | 1d1 | 1\n");
	run_as("bo", "/gm claim");
	run_as("al", "/gmroll 1d1");
	r = run_as("bo", "/log secret");
	assert_plain(r, "[private]\nThe last secret roll here\n  just now | al | 1d1 | 1\n");
	run_as("al", "/roll 1d1");
	assert_plain(run_as("al", "/log"), "The last 2 rolls here, newest first\n"
	                                   "  just now | al | 1d1 | 1\n"
	                                   "  just now | al | 1d1 | 1\n");
	/* recheck5 F9: a count mistyped is a bad count, not a bad kind */
	r = run_as("al", "/log 5x");
	assert_string_equal(reply_error_text(r),
	                    "Count must be a whole number from 1 to 20 (got '5x'); usage: /log "
	                    "[rolls|secret] [count]");
	r = run_as("al", "/log rols");
	assert_string_equal(reply_error_text(r),
	                    "Kind must be one of rolls, secret (got 'rols'; did you mean rolls?); "
	                    "usage: /log [rolls|secret] [count]");
}

/* An open roll's label option is in /log after its dice, as a label typed
 * after '#' is there and a secret roll's label option is in /log secret
 * ("1d1 # fire"); over a saved roll's label too, as the roll showed. */
static void
label_option_in_the_log(void **unused)
{
	run_as("al", "/roll 1d1 label:fire");
	run_as("al", "/roll 1d1 # ice");
	run_as("al", "/save atk 1d1+5 # attack");
	run_as("al", "/roll atk label:smite");
	assert_plain(run_as("al", "/log"), "The last 3 rolls here, newest first\n"
	                                   "  just now | al | 1d1 + 5 # smite | 6\n"
	                                   "  just now | al | 1d1 # ice | 1\n"
	                                   "  just now | al | 1d1 # fire | 1\n");
}

/* newcomer F10: a roll's button carries its command whatever its length
 * (the console shows it; Discord's transport keeps one too long for its
 * button's id). */
static void
long_roll_keeps_its_button(void **unused)
{
	char line[300], want[300];
	const struct reply *r;

	snprintf(line, sizeof(line), "/roll 1d1 # %0150d", 0);
	snprintf(want, sizeof(want), "roll 1d1 # %0150d", 0);
	r = run_as("al", line);
	assert_int_equal(reply_msg(r, REPLY_CHANNEL)->nbuttons, 1);
	assert_string_equal(reply_msg(r, REPLY_CHANNEL)->buttons[0].action, want);
}

/* The newest entry of channel console:t's roll log (secret: the GM's
 * secret log) is one the store reads back: well-formed UTF-8 within the
 * limit, ending in "…" when the text was cut, and its log line decodes. */
static void
assert_log_entry_reads_back(bool secret)
{
	const struct store_record_mods *m = store_record_builtin_mods();
	struct channel *ch = state_channel(cr.st, "console:t");
	struct rollchan *rc = rollchan_of(ch);
	const struct rollchan_entry *e =
	    secret ? rollchan_secret_entry(rc, 0) : rollchan_entry(rc, 0);
	static const char empty[] = "{\"t\":\"c\",\"key\":\"console:t\",\"last_used\":1}";
	struct store_record r, back;
	char line[256], err[256];
	size_t slot, len;
	struct buf b;

	assert_non_null(e);
	len = strlen(e->what);
	assert_true(utf8_valid(e->what, len));
	assert_true(len < ROLLCHAN_WHAT_MAX);
	assert_string_equal(e->what + len - strlen("…"), "…");
	if (secret)
		return; /* the secret log is in the record, read by the same code */
	assert_non_null(store_record_log_mod(m, &slot));
	store_record_of_channel(&r, ch);
	buf_init(&b, 4096);
	/* The log's entries go out oldest first: the newest is entry nlog. */
	assert_int_equal(store_record_encode_log(m, r.mods[slot], rc->nlog, &b), 0);
	snprintf(line, sizeof(line), "%08x %s", (unsigned)crc32_of(empty, strlen(empty)), empty);
	assert_int_equal(store_record_decode(line, strlen(line), STORE_RECORD_VERSION, m, &back,
	                                     err, sizeof(err)),
	                 0);
	assert_int_equal(store_record_decode_log(&back, m, 1, buf_str(&b), b.len, err, sizeof(err)),
	                 0);
	assert_string_equal(rollchan_entry(back.mods[CHANMOD_ROLL], 0)->what, e->what);
	store_record_clear(&back, m);
	buf_free(&b);
}

/* A long label of any script is cut on a character in the roll log, as
 * is a long table name: a cut inside a character (é x 70 after "1d20 + 5
 * # ") left an entry that no start could read back, so every later start
 * refused the whole database. */
static void
long_texts_log_whole_characters(void **unused)
{
	static const char *const units[] = {
	    "é", "aé", "aaé", "a語", "語", "𐐀", "👨‍👩‍👧"};
	char line[600], name[200];

	assert_false(reply_is_error(run_as("gm", "/gm claim")));
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t n = snprintf(line, sizeof(line), "/roll 1d20+5 # ");

		while (n < 200)
			n += snprintf(line + n, sizeof(line) - n, "%s", units[i]);
		assert_false(reply_is_error(run_as("al", line)));
		assert_log_entry_reads_back(false);
		memmove(line + 7, line + 5, strlen(line + 5) + 1);
		memcpy(line, "/gmroll", 7);
		assert_false(reply_is_error(run_as("al", line)));
		assert_log_entry_reads_back(true);
	}
	/* A table name of 32 four-byte letters, the longest allowed. */
	for (int i = 0; i < 32; i++)
		memcpy(name + 4 * i, "𐐀", 4);
	name[4 * 32] = '\0';
	snprintf(line, sizeof(line), "/table set %s 1-6: x", name);
	assert_false(reply_is_error(run_as("gm", line)));
	snprintf(line, sizeof(line), "/table roll %s", name);
	assert_false(reply_is_error(run_as("al", line)));
	assert_log_entry_reads_back(false);
}

/* recheck3 F1: a long label is cut in the roll log between two characters
 * as a reader sees them, never inside one: an accent stays with its
 * letter (é as e + U+0301 was kept as e), an emoji with its variation
 * selector (🗡️ lost its U+FE0F), a ZWJ family whole (cut to a lone 👨).
 * Each label is tried at four alignments of the cut. */
static void
long_labels_log_whole_graphemes(void **unused)
{
	/* é (e, U+0301), 🗡️ (U+1F5E1, U+FE0F), 👨‍👩‍👧 (joined by U+200D) */
	static const char *const units[] = {
	    "e\xcc\x81",
	    "\xf0\x9f\x97\xa1\xef\xb8\x8f",
	    "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7",
	};
	static const char *const pads[] = {"", "x", "xx", "xxx"};
	char line[400];

	(void)unused;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		for (size_t p = 0; p < sizeof(pads) / sizeof(pads[0]); p++) {
			size_t u = strlen(units[i]), n, len, start;
			const struct rollchan_entry *e;

			n = (size_t)snprintf(line, sizeof(line), "/roll 1d20 # %s", pads[p]);
			start = strlen("1d20 # ") + strlen(pads[p]);
			while (n - strlen("/roll 1d20 # ") + u <= 190)
				n += (size_t)snprintf(line + n, sizeof(line) - n, "%s", units[i]);
			assert_false(reply_is_error(run_as("al", line)));
			assert_log_entry_reads_back(false);
			e = rollchan_entry(rollchan_of(state_channel(cr.st, "console:t")), 0);
			len = strlen(e->what) - strlen("…");
			/* Whole units after the pad, as many as fit with the "…". */
			assert_true(len > start);
			assert_int_equal((len - start) % u, 0);
			assert_memory_equal(e->what + len - u, units[i], u);
			assert_true(len + u + strlen("…") >= ROLLCHAN_WHAT_MAX);
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(small_pool_as_is),
	    cmocka_unit_test(large_pool_compacted),
	    cmocka_unit_test(rest_counted),
	    cmocka_unit_test(capped_chain_shows_the_die),
	    cmocka_unit_test_setup_teardown(gmroll_audiences, setup, teardown),
	    cmocka_unit_test_setup_teardown(private_after_the_label, setup, teardown),
	    cmocka_unit_test_setup_teardown(own_saved_rolls_are_private, setup, teardown),
	    cmocka_unit_test_setup_teardown(secret_channel_is_the_gms_own, setup, teardown),
	    cmocka_unit_test_setup_teardown(saved_rolls_follow_the_player, setup, teardown),
	    cmocka_unit_test_setup_teardown(one_label_a_roll, setup, teardown),
	    cmocka_unit_test_setup_teardown(hash_in_term_label, setup, teardown),
	    cmocka_unit_test_setup_teardown(saved_name_with_an_invisible_character, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(empty_label_is_none, setup, teardown),
	    cmocka_unit_test_setup_teardown(invisible_label_is_refused, setup, teardown),
	    cmocka_unit_test_setup_teardown(channel_after_the_label, setup, teardown),
	    cmocka_unit_test_setup_teardown(save_option_typo, setup, teardown),
	    cmocka_unit_test_setup_teardown(saved_roll_errors_in_typed_columns, setup, teardown),
	    cmocka_unit_test_setup_teardown(label_word_after_the_hash, setup, teardown),
	    cmocka_unit_test_setup_teardown(long_roll_keeps_its_button, setup, teardown),
	    cmocka_unit_test_setup_teardown(log_counts_in_words, setup, teardown),
	    cmocka_unit_test_setup_teardown(label_option_in_the_log, setup, teardown),
	    cmocka_unit_test_setup_teardown(long_texts_log_whole_characters, setup, teardown),
	    cmocka_unit_test_setup_teardown(long_labels_log_whole_graphemes, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
