/*
 * Hidden means hidden everywhere (issue 26). A channel plays with Tension
 * behind the GM's screen: its value (8), its tables (entries no other text
 * uses), the reason of a change, a strike, the GM's rolls, a hazard roll,
 * and a player's secret roll. Then every command and subcommand of the
 * command table (tests/unit/helpers/cmdwalk.h: a new command is walked too)
 * runs, each on a fresh copy of that channel:
 *  - as a player, on the console (its lines before the GM's part), on IRC
 *    through the bot layer (every line not sent to the GM alone) and on
 *    Discord through the interaction layer (every callback and follow-up:
 *    the player sees their own ephemeral messages), and Discord's
 *    autocomplete of every option that has it;
 *  - as the GM, on each platform: what the channel sees of the GM's own
 *    commands (IRC's channel lines, Discord's public messages, the console's
 *    lines before the private parts);
 *  - the buttons the channel was shown, pressed by the player.
 * No text a player can see may hold a hidden entry, the reason, the value
 * as the bot writes it, or the secret roll's expression and label. The same
 * walk in an open channel must find them (the detector can fail).
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

#include "bot/log.h"
#include "commands/core/dispatch.h"
#include "rules/base/buf.h"
#include "rules/base/rng.h"
#include "tests/unit/helpers/cmdwalk.h"
#include "tests/unit/helpers/playview.h"

/* What a player may never see while Tension is hidden. */
static const char *const secrets[] = {
    "Quillfang",   "Morrowisp", "Gloamjaw",  "Vexthorn",  "Drowsmire",  "Ashveil",    "Brinecall",
    "ambushready", "8/10",      "Tension 8", "tension 8", "→ 8",        "████████░░", "Nightjar",
    "1d20+7",      "1d20 + 7",  "+ 7",       "effects-9", "Cinderhall", NULL,
};

/* The GM's play before each case: two orders, so that the newest change
 * /undo meets is a hazard roll (the last line) in one and the hidden
 * Tension change in the other. */
static const char *const setup_gm[] = {
    "gm claim",
    "tension table set encounter 1-4 Quillfang; 5-8 Morrowisp; 9-12 Gloamjaw; 13-16 Vexthorn; "
    "17-20 Drowsmire",
    "tension table set effects 1-10 Ashveil; 11-20 Brinecall",
    "tension mode hidden",
    "table set effects-9 1-20: Cinderhall",
    "tension strike Gloamjaw",
    "tension roll",
    "hazard roll",
    "hazard roll",
    "hazard roll",
    "hazard roll",
    "hazard roll",
    "hazard roll",
    "wander check",
    "tension set 8 # ambushready",
    "hazard roll",
    NULL,
};

enum platform {
	CONSOLE = PLAYVIEW_CONSOLE,
	IRC = PLAYVIEW_IRC,
	DISCORD = PLAYVIEW_DISCORD,
	NPLATFORMS = PLAYVIEW_NKINDS
};

/* One platform's session on a fresh state. */
struct world {
	enum platform kind;
	struct playview *pv;
	bool open; /* the setup leaves Tension open (the detector's check) */
};

/* What the walk found. */
struct findings {
	int cases, checked, leaks;
	int shown[NPLATFORMS]; /* texts checked that held something */
	char first[8][1500];
	/* the open channel's check: texts that held a secret */
	int open_hits;
	/* buttons the channel was shown (Discord custom_ids) */
	char buttons[64][128];
	int nbuttons;
};

static struct findings F;

/* When set, a run keeps what the channel sees, whoever runs it (as for
 * the GM's commands). */
static bool channel_view;
/* When set, a console run keeps every part (the GM's view of the play). */
static bool full_view;

/* What who is shown of what they run: the channel's view of the GM's. */
static enum playview_view
view_of(const char *who)
{
	if (full_view)
		return PLAYVIEW_ALL;
	return channel_view || strcmp(who, "gm") == 0 ? PLAYVIEW_CHANNEL : PLAYVIEW_INVOKER;
}

/* A button the channel was shown, kept for the presses. */
static void
keep_button(void *ctx, const char *custom_id)
{
	(void)ctx;
	if (F.nbuttons < 64)
		snprintf(F.buttons[F.nbuttons++], sizeof(F.buttons[0]), "%s", custom_id);
}

static void
run_line(struct world *w, const char *who, const char *line, struct buf *seen)
{
	playview_line(w->pv, who, line, view_of(who), seen);
}

static void
discord_event(struct world *w, const char *who, int type, cJSON *data, struct buf *seen)
{
	playview_event(w->pv, who, type, data, view_of(who), seen);
}

static int setup_lines = -1; /* lines of setup each world runs (-1: all) */
/* The play before each case, and where what it shows goes (NULL: away). */
static const char *const *setup = setup_gm;
static struct buf *setup_seen;
/* Whether each line of the play, and the case after it, rolls from a seed
 * of its own: dice drawn depend on what is behind the screen (meeting a
 * sign's creature rolls no table), and must not make later rolls differ. */
static bool reseed;

/* A line of the setup: the GM's, or a player's after "alice: ". */
static void
setup_line(struct world *w, const char *line, struct buf *seen)
{
	if (strncmp(line, "alice: ", 7) == 0)
		run_line(w, "alice", line + 7, seen);
	else
		run_line(w, "gm", line, seen);
}

static struct world *
world_new(enum platform kind, bool open)
{
	struct world *w = calloc(1, sizeof(*w));
	struct buf sink;

	w->kind = kind;
	w->open = open;
	w->pv = playview_new((enum playview_kind)kind, 26);
	playview_on_button(w->pv, keep_button, NULL);
	buf_init(&sink, 1 << 20);
	for (int i = 0; setup[i] != NULL && (setup_lines < 0 || i < setup_lines); i++) {
		if (reseed)
			rng_seed(dispatch_rng(playview_dispatch(w->pv)), 2000 + (uint64_t)i * 7919);
		if (!open || strcmp(setup[i], "tension mode hidden") != 0)
			setup_line(w, setup[i], setup_seen != NULL ? setup_seen : &sink);
	}
	if (reseed)
		rng_seed(dispatch_rng(playview_dispatch(w->pv)), 4242);
	run_line(w, "bob", "gmroll 1d20+7 # Nightjar", &sink);
	buf_free(&sink);
	return w;
}

static void
world_free(struct world *w)
{
	playview_free(w->pv);
	free(w);
}

/* Whether text holds a secret; names the first. */
static const char *
leak_in(const char *text)
{
	for (size_t i = 0; secrets[i] != NULL; i++)
		if (strstr(text, secrets[i]) != NULL)
			return secrets[i];
	return NULL;
}

static void
check(struct world *w, const char *who, const char *what, const struct buf *seen)
{
	const char *hit = leak_in(seen->p != NULL ? seen->p : "");

	F.checked++;
	F.shown[w->kind] += seen->len > 0;
	if (hit == NULL)
		return;
	if (w->open) {
		F.open_hits++;
		return;
	}
	if (F.leaks < 8)
		snprintf(F.first[F.leaks], sizeof(F.first[0]),
		         "%s, as %s: %s\n  shows '%s' in:\n%.1200s", playview_names[w->kind], who,
		         what, hit, buf_str(seen));
	F.leaks++;
}

/* One case of the walk on every platform, as a player and as the GM. */
static void
walk_case(void *ctx, const struct cmdwalk_case *c)
{
	bool open = *(bool *)ctx;
	static const char *const who[] = {"alice", "gm"};

	F.cases++;
	for (int p = 0; p < NPLATFORMS; p++)
		for (int u = 0; u < 2; u++) {
			struct world *w = world_new((enum platform)p, open);
			struct buf seen;

			/* The GM opening the screen shows Tension to all: that is
			 * what it is for. */
			if (u == 1 && strstr(c->line, "mode:open") != NULL &&
			    c->leaf == registry_find_sub(registry_find("tension", 7), "mode", 4)) {
				world_free(w);
				continue;
			}
			buf_init(&seen, 1 << 22);
			if (p != DISCORD)
				run_line(w, who[u], c->line, &seen);
			else if (c->leaf->subs == NULL)
				discord_event(w, who[u], 2, playview_discord_data(c), &seen);
			check(w, who[u], c->line, &seen);
			buf_free(&seen);
			world_free(w);
		}
}

/* Discord's autocomplete of every option that has it, as the player,
 * with nothing typed yet and with one letter of a hidden entry. */
static void
autocomplete_case(void *ctx, const struct cmdwalk_case *c)
{
	static const char *const partials[] = {"", "o", "Q"};
	bool open = *(bool *)ctx;

	if (c->leaf->subs != NULL || c->nopts == 0 || c->path[0] == NULL)
		return;
	for (size_t i = 0; i < c->nopts; i++) {
		if (!(c->opts[i]->flags & OPT_AUTOCOMPLETE))
			continue;
		for (size_t k = 0; k < sizeof(partials) / sizeof(partials[0]); k++) {
			struct world *w = world_new(DISCORD, open);
			cJSON *data = playview_discord_data(c),
			      *level = cJSON_GetObjectItem(data, "options");
			cJSON *o;
			struct buf seen;
			char what[CMDWALK_LINE_MAX + 64];

			/* The option being typed is the deepest level's i-th. */
			while (
			    cJSON_GetArraySize(level) > 0 &&
			    cJSON_GetObjectItem(cJSON_GetArrayItem(level, 0), "type")->valueint <=
			        2)
				level =
				    cJSON_GetObjectItem(cJSON_GetArrayItem(level, 0), "options");
			o = cJSON_GetArrayItem(level, (int)i);
			cJSON_ReplaceItemInObject(o, "value", cJSON_CreateString(partials[k]));
			if (c->opts[i]->type != OPT_STRING)
				cJSON_ReplaceItemInObject(o, "type", cJSON_CreateNumber(3));
			cJSON_AddBoolToObject(o, "focused", true);
			buf_init(&seen, 1 << 20);
			discord_event(w, "alice", 4, data, &seen);
			snprintf(what, sizeof(what), "autocomplete of %s in '%s' from '%s'",
			         c->opts[i]->name, c->line, partials[k]);
			check(w, "alice", what, &seen);
			buf_free(&seen);
			world_free(w);
		}
	}
}

/* The buttons the channel was shown, pressed by the player. */
static void
press_buttons(bool open)
{
	for (int i = 0; i < F.nbuttons; i++) {
		struct world *w = world_new(DISCORD, open);
		cJSON *data = cJSON_CreateObject();
		struct buf seen;
		char what[200];

		cJSON_AddStringToObject(data, "custom_id", F.buttons[i]);
		cJSON_AddNumberToObject(data, "component_type", 2);
		buf_init(&seen, 1 << 20);
		discord_event(w, "alice", 3, data, &seen);
		snprintf(what, sizeof(what), "the button %s", F.buttons[i]);
		check(w, "alice", what, &seen);
		buf_free(&seen);
		world_free(w);
	}
}

static void
report(void)
{
	for (int i = 0; i < F.leaks && i < 8; i++)
		print_message("LEAK %d: %s\n", i + 1, F.first[i]);
	print_message("walked %d cases, %d texts checked (console %d, IRC %d, Discord %d not "
	              "empty), %d buttons pressed, %d leaks\n",
	              F.cases, F.checked, F.shown[CONSOLE], F.shown[IRC], F.shown[DISCORD],
	              F.nbuttons, F.leaks);
}

static void
hidden_means_hidden_everywhere(void **unused)
{
	bool open = false;
	int n = 0;

	while (setup_gm[n] != NULL)
		n++;
	memset(&F, 0, sizeof(F));
	log_set_level(LOG_LEVEL_WARN);
	for (int pass = 0; pass < 2; pass++) {
		setup_lines = pass == 0 ? -1 : n - 1;
		cmdwalk(command_table, walk_case, &open);
		cmdwalk(command_table, autocomplete_case, &open);
		press_buttons(open);
	}
	setup_lines = -1;
	report();
	assert_true(F.cases > 200);
	assert_true(F.nbuttons > 0);
	/* Every platform answered: a walk that sees nothing proves nothing. */
	for (int p = 0; p < NPLATFORMS; p++)
		assert_true(F.shown[p] > F.cases / 2);
	assert_int_equal(F.leaks, 0);
}

/* The detector can fail: in an open channel the same walk shows the
 * value, the tables, the reason, as it should. */
static void
an_open_channel_shows_them(void **unused)
{
	bool open = true;

	memset(&F, 0, sizeof(F));
	log_set_level(LOG_LEVEL_WARN);
	cmdwalk(command_table, walk_case, &open);
	print_message("open channel: %d of %d texts show what hidden mode hides\n", F.open_hits,
	              F.checked);
	assert_true(F.open_hits > 20);
}

/* A player's secret roll: the channel sees who rolls in secret, and not
 * the dice (their modifier tells what the roll is for) nor the label, on
 * every platform, with the label after # or as an option. */
static void
a_secret_roll_shows_who_alone(void **unused)
{
	static const char *const lines[] = {"gmroll 1d20+7 # Nightjar",
	                                    "gmroll 1d20+7 label:Nightjar"};
	static const char *const hidden[] = {"1d20", "+7", "+ 7", "Nightjar", NULL};

	log_set_level(LOG_LEVEL_WARN);
	channel_view = true;
	for (int p = 0; p < NPLATFORMS; p++)
		for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
			struct world *w = world_new((enum platform)p, false);
			struct buf seen;

			buf_init(&seen, 1 << 20);
			if (p == DISCORD) {
				struct cmdwalk_case c = {0};
				static const struct cmd_opt *opts;

				c.path[0] = c.leaf = registry_find("gmroll", 6);
				opts = c.leaf->opts;
				c.opts[0] = &opts[0];
				c.values[0] = i == 0 ? "1d20+7 # Nightjar" : "1d20+7";
				c.nopts = 1;
				if (i == 1) {
					c.opts[1] = &opts[1];
					c.values[1] = "Nightjar";
					c.nopts = 2;
				}
				discord_event(w, "bob", 2, playview_discord_data(&c), &seen);
			} else {
				run_line(w, "bob", lines[i], &seen);
			}
			/* IRC keeps nicks from notifying with a zero-width joiner
			 * (here in "GM", a member "gm"'s nick): the text is read as
			 * a client shows it. */
			for (char *z;
			     seen.p != NULL && (z = strstr(seen.p, "\xe2\x80\x8d")) != NULL;
			     seen.len -= 3)
				memmove(z, z + 3, strlen(z + 3) + 1);
			if (strstr(buf_str(&seen), "rolls in secret: only the GM") == NULL)
				fail_msg("%s: '%s' shows: %s", playview_names[p], lines[i],
				         buf_str(&seen));
			for (size_t k = 0; hidden[k] != NULL; k++)
				if (strstr(buf_str(&seen), hidden[k]) != NULL)
					fail_msg("%s: the channel sees '%s' of '%s': %s",
					         playview_names[p], hidden[k], lines[i],
					         buf_str(&seen));
			buf_free(&seen);
			world_free(w);
		}
	channel_view = false;
}

/*
 * The differential walk: channels that differ only behind the screen (the
 * Tension value and how the GM set it, which entry is struck, the sign's
 * creature) must show a player, and the channel, the very same texts:
 * what a player can infer (a struck entry said aloud bounds Tension, "reset"
 * says 1) is caught though no hidden word is in it. A d2 of Encounter and
 * Sign (delving: both roll the encounter table) is rolled by the GM and
 * by a player; each variant meets struck entries, signs and their
 * creatures. Each line rolls from a seed of its own (reseed).
 */
#define VARIANTS 3

#define VARIANT(strike, change, sign, calm)                                                        \
	{                                                                                          \
		"gm claim",                                                                        \
		    "tension table set encounter 1-4 Quillfang; 5-8 Morrowisp; 9-12 Gloamjaw; "    \
		    "13-16 "                                                                       \
		    "Vexthorn; 17-20 Drowsmire",                                                   \
		    "tension mode hidden", "hazard table delving",                                 \
		    "hazard custom d2 1 Encounter; 2 Sign", "tension strike " strike, change,      \
		    "hazard roll", "alice: hazard roll", "hazard roll", "alice: hazard roll",      \
		    "hazard sign " sign, "alice: hazard roll", "hazard roll",                      \
		    "alice: hazard roll", calm, "alice: hazard roll", "hazard roll",               \
		    "alice: hazard roll", NULL                                                     \
	}

static const char *const variants[VARIANTS][24] = {
    VARIANT("Vexthorn", "tension set 8 # ambushready", "Morrowisp",
            "tension lower amount:1 # calm"),
    VARIANT("Quillfang", "tension reset # ambushready", "", "tension set 2 # calm"),
    VARIANT("Gloamjaw", "tension raise amount:4 # ambushready", "none", "tension reset # calm"),
};

/* What the differential walk found. */
static struct {
	int cases, compared, diffs;
	char first[8][1800];
} D;

/* Notes a difference between a (variant 0) and b (variant v) of what. */
static void
note_diff(const char *what, int v, const char *a, const char *b)
{
	size_t at = 0, line = 0;

	D.compared++;
	if (strcmp(a, b) == 0)
		return;
	while (a[at] == b[at])
		at++;
	for (size_t i = at; i > 0 && a[i - 1] != '\n'; i--)
		line = i - 1;
	if (D.diffs < 8)
		snprintf(D.first[D.diffs], sizeof(D.first[0]),
		         "%s: variant 0 and %d differ at:\n  %.300s\n  ---\n  %.300s", what, v,
		         a + line, b + line);
	D.diffs++;
}

/* One platform's view of line run by who, in each variant. */
static void
diff_views(enum platform p, const char *who, const struct cmdwalk_case *c, const char *line,
           struct buf seen[VARIANTS])
{
	for (int v = 0; v < VARIANTS; v++) {
		struct world *w;

		setup = variants[v];
		w = world_new(p, false);
		buf_init(&seen[v], 1 << 22);
		if (c == NULL || p != DISCORD)
			run_line(w, who, line, &seen[v]);
		else if (c->leaf->subs == NULL)
			discord_event(w, who, 2, playview_discord_data(c), &seen[v]);
		world_free(w);
	}
	setup = setup_gm;
}

static void
diff_case(void *ctx, const struct cmdwalk_case *c)
{
	static const char *const who[] = {"alice", "gm"};

	(void)ctx;
	D.cases++;
	reseed = true;
	for (int p = 0; p < NPLATFORMS; p++)
		for (int u = 0; u < 2; u++) {
			struct buf seen[VARIANTS];
			char what[CMDWALK_LINE_MAX + 64];

			if (u == 1 && strstr(c->line, "mode:open") != NULL &&
			    c->leaf == registry_find_sub(registry_find("tension", 7), "mode", 4))
				continue;
			diff_views((enum platform)p, who[u], c, c->line, seen);
			snprintf(what, sizeof(what), "%s, as %s: %s", playview_names[p], who[u],
			         c->line);
			for (int v = 1; v < VARIANTS; v++)
				note_diff(what, v, buf_str(&seen[0]), buf_str(&seen[v]));
			for (int v = 0; v < VARIANTS; v++)
				buf_free(&seen[v]);
		}
	reseed = false;
}

/* The setup itself, as the channel and alice see it, is the same in every
 * variant; the GM's own view of it is not (there is something to hide). */
static void
what_is_behind_the_screen_makes_no_difference(void **unused)
{
	bool gm_differs = false;

	memset(&D, 0, sizeof(D));
	log_set_level(LOG_LEVEL_WARN);
	reseed = true;
	for (int p = 0; p < NPLATFORMS; p++) {
		struct buf seen[VARIANTS];
		char what[64];

		for (int v = 0; v < VARIANTS; v++) {
			struct world *w;

			buf_init(&seen[v], 1 << 22);
			setup = variants[v];
			setup_seen = &seen[v];
			w = world_new((enum platform)p, false);
			world_free(w);
		}
		snprintf(what, sizeof(what), "%s: the play as the channel sees it",
		         playview_names[p]);
		for (int v = 1; v < VARIANTS; v++)
			note_diff(what, v, buf_str(&seen[0]), buf_str(&seen[v]));
		for (int v = 0; v < VARIANTS; v++)
			buf_free(&seen[v]);
		if (p == CONSOLE) {
			/* The GM's own view of the play in each variant: every
			 * kind of thing hidden mode keeps behind the screen came
			 * up, and the variants differ there. */
			static const char *const met[] = {
			    "is struck (defeated)",
			    "The sign leads nowhere",
			    "The party meets only the sign of",
			    "Encounter! It is the creature whose sign",
			    "Encounter! From the encounter table",
			    "(only the GM, gm, sees this)\nBehind the screen: ",
			    NULL,
			};
			struct buf gm[VARIANTS], all;

			buf_init(&all, 1 << 23);
			full_view = true;
			for (int v = 0; v < VARIANTS; v++) {
				buf_init(&gm[v], 1 << 22);
				setup = variants[v];
				setup_seen = &gm[v];
				world_free(world_new(CONSOLE, false));
				buf_adds(&all, buf_str(&gm[v]));
			}
			full_view = false;
			for (int v = 1; v < VARIANTS; v++)
				gm_differs |= strcmp(buf_str(&gm[0]), buf_str(&gm[v])) != 0;
			for (size_t k = 0; met[k] != NULL; k++)
				if (strstr(buf_str(&all), met[k]) == NULL)
					fail_msg("the play never shows the GM '%s'", met[k]);
			for (int v = 0; v < VARIANTS; v++)
				buf_free(&gm[v]);
			buf_free(&all);
		}
	}
	setup = setup_gm;
	setup_seen = NULL;
	reseed = false;
	cmdwalk(command_table, diff_case, NULL);
	for (int i = 0; i < D.diffs && i < 8; i++)
		print_message("DIFFERENCE %d: %s\n", i + 1, D.first[i]);
	print_message("differential walk: %d cases, %d views compared, %d differences\n", D.cases,
	              D.compared, D.diffs);
	assert_true(gm_differs);
	assert_true(D.cases > 200);
	assert_int_equal(D.diffs, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(an_open_channel_shows_them),
	    cmocka_unit_test(hidden_means_hidden_everywhere),
	    cmocka_unit_test(a_secret_roll_shows_who_alone),
	    cmocka_unit_test(what_is_behind_the_screen_makes_no_difference),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
