/*
 * Unit tests for /panel (commands/panel): what the panel shows, exactly,
 * for a channel in play; that hidden Tension stays behind the screen (the
 * GM gets a copy with the bar, nobody else); the buttons and their rights;
 * the record of the message that shows the panel (cmd_panel_placed), which
 * only a transport can bind; and that each line fits one IRC line.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/discord/render_discord.h"
#include "bot/irc/render_irc.h"
#include "commands/core/dispatch.h"
#include "commands/core/registry_parse.h"
#include "commands/core/undo.h"
#include "commands/panel/cmd_panel.h"
#include "commands/panel/panel_state.h"
#include "rules/base/mem.h"
#include "rules/base/rng.h"
#include "tests/unit/helpers/slurp.h"

static struct dispatch *d;
static struct reply *last;

static int
setup(void **unused)
{
	(void)unused;
	d = dispatch_new(&(struct dispatch_opts){.state = state_new(), .rng = rng_new_seeded(7)});
	last = NULL;
	return 0;
}

static int
teardown(void **unused)
{
	struct state *st = dispatch_state(d);
	struct rng *rng = dispatch_rng(d);

	(void)unused;
	reply_free(last);
	dispatch_free(d);
	state_free(st);
	rng_free(rng);
	return 0;
}

static void
origin_of(struct origin *o, const char *user)
{
	memset(o, 0, sizeof(*o));
	o->platform = "console";
	snprintf(o->chan_key, sizeof(o->chan_key), "console:table");
	snprintf(o->user_key, sizeof(o->user_key), "console:%s", user);
	snprintf(o->user_name, sizeof(o->user_name), "%s", user);
}

/* Runs line as user in console:table; the reply stays in last. */
static const struct reply *
run(const char *user, const char *line)
{
	struct origin o;

	origin_of(&o, user);
	reply_free(last);
	last = reply_new();
	dispatch_line(d, &o, line, strlen(line), 0, last);
	return last;
}

/* run(), which must not be an error. */
static void
ok(const char *user, const char *line)
{
	if (reply_is_error(run(user, line)))
		fail_msg("%s: %s", line, reply_error_text(last));
}

/* The plain text of one audience's message of last ("" when none). */
static char *
text_of(enum reply_audience a)
{
	const struct reply_msg *m = reply_msg(last, a);
	struct reply *r = reply_new();
	char *t;

	/* reply_plain joins every audience: copy the one asked for alone. */
	if (m != NULL) {
		for (size_t i = 0; i < m->nblocks; i++) {
			for (size_t j = 0; j < m->blocks[i].nspans; j++)
				reply_add(r, 0, "%s", m->blocks[i].spans[j].text);
			reply_nl(r);
		}
	}
	t = reply_plain(r);
	reply_free(r);
	return t;
}

static struct channel *
table(void)
{
	return state_channel(dispatch_state(d), "console:table");
}

/* m as Discord shows it, one message (owned by the caller), which draws no
 * code block: a panel reads as markdown text, whatever its styles. */
static char *
discord_text(const struct reply_msg *m, bool ephemeral)
{
	char *text = NULL, *content;
	cJSON *part;

	assert_int_equal(render_discord_parts(m, ephemeral, NULL, NULL, &text, 1), 1);
	part = cJSON_Parse(text);
	content = xstrdup(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(part, "content")));
	cJSON_Delete(part);
	free(text);
	if (strstr(content, "```") != NULL)
		fail_msg("the panel draws a code block on Discord: %s", content);
	return content;
}

/* delver(7) names each of the panel's buttons with the command it runs, as
 * the console shows it: "**Label** (`/action`" (its lines joined, as
 * markdown reads them). Run from the repository's top, as make unit does. */
static void
buttons_as_the_manual_says(const struct reply_msg *m)
{
	char *page = slurp("bot/man/delver.7.md", NULL);

	for (char *p = page; *p != '\0'; p++)
		if (*p == '\n')
			*p = ' ';
	for (size_t i = 0; i < m->nbuttons; i++) {
		char want[200];

		snprintf(want, sizeof(want), "**%s** (`/%s`", m->buttons[i].label,
		         m->buttons[i].action);
		if (strstr(page, want) == NULL)
			fail_msg("delver(7) does not name the panel's button as %s", want);
	}
	free(page);
}

static void
shows_the_state_at_a_glance(void **unused)
{
	const struct reply_msg *m;
	char *t;

	(void)unused;
	ok("gm", "/gm claim");
	ok("gm", "/hazard table delving");
	ok("gm", "/light add torch 1 alba");
	ok("gm", "/light add lantern 1 bob");
	ok("gm", "/turn advance 7");
	ok("gm", "/tension raise amount:3 reason:noise");
	run("bob", "/panel");
	assert_false(reply_is_error(last));
	/* Not in a table, nor a message of the bot's yet. */
	assert_string_equal(reply_panel_message(last), "");
	t = text_of(REPLY_CHANNEL);
	assert_string_equal(t, "Turn 7 (1 h 10 min in the dungeon) · 7 turns since the last rest: "
	                       "a rest is due · Lights: torch #1 (alba) until a Burn, lantern #2 "
	                       "(bob) 41 turns left\n"
	                       "Tension ████░░░░░░ 4/10 · Hazard die: delving\n");
	free(t);
	t = discord_text(reply_msg(last, REPLY_CHANNEL), false);
	assert_non_null(strstr(t, "**Turn 7**"));
	free(t);
	/* A player's panel in open mode: nothing for the player alone. */
	assert_null(reply_msg(last, REPLY_INVOKER));
	m = reply_msg(last, REPLY_CHANNEL);
	assert_int_equal(m->nbuttons, 5);
	{
		static const char *const labels[] = {"Next turn", "Rest", "Tension +1", "Wander",
		                                     "Undo"};
		static const char *const actions[] = {
		    "hazard roll", "rest", "tension raise amount:1 reason:from the panel",
		    "wander check", "undo"};

		for (size_t i = 0; i < 5; i++) {
			assert_string_equal(m->buttons[i].label, labels[i]);
			assert_string_equal(m->buttons[i].action, actions[i]);
			assert_true(m->buttons[i].panel);
			assert_false(m->buttons[i].update);
		}
		buttons_as_the_manual_says(m);
	}
}

/* Hidden Tension: the channel's panel says only that it is hidden; the GM
 * who asks gets a copy with the bar; a player gets none. */
static void
hidden_tension_stays_behind_the_screen(void **unused)
{
	char *t;

	(void)unused;
	ok("gm", "/gm claim");
	ok("gm", "/tension raise amount:6 reason:noise");
	ok("gm", "/tension mode hidden");
	run("bob", "/panel");
	t = text_of(REPLY_CHANNEL);
	assert_string_equal(t,
	                    "Turn 0 (0 min in the dungeon) · 0 turns since the last rest · "
	                    "Darkness: nothing is lit\n"
	                    "Tension: hidden behind the GM's screen · Hazard die: exploration\n");
	free(t);
	assert_null(reply_msg(last, REPLY_INVOKER));
	assert_null(reply_msg(last, REPLY_GM));
	run("gm", "/panel");
	t = text_of(REPLY_CHANNEL);
	assert_null(strstr(t, "7/10"));
	assert_null(strstr(t, "█"));
	free(t);
	t = text_of(REPLY_INVOKER);
	assert_string_equal(t, "Turn 0 (0 min in the dungeon) · 0 turns since the last rest · "
	                       "Darkness: nothing is lit\n"
	                       "Tension ███████░░░ 7/10 · Hazard die: exploration\n");
	free(t);
	/* The GM's copy has no buttons: the panel's are on the channel's. */
	assert_int_equal(reply_msg(last, REPLY_INVOKER)->nbuttons, 0);
	/* On Discord both read as the panel's other lines do: markdown, no
	 * code block. */
	t = discord_text(reply_msg(last, REPLY_CHANNEL), false);
	assert_non_null(strstr(t, "Tension: *hidden behind the GM's screen*"));
	free(t);
	t = discord_text(reply_msg(last, REPLY_INVOKER), true);
	assert_non_null(strstr(t, "Tension ███████░░░ **7**/10"));
	free(t);
}

/* A Fungeon party: where it is and who holds which category in the
 * hallway; each Fungeoneer's level, hits and XP; a safe area; the classic
 * die's odds. */
static void
fungeon_party_and_holders(void **unused)
{
	char *t;

	(void)unused;
	ok("ann", "/gm claim");
	ok("ann", "/fungeon join Alba wizard 2");
	ok("ann", "/fungeon hallway"); /* alone: ann holds every category */
	ok("bob", "/fungeon join Brom fighter 1");
	ok("ann", "/hazard chance 2 6");
	ok("ann", "/safe on");
	run("bob", "/panel");
	t = text_of(REPLY_CHANNEL);
	assert_string_equal(t,
	                    "Turn 0 (0 min in the dungeon) · 0 turns since the last rest · "
	                    "Darkness: nothing is lit\n"
	                    "Tension █░░░░░░░░░ 1/10 · Hazard die: classic 2-in-6 · the party is "
	                    "in a safe area\n"
	                    "Fungeon: the party is in the hallway before room 1, on floor 2 · "
	                    "Traps: ann, Monsters: ann, Treasure: ann\n"
	                    "Party: Alba L2 10/10 hits 0 XP, Brom L1 5/5 hits 0 XP\n");
	free(t);
}

/* The last of the panel's buttons: label and action. */
static void
last_button(const char *label, const char *action)
{
	const struct reply_msg *m = reply_msg(last, REPLY_CHANNEL);

	assert_true(m->nbuttons > 5);
	assert_string_equal(m->buttons[m->nbuttons - 1].label, label);
	assert_string_equal(m->buttons[m->nbuttons - 1].action, action);
	buttons_as_the_manual_says(m);
}

/* Runs /panel as user; its channel text must hold want. */
static void
panel_shows(const char *user, const char *want)
{
	char *t;

	run(user, "/panel");
	t = text_of(REPLY_CHANNEL);
	if (strstr(t, want) == NULL)
		fail_msg("the panel does not show '%s':\n%s", want, t);
	free(t);
}

/* Play-test 5, Q13: a masterless table sees on the panel where its party
 * is and what waits, and a button for the step that moves it on: in town
 * the hallway; in the hallway who chooses next, and going in; a downward
 * stair to place. */
static void
fungeon_line_says_where_the_party_is(void **unused)
{
	(void)unused;
	ok("ann", "/fungeon join Alba wizard 1");
	ok("bob", "/fungeon join Brom fighter 1");
	panel_shows("bob", "\nFungeon: the party is in town\nParty: ");
	last_button("Hallway", "fungeon hallway");
	ok("ann", "/fungeon hallway");
	panel_shows("bob", "\nFungeon: the party is in the hallway before room 1, on "
	                   "floor 1 · ann chooses a category next\n");
	last_button("Enter", "fungeon enter");
	ok("ann", "/fungeon adjust Alba xp:10"); /* level 2 in the next hallway */
	ok("bob", "/fungeon adjust Brom xp:10");
	ok("ann", "/gm claim");
	ok("ann", "/fungeon pick traps who:ann");
	ok("ann", "/fungeon pick monsters who:bob");
	ok("ann", "/fungeon enter waive:true");
	ok("ann", "/fungeon hallway");
	ok("ann", "/gm release");
	panel_shows("bob", "· a downward stair to floor 2 to place\n");
	ok("ann", "/gm claim");
	ok("ann", "/fungeon pick traps who:ann");
	ok("ann", "/fungeon pick monsters who:bob");
	ok("bob", "/fungeon monster add rat level 2");
	ok("ann", "/fungeon enter waive:true");
	run("bob", "/panel");
	last_button("Hallway", "fungeon hallway");
	assert_string_equal(reply_msg(last, REPLY_CHANNEL)->buttons[5].action, "fungeon combat");
}

/* Each line of a full panel fits one IRC line, the four of them three
 * lines, where a server's prefix leaves 350 bytes: longest names, a full
 * party, twenty lights with long carriers. What does not fit is counted. */
static void
every_line_fits_one_irc_line(void **unused)
{
	char line[200];
	struct render_irc_opts ro = {.budget = 350, .max_lines = 20, .prefix = "!"};
	struct irc_lines l = {0};
	char *t;

	(void)unused;
	ok("u0", "/gm claim");
	for (int i = 0; i < 8; i++) {
		char user[8];

		snprintf(user, sizeof(user), "u%d", i);
		snprintf(line, sizeof(line), "/fungeon join Fungeoneer%014d wizard 12", i);
		ok(user, line);
		snprintf(line, sizeof(line), "/fungeon adjust Fungeoneer%014d xp:123456", i);
		ok("u0", line);
	}
	ok("u0", "/fungeon hallway");
	ok("u0", "/light add torch 20 "
	         "the_carrier_with_the_longest_name_a_channel_could_hold_abcdefgh");
	run("u1", "/panel");
	render_irc(reply_msg(last, REPLY_CHANNEL), &ro, &l);
	/* Two here: IRC packs lines that fit together. */
	assert_true(l.n >= 1 && l.n <= 3);
	for (size_t i = 0; i < l.n; i++)
		assert_true(strlen(l.v[i]) <= 350);
	render_irc_lines_free(&l);
	t = text_of(REPLY_CHANNEL);
	assert_non_null(strstr(t, " turns left and 18 more\n"));
	assert_non_null(strstr(t, " XP and 4 more\n"));
	free(t);
}

/* The buttons are the commands they name, with those commands' rights. */
static void
buttons_keep_their_commands_rights(void **unused)
{
	(void)unused;
	ok("gm", "/gm claim");
	run("bob", "/tension raise amount:1 reason:from the panel");
	assert_true(reply_is_error(last));
	assert_non_null(strstr(reply_error_text(last), "Only the GM can do that here"));
	ok("gm", "/tension raise amount:1 reason:from the panel");
	ok("bob", "/hazard");
	ok("bob", "/rest");
	ok("bob", "/wander");
	/* A change that rolled dice only the GM takes back. */
	run("bob", "/undo");
	assert_true(reply_is_error(last));
	ok("gm", "/undo");
}

/* cmd_panel_placed, bound as a transport binds it: message, server and
 * was. */
static const struct reply *
placed_in(const char *message, const char *server, const char *was)
{
	struct invocation inv;
	struct origin o;
	struct reply *r = reply_new();

	memset(&inv, 0, sizeof(inv));
	inv.cmd = &cmd_panel_placed;
	inv.path[0] = &cmd_panel_placed;
	if (message != NULL && registry_parse_bind(&inv, "message", message, r) < 0)
		fail_msg("bind: %s", reply_error_text(r));
	if (server != NULL && registry_parse_bind(&inv, "server", server, r) < 0)
		fail_msg("bind: %s", reply_error_text(r));
	if (was != NULL && registry_parse_bind(&inv, "was", was, r) < 0)
		fail_msg("bind: %s", reply_error_text(r));
	origin_of(&o, "delver");
	dispatch_invocation(d, &o, &inv, 0, r);
	reply_free(last);
	last = r;
	return r;
}

static const struct reply *
placed(const char *message, const char *was)
{
	return placed_in(message, NULL, was);
}

/* What panel_state_each saw, "key message server;" each, sorted. */
static char seen[256];

static void
see(const char *chan_key, const char *message, const char *server, void *ctx)
{
	size_t n = strlen(seen);

	(void)ctx;
	snprintf(seen + n, sizeof(seen) - n, "%s %s %s;", chan_key, message, server);
}

/* The server a panel was posted in is kept with its message (it tells a
 * fleet's process which panels are its own after a start), saved only
 * when there is one; panel_state_each finds every panel in memory. */
static void
the_panels_server_is_recorded(void **unused)
{
	char err[256];
	cJSON *o;
	char *text;
	void *p;

	(void)unused;
	placed_in("1600000000000000001", "1100000000000000001", NULL);
	assert_string_equal(panel_state_message(table()), "1600000000000000001");
	assert_string_equal(panel_state_server(table()), "1100000000000000001");
	o = panel_mod.save(channel_mod_peek(table(), CHANMOD_PANEL));
	text = cJSON_PrintUnformatted(o);
	assert_string_equal(
	    text, "{\"message\":\"1600000000000000001\",\"server\":\"1100000000000000001\"}");
	cJSON_free(text);
	p = panel_mod.create();
	assert_int_equal(panel_mod.load(p, o, err, sizeof(err)), 0);
	cJSON_Delete(o);
	o = panel_mod.save(p);
	text = cJSON_PrintUnformatted(o);
	assert_string_equal(
	    text, "{\"message\":\"1600000000000000001\",\"server\":\"1100000000000000001\"}");
	cJSON_free(text);
	cJSON_Delete(o);
	panel_mod.destroy(p);
	/* Another channel's panel, outside any server; a channel without. */
	assert_non_null(state_channel(dispatch_state(d), "console:other"));
	panel_state_set(state_channel(dispatch_state(d), "console:dm"), "1600000000000000007",
	                NULL);
	seen[0] = '\0';
	panel_state_each(dispatch_state(d), see, NULL);
	assert_true(strstr(seen, "console:table 1600000000000000001 1100000000000000001;") != NULL);
	assert_true(strstr(seen, "console:dm 1600000000000000007 ;") != NULL);
	assert_null(strstr(seen, "console:other"));
	assert_int_equal(strlen(seen),
	                 strlen("console:table 1600000000000000001 "
	                        "1100000000000000001;console:dm 1600000000000000007 ;"));
	/* A server id the record cannot hold. */
	placed_in("1600000000000000002", "a b", NULL);
	assert_true(reply_is_error(last));
	assert_string_equal(panel_state_message(table()), "1600000000000000001");
	/* Forgotten: the server goes with the message. */
	placed(NULL, "1600000000000000001");
	assert_string_equal(panel_state_server(table()), "");
}

static void
the_panels_message_is_recorded(void **unused)
{
	(void)unused;
	placed("1600000000000000001", NULL);
	assert_string_equal(reply_panel_message(last), "");
	assert_string_equal(panel_state_message(table()), "1600000000000000001");
	/* A view, not a change to the game: /undo has nothing to take back. */
	assert_int_equal(undo_depth(table()), 0);
	/* /panel names it. */
	run("bob", "/panel");
	assert_string_equal(reply_panel_message(last), "1600000000000000001");
	/* A new one takes its place; the reply names the old one. */
	placed("1600000000000000002", NULL);
	assert_string_equal(reply_panel_message(last), "1600000000000000001");
	assert_string_equal(panel_state_message(table()), "1600000000000000002");
	/* The old one found deleted changes nothing now. */
	placed(NULL, "1600000000000000001");
	assert_string_equal(panel_state_message(table()), "1600000000000000002");
	/* The current one found deleted is forgotten: no module state. */
	placed(NULL, "1600000000000000002");
	assert_string_equal(reply_panel_message(last), "1600000000000000002");
	assert_string_equal(panel_state_message(table()), "");
	assert_null(channel_mod_peek(table(), CHANMOD_PANEL));
	/* An id the record cannot hold. */
	placed("a b", NULL);
	assert_true(reply_is_error(last));
	assert_string_equal(reply_error_text(last),
	                    "A panel's message id is 1 to 32 printable characters without spaces.");
	assert_string_equal(panel_state_message(table()), "");
	/* Nobody types it. */
	run("bob", "/panel-placed message:1");
	assert_true(reply_is_error(last));
	assert_string_equal(panel_state_message(table()), "");
}

/* The module's record: what it saves loads back; anything else is refused
 * with one sentence. */
static void
the_record_is_checked(void **unused)
{
	static const char *const bad[] = {
	    "[]",
	    "{}",
	    "{\"message\":1}",
	    "{\"message\":\"a b\"}",
	    "{\"message\":\"123456789012345678901234567890123\"}",
	    "{\"message\":\"1\",\"more\":2}",
	    "{\"message\":\"1\",\"server\":\"\"}",
	    "{\"message\":\"1\",\"server\":2}",
	    "{\"message\":\"1\",\"server\":\"2\",\"more\":3}",
	    "{\"server\":\"2\"}",
	};
	char err[256];
	void *p;
	cJSON *o;

	(void)unused;
	panel_state_set(table(), "1600000000000000009", NULL);
	o = panel_mod.save(channel_mod_peek(table(), CHANMOD_PANEL));
	p = panel_mod.create();
	assert_int_equal(panel_mod.load(p, o, err, sizeof(err)), 0);
	panel_mod.destroy(p);
	cJSON_Delete(o);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		o = cJSON_Parse(bad[i]);
		p = panel_mod.create();
		err[0] = '\0';
		if (panel_mod.load(p, o, err, sizeof(err)) == 0)
			fail_msg("loaded %s", bad[i]);
		assert_non_null(strstr(err, "panel: the record must be"));
		assert_null(strchr(err, '\n'));
		panel_mod.destroy(p);
		cJSON_Delete(o);
	}
}

/* What dispatch_watch_panels reported. */
static char watched[8][64];
static int nwatched;

static void
watch(void *ctx, const struct request *req, const char *chan_key, const char *message)
{
	(void)ctx;
	(void)req;
	if (nwatched < 8)
		snprintf(watched[nwatched], sizeof(watched[0]), "%s %s", chan_key, message);
	nwatched++;
}

/* Every change kept on the road, by whatever command, reaches the panel's
 * watcher, once per request, with the message the record names; what
 * changes nothing, a refusal, a channel without a panel do not. */
static void
changes_reach_the_panel(void **unused)
{
	(void)unused;
	nwatched = 0;
	dispatch_watch_panels(d, watch, NULL);
	ok("gm", "/gm claim");
	assert_int_equal(nwatched, 0); /* no panel yet */
	placed("1600000000000000001", NULL);
	nwatched = 0;
	ok("bob", "/hazard");
	assert_int_equal(nwatched, 1);
	assert_string_equal(watched[0], "console:table 1600000000000000001");
	ok("gm", "/tension raise amount:1 reason:x");
	ok("gm", "/light add torch");
	ok("gm", "/undo");
	ok("gm", "/fungeon join Alba wizard 2");
	assert_int_equal(nwatched, 5);
	/* A roll adds to the channel's log: a change kept, which the
	 * watcher hears of too (the panel it renders is the same, which the
	 * transport sees). */
	ok("bob", "/roll 1d6");
	assert_int_equal(nwatched, 6);
	/* Nothing changed: read-only, a refusal. */
	ok("bob", "/turn show");
	ok("bob", "/panel");
	run("bob", "/tension raise amount:1 reason:x");
	assert_true(reply_is_error(last));
	assert_int_equal(nwatched, 6);
	/* Another channel, with no panel. */
	{
		struct origin o;

		origin_of(&o, "bob");
		snprintf(o.chan_key, sizeof(o.chan_key), "console:other");
		dispatch_line(d, &o, "/hazard", 7, 0, last);
	}
	assert_int_equal(nwatched, 6);
	dispatch_watch_panels(d, NULL, NULL);
	ok("bob", "/hazard");
	assert_int_equal(nwatched, 6);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(shows_the_state_at_a_glance, setup, teardown),
	    cmocka_unit_test_setup_teardown(hidden_tension_stays_behind_the_screen, setup,
	                                    teardown),
	    cmocka_unit_test_setup_teardown(fungeon_party_and_holders, setup, teardown),
	    cmocka_unit_test_setup_teardown(fungeon_line_says_where_the_party_is, setup, teardown),
	    cmocka_unit_test_setup_teardown(every_line_fits_one_irc_line, setup, teardown),
	    cmocka_unit_test_setup_teardown(buttons_keep_their_commands_rights, setup, teardown),
	    cmocka_unit_test_setup_teardown(the_panels_message_is_recorded, setup, teardown),
	    cmocka_unit_test_setup_teardown(the_panels_server_is_recorded, setup, teardown),
	    cmocka_unit_test_setup_teardown(the_record_is_checked, setup, teardown),
	    cmocka_unit_test_setup_teardown(changes_reach_the_panel, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
