/* fungeon_hallway: the Fungeon hallway; see fungeon_hallway.h. */
#include "rules/fungeon/fungeon_hallway.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/base/mem.h"

const char *
fungeon_hallway_category_name(enum fungeon_category c)
{
	static const char *const names[] = {"Traps", "Monsters", "Treasure"};

	return (int)c >= 0 && c < FUNGEON_CAT_COUNT ? names[c] : "?";
}

void
fungeon_hallway_cont_roll(struct rng *rng, struct fungeon_member *party, int mi, int ei, int roller,
                          struct cf_turn *turn, struct fungeon_cont *out)
{
	struct fungeon_member *m = &party[mi];
	const struct fungeon_effect *e = &m->effects[ei];

	memset(out, 0, sizeof(*out));
	out->member = mi;
	out->effect = *e;
	out->bonus = fungeon_class_fits(m, e->type) && !e->universal;
	out->hits_before = out->hits_after = m->hits;
	for (int h = 0; e->kind == FUNGEON_EFFECT_DAMAGE && h < m->neffects; h++)
		out->hold |= m->effects[h].kind == FUNGEON_EFFECT_HOLD &&
		             strcmp(m->effects[h].source, e->source) == 0;
	/* the Fungeoneer first, so that its player's Thwack-O lands on it */
	out->annoy.ng = 2;
	out->annoy.g[0].player = mi;
	out->annoy.g[0].n = fungeon_annoy_dice(m, out->bonus, e->type, e->universal, NULL);
	out->annoy.g[1].player = roller;
	out->annoy.g[1].n = e->annoy;
	conflict_roll_turn(rng, &out->annoy, FUNGEON_DIE, turn);
	conflict_narrator_turn(rng, &out->annoy, FUNGEON_DIE, turn, &out->annoy_nar);
	conflict_annoy(&out->annoy, 1, &out->annoy_res);
	out->success = !out->annoy_res.fails[0];
	if (out->success) {
		out->xp = out->effect.xp; /* line 273: every success, its maker's too */
		out->xp_capped = fungeon_add_xp(m, out->xp) < 0;
		fungeon_effect_remove(m, ei);
		for (int h = 0; out->hold && h < m->neffects; h++) {
			if (m->effects[h].kind == FUNGEON_EFFECT_HOLD &&
			    strcmp(m->effects[h].source, out->effect.source) == 0) {
				fungeon_effect_remove(m, h);
				break;
			}
		}
		return;
	}
	if (out->effect.kind != FUNGEON_EFFECT_DAMAGE || out->effect.pain < 1)
		return;
	out->pained = true;
	out->pain.ng = 2;
	out->pain.g[0].player = mi;
	out->pain.g[0].n = fungeon_pain_dice(m, out->bonus, e->type, e->universal, NULL);
	out->pain.g[1].player = roller;
	out->pain.g[1].n = out->effect.pain;
	conflict_roll_turn(rng, &out->pain, FUNGEON_DIE, turn);
	conflict_sort(&out->pain.g[0]);
	conflict_sort(&out->pain.g[1]);
	conflict_narrator_turn(rng, &out->pain, FUNGEON_DIE, turn, &out->pain_nar);
	{
		struct cf_pain_part parts[2] = {
		    {.g = &out->pain.g[0], .side = 0, .hits = m->hits, .target = -1},
		    {.g = &out->pain.g[1], .side = 1, .hits = -1, .target = 0},
		};

		conflict_pain(parts, 2, &out->pain_res);
	}
	out->died = fungeon_damage(m, out->pain_res.taken[0]);
	out->hits_after = m->hits;
}

/* Each of members[0..n) rolls one die; order them, re-rolling the ties
 * that reach into the first `upto` places (those the roll decides). */
static void
draw_among(struct rng *rng, const int *members, int n, int upto, struct fungeon_draw *out)
{
	int values[CF_PLAYERS_MAX];

	memset(out, 0, sizeof(*out));
	if (n > CF_PLAYERS_MAX)
		n = CF_PLAYERS_MAX;
	out->n = n;
	out->roll.ng = n;
	for (int i = 0; i < n; i++) {
		out->member[i] = members[i];
		out->roll.g[i].player = i; /* by group: the ranking's rounds are too */
		out->roll.g[i].n = 1;
	}
	conflict_roll(rng, &out->roll, FUNGEON_DIE);
	for (int i = 0; i < n; i++)
		values[i] = out->roll.g[i].v[0];
	conflict_rank(rng, values, n, upto, FUNGEON_DIE, &out->rank);
	for (int i = 0; i < n; i++)
		out->order[i] = members[out->rank.order[i]];
}

void
fungeon_hallway_draw(struct rng *rng, const int *members, int n, struct fungeon_draw *out)
{
	/* the first three choose; with fewer players the choosing goes round
	 * again in the same order, so all of it counts */
	draw_among(rng, members, n, n < FUNGEON_CAT_COUNT ? n : FUNGEON_CAT_COUNT, out);
}

void
fungeon_hallway_entrance(struct rng *rng, const int *members, int n, struct fungeon_draw *out)
{
	draw_among(rng, members, n, 1, out); /* only who describes counts */
}

static void
emit(void (*fn)(const struct fungeon_hall_event *, void *), void *ctx,
     const struct fungeon_hall_event *ev)
{
	if (fn != NULL)
		fn(ev, ctx);
}

/* Step 3 for member i: holds end, continuous damage (of any source) is
 * rolled. Records a death in out. */
static void
step_continuous(struct rng *rng, struct fungeon_member *m, int i,
                int (*roller_of)(const struct fungeon_effect *, void *),
                void (*fn)(const struct fungeon_hall_event *, void *), void *ctx,
                struct fungeon_cont *cont, struct fungeon_hallway_out *out)
{
	for (int e = 0; e < m[i].neffects;) { /* holds end first: none is rolled here */
		struct fungeon_hall_event ev = {.member = i, .kind = FUNGEON_HALL_HOLD_ENDS};
		struct fungeon_effect gone = m[i].effects[e];

		if (gone.kind != FUNGEON_EFFECT_HOLD) {
			e++;
			continue;
		}
		fungeon_effect_remove(&m[i], e);
		ev.effect = &gone;
		emit(fn, ctx, &ev);
	}
	for (int e = 0; e < m[i].neffects && !m[i].dead;) {
		struct fungeon_hall_event ev = {.member = i};

		fungeon_hallway_cont_roll(rng, m, i, e,
		                          roller_of != NULL ? roller_of(&m[i].effects[e], ctx) : -1,
		                          NULL, cont);
		ev.kind = FUNGEON_HALL_CONT;
		ev.cont = cont;
		emit(fn, ctx, &ev);
		if (cont->died)
			out->dead[out->ndead++] = i;
		if (!cont->success)
			e++;
	}
}

void
fungeon_hallway(struct rng *rng, struct fungeon_member *m, int n, enum fungeon_xp_rule rule,
                int floor, int last_min,
                int (*roller_of)(const struct fungeon_effect *e, void *ctx),
                void (*fn)(const struct fungeon_hall_event *ev, void *ctx), void *ctx,
                struct fungeon_hallway_out *out)
{
	struct fungeon_cont *cont = xmalloc(sizeof(*cont));
	int drawers[FUNGEON_PARTY_MAX], nd = 0;

	memset(out, 0, sizeof(*out));
	fungeon_party_math(m, n, &out->before);
	/* 1. replacements */
	for (int i = 0; i < n; i++) {
		struct fungeon_hall_event ev = {.member = i};

		if (m[i].dead) {
			ev.kind = FUNGEON_HALL_DUE;
			ev.level = fungeon_replacement_level(floor);
			emit(fn, ctx, &ev);
		} else if (m[i].fresh) {
			ev.kind = FUNGEON_HALL_FRESH;
			ev.level = fungeon_replacement_level(floor);
			if (m[i].level != ev.level) { /* made before the floor changed */
				ev.was = m[i].level;
				m[i].level = ev.level;
				m[i].hits = fungeon_max_hits(ev.level);
			}
			emit(fn, ctx, &ev);
		}
		m[i].fresh = false;
	}
	/* 2. level-ups */
	for (int i = 0; i < n; i++) {
		struct fungeon_levelup up;
		struct fungeon_hall_event ev = {
		    .kind = FUNGEON_HALL_LEVELUP, .member = i, .up = &up};

		if (fungeon_level_up(&m[i], rule, &up))
			emit(fn, ctx, &ev);
	}
	fungeon_party_math(m, n, &out->counted);
	fungeon_budgets(&out->counted, floor, &out->budgets); /* once, after steps 1 and 2 */
	out->min_from = last_min > 0 ? last_min : out->before.min;
	out->rose = out->min_from > 0 && out->counted.n > 0 && out->counted.min > out->min_from;
	out->stair = out->rose && floor < FUNGEON_FLOOR_MAX; /* none leads past the deepest */
	/* 3. continuous effects: holds end with the fight; damage rolls */
	for (int i = 0; i < n; i++)
		step_continuous(rng, m, i, roller_of, fn, ctx, cont, out);
	/* 4. the category draw, among the living */
	for (int i = 0; i < n; i++) {
		struct fungeon_hall_event ev = {.kind = FUNGEON_HALL_OUT, .member = i};

		if (!m[i].dead)
			drawers[nd++] = i;
		for (int k = 0; k < out->ndead; k++)
			if (out->dead[k] == i)
				emit(fn, ctx, &ev);
	}
	if (nd > 0) {
		struct fungeon_hall_event ev = {
		    .kind = FUNGEON_HALL_DRAW, .member = -1, .draw = &out->draw};

		fungeon_hallway_draw(rng, drawers, nd, &out->draw);
		emit(fn, ctx, &ev);
	} else {
		struct fungeon_hall_event ev = {.kind = FUNGEON_HALL_NOBODY, .member = -1};

		emit(fn, ctx, &ev);
	}
	free(cont);
}

void
fungeon_hallway_picks_start(struct fungeon_picks *p, const struct fungeon_draw *d)
{
	memset(p, 0, sizeof(*p));
	p->n = d->n;
	for (int i = 0; i < d->n; i++)
		p->order[i] = d->order[i];
	for (int k = 0; k < FUNGEON_CAT_COUNT; k++)
		p->holder[k] = p->n == 1 ? p->order[0] : -1; /* a lone player holds them all */
	if (p->n == 1)
		p->made = FUNGEON_CAT_COUNT;
}

int
fungeon_hallway_picks_next(const struct fungeon_picks *p)
{
	if (p->n < 1 || p->made >= FUNGEON_CAT_COUNT)
		return -1;
	return p->order[p->made % p->n];
}

static void picks_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
picks_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* The verb of a category's name: "Traps are", "Treasure is". */
static const char *
is_are(enum fungeon_category k)
{
	return k == FUNGEON_CAT_TREASURE ? "is" : "are";
}

int
fungeon_hallway_picks_choose(struct fungeon_picks *p, int who, enum fungeon_category k,
                             const char *const *names, char *err, size_t errlen)
{
	int next = fungeon_hallway_picks_next(p), left = -1, nleft = 0;

	if (next < 0 && p->holder[0] == who && p->holder[1] == who && p->holder[2] == who) {
		picks_err(err, errlen,
		          "%s holds every category of this room: a lone player makes the whole "
		          "room.",
		          names[who]);
		return -1;
	}
	if (next < 0 && p->holder[k] == who) {
		picks_err(err, errlen,
		          "%s holds %s already: the last category left goes to whoever would "
		          "choose next, and every category is chosen for this room.",
		          names[who], fungeon_hallway_category_name(k));
		return -1;
	}
	if (next < 0 && p->holder[k] >= 0) {
		picks_err(err, errlen,
		          "Every category is chosen for this room already: %s %s %s's.",
		          fungeon_hallway_category_name(k), is_are(k), names[p->holder[k]]);
		return -1;
	}
	if (next < 0) {
		picks_err(err, errlen, "Every category is chosen for this room already.");
		return -1;
	}
	if (who != next) {
		picks_err(err, errlen,
		          "It is %s's turn to choose a category (the highest roller chooses "
		          "first, then the next).",
		          names[next]);
		return -1;
	}
	if (p->holder[k] >= 0) {
		picks_err(err, errlen, "%s %s %s's already; choose one of the others.",
		          fungeon_hallway_category_name(k), is_are(k), names[p->holder[k]]);
		return -1;
	}
	p->holder[k] = who;
	p->made++;
	for (int c = 0; c < FUNGEON_CAT_COUNT; c++) {
		if (p->holder[c] < 0) {
			left = c;
			nleft++;
		}
	}
	if (nleft == 1) {
		p->holder[left] = fungeon_hallway_picks_next(p);
		p->made++;
	}
	return 0;
}
