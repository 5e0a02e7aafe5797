/* Unit tests for rules/fungeon and its hallway: XP table and formula,
 * level-ups, death and replacement, party math and budgets, dice counts,
 * continuous effects and the hallway order. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/fungeon/fungeon_hallway.h"
#include "rules/fungeon/fungeon.h"
#include "rules/base/rng.h"

#define SET(dst, s) snprintf((dst), sizeof(dst), "%s", (s))

static void
xp_table(void **unused)
{
	static const int64_t want[] = {0, 10, 40, 80, 160, 320, 640, 1280, 2560, 5120};

	for (int l = 1; l <= 10; l++)
		assert_int_equal(fungeon_xp_needed(FUNGEON_XP_TABLE, l), want[l - 1]);
	/* beyond 10: 10 x 2^(level-1) */
	assert_int_equal(fungeon_xp_needed(FUNGEON_XP_TABLE, 11), 10240);
	assert_int_equal(fungeon_xp_needed(FUNGEON_XP_TABLE, 12), 20480);
	assert_int_equal(fungeon_xp_needed(FUNGEON_XP_TABLE, 20), 5242880);
	for (int l = 3; l <= 20; l++)
		assert_int_equal(fungeon_xp_needed(FUNGEON_XP_TABLE, l), (int64_t)10 << (l - 1));
}

/* Ruling: the prose formula, level up when XP >= 10 x 2^(current level-1). */
static void
xp_formula(void **unused)
{
	assert_int_equal(fungeon_xp_needed(FUNGEON_XP_FORMULA, 1), 0);
	assert_int_equal(fungeon_xp_needed(FUNGEON_XP_FORMULA, 2), 10);
	assert_int_equal(fungeon_xp_needed(FUNGEON_XP_FORMULA, 3), 20);
	assert_int_equal(fungeon_xp_needed(FUNGEON_XP_FORMULA, 4), 40);
	assert_int_equal(fungeon_xp_needed(FUNGEON_XP_FORMULA, 10), 2560);
	assert_int_equal(fungeon_level_for_xp(FUNGEON_XP_FORMULA, 20), 3);
	assert_int_equal(fungeon_level_for_xp(FUNGEON_XP_TABLE, 20), 2);
	assert_int_equal(fungeon_level_for_xp(FUNGEON_XP_TABLE, 0), 1);
	assert_int_equal(fungeon_level_for_xp(FUNGEON_XP_TABLE, 9), 1);
	assert_int_equal(fungeon_level_for_xp(FUNGEON_XP_TABLE, 10), 2);
	assert_int_equal(fungeon_level_for_xp(FUNGEON_XP_TABLE, 39), 2);
	assert_int_equal(fungeon_level_for_xp(FUNGEON_XP_TABLE, 40), 3);
	assert_int_equal(fungeon_level_for_xp(FUNGEON_XP_TABLE, FUNGEON_XP_MAX), 60);
}

/* Issue 25, finding 11: no level cap. 12,000,000 XP is level 21 by the
 * table (10 x 2^20 = 10,485,760), level 22 by the formula; the table goes
 * on as far as 64-bit arithmetic counts (level 60 at 10 x 2^59), and no
 * further level can be reached, so its need is -1. */
static void
no_level_cap(void **unused)
{
	struct fungeon_member m;

	(void)unused;
	assert_int_equal(fungeon_level_for_xp(FUNGEON_XP_TABLE, 12000000), 21);
	assert_int_equal(fungeon_level_for_xp(FUNGEON_XP_FORMULA, 12000000), 22);
	assert_int_equal(fungeon_xp_needed(FUNGEON_XP_TABLE, 21), 10485760);
	assert_true(fungeon_xp_needed(FUNGEON_XP_TABLE, 60) == (int64_t)10 << 59);
	assert_true(fungeon_xp_needed(FUNGEON_XP_FORMULA, 60) == (int64_t)10 << 58);
	assert_int_equal(fungeon_xp_needed(FUNGEON_XP_TABLE, 61), -1);
	assert_int_equal(FUNGEON_LEVEL_MAX, 60);
	/* a replacement on floor 40 joins at 39 */
	assert_int_equal(fungeon_replacement_level(40), 39);
	fungeon_member_init(&m, "k", "p", "Cid", "rogue", 20);
	assert_int_equal(fungeon_add_xp(&m, 12000000), 0);
	assert_true(fungeon_level_up(&m, FUNGEON_XP_TABLE, NULL));
	assert_int_equal(m.level, 21);
	assert_int_equal(m.hits, 105);
	/* XP stop at INT64_MAX: the gain that would pass it says so */
	assert_int_equal(fungeon_add_xp(&m, INT64_MAX - 12000000), 0);
	assert_true(m.xp == INT64_MAX);
	assert_int_equal(fungeon_add_xp(&m, 1), -1);
	assert_true(m.xp == INT64_MAX);
	assert_true(fungeon_level_up(&m, FUNGEON_XP_TABLE, NULL));
	assert_int_equal(m.level, 60);
	fungeon_member_free(&m);
}

/* A class or class type read as a level: in words, in the digits 0 to 9
 * (a whole number in range names a level; "2.5" or "0" names none), or in
 * another script's digits (which name none). */
static void
level_typed(void **unused)
{
	static const struct {
		const char *s;
		enum fungeon_level_form form;
		int level;
	} cases[] = {
	    {"fire", FUNGEON_LEVEL_NONE, -1},
	    {"", FUNGEON_LEVEL_NONE, -1},
	    {"3d", FUNGEON_LEVEL_NONE, -1},
	    {"3", FUNGEON_LEVEL_DIGITS, 3},
	    {"60", FUNGEON_LEVEL_DIGITS, 60},
	    {"61", FUNGEON_LEVEL_DIGITS, -1},
	    {"0", FUNGEON_LEVEL_DIGITS, -1},
	    {"99999999999999999999", FUNGEON_LEVEL_DIGITS, -1},
	    {"2.5", FUNGEON_LEVEL_DIGITS, -1},
	    {"-1", FUNGEON_LEVEL_DIGITS, -1},
	    {"+3", FUNGEON_LEVEL_DIGITS, -1},
	    {"3,", FUNGEON_LEVEL_DIGITS, -1},
	    {"three", FUNGEON_LEVEL_WORDS, 3},
	    {"3rd", FUNGEON_LEVEL_WORDS, 3},
	    {"sixtieth", FUNGEON_LEVEL_WORDS, 60},
	    {"zero", FUNGEON_LEVEL_WORDS, -1},
	    {"seventy", FUNGEON_LEVEL_WORDS, -1},
	    {"\xef\xbc\x92", FUNGEON_LEVEL_OTHER_DIGITS, -1}, /* fullwidth 2 */
	    {"\xd9\xa3", FUNGEON_LEVEL_OTHER_DIGITS, -1},     /* Arabic-Indic 3 */
	    {"1\xd9\xa3", FUNGEON_LEVEL_OTHER_DIGITS, -1},    /* mixed */
	    {"\xef\xbc\x92x", FUNGEON_LEVEL_NONE, -1},
	    {"\xff", FUNGEON_LEVEL_NONE, -1},
	    /* the outside playtest's F2: numerals, Roman numerals and labelled
	     * levels, each read as a level, not as a type */
	    {"\xc2\xb3", FUNGEON_LEVEL_OTHER_DIGITS, -1},     /* superscript 3 */
	    {"3\xc2\xb3", FUNGEON_LEVEL_OTHER_DIGITS, -1},    /* 3 and a superscript 3 */
	    {"\xe2\x91\xa2", FUNGEON_LEVEL_OTHER_DIGITS, -1}, /* circled 3 */
	    {"\xc2\xbd", FUNGEON_LEVEL_OTHER_DIGITS, -1},     /* one half */
	    {"\xe2\x85\xad", FUNGEON_LEVEL_OTHER_DIGITS, -1}, /* Roman 100, past 60 */
	    {"\xe2\x85\xa2", FUNGEON_LEVEL_ROMAN, 3},         /* Roman numeral three */
	    {"\xe2\x85\xbb", FUNGEON_LEVEL_ROMAN, 12},        /* small Roman twelve */
	    {"III", FUNGEON_LEVEL_ROMAN, 3},
	    {"xiv", FUNGEON_LEVEL_ROMAN, 14},
	    {"XXXIX", FUNGEON_LEVEL_ROMAN, 39},
	    {"IIII", FUNGEON_LEVEL_NONE, -1},
	    {"x", FUNGEON_LEVEL_NONE, -1},
	    {"V", FUNGEON_LEVEL_NONE, -1},
	    {"XL", FUNGEON_LEVEL_NONE, -1},
	    {"mix", FUNGEON_LEVEL_NONE, -1},
	    {"L3", FUNGEON_LEVEL_LABELLED, 3},
	    {"lvl.3", FUNGEON_LEVEL_LABELLED, 3},
	    {"Level-60", FUNGEON_LEVEL_LABELLED, 60},
	    {"lv61", FUNGEON_LEVEL_LABELLED, -1},
	    {"L\xef\xbc\x93", FUNGEON_LEVEL_LABELLED, -1}, /* L, fullwidth 3 */
	    {"level", FUNGEON_LEVEL_LABELLED, -1},
	    {"LVL", FUNGEON_LEVEL_LABELLED, -1},
	    {"L", FUNGEON_LEVEL_NONE, -1},
	    {"Lx3", FUNGEON_LEVEL_NONE, -1},
	    {"levels", FUNGEON_LEVEL_NONE, -1},
	    {"lava", FUNGEON_LEVEL_NONE, -1},
	};

	(void)unused;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int level = 123;
		enum fungeon_level_form form = fungeon_level_typed(cases[i].s, &level);

		if (form != cases[i].form || level != cases[i].level)
			fail_msg("'%s' read as form %d level %d, not form %d level %d", cases[i].s,
			         (int)form, level, (int)cases[i].form, cases[i].level);
	}
}

static void
member_basics(void **unused)
{
	struct fungeon_member m;

	fungeon_member_init(&m, "console:alice", "alice", "Alba", "wizard", 3);
	assert_int_equal(m.hits, 15);
	/* issue 13 #10: a new Fungeoneer starts with 0 XP whatever its level, so
	 * the prose formula gives no free level-up in the first hallway */
	assert_int_equal(m.xp, 0);
	assert_false(fungeon_level_up(&m, FUNGEON_XP_FORMULA, NULL));
	assert_int_equal(m.level, 3);
	assert_int_equal(fungeon_class_bonus(3), 1);
	assert_int_equal(fungeon_class_bonus(1), 0);
	assert_int_equal(fungeon_class_bonus(20), 10);
	assert_int_equal(fungeon_max_hits(20), 100);
	assert_int_equal(fungeon_heal(&m, 5), 0);
	assert_false(fungeon_damage(&m, 4));
	assert_int_equal(m.hits, 11);
	assert_int_equal(fungeon_heal(&m, 100), 4);
	assert_int_equal(fungeon_add_xp(&m, -1000), 0); /* play never takes XP away */
	assert_int_equal(m.xp, 0);
}

/* Several levels at once: class bonus and max hits recomputed, 5 hits
 * healed per level gained. */
static void
multi_level_level_up(void **unused)
{
	struct fungeon_member m;
	struct fungeon_levelup up;

	fungeon_member_init(&m, "k", "p", "Alba", "wizard", 1);
	m.hits = 3;
	fungeon_add_xp(&m, 85);
	assert_true(fungeon_level_up(&m, FUNGEON_XP_TABLE, &up));
	assert_int_equal(up.from, 1);
	assert_int_equal(up.to, 4);
	assert_int_equal(up.hits_before, 3);
	assert_int_equal(up.hits_after, 18);
	assert_int_equal(up.max_before, 5);
	assert_int_equal(up.max_after, 20);
	assert_int_equal(up.bonus_before, 0);
	assert_int_equal(up.bonus_after, 2);
	assert_int_equal(m.level, 4);
	assert_int_equal(m.hits, 18);
	assert_false(fungeon_level_up(&m, FUNGEON_XP_TABLE, &up));
	/* 20 XP: level 2 by the table, level 3 by the formula */
	fungeon_member_init(&m, "k", "p", "Brom", "fighter", 2);
	fungeon_add_xp(&m, 20); /* 20 XP (it started with 0) */
	assert_false(fungeon_level_up(&m, FUNGEON_XP_TABLE, &up));
	assert_true(fungeon_level_up(&m, FUNGEON_XP_FORMULA, &up));
	assert_int_equal(up.to, 3);
	assert_int_equal(m.hits, 15);
	/* the highest level 64-bit arithmetic counts */
	fungeon_member_init(&m, "k", "p", "Cid", "rogue", 19);
	fungeon_add_xp(&m, FUNGEON_XP_MAX);
	assert_true(fungeon_level_up(&m, FUNGEON_XP_TABLE, &up));
	assert_int_equal(m.level, 60);
	assert_int_equal(up.max_after, 300);
}

static void
death_and_replacement(void **unused)
{
	struct fungeon_member m;
	struct fungeon_levelup up;

	fungeon_member_init(&m, "k", "p", "Alba", "wizard", 2);
	assert_int_equal(
	    fungeon_effect_add(&m, &(struct fungeon_effect){.kind = FUNGEON_EFFECT_DAMAGE}), 0);
	assert_int_equal(m.neffects, 1);
	assert_false(fungeon_damage(&m, 9));
	assert_true(fungeon_damage(&m, 3));
	assert_true(m.dead);
	assert_int_equal(m.hits, 0);
	assert_int_equal(m.neffects, 0);
	assert_null(m.effects); /* death ends the effects and frees them */
	assert_false(fungeon_damage(&m, 1));
	assert_int_equal(fungeon_heal(&m, 5), 0);
	fungeon_add_xp(&m, 1000);
	assert_false(fungeon_level_up(&m, FUNGEON_XP_TABLE, &up));
	assert_int_equal(fungeon_replacement_level(1), 1);
	assert_int_equal(fungeon_replacement_level(2), 1);
	assert_int_equal(fungeon_replacement_level(5), 4);
	assert_int_equal(fungeon_replacement_level(FUNGEON_FLOOR_MAX), FUNGEON_LEVEL_MAX);
	fungeon_member_free(&m);
}

static void
party_math_and_budgets(void **unused)
{
	struct fungeon_member m[4];
	struct fungeon_party p;
	struct fungeon_budgets b;

	fungeon_member_init(&m[0], "a", "a", "A", "c", 2);
	fungeon_member_init(&m[1], "b", "b", "B", "c", 3);
	fungeon_member_init(&m[2], "c", "c", "C", "c", 4);
	fungeon_member_init(&m[3], "d", "d", "D", "c", 1);
	m[3].dead = true;
	fungeon_party_math(m, 4, &p);
	assert_int_equal(p.n, 3);
	assert_int_equal(p.min, 2);
	assert_int_equal(p.max, 4);
	assert_int_equal(p.total, 9);
	assert_int_equal(fungeon_floor(0, &p), 2); /* the entrance: Party Min */
	assert_int_equal(fungeon_floor(5, &p), 5);
	fungeon_budgets(&p, 2, &b);
	assert_int_equal(b.traps, 6);
	assert_int_equal(b.monsters, 11);
	assert_int_equal(b.treasure, 4);
	fungeon_party_math(m, 0, &p);
	assert_int_equal(p.n, 0);
	assert_int_equal(fungeon_floor(0, &p), 1);
}

static void
dice_counts(void **unused)
{
	struct fungeon_member m;
	int magic;

	fungeon_member_init(&m, "k", "p", "Alba", "wizard", 4);
	for (int i = 0; i < 3; i++)
		assert_non_null(fungeon_item_add(&m));
	m.items[0].d = (struct fungeon_design){.kind = FUNGEON_TREASURE, .fancy = true, .pain = 3};
	SET(m.items[0].d.type, "fire");
	m.items[1].d = (struct fungeon_design){
	    .kind = FUNGEON_TREASURE, .fancy = true, .annoy = 2, .universal = true};
	m.items[2].d = (struct fungeon_design){.kind = FUNGEON_TREASURE, .pain = 5};
	SET(m.items[2].d.type, "fire"); /* mundane: never magic */
	assert_int_equal(fungeon_annoy_dice(&m, false, "", false, &magic), 6);
	assert_int_equal(magic, 2);
	assert_int_equal(fungeon_annoy_dice(&m, true, "fire", false, &magic), 8);
	/* universal: no class bonus and no magic on the Annoy roll either */
	assert_int_equal(fungeon_annoy_dice(&m, true, "fire", true, &magic), 4);
	assert_int_equal(magic, 0);
	assert_int_equal(fungeon_pain_dice(&m, true, "FIRE", false, &magic), 9);
	assert_int_equal(magic, 3);
	assert_int_equal(fungeon_pain_dice(&m, true, "cold", false, &magic), 6);
	/* universal damage: no class bonus, no magic protection */
	assert_int_equal(fungeon_pain_dice(&m, true, "fire", true, &magic), 4);
	assert_int_equal(magic, 0);
	fungeon_member_free(&m);
}

static void
effects(void **unused)
{
	struct fungeon_member m;
	struct fungeon_effect e = {.kind = FUNGEON_EFFECT_DAMAGE, .annoy = 2, .pain = 1};

	fungeon_member_init(&m, "k", "p", "Alba", "wizard", 1);
	for (int i = 0; i < FUNGEON_EFFECTS_MAX; i++) {
		e.source[0] = (char)('a' + i);
		assert_int_equal(fungeon_effect_add(&m, &e), 0);
	}
	e.annoy = 4;
	assert_int_equal(fungeon_effect_add(&m, &e), 0); /* the same source: replaced */
	assert_int_equal(m.effects[FUNGEON_EFFECTS_MAX - 1].annoy, 4);
	e.source[0] = 'z';
	assert_int_equal(fungeon_effect_add(&m, &e), -1);
	fungeon_effect_remove(&m, 0);
	assert_int_equal(m.neffects, FUNGEON_EFFECTS_MAX - 1);
	assert_string_equal(m.effects[0].source, "b");
	fungeon_member_free(&m);
}

/* A continuous-damage roll: Annoy against the effect, and on a failure the
 * effect's Pain roll against the Fungeoneer. Replayed from the seed. */
static void
continuous_damage_roll(void **unused)
{
	struct fungeon_member m[1] = {0};
	struct fungeon_cont *c = calloc(1, sizeof(*c));
	struct rng *rng = rng_new_seeded(11);
	int rolls = 0, failures = 0;

	assert_non_null(c);
	for (int round = 0; round < 20; round++) {
		fungeon_member_free(&m[0]);
		fungeon_member_init(&m[0], "k", "p", "Alba", "wizard", 1);
		assert_int_equal(fungeon_effect_add(
		                     &m[0], &(struct fungeon_effect){.kind = FUNGEON_EFFECT_DAMAGE,
		                                                     .source = "pit",
		                                                     .annoy = 4,
		                                                     .pain = 3}),
		                 0);
		fungeon_hallway_cont_roll(rng, m, 0, 0, -1, NULL, c);
		rolls++;
		assert_int_equal(c->annoy.g[0].n, 1);
		assert_int_equal(c->annoy.g[1].n, 4);
		assert_int_equal(c->annoy.g[0].thwacko, 0);
		assert_int_equal(c->annoy.g[1].thwacko, -1); /* nobody rolls the effect */
		assert_int_equal(c->success,
		                 c->annoy.g[0].v[0] >= conflict_highest(&c->annoy.g[1]));
		if (c->success) {
			assert_int_equal(m[0].neffects, 0);
			assert_false(c->pained);
			continue;
		}
		failures++;
		assert_true(c->pained);
		assert_int_equal(c->pain.g[0].n, 1);
		assert_int_equal(c->pain.g[1].n, 3);
		assert_int_equal(m[0].hits, 5 - c->pain_res.taken[0]);
		assert_int_equal(c->hits_after, m[0].hits);
		assert_int_equal(c->pain_res.dealt[0], 0); /* nobody but the effect to hurt */
		assert_int_equal(m[0].neffects, 1);
	}
	assert_true(failures > 0 && failures < rolls);
	fungeon_member_free(&m[0]);
	rng_free(rng);
	free(c);
}

struct trace {
	int n;
	enum fungeon_hall_kind kind[32];
	int member[32];
	int level[32];
	int cont_dice[32];
	int drawn; /* players in the draw */
	int drawer[FUNGEON_PARTY_MAX];
};

static void
record(const struct fungeon_hall_event *ev, void *ctx)
{
	struct trace *t = ctx;

	t->kind[t->n] = ev->kind;
	t->member[t->n] = ev->member;
	t->level[t->n] = ev->level;
	if (ev->kind == FUNGEON_HALL_CONT)
		t->cont_dice[t->n] = ev->cont->annoy.g[0].n;
	if (ev->kind == FUNGEON_HALL_DRAW) {
		t->drawn = ev->draw->n;
		memcpy(t->drawer, ev->draw->member, sizeof(t->drawer));
	}
	t->n++;
}

/* The hallway order: replacements, level-ups (so the continuous roll uses
 * the new level and Party Min compares after them), continuous effects,
 * the category draw; a downward stair when Party Min rose. */
static void
hallway_order(void **unused)
{
	struct fungeon_member m[4];
	struct trace t = {0};
	struct rng *rng = rng_new_seeded(2);
	struct fungeon_hallway_out *out = calloc(1, sizeof(*out));

	fungeon_member_init(&m[0], "a", "alice", "Alba", "wizard", 2);
	m[0].dead = true;
	m[0].hits = 0;
	fungeon_member_init(&m[1], "b", "bob", "Brom", "fighter", 3);
	m[1].fresh = true;
	fungeon_member_init(&m[2], "c", "carol", "Cora", "rogue", 2);
	fungeon_add_xp(&m[2], 40); /* level 3 */
	assert_int_equal(
	    fungeon_effect_add(&m[2], &(struct fungeon_effect){.kind = FUNGEON_EFFECT_DAMAGE,
	                                                       .source = "wasp/sting",
	                                                       .annoy = 1,
	                                                       .pain = 1}),
	    0);
	fungeon_member_init(&m[3], "d", "dan", "Dirk", "monk", 2);
	fungeon_add_xp(&m[3], 40);
	assert_int_equal(
	    fungeon_effect_add(&m[3], &(struct fungeon_effect){.kind = FUNGEON_EFFECT_HOLD,
	                                                       .source = "spider/web",
	                                                       .annoy = 2}),
	    0);

	assert_non_null(out);
	m[0].hits = 0;
	fungeon_hallway(rng, m, 4, FUNGEON_XP_TABLE, 4, 0, NULL, record, &t, out);
	assert_int_equal(t.n, 7);
	assert_int_equal(t.kind[0], FUNGEON_HALL_DUE);
	assert_int_equal(t.member[0], 0);
	assert_int_equal(t.level[0], 3); /* floor 4 - 1 */
	assert_int_equal(t.kind[1], FUNGEON_HALL_FRESH);
	assert_int_equal(t.member[1], 1);
	assert_int_equal(t.kind[2], FUNGEON_HALL_LEVELUP);
	assert_int_equal(t.member[2], 2);
	assert_int_equal(t.kind[3], FUNGEON_HALL_LEVELUP);
	assert_int_equal(t.member[3], 3);
	assert_int_equal(t.kind[4], FUNGEON_HALL_CONT);
	assert_int_equal(t.member[4], 2);
	assert_int_equal(t.cont_dice[4], 3); /* rolled at the new level */
	assert_int_equal(t.kind[5], FUNGEON_HALL_HOLD_ENDS);
	assert_int_equal(t.member[5], 3);
	assert_int_equal(t.kind[6], FUNGEON_HALL_DRAW);
	/* the living draw; Party Min rose from 2 to 3: a stair */
	assert_int_equal(t.drawn, 3);
	assert_int_equal(t.drawer[0], 1);
	assert_int_equal(t.drawer[1], 2);
	assert_int_equal(t.drawer[2], 3);
	assert_true(out->stair);
	assert_int_equal(out->before.min, 2);
	assert_int_equal(out->counted.min, 3);
	assert_false(m[1].fresh);
	assert_int_equal(m[3].neffects, 0);

	/* a second hallway: nothing due but the dead, no stair */
	memset(&t, 0, sizeof(t));
	fungeon_member_free(&m[2]); /* its effects end: it carried nothing else */
	fungeon_hallway(rng, m, 4, FUNGEON_XP_TABLE, 4, 0, NULL, record, &t, out);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.kind[0], FUNGEON_HALL_DUE);
	assert_int_equal(t.kind[1], FUNGEON_HALL_DRAW);
	assert_false(out->stair);
	for (int i = 0; i < 4; i++)
		fungeon_member_free(&m[i]);
	rng_free(rng);
	free(out);
}

/* Issue 25, finding 14: a Fungeoneer who dies in the hallway's
 * continuous-damage step is out until the next hallway, so its player
 * draws no category. Brom (1 hit) suffers a trap's continuous damage of
 * 100 Annoy and 100 Pain dice against his level 1 (seed 3: his one Annoy
 * die shows less than 6, and past his first die the trap wins every rank
 * of the Pain roll). */
static void
died_in_the_hallway_draws_nothing(void **unused)
{
	struct fungeon_member m[3];
	struct trace t = {0};
	struct rng *rng = rng_new_seeded(3);
	struct fungeon_hallway_out *out = calloc(1, sizeof(*out));

	(void)unused;
	assert_non_null(out);
	fungeon_member_init(&m[0], "a", "alice", "Alba", "wizard", 1);
	fungeon_member_init(&m[1], "b", "bob", "Brom", "fighter", 1);
	fungeon_member_init(&m[2], "c", "carol", "Cora", "rogue", 1);
	m[1].hits = 1;
	assert_int_equal(
	    fungeon_effect_add(&m[1], &(struct fungeon_effect){.kind = FUNGEON_EFFECT_DAMAGE,
	                                                       .from = FUNGEON_FROM_TRAP,
	                                                       .source = "Needle",
	                                                       .annoy = 100,
	                                                       .pain = 100,
	                                                       .xp = 8}),
	    0);
	fungeon_hallway(rng, m, 3, FUNGEON_XP_TABLE, 1, 0, NULL, record, &t, out);
	assert_true(m[1].dead);
	assert_int_equal(out->ndead, 1);
	assert_int_equal(out->dead[0], 1);
	assert_int_equal(t.kind[0], FUNGEON_HALL_CONT);
	assert_int_equal(t.kind[1], FUNGEON_HALL_OUT);
	assert_int_equal(t.member[1], 1);
	assert_int_equal(t.kind[2], FUNGEON_HALL_DRAW);
	assert_int_equal(t.drawn, 2);
	assert_int_equal(t.drawer[0], 0);
	assert_int_equal(t.drawer[1], 2);
	/* the budgets counted him: they come after steps 1 and 2 */
	assert_int_equal(out->budgets.monsters, 4);
	for (int i = 0; i < 3; i++)
		fungeon_member_free(&m[i]);
	rng_free(rng);
	free(out);
}

/* Issue 25, finding 2: a trap's continuous damage is the trap's Annoy
 * roll again, so ending it with a success earns the trap's cost in XP; a
 * monster's earns nothing. */
static void
ending_a_trap_effect_earns_its_cost(void **unused)
{
	struct fungeon_member m[1];
	struct fungeon_cont *c = calloc(1, sizeof(*c));
	struct rng *rng = rng_new_seeded(1);
	int successes = 0;

	(void)unused;
	assert_non_null(c);
	for (int round = 0; round < 10; round++) {
		bool trap = round % 2 == 0;

		fungeon_member_init(&m[0], "a", "alice", "Alba", "wizard", 6);
		assert_int_equal(
		    fungeon_effect_add(&m[0],
		                       &(struct fungeon_effect){.kind = FUNGEON_EFFECT_DAMAGE,
		                                                .from = trap ? FUNGEON_FROM_TRAP
		                                                             : FUNGEON_FROM_MONSTER,
		                                                .source = "Needle",
		                                                .annoy = 1,
		                                                .pain = 1,
		                                                .xp = trap ? 8 : 0}),
		    0);
		fungeon_hallway_cont_roll(rng, m, 0, 0, -1, NULL, c);
		if (c->success) {
			successes++;
			assert_int_equal(c->xp, trap ? 8 : 0);
			assert_int_equal(m[0].xp, trap ? 8 : 0);
		} else {
			assert_int_equal(m[0].xp, 0);
		}
		fungeon_member_free(&m[0]);
	}
	assert_true(successes >= 2);
	rng_free(rng);
	free(c);
}

/* One Annoy roll a source: continuous damage rolled while the same ability
 * also holds the Fungeoneer is the hold's roll too; a success ends both, a
 * failure keeps both (and brings the Pain roll); a hold of another source
 * is untouched. Alba (level 6) against 1 Annoy die succeeds at the first
 * try with seed 1; Brom (level 1) against 30 fails with seed 2. */
static void
hold_and_damage_share_one_roll(void **unused)
{
	static const struct fungeon_effect hold = {.kind = FUNGEON_EFFECT_HOLD,
	                                           .from = FUNGEON_FROM_MONSTER,
	                                           .source = "web/bite",
	                                           .annoy = 1};
	struct fungeon_effect dmg = hold, other = hold;
	struct fungeon_member m[1];
	struct fungeon_cont *c = calloc(1, sizeof(*c));
	struct rng *rng = rng_new_seeded(1);

	(void)unused;
	assert_non_null(c);
	dmg.kind = FUNGEON_EFFECT_DAMAGE;
	dmg.pain = 1;
	snprintf(other.source, sizeof(other.source), "imp/stare");
	fungeon_member_init(&m[0], "a", "alice", "Alba", "wizard", 6);
	assert_int_equal(fungeon_effect_add(&m[0], &hold), 0);
	assert_int_equal(fungeon_effect_add(&m[0], &other), 0);
	assert_int_equal(fungeon_effect_add(&m[0], &dmg), 0);
	fungeon_hallway_cont_roll(rng, m, 0, 2, -1, NULL, c);
	assert_true(c->hold);
	assert_true(c->success);
	assert_int_equal(m[0].neffects, 1);
	assert_string_equal(m[0].effects[0].source, "imp/stare");
	fungeon_member_free(&m[0]);
	rng_seed(rng, 2);
	dmg.annoy = 30;
	fungeon_member_init(&m[0], "b", "bob", "Brom", "fighter", 1);
	assert_int_equal(fungeon_effect_add(&m[0], &dmg), 0);
	assert_int_equal(fungeon_effect_add(&m[0], &hold), 0);
	fungeon_hallway_cont_roll(rng, m, 0, 0, -1, NULL, c);
	assert_true(c->hold);
	assert_false(c->success);
	assert_true(c->pained);
	assert_int_equal(m[0].neffects, 2);
	/* a hold alone shares nothing */
	fungeon_hallway_cont_roll(rng, m, 0, 1, -1, NULL, c);
	assert_false(c->hold);
	fungeon_member_free(&m[0]);
	rng_free(rng);
	free(c);
}

/* Issue 13 #14 (and #11): the room's budgets are computed once, from the
 * party after replacements and level-ups, and a death later changes
 * nothing. Alba (level 1) levels to 2 in step 2; Brom (level 3, 1 hit) then
 * dies of continuous damage in step 3 (6 Annoy and 6 Pain dice; seed 1
 * fails his Annoy roll and wins a rank of the Pain roll). Party after step
 * 2: levels 2 and 3, floor 1: Traps 3 + 1, Monsters 5 + 1, Treasure 2 + 1. */
static void
room_budgets_fixed_after_step_two(void **unused)
{
	struct fungeon_member m[2];
	struct fungeon_hallway_out *out = calloc(1, sizeof(*out));
	struct trace t = {0};
	struct rng *rng = rng_new_seeded(1);

	assert_non_null(out);
	fungeon_member_init(&m[0], "a", "alice", "Alba", "wizard", 1);
	fungeon_add_xp(&m[0], 10);
	fungeon_member_init(&m[1], "b", "bob", "Brom", "fighter", 3);
	m[1].hits = 1;
	assert_int_equal(
	    fungeon_effect_add(&m[1], &(struct fungeon_effect){.kind = FUNGEON_EFFECT_DAMAGE,
	                                                       .source = "acid",
	                                                       .annoy = 6,
	                                                       .pain = 6}),
	    0);
	fungeon_hallway(rng, m, 2, FUNGEON_XP_TABLE, 1, 0, NULL, record, &t, out);
	assert_int_equal(m[0].level, 2);
	assert_true(m[1].dead);
	assert_int_equal(out->budgets.traps, 4);
	assert_int_equal(out->budgets.monsters, 6);
	assert_int_equal(out->budgets.treasure, 3);
	assert_int_equal(out->counted.total, 5);
	for (int i = 0; i < 2; i++)
		fungeon_member_free(&m[i]);
	rng_free(rng);
	free(out);
}

/* Issue 13 #13: the highest roller chooses first, then the next; nobody
 * chooses twice while another has not chosen; the last category goes to
 * the next in order; with two players the first chooses again. */
static void
picks_follow_the_draw(void **unused)
{
	static const char *const names[] = {"alice", "bob", "carol", "dan"};
	struct fungeon_draw d = {.n = 4, .order = {2, 0, 3, 1}};
	struct fungeon_picks p;
	char err[200];

	fungeon_hallway_picks_start(&p, &d);
	assert_int_equal(fungeon_hallway_picks_next(&p), 2);
	assert_int_equal(
	    fungeon_hallway_picks_choose(&p, 0, FUNGEON_CAT_TRAPS, names, err, sizeof(err)), -1);
	assert_string_equal(err, "It is carol's turn to choose a category (the highest roller "
	                         "chooses first, then the next).");
	assert_int_equal(
	    fungeon_hallway_picks_choose(&p, 2, FUNGEON_CAT_TREASURE, names, err, sizeof(err)), 0);
	assert_int_equal(fungeon_hallway_picks_next(&p), 0);
	assert_int_equal(
	    fungeon_hallway_picks_choose(&p, 0, FUNGEON_CAT_TREASURE, names, err, sizeof(err)), -1);
	assert_string_equal(err, "Treasure is carol's already; choose one of the others.");
	assert_int_equal(
	    fungeon_hallway_picks_choose(&p, 0, FUNGEON_CAT_MONSTERS, names, err, sizeof(err)), 0);
	/* the last one goes to dan, next in order; bob gets none */
	assert_int_equal(p.holder[FUNGEON_CAT_TRAPS], 3);
	assert_int_equal(p.holder[FUNGEON_CAT_MONSTERS], 0);
	assert_int_equal(p.holder[FUNGEON_CAT_TREASURE], 2);
	assert_int_equal(fungeon_hallway_picks_next(&p), -1);
	assert_int_equal(
	    fungeon_hallway_picks_choose(&p, 1, FUNGEON_CAT_TRAPS, names, err, sizeof(err)), -1);
	assert_string_equal(err,
	                    "Every category is chosen for this room already: Traps are dan's.");
	/* play-test 2: dan, given the last one, is told he holds it */
	assert_int_equal(
	    fungeon_hallway_picks_choose(&p, 3, FUNGEON_CAT_TRAPS, names, err, sizeof(err)), -1);
	assert_string_equal(err, "dan holds Traps already: the last category left goes to whoever "
	                         "would choose next, and every category is chosen for this room.");

	d = (struct fungeon_draw){.n = 2, .order = {1, 0}};
	fungeon_hallway_picks_start(&p, &d);
	assert_int_equal(
	    fungeon_hallway_picks_choose(&p, 1, FUNGEON_CAT_MONSTERS, names, err, sizeof(err)), 0);
	assert_int_equal(
	    fungeon_hallway_picks_choose(&p, 0, FUNGEON_CAT_TRAPS, names, err, sizeof(err)), 0);
	assert_int_equal(p.holder[FUNGEON_CAT_TREASURE], 1); /* round again: bob */

	/* issue 25, finding 9: a lone player holds every category at once */
	d = (struct fungeon_draw){.n = 1, .order = {3}};
	fungeon_hallway_picks_start(&p, &d);
	assert_int_equal(fungeon_hallway_picks_next(&p), -1);
	for (int k = 0; k < FUNGEON_CAT_COUNT; k++)
		assert_int_equal(p.holder[k], 3);
}

/* Issue 13 #12: a magic treasure used on the sufferer ends continuous
 * damage (holds are not damage and stay). */
static void
magic_ends_continuous_damage(void **unused)
{
	struct fungeon_member m;

	fungeon_member_init(&m, "a", "alice", "Alba", "wizard", 2);
	assert_int_equal(
	    fungeon_effect_add(&m, &(struct fungeon_effect){.kind = FUNGEON_EFFECT_DAMAGE,
	                                                    .source = "acid",
	                                                    .annoy = 2,
	                                                    .pain = 1}),
	    0);
	assert_int_equal(
	    fungeon_effect_add(&m, &(struct fungeon_effect){.kind = FUNGEON_EFFECT_HOLD,
	                                                    .source = "spider/web",
	                                                    .annoy = 2}),
	    0);
	assert_int_equal(fungeon_magic_cure(&m), 1);
	assert_int_equal(m.neffects, 1);
	assert_int_equal(m.effects[0].kind, FUNGEON_EFFECT_HOLD);
	assert_int_equal(fungeon_magic_cure(&m), 0);
	fungeon_member_free(&m);
}

/* With fewer players than categories someone picks again, in draw order. */
static void
draw_with_two_players(void **unused)
{
	struct rng *rng = rng_new_seeded(4);
	struct fungeon_draw *d = calloc(1, sizeof(*d));

	struct fungeon_picks p;
	const int members[] = {4, 6};

	assert_non_null(d);
	fungeon_hallway_draw(rng, members, 2, d);
	assert_int_equal(d->roll.g[0].thwacko, 0);
	assert_int_equal(d->roll.g[1].thwacko, 0);
	assert_int_equal(d->order[0], members[d->rank.order[0]]);
	assert_int_equal(d->order[1], members[d->rank.order[1]]);
	if (d->rank.nrounds == 0)
		assert_true(d->roll.g[d->rank.order[0]].v[0] > d->roll.g[d->rank.order[1]].v[0]);
	fungeon_hallway_picks_start(&p, d);
	assert_int_equal(fungeon_hallway_picks_next(&p), d->order[0]);
	rng_free(rng);
	free(d);
}

/* Entering a dungeon the players don't agree on: each rolls one die (their
 * Thwack-O), the highest describes the entrance, ties re-rolled. */
static void
entrance_highest_describes(void **unused)
{
	struct rng *rng = rng_new_seeded(9);
	struct fungeon_draw *d = calloc(1, sizeof(*d));
	const int members[] = {0, 1, 2};

	(void)unused;
	assert_non_null(d);
	fungeon_hallway_entrance(rng, members, 3, d);
	assert_int_equal(d->n, 3);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(d->roll.g[i].n, 1);
		assert_int_equal(d->roll.g[i].thwacko, 0); /* the one die is the Thwack-O */
		assert_true(d->roll.g[i].v[0] >= 1 && d->roll.g[i].v[0] <= FUNGEON_DIE);
	}
	assert_int_equal(FUNGEON_DIE, 6);
	for (int i = 0; i < 3; i++)
		if (d->rank.nrounds == 0)
			assert_true(d->roll.g[d->rank.order[0]].v[0] >= d->roll.g[i].v[0]);
	assert_int_equal(d->order[0], members[d->rank.order[0]]);
	rng_free(rng);
	free(d);
}

/* Types match as names do, case folded in full for every script: a
 * class bonus tied to ÉCLAIR fits éclair, a magic item of type Straße
 * fits STRASSE. */
static void
types_fold_as_names(void **unused)
{
	struct fungeon_member m = {.ctype = "ÉCLAIR"};
	struct fungeon_design item = {
	    .kind = FUNGEON_TREASURE, .fancy = true, .pain = 1, .type = "Straße"};

	(void)unused;
	assert_true(fungeon_class_fits(&m, "éclair"));
	assert_true(fungeon_item_matches(&item, "STRASSE"));
	assert_false(fungeon_item_matches(&item, "STRASSEN"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(xp_table),
	    cmocka_unit_test(xp_formula),
	    cmocka_unit_test(no_level_cap),
	    cmocka_unit_test(member_basics),
	    cmocka_unit_test(level_typed),
	    cmocka_unit_test(types_fold_as_names),
	    cmocka_unit_test(multi_level_level_up),
	    cmocka_unit_test(room_budgets_fixed_after_step_two),
	    cmocka_unit_test(picks_follow_the_draw),
	    cmocka_unit_test(magic_ends_continuous_damage),
	    cmocka_unit_test(death_and_replacement),
	    cmocka_unit_test(party_math_and_budgets),
	    cmocka_unit_test(dice_counts),
	    cmocka_unit_test(effects),
	    cmocka_unit_test(continuous_damage_roll),
	    cmocka_unit_test(hallway_order),
	    cmocka_unit_test(died_in_the_hallway_draws_nothing),
	    cmocka_unit_test(ending_a_trap_effect_earns_its_cost),
	    cmocka_unit_test(hold_and_damage_share_one_roll),
	    cmocka_unit_test(draw_with_two_players),
	    cmocka_unit_test(entrance_highest_describes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
