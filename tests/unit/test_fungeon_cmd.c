/* Unit tests for the Fungeon commands: the channel module's save/load round
 * trip, state unchanged on every bad input, Thwack-O styles and their
 * placement when a player rolls for a trap, and the budget check. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "commands/core/dispatch.h"
#include "commands/fungeon/fungeon_channel.h"
#include "commands/fungeon/fungeon_save.h"
#include "commands/fungeon/thwacko_style.h"
#include "rules/base/rng.h"
#include "rules/base/utf8.h"

struct table {
	struct state *st;
	struct rng *rng;
	struct dispatch d;
	struct reply *last;
};

static struct table *
table_new(uint64_t seed)
{
	struct table *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	t->st = state_new();
	t->rng = rng_new_seeded(seed);
	t->d.state = t->st;
	t->d.rng = t->rng;
	t->last = reply_new();
	return t;
}

static void
table_free(struct table *t)
{
	reply_free(t->last);
	state_free(t->st);
	rng_free(t->rng);
	free(t);
}

/* Runs line as user in channel "console:t"; returns the reply's plain text
 * (the caller frees it). */
static char *
run(struct table *t, const char *user, const char *line)
{
	struct origin o = {.platform = "console"};

	snprintf(o.chan_key, sizeof(o.chan_key), "console:t");
	snprintf(o.user_key, sizeof(o.user_key), "console:%s", user);
	snprintf(o.user_name, sizeof(o.user_name), "%s", user);
	reply_clear(t->last);
	dispatch_line(&t->d, &o, line, strlen(line), 1000, t->last);
	return reply_plain(t->last);
}

static void
ok(struct table *t, const char *user, const char *line)
{
	char *text = run(t, user, line);

	if (reply_is_error(t->last))
		fail_msg("'%s' failed: %s", line, text);
	free(text);
}

/* The channel's Fungeon state as JSON text. */
static char *
saved(struct table *t)
{
	struct channel *ch = state_channel(t->st, "console:t");
	const void *mod = channel_mod_peek(ch, CHANMOD_FUNGEON);
	cJSON *j;
	char *s;

	if (mod == NULL)
		return strdup("(none)");
	j = fungeon_mod.save(mod);
	s = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	return s;
}

static void
play_a_room(struct table *t)
{
	ok(t, "alice", "/fungeon join Alba wizard 5");
	ok(t, "bob", "/fungeon join Brom fighter 2");
	ok(t, "carol", "/fungeon join Cora rogue 1");
	ok(t, "carol", "/fungeon hallway");
	ok(t, "bob", "/fungeon trap add pit annoy 2 pain 1 continuous guards type acid");
	ok(t, "bob", "/fungeon monster add goblin level 2 ability stab annoy 1 pain 1 type blade");
	ok(t, "alice", "/fungeon treasure add coin mundane");
	ok(t, "carol", "/fungeon annoy pit");
	ok(t, "alice", "/fungeon take coin"); /* the pit guarding it was passed */
	ok(t, "carol", "/fungeon combat");
	ok(t, "carol", "/fungeon xp Cora 12");
}

/* A combat turn offers the next turn while a monster of the fight stands,
 * and the hallway once none does. */
/* A long name and a long multibyte player name: every roll label is cut
 * on a character boundary, so replies stay valid UTF-8. */
static void
long_names_stay_utf8(void **unused)
{
	struct table *t = table_new(7);
	char player[NAME_MAX_LEN], line[200];
	char *text;

	memset(player, 0, sizeof(player));
	for (size_t i = 0; i + 2 < sizeof(player); i += 2)
		memcpy(player + i, "é", 2);
	snprintf(line, sizeof(line), "/fungeon join %s wizard 3", "Aaaaaaaaaaaaaaaaaaaaaaaa");
	ok(t, player, line);
	ok(t, "bob", "/fungeon join Brom fighter 2");
	ok(t, "bob", "/fungeon hallway");
	ok(t, "bob", "/fungeon trap add pit annoy 2 pain 1 continuous type acid");
	ok(t, "bob", "/fungeon monster add goblin level 2 ability stab annoy 1 pain 1 type blade");
	for (int i = 0; i < 3; i++) {
		static const char *const cmds[] = {
		    "/fungeon annoy pit", "/fungeon pain pit Aaaaaaaaaaaaaaaaaaaaaaaa Brom",
		    "/fungeon combat"};

		text = run(t, "bob", cmds[i]);
		assert_false(reply_is_error(t->last));
		assert_true(utf8_valid(text, strlen(text)));
		assert_non_null(strstr(text, "Aaaaaaaaaaaaaaaaaaaaaaaa (éé"));
		free(text);
	}
	table_free(t);
}

static void
combat_offers_next_turn_then_hallway(void **unused)
{
	struct table *t = table_new(3);
	int turns;

	ok(t, "alice", "/fungeon join Alba wizard 3");
	ok(t, "bob", "/fungeon join Brom fighter 3");
	ok(t, "carol", "/fungeon hallway");
	ok(t, "bob", "/fungeon monster add goblin level 3");
	for (turns = 0; turns < 60; turns++) {
		const struct reply_msg *m;

		ok(t, "alice", "/fungeon combat goblin");
		m = reply_msg(t->last, REPLY_CHANNEL);
		assert_int_equal(m->nbuttons, 1);
		if (strcmp(m->buttons[0].label, "Hallway") == 0) {
			assert_string_equal(m->buttons[0].action, "fungeon hallway");
			break;
		}
		assert_string_equal(m->buttons[0].label, "Next combat turn");
		assert_string_equal(m->buttons[0].action, "fungeon combat goblin");
	}
	assert_true(turns > 0 && turns < 60);
	/* the hallway button came exactly when the goblin fell */
	free(run(t, "alice", "/fungeon combat goblin"));
	assert_true(reply_is_error(t->last));
	assert_string_equal(reply_error_text(t->last),
	                    "goblin is already defeated; name a monster with hits left.");
	table_free(t);
}

static void
module_round_trip(void **unused)
{
	struct table *t = table_new(1);
	char *a, *b, err[200] = "";
	cJSON *j;
	void *fresh;

	play_a_room(t);
	a = saved(t);
	j = cJSON_Parse(a);
	assert_non_null(j);
	fresh = fungeon_mod.create();
	if (fungeon_mod.load(fresh, j, err, sizeof(err)) != 0)
		fail_msg("load: %s", err);
	cJSON_Delete(j);
	j = fungeon_mod.save(fresh);
	b = cJSON_PrintUnformatted(j);
	assert_string_equal(a, b);
	assert_non_null(strstr(a, "\"name\":\"Alba\""));
	assert_non_null(strstr(a, "\"design\":\"annoy 2 pain 1 guards continuous type acid\""));
	assert_non_null(strstr(a, "\"items\":[{\"name\":\"coin\",\"design\":\"mundane\"}]"));
	cJSON_Delete(j);
	free(a);
	free(b);
	fungeon_mod.destroy(fresh);
	table_free(t);
}

static void
module_load_rejects_bad_records(void **unused)
{
	static const char *const bad[] = {
	    "{}",
	    "{\"floor\":0,\"rooms\":0,\"xp_rule\":\"prose\",\"holders\":{},\"party\":[],"
	    "\"designs\":{}}",
	    "{\"floor\":100,\"rooms\":0,\"xp_rule\":\"table\"}",
	    "{\"floor\":1,\"rooms\":0,\"xp_rule\":\"table\",\"holders\":{\"traps\":\"\","
	    "\"monsters\":\"\",\"treasure\":\"\"},\"party\":[{\"user\":\"k\",\"player\":\"p\","
	    "\"name\":\"A\",\"class\":\"c\",\"level\":21,\"hits\":5,\"xp\":0,\"dead\":false,"
	    "\"fresh\":false,\"credit\":0,\"wander\":0,\"items\":[],\"effects\":[]}],"
	    "\"designs\":{\"traps\":[],\"monsters\":[],\"treasure\":[]}}",
	    "{\"floor\":1,\"rooms\":0,\"xp_rule\":\"table\",\"holders\":{\"traps\":\"\","
	    "\"monsters\":\"\",\"treasure\":\"\"},\"party\":[],\"designs\":{\"traps\":[{"
	    "\"name\":\"pit\",\"design\":\"pain 2\",\"room\":true,\"hits\":0,\"taken\":\"\"}],"
	    "\"monsters\":[],\"treasure\":[]}}",
	    "{\"floor\":1,\"rooms\":0,\"xp_rule\":\"table\",\"holders\":{\"traps\":\"\","
	    "\"monsters\":\"\",\"treasure\":\"\"},\"party\":[],\"designs\":{\"traps\":[],"
	    "\"monsters\":[{\"name\":\"a b\",\"design\":\"level 1\",\"room\":true,\"hits\":3,"
	    "\"taken\":\"\"}],\"treasure\":[]}}",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cJSON *j = cJSON_Parse(bad[i]);
		void *fresh = fungeon_mod.create();
		char err[200] = "";

		assert_non_null(j);
		assert_int_equal(fungeon_mod.load(fresh, j, err, sizeof(err)), -1);
		assert_true(strncmp(err, "Fungeon ", 8) == 0);
		cJSON_Delete(j);
		fungeon_mod.destroy(fresh);
	}
}

/* Runs line, which must fail with error (any error when NULL) and leave
 * the channel's saved state as it was. */
static void
fails_unchanged(struct table *t, const char *user, const char *line, const char *error)
{
	char *before = saved(t), *after, *text;

	text = run(t, user, line);
	if (!reply_is_error(t->last))
		fail_msg("'%s' did not fail: %s", line, text);
	if (error != NULL)
		assert_string_equal(reply_error_text(t->last), error);
	after = saved(t);
	if (strcmp(before, after) != 0)
		fail_msg("'%s' changed the state", line);
	free(before);
	free(after);
	free(text);
}

/* Every bad input is one error sentence and leaves the state as it was. */
static void
bad_input_changes_nothing(void **unused)
{
	static const struct {
		const char *user, *line, *error;
	} cases[] = {
	    {"alice", "/fungeon join Alba2 wizard 2",
	     "You already play Alba here (one Fungeoneer per player); /fungeon leave first."},
	    {"dan", "/fungeon join Dirk monk 21", NULL},
	    {"dan", "/fungeon join Dirk monk 0", NULL},
	    {"dan", "/fungeon join Alba monk 1", "The name Alba is taken here; pick another."},
	    {"dan", "/fungeon join pit monk 1", "The name pit is taken here; pick another."},
	    {"dan", "/fungeon join Di:rk monk 1", NULL},
	    {"alice", "/fungeon damage Zed 3",
	     "There is no Fungeoneer or monster 'Zed' here; the party is Alba (alice), "
	     "Brom (bob), Cora (carol); the monsters are goblin."},
	    {"alice", "/fungeon annoy nothing",
	     "There is no trap or monster/ability 'nothing' here; the traps are pit; "
	     "the monsters are goblin."},
	    {"alice", "/fungeon annoy goblin/bite",
	     "The monster goblin has no ability 'bite'; its abilities are stab."},
	    {"alice", "/fungeon monster add imp level 1 ability zap pain 3 type shock",
	     "The ability 'zap' needs at least 1 point on Annoy (every special ability spends "
	     "one: annoy N, 1 point per 2 dice)."},
	    {"alice", "/fungeon trap add hole annoy 1",
	     "A trap needs a Type (fire, poison, arrows...: type WORD)."},
	    {"alice", "/fungeon annoy pit Alba",
	     "pit has already sprung; a trap without Unlimited Use springs once and gives no "
	     "more XP."},
	    {"alice", "/fungeon trigger pit Alba",
	     "pit has already sprung; a trap without Unlimited Use springs once and gives no "
	     "more XP."},
	    {"alice", "/fungeon find pit Alba",
	     "pit has already sprung; a trap without Unlimited Use springs once and gives no "
	     "more XP."},
	    {"alice", "/fungeon annoy goblin/stab Alba Alba",
	     "Alba is named twice; name each Fungeoneer once."},
	    {"alice", "/fungeon annoy pit Alba bonus:Zed", NULL},
	    {"alice", "/fungeon pain Alba Brom",
	     "A Painful conflict needs Fungeoneers on one side and at least one trap or monster "
	     "on the other."},
	    {"alice", "/fungeon pain Alba>Brom Brom goblin",
	     "Alba cannot target Brom: they are on the same side."},
	    {"alice", "/fungeon pain Alba>Brom goblin",
	     "Alba targets 'Brom', who is not in this conflict; a target must be named among "
	     "the participants."},
	    {"alice", "/fungeon pain Alba>ghost goblin", NULL},
	    {"alice", "/fungeon trap add big annoy 200",
	     "'annoy' must be from 0 to 100 (got 200)."},
	    {"alice", "/fungeon trap add big annoy 20 pain 20 type fire",
	     "big costs 30 but the Traps budget has 0 left this room (budget 6, spent 6); make "
	     "it cheaper."},
	    {"alice", "/fungeon monster add ogre level 6",
	     "ogre costs 6 but the Monsters budget has 5 left this room (budget 9, spent 4); make "
	     "it cheaper."},
	    {"alice", "/fungeon monster add wyrm level 20 ability breath annoy 90 pain 1", NULL},
	    {"alice", "/fungeon trap add pit annoy 1 type fire",
	     "The name pit is taken here; pick another."},
	    {"alice", "/fungeon find pit Zed", NULL},
	    {"alice", "/fungeon take coin", "Alba took coin already."},
	    {"alice", "/fungeon use coin",
	     "coin has no magic heal; only healing items are used up."},
	    {"alice", "/fungeon town sell ring", "Alba carries no 'ring'; Alba carries coin."},
	    {"alice", "/fungeon xp-rule formula", NULL},
	    {"alice", "/fungeon floor 100", NULL},
	    {"dan", "/fungeon leave",
	     "You have no Fungeoneer here; /fungeon join NAME CLASS LEVEL "
	     "makes one."},
	    {"alice", "/fungeon combat use:goblin/bite", NULL},
	    {"alice", "/fungeon combat rat", NULL},
	    {"alice", "/thwacko style red two words", NULL},
	    {"alice", "/thwacko style red abcde",
	     "A mark is 1 or 2 symbols or emoji, or up to 4 letters (got 5 characters)."},
	    {"alice", "/thwacko style purple", NULL},
	};
	struct table *t = table_new(2);

	play_a_room(t);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		fails_unchanged(t, cases[i].user, cases[i].line, cases[i].error);
	table_free(t);
}

/* A player rolling for a trap without their own Fungeoneer in the roll gets
 * their one Thwack-O die on the trap's dice. */
static void
thwacko_on_the_trap_player(void **unused)
{
	struct table *t = table_new(3);
	const struct reply_msg *m;
	int bob_spans = 0, alice_spans = 0;
	struct thwacko_style styles[FUNGEON_PARTY_MAX];
	const struct fungeon_channel *c;

	ok(t, "alice", "/fungeon join Alba wizard 2");
	ok(t, "bob", "/fungeon join Brom fighter 2");
	ok(t, "bob", "/fungeon hallway");
	ok(t, "alice", "/fungeon pick monsters"); /* alice drew highest */
	ok(t, "bob", "/fungeon pick traps");
	ok(t, "bob", "/fungeon trap add pit annoy 2 pain 3 type spikes");
	ok(t, "alice", "/fungeon pain pit Alba");
	c = fungeon_channel_peek(state_channel(t->st, "console:t"));
	fungeon_channel_styles(c, t->st, styles);
	m = reply_msg(t->last, REPLY_CHANNEL);
	assert_non_null(m);
	for (size_t b = 0; b < m->nblocks; b++) {
		const struct reply_block *bl = &m->blocks[b];

		if (bl->kind != RB_LINE || bl->nspans == 0)
			continue;
		for (size_t s = 0; s < bl->nspans; s++) {
			if (!(bl->spans[s].style & RS_USER))
				continue;
			if (!strncmp(bl->spans[0].text, "pit: ", 5)) {
				assert_int_equal(bl->spans[s].user.colour, styles[1].colour);
				assert_string_equal(bl->spans[s].user.mark, styles[1].mark);
				bob_spans++;
			}
			if (!strncmp(bl->spans[0].text, "Alba (alice): ", 14)) {
				assert_int_equal(bl->spans[s].user.colour, styles[0].colour);
				alice_spans++;
			}
		}
	}
	assert_int_equal(bob_spans, 1);
	assert_int_equal(alice_spans, 1);
	table_free(t);
}

/* In a Painful conflict's rank table each Thwack-O die is drawn in its
 * player's style, and no other cell is. */
static void
thwacko_styled_in_rank_tables(void **unused)
{
	struct table *t = table_new(3);
	const struct reply_msg *m;
	struct thwacko_style styles[FUNGEON_PARTY_MAX];
	int styled = 0, tables = 0;

	ok(t, "alice", "/fungeon join Alba wizard 2");
	ok(t, "bob", "/fungeon join Brom fighter 2");
	ok(t, "bob", "/fungeon monster add rat level 2");
	ok(t, "alice", "/fungeon combat");
	fungeon_channel_styles(fungeon_channel_peek(state_channel(t->st, "console:t")), t->st,
	                       styles);
	m = reply_msg(t->last, REPLY_CHANNEL);
	assert_non_null(m);
	for (size_t b = 0; b < m->nblocks; b++) {
		const struct reply_block *bl = &m->blocks[b];

		if (bl->kind != RB_TABLE || bl->header == NULL || strcmp(bl->header[0], "rank"))
			continue;
		tables++;
		for (size_t r = 0; r < bl->nrows; r++) {
			for (int c = 1; c < bl->ncols; c++) {
				int who = strcmp(bl->header[c], "Alba") == 0   ? 0
				          : strcmp(bl->header[c], "Brom") == 0 ? 1
				                                               : -1;
				bool marked =
				    who >= 0 && !strncmp(bl->rows[r].cells[c], styles[who].mark,
				                         strlen(styles[who].mark));

				assert_int_equal((bl->rows[r].user_cols >> c) & 1u, marked);
				if (!marked)
					continue;
				assert_int_equal(bl->rows[r].user[c].colour, styles[who].colour);
				styled++;
			}
		}
	}
	assert_true(tables >= 1);
	assert_int_equal(styled, 2 * tables); /* one die per player per conflict */
	table_free(t);
}

static void
styles_default_distinct_and_chosen(void **unused)
{
	const char *keys[8] = {"console:a", "console:b", "console:c", "console:d",
	                       "console:e", "console:f", "console:g", "console:h"};
	const struct thwacko_style *chosen[8] = {NULL};
	struct thwacko_style mine = {.colour = UC_RED, .mark = "🔥"}, out[8], again[8], one;
	char err[200];

	chosen[3] = &mine;
	thwacko_style_party(keys, chosen, 8, out);
	thwacko_style_party(keys, chosen, 8, again);
	assert_memory_equal(out, again, sizeof(out));
	assert_int_equal(out[3].colour, UC_RED);
	assert_string_equal(out[3].mark, "🔥");
	for (int i = 0; i < 8; i++)
		for (int k = 0; k < i; k++)
			assert_true(out[i].colour != out[k].colour);
	for (int i = 0; i < 8; i++)
		for (int k = 0; k < i; k++)
			if (i != 3 && k != 3)
				assert_string_not_equal(out[i].mark, out[k].mark);
	/* alone, a player keeps the hashed default */
	thwacko_style_default("console:a", &one);
	thwacko_style_party(keys, (const struct thwacko_style *const[]){NULL}, 1, out);
	assert_int_equal(out[0].colour, one.colour);
	assert_string_equal(out[0].mark, one.mark);
	assert_true(one.colour != UC_GRAY);

	assert_int_equal(thwacko_style_mark_check("◆", err, sizeof(err)), 0);
	assert_int_equal(thwacko_style_mark_check("🐉", err, sizeof(err)), 0);
	assert_int_equal(thwacko_style_mark_check("❤️", err, sizeof(err)),
	                 0); /* + variation selector */
	assert_int_equal(thwacko_style_mark_check("AB12", err, sizeof(err)), 0);
	assert_int_equal(thwacko_style_mark_check("ABCDE", err, sizeof(err)), -1);
	assert_int_equal(thwacko_style_mark_check("◆◆◆", err, sizeof(err)), -1);
	assert_int_equal(thwacko_style_mark_check("", err, sizeof(err)), -1);
	assert_int_equal(thwacko_style_mark_check("a b", err, sizeof(err)), -1);
	assert_int_equal(thwacko_style_mark_check("a\tb", err, sizeof(err)), -1);
	assert_int_equal(thwacko_style_mark_check("\xe2\x80\x8b", err, sizeof(err)), -1); /* ZWSP */
	assert_int_equal(thwacko_style_mark_check("\xff", err, sizeof(err)), -1);
	assert_int_equal(thwacko_style_colour_parse("Cyan"), UC_CYAN);
	assert_int_equal(thwacko_style_colour_parse("grey"), UC_GRAY);
	assert_int_equal(thwacko_style_colour_parse("purple"), -1);
}

/* /thwacko style is a user preference: stored on the user record and used
 * in every channel. */
static void
thwacko_style_is_per_user(void **unused)
{
	struct table *t = table_new(4);
	const struct thwacko_style *s;
	char *text;

	ok(t, "alice", "/thwacko style cyan AL");
	s = user_style(state_user_find(t->st, "console:alice"));
	assert_non_null(s);
	assert_int_equal(s->colour, UC_CYAN);
	assert_string_equal(s->mark, "AL");
	ok(t, "alice", "/thwacko style green");
	assert_int_equal(s->colour, UC_GREEN);
	assert_string_equal(s->mark, "AL");
	text = run(t, "alice", "/thwacko");
	/* plain text: the renderers add the mark before the die */
	assert_string_equal(text, "Thwack-O dice\nYou: 6 (green, mark AL)\n");
	free(text);
	table_free(t);
}

/* The cost reply shows plain points, each doubling, the budget and what is
 * left; floor and budgets follow the party. */
static void
cost_shows_the_budget(void **unused)
{
	struct table *t = table_new(5);
	char *text;

	ok(t, "alice", "/fungeon join Alba wizard 2");
	ok(t, "bob", "/fungeon join Brom fighter 3");
	text = run(t, "alice", "/fungeon cost trap annoy 2 pain 1 unlimited universal type darts");
	assert_string_equal(text, "Trap: annoy 2 pain 1 unlimited universal type darts\n"
	                          "Plain: annoy 2 (1) + pain 1 (1) = 2\n"
	                          "Doubled: unlimited use → 4, universal damage → 8\n"
	                          "Cost: 8 points.\n"
	                          "Traps budget this room: 5 (Party Max 3 + floor 2); spent 0, "
	                          "this design 8, left -3.\n");
	free(text);
	text = run(t, "alice", "/fungeon cost treasure fancy value 1 pain 1 type fire");
	assert_non_null(strstr(text, "Cost: 6 points. Sells in town for 3.\n"));
	free(text);
	table_free(t);
}

/* Ruling: the formula is a per-channel setting (the GM's); the hallway
 * levels by the rule in force. */
static void
xp_rule_setting(void **unused)
{
	struct table *t = table_new(6);
	const struct fungeon_channel *c;
	char *text, *json;

	ok(t, "alice", "/fungeon join Alba wizard 2");
	ok(t, "alice", "/fungeon xp Alba 20"); /* 20 in all: a new one starts with 0 */
	ok(t, "alice", "/fungeon hallway");
	c = fungeon_channel_peek(state_channel(t->st, "console:t"));
	assert_int_equal(c->m[0].level, 2); /* the table: level 3 at 40 */
	ok(t, "alice", "/gm claim");
	text = run(t, "alice", "/fungeon xp-rule formula");
	assert_string_equal(text, "XP rule here: formula (level up when XP >= 10 x 2^(current "
	                          "level - 1): level 3 at 20).\n");
	free(text);
	json = saved(t);
	assert_non_null(strstr(json, "\"xp_rule\":\"formula\""));
	free(json);
	ok(t, "alice", "/fungeon hallway waive:true");
	assert_int_equal(c->m[0].level, 3);
	assert_int_equal(c->m[0].hits, 15);
	text = run(t, "alice", "/xp 3");
	assert_string_equal(text, "Level 3 needs 20 XP in all (formula); max hits 15, class bonus "
	                          "1.\n");
	free(text);
	table_free(t);
}

/* A dead Fungeoneer's player joins again at level floor - 1 (at least 1);
 * the next hallway reports the replacement. */
static void
death_and_replacement_by_join(void **unused)
{
	struct table *t = table_new(7);
	const struct fungeon_channel *c;
	char *text;

	ok(t, "alice", "/fungeon join Alba wizard 5");
	ok(t, "bob", "/fungeon join Brom fighter 5");
	ok(t, "bob", "/fungeon floor 4");
	c = fungeon_channel_peek(state_channel(t->st, "console:t"));
	text = run(t, "bob", "/fungeon damage Brom 30");
	assert_string_equal(text, "Brom takes 30: 0/25 hits. Brom dies! bob makes a new Fungeoneer "
	                          "at level 3 in the hallway.\n");
	free(text);
	assert_true(c->m[1].dead);
	text = run(t, "bob", "/fungeon join Bram fighter 5");
	assert_string_equal(reply_error_text(t->last),
	                    "A new Fungeoneer after a death starts at level 3 (floor 4 - 1, at "
	                    "least 1) for the rest of this dungeon; join at level 3.");
	free(text);
	ok(t, "bob", "/fungeon join Bram fighter");
	assert_int_equal(c->n, 2);
	assert_string_equal(c->m[1].name, "Bram");
	assert_int_equal(c->m[1].level, 3);
	assert_int_equal(c->m[1].hits, 15);
	assert_false(c->m[1].dead);
	text = run(t, "bob", "/fungeon hallway");
	assert_non_null(strstr(text, "1. Replacements\nbob's new Fungeoneer Bram (level 3) joins "
	                             "the party.\n2. Level-ups\n"));
	free(text);
	/* on floor 1 the replacement is level 1 */
	ok(t, "bob", "/fungeon floor 1");
	ok(t, "bob", "/fungeon damage Bram 15");
	ok(t, "bob", "/fungeon join Brim fighter 1");
	assert_int_equal(c->m[1].level, 1);
	table_free(t);
}

/* Issue 13 #4: leaving and joining again does not bypass the replacement
 * level; #11: the hallway waits for the replacement, so its budgets count
 * it. */
static void
replacement_level_survives_leave_and_join(void **unused)
{
	struct table *t = table_new(7);
	const struct fungeon_channel *c;
	char *text;

	ok(t, "alice", "/fungeon join Alba wizard 5");
	ok(t, "bob", "/fungeon join Brom fighter 5");
	ok(t, "bob", "/fungeon floor 4");
	c = fungeon_channel_peek(state_channel(t->st, "console:t"));
	ok(t, "bob", "/fungeon damage Brom 30");
	text = run(t, "alice", "/fungeon hallway");
	assert_string_equal(reply_error_text(t->last),
	                    "bob's Brom died: the new Fungeoneer comes first in the hallway "
	                    "(/fungeon join NAME CLASS, at level 3), or bob leaves the party "
	                    "(/fungeon leave).");
	free(text);
	ok(t, "bob", "/fungeon leave");
	text = run(t, "bob", "/fungeon join Bram fighter 5");
	assert_true(reply_is_error(t->last));
	free(text);
	ok(t, "bob", "/fungeon join Bram fighter");
	assert_int_equal(c->m[1].level, 3);
	assert_true(c->m[1].fresh);
	/* the new one counts in the hallway's budgets: Max 5, Total 8, Min 3 */
	text = run(t, "alice", "/fungeon hallway");
	assert_non_null(strstr(text, "bob's new Fungeoneer Bram (level 3) joins the party."));
	assert_non_null(strstr(text, "Traps budget this room: 9 (Party Max 5 + floor 4)"));
	assert_non_null(strstr(text, "Monsters budget this room: 12 (Party Total 8 + floor 4)"));
	assert_non_null(strstr(text, "Treasure budget this room: 7 (Party Min 3 + floor 4)"));
	free(text);
	/* alive, leaving and joining again still gives level 3 in this dungeon */
	ok(t, "bob", "/fungeon leave");
	ok(t, "bob", "/fungeon join Bram fighter");
	assert_int_equal(c->m[1].level, 3);
	table_free(t);
}

/* Issue 13 #14: the budgets are fixed in the hallway; a death in the room
 * changes nothing. #3: points left unspent keep the party in the room
 * until they are spent or waived, and a waiver is recorded and shown. */
static void
room_budgets_and_unspent_points(void **unused)
{
	struct table *t = table_new(7);
	const struct fungeon_channel *c;
	char *text, *json;

	ok(t, "alice", "/fungeon join Alba wizard 2");
	ok(t, "bob", "/fungeon join Brom fighter 3");
	ok(t, "alice", "/fungeon hallway");
	c = fungeon_channel_peek(state_channel(t->st, "console:t"));
	assert_int_equal(fungeon_channel_budget(c, FUNGEON_MONSTER), 5 + 2);
	ok(t, "bob", "/fungeon damage Brom 15");
	assert_true(c->m[1].dead);
	assert_int_equal(fungeon_channel_budget(c, FUNGEON_MONSTER), 7);
	assert_int_equal(fungeon_channel_budget(c, FUNGEON_TRAP), 5);
	assert_int_equal(fungeon_channel_budget(c, FUNGEON_TREASURE), 4);
	ok(t, "bob", "/fungeon join Bram fighter");
	ok(t, "bob", "/fungeon trap add pit annoy 2 pain 3 type spikes"); /* 4 of 5 */
	text = run(t, "alice", "/fungeon hallway");
	assert_string_equal(reply_error_text(t->last),
	                    "This room's points are not all spent (Traps 1, Monsters 7, "
	                    "Treasure 4 left); spend them, or leave anyway with /fungeon "
	                    "hallway waive:true.");
	free(text);
	text = run(t, "alice", "/fungeon hallway waive:true");
	assert_non_null(strstr(text, "Points left unspent, waived by alice: Traps 1, Monsters 7, "
	                             "Treasure 4.\n"));
	free(text);
	json = saved(t);
	assert_non_null(strstr(json, "\"waived\":\"room 1: Traps 1, Monsters 7, Treasure 4 "
	                             "unspent, waived by alice\""));
	free(json);
	table_free(t);
}

/* Issue 13 #6 and #8 at the table: guarded treasure waits for its trap;
 * a dead Fungeoneer's treasure is plundered by the living. */
static void
guarded_treasure_and_plunder(void **unused)
{
	struct table *t = table_new(5);
	char *text;

	ok(t, "alice", "/fungeon join Alba wizard 3");
	ok(t, "bob", "/fungeon join Brom fighter 3");
	ok(t, "carol", "/fungeon join Cora rogue 3");
	ok(t, "alice", "/fungeon hallway");
	ok(t, "alice", "/fungeon trap add pit annoy 2 guards type darts");
	ok(t, "alice", "/fungeon treasure add ring fancy value 1");
	text = run(t, "alice", "/fungeon take ring");
	assert_string_equal(reply_error_text(t->last),
	                    "pit guards the treasure: trigger it, disarm it or get past it "
	                    "(/fungeon trigger pit or /fungeon annoy pit) before taking any.");
	free(text);
	ok(t, "alice", "/fungeon annoy pit Alba");
	text = run(t, "alice", "/fungeon take ring");
	assert_string_equal(text, "Alba takes ring (3 points).\n");
	free(text);
	ok(t, "alice", "/fungeon damage Alba 15");
	text = run(t, "bob", "/fungeon take ring");
	assert_string_equal(text, "Brom plunders ring (3 points) from the dead Alba.\n");
	free(text);
	/* a replacement leaves the dead one's treasure in the room */
	ok(t, "bob", "/fungeon damage Brom 15");
	ok(t, "bob", "/fungeon join Bram fighter");
	/* the replacement is out until the next hallway (RULES.md section 4) */
	text = run(t, "bob", "/fungeon pain Bram pit");
	assert_string_equal(reply_error_text(t->last),
	                    "Bram is a replacement: bob is out until the next hallway, where Bram "
	                    "joins the party.");
	free(text);
	text = run(t, "bob", "/fungeon take ring");
	assert_string_equal(reply_error_text(t->last),
	                    "Bram is a replacement: bob is out until the next hallway, where Bram "
	                    "joins the party.");
	free(text);
	text = run(t, "carol", "/fungeon take ring");
	assert_string_equal(text, "Cora plunders ring (3 points), left by the dead.\n");
	free(text);
	table_free(t);
}

/* Stores a design of kind k read from spec, priced, in c. */
static struct fungeon_stored *
store(struct fungeon_channel *c, enum fungeon_kind k, const char *name, const char *spec)
{
	struct fungeon_stored *s = fungeon_channel_design_add(c, k);
	struct fungeon_price p;
	char err[200];

	snprintf(s->name, sizeof(s->name), "%s", name);
	if (fungeon_cost_parse(k, spec, &s->d, err, sizeof(err)) < 0 ||
	    fungeon_cost_price(&s->d, &p, err, sizeof(err)) < 0)
		fail_msg("%s: %s", spec, err);
	s->cost = p.total;
	s->room = true;
	s->hits = k == FUNGEON_MONSTER ? fungeon_cost_monster_hits(s->d.level) : 0;
	return s;
}

/* Fills c with n Fungeoneers F0.. (players p0.., user keys console:p0..)
 * carrying items items and effects effects each, and designs designs of
 * each kind (traps t0.., monsters m0.., treasure r0..). */
static void
fill(struct fungeon_channel *c, int n, int items, int effects, int designs)
{
	static const char *const prefix[FUNGEON_KIND_COUNT] = {"t", "m", "r"};
	static const char *const spec[FUNGEON_KIND_COUNT] = {
	    "annoy 2 pain 1 continuous", "level 2 ability bite annoy 1 pain 1 type claws",
	    "mundane"};
	char key[32], player[16], name[16], err[200];

	for (int i = 0; i < n; i++) {
		struct fungeon_member *m = fungeon_channel_member_add(c);

		snprintf(key, sizeof(key), "console:p%d", i);
		snprintf(player, sizeof(player), "p%d", i);
		snprintf(name, sizeof(name), "F%d", i);
		fungeon_member_init(m, key, player, name, "fighter", 3);
		for (int k = 0; k < items; k++) {
			struct fungeon_item *it = fungeon_item_add(m);

			assert_non_null(it);
			snprintf(it->name, sizeof(it->name), "i%d-%d", i, k);
			assert_int_equal(fungeon_cost_parse(FUNGEON_TREASURE,
			                                    "fancy pain 1 type fire", &it->d, err,
			                                    sizeof(err)),
			                 0);
			it->cost = 4;
		}
		for (int k = 0; k < effects; k++) {
			struct fungeon_effect e = {.kind = k % 2 ? FUNGEON_EFFECT_HOLD
			                                         : FUNGEON_EFFECT_DAMAGE,
			                           .annoy = 2,
			                           .pain = k % 2 ? 0 : 1,
			                           .type = "fire"};

			snprintf(e.source, sizeof(e.source), "s%d", k);
			assert_int_equal(fungeon_effect_add(m, &e), 0);
		}
	}
	for (int k = 0; k < FUNGEON_KIND_COUNT; k++) {
		for (int i = 0; i < designs; i++) {
			snprintf(name, sizeof(name), "%s%d", prefix[k], i);
			store(c, (enum fungeon_kind)k, name, spec[k]);
		}
	}
	if (n > 0)
		snprintf(c->holder[FUNGEON_CAT_TRAPS], sizeof(c->holder[0]), "console:p0");
	if (n > 0 && designs > 0)
		snprintf(c->d[FUNGEON_TREASURE][0].taken, sizeof(c->d[0][0].taken), "F0");
}

/* save -> JSON text -> load -> save gives the same text, and the loaded
 * state holds as many bytes as the one saved. */
static void
round_trips(const struct fungeon_channel *c)
{
	cJSON *j = fungeon_mod.save(c);
	char *a = cJSON_PrintUnformatted(j), *b, err[200] = "";
	struct fungeon_channel *fresh = fungeon_mod.create();

	cJSON_Delete(j);
	j = cJSON_Parse(a);
	assert_non_null(j);
	if (fungeon_mod.load(fresh, j, err, sizeof(err)) != 0)
		fail_msg("load: %s", err);
	cJSON_Delete(j);
	j = fungeon_mod.save(fresh);
	b = cJSON_PrintUnformatted(j);
	assert_string_equal(a, b);
	assert_int_equal(fungeon_channel_bytes(fresh), fungeon_channel_bytes(c));
	cJSON_Delete(j);
	free(a);
	free(b);
	fungeon_mod.destroy(fresh);
}

/* Edge sizes: nothing held costs the struct alone and allocates nothing. */
static void
module_round_trip_empty(void **unused)
{
	struct fungeon_channel *c = fungeon_mod.create();

	assert_null(c->m);
	for (int k = 0; k < FUNGEON_KIND_COUNT; k++)
		assert_null(c->d[k]);
	assert_int_equal(fungeon_channel_bytes(c), sizeof(struct fungeon_channel));
	round_trips(c);
	/* members with nothing carried own no arrays either */
	fill(c, 1, 0, 0, 0);
	assert_null(c->m[0].items);
	assert_null(c->m[0].effects);
	round_trips(c);
	fungeon_mod.destroy(c);
}

static void
module_round_trip_one(void **unused)
{
	struct fungeon_channel *c = fungeon_mod.create();

	fill(c, 1, 1, 1, 1);
	assert_int_equal(fungeon_channel_bytes(c),
	                 sizeof(struct fungeon_channel) + sizeof(struct fungeon_member) +
	                     sizeof(struct fungeon_item) + sizeof(struct fungeon_effect) +
	                     FUNGEON_KIND_COUNT * sizeof(struct fungeon_stored));
	round_trips(c);
	fungeon_mod.destroy(c);
}

static void
module_round_trip_full(void **unused)
{
	struct fungeon_channel *c = fungeon_mod.create();

	fill(c, FUNGEON_PARTY_MAX, FUNGEON_ITEMS_MAX, FUNGEON_EFFECTS_MAX, FUNGEON_DESIGNS_MAX);
	assert_null(fungeon_item_add(&c->m[0])); /* full: nothing added */
	assert_int_equal(c->m[0].nitems, FUNGEON_ITEMS_MAX);
	round_trips(c);
	fungeon_mod.destroy(c);
}

/* A record one past a limit is refused, whatever the arrays hold. */
static void
module_load_rejects_one_past_the_limits(void **unused)
{
	struct fungeon_channel *c = fungeon_mod.create();
	cJSON *j, *more;
	char err[200];

	fill(c, FUNGEON_PARTY_MAX, FUNGEON_ITEMS_MAX, FUNGEON_EFFECTS_MAX, FUNGEON_DESIGNS_MAX);
	for (int what = 0; what < 4; what++) {
		struct fungeon_channel *fresh = fungeon_mod.create();
		cJSON *m0;

		j = fungeon_mod.save(c);
		m0 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "party"), 0);
		switch (what) {
		case 0:
			more = cJSON_GetObjectItem(j, "party");
			cJSON_AddItemToArray(more, cJSON_Duplicate(m0, true));
			break;
		case 1:
			more = cJSON_GetObjectItem(m0, "items");
			cJSON_AddItemToArray(more,
			                     cJSON_Duplicate(cJSON_GetArrayItem(more, 0), true));
			break;
		case 2:
			more = cJSON_GetObjectItem(m0, "effects");
			cJSON_AddItemToArray(more,
			                     cJSON_Duplicate(cJSON_GetArrayItem(more, 0), true));
			break;
		default:
			more = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "designs"), "monsters");
			cJSON_AddItemToArray(more,
			                     cJSON_Duplicate(cJSON_GetArrayItem(more, 0), true));
			break;
		}
		assert_int_equal(fungeon_mod.load(fresh, j, err, sizeof(err)), -1);
		assert_true(strstr(err, "is not a list of at most") != NULL);
		cJSON_Delete(j);
		fungeon_mod.destroy(fresh);
	}
	fungeon_mod.destroy(c);
}

/* At each maximum, adding one more is the same one-sentence error as
 * ever, and the state (its saved text) is unchanged. */
static void
limits_at_the_maximum(void **unused)
{
	static const struct {
		const char *user, *line, *error;
	} cases[] = {
	    {"newcomer", "/fungeon join Zed fighter 3", "The party is full (8 Fungeoneers)."},
	    {"p1", "/fungeon trap add pit annoy 2 type darts",
	     "This channel holds 24 traps already, the most it can; remove one first."},
	    {"p1", "/fungeon monster add rat level 1",
	     "This channel holds 24 monsters already, the most it can; remove one first."},
	    {"p1", "/fungeon treasure add gem mundane",
	     "This channel holds 24 treasures already, the most it can; remove one first."},
	    {"p1", "/fungeon take r1",
	     "F1 carries 8 items already, the most one can; sell one in town first."},
	    {"p1", "/fungeon annoy t0 F1",
	     "F1 already suffers 4 continuous effects, the most one Fungeoneer can carry; roll "
	     "those off first."},
	};
	struct table *t = table_new(3);
	struct fungeon_channel *c;

	c = channel_mod(state_channel(t->st, "console:t"), CHANMOD_FUNGEON);
	fill(c, FUNGEON_PARTY_MAX, FUNGEON_ITEMS_MAX, FUNGEON_EFFECTS_MAX, FUNGEON_DESIGNS_MAX);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		fails_unchanged(t, cases[i].user, cases[i].line, cases[i].error);
	table_free(t);
}

/* Memory follows what the channel holds: a 3-player party with two
 * designs costs the struct and those five records, and leaving or
 * removing gives the bytes back. */
static void
memory_tracks_what_the_channel_holds(void **unused)
{
	struct table *t = table_new(4);
	const struct fungeon_channel *c;
	size_t empty;

	c = channel_mod(state_channel(t->st, "console:t"), CHANMOD_FUNGEON);
	empty = fungeon_channel_bytes(c);
	assert_int_equal(empty, sizeof(struct fungeon_channel));
	ok(t, "alice", "/fungeon join Alba wizard 3");
	ok(t, "bob", "/fungeon join Brom fighter 3");
	ok(t, "carol", "/fungeon join Cora rogue 3");
	ok(t, "alice", "/fungeon trap add pit annoy 2 pain 1 type darts");
	ok(t, "alice", "/fungeon monster add rat level 3");
	assert_int_equal(fungeon_channel_bytes(c), empty + 3 * sizeof(struct fungeon_member) +
	                                               2 * sizeof(struct fungeon_stored));
	assert_true(fungeon_channel_bytes(c) < 4096);
	ok(t, "carol", "/fungeon leave");
	ok(t, "alice", "/fungeon trap remove pit");
	assert_int_equal(fungeon_channel_bytes(c),
	                 empty + 2 * sizeof(struct fungeon_member) + sizeof(struct fungeon_stored));
	table_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(module_round_trip),
	    cmocka_unit_test(long_names_stay_utf8),
	    cmocka_unit_test(combat_offers_next_turn_then_hallway),
	    cmocka_unit_test(thwacko_styled_in_rank_tables),
	    cmocka_unit_test(module_load_rejects_bad_records),
	    cmocka_unit_test(bad_input_changes_nothing),
	    cmocka_unit_test(thwacko_on_the_trap_player),
	    cmocka_unit_test(styles_default_distinct_and_chosen),
	    cmocka_unit_test(thwacko_style_is_per_user),
	    cmocka_unit_test(cost_shows_the_budget),
	    cmocka_unit_test(xp_rule_setting),
	    cmocka_unit_test(death_and_replacement_by_join),
	    cmocka_unit_test(replacement_level_survives_leave_and_join),
	    cmocka_unit_test(room_budgets_and_unspent_points),
	    cmocka_unit_test(guarded_treasure_and_plunder),
	    cmocka_unit_test(module_round_trip_empty),
	    cmocka_unit_test(module_round_trip_one),
	    cmocka_unit_test(module_round_trip_full),
	    cmocka_unit_test(module_load_rejects_one_past_the_limits),
	    cmocka_unit_test(limits_at_the_maximum),
	    cmocka_unit_test(memory_tracks_what_the_channel_holds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
