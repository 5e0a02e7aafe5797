/* fungeon_play: the outcomes of Fungeon's conflicts; see fungeon_play.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "rules/fungeon/fungeon_play.h"

/* Every roll the rules allow fits in a group: a Fungeoneer of the highest
 * level with its class bonus and the most magic, a monster of the highest
 * level with the most dice of a feature. */
_Static_assert(CF_DICE_MAX >= FUNGEON_LEVEL_MAX + FUNGEON_LEVEL_MAX / 2 + FUNGEON_MAGIC_MAX,
               "CF_DICE_MAX too small for a Fungeoneer");
_Static_assert(CF_DICE_MAX >= FUNGEON_LEVEL_MAX + FUNGEON_DICE_MAX,
               "CF_DICE_MAX too small for a monster's ability");

static int fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err != NULL && errlen > 0) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

int
fungeon_play_annoy_dice(const struct fungeon_member *m, bool bonus,
                        const struct fungeon_play_obstacle *o)
{
	if (o->no_magic)
		return m->level + (bonus && !o->universal ? fungeon_class_bonus(m->level) : 0);
	return fungeon_annoy_dice(m, bonus, o->type, o->universal, NULL);
}

void
fungeon_play_floor_obstacle(int floor, struct fungeon_play_obstacle *o)
{
	memset(o, 0, sizeof(*o));
	snprintf(o->label, sizeof(o->label), "floor %d", floor);
	o->annoy = floor;
	o->roller = -1;
	o->no_magic = true;
}

static void
effect_of(const struct fungeon_play_obstacle *o, enum fungeon_effect_kind kind,
          struct fungeon_effect *e)
{
	size_t n = strnlen(o->label, sizeof(e->source) - 1);

	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->from = o->from;
	memcpy(e->source, o->label, n);
	snprintf(e->maker, sizeof(e->maker), "%s", o->maker);
	e->annoy = o->annoy;
	e->pain = o->pain;
	snprintf(e->type, sizeof(e->type), "%s", o->type);
	e->universal = o->universal;
	e->xp = o->xp;
}

int
fungeon_play_annoy(struct rng *rng, const struct fungeon_member *m, const int *members, int n,
                   const bool *bonus, const struct fungeon_play_obstacle *o, int dice,
                   struct cf_turn *turn, struct fungeon_play_annoy *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	if (dice < 1)
		return fail(err, errlen, "%s has no Annoy dice, so nobody has to resist it.",
		            o->label);
	if (dice > CF_DICE_MAX)
		return fail(err, errlen,
		            "%s would roll %d dice; a participant rolls at most %d dice.", o->label,
		            dice, CF_DICE_MAX);
	if (n < 1 || n > FUNGEON_PARTY_MAX)
		return fail(err, errlen,
		            "Nobody is there to resist %s: the party has no living Fungeoneer.",
		            o->label);
	for (int i = 0; i < n; i++) {
		const struct fungeon_member *f = &m[members[i]];
		int d = fungeon_play_annoy_dice(f, bonus[i], o);

		if (f->dead)
			return fail(err, errlen, "%s is dead and rolls no more.", f->name);
		if (d > CF_DICE_MAX)
			return fail(err, errlen,
			            "%s would roll %d dice; a participant rolls at most %d dice.",
			            f->name, d, CF_DICE_MAX);
		out->member[i] = members[i];
		out->roll.g[i] = (struct cf_group){.player = members[i], .n = d, .thwacko = -1};
	}
	out->n = n;
	out->roll.g[n] = (struct cf_group){.player = o->roller, .n = dice, .thwacko = -1};
	out->roll.ng = n + 1;
	conflict_roll_turn(rng, &out->roll, FUNGEON_DIE, turn);
	conflict_annoy(&out->roll, n, &out->res);
	if (o->hold)
		effect_of(o, FUNGEON_EFFECT_HOLD, &out->eff[out->neff++]);
	if (o->continuous)
		effect_of(o, FUNGEON_EFFECT_DAMAGE, &out->eff[out->neff++]);
	for (int i = 0; i < n; i++) {
		out->fails[i] = out->res.fails[i];
		out->xp[i] = out->fails[i] ? 0 : o->xp;
		out->effect[i] = out->fails[i] && (o->hold || o->continuous);
	}
	conflict_narrator_turn(rng, &out->roll, FUNGEON_DIE, turn, &out->nar);
	return 0;
}

void
fungeon_play_annoy_apply(struct fungeon_member *m, struct fungeon_play_annoy *a)
{
	for (int i = 0; i < a->n; i++) {
		struct fungeon_member *f = &m[a->member[i]];

		a->capped[i] = fungeon_add_xp(f, a->xp[i]) < 0;
		a->full[i] = false;
		for (int k = 0; a->effect[i] && k < a->neff; k++)
			a->full[i] |= fungeon_effect_add(f, &a->eff[k]) < 0;
	}
}

int
fungeon_play_member_dice(const struct fungeon_member *f, const struct fungeon_play_part *p,
                         const char *type, bool universal, int resist, int *resisted)
{
	int all = fungeon_pain_dice(f, p->bonus, type, universal, NULL), added = all - f->level;

	*resisted = resist <= 0 ? 0 : resist < added ? resist : added;
	return all - *resisted;
}

int
fungeon_play_pain(struct rng *rng, const struct fungeon_member *m,
                  const struct fungeon_play_part *p, int n, const char *type, bool universal,
                  int resist, struct cf_turn *turn, struct fungeon_play_pain *out, char *err,
                  size_t errlen)
{
	struct cf_pain_part pp[CF_PARTS_MAX];

	memset(out, 0, sizeof(*out));
	if (n < 2 || n > CF_PARTS_MAX)
		return fail(err, errlen, "A Painful conflict takes 2 to %d participants (got %d).",
		            CF_PARTS_MAX, n);
	for (int i = 0; i < n; i++) {
		int d = p[i].dice, player = p[i].player;

		if (p[i].member >= 0) {
			const struct fungeon_member *f = &m[p[i].member];

			if (f->dead)
				return fail(err, errlen, "%s is dead and rolls no more.", f->name);
			d = fungeon_play_member_dice(f, &p[i], type, universal, resist,
			                             &out->resisted[i]);
			player = p[i].member;
		}
		if (d < 0 || d > CF_DICE_MAX)
			return fail(err, errlen,
			            "Participant %d would roll %d dice; a participant rolls at "
			            "most %d dice.",
			            i + 1, d, CF_DICE_MAX);
		out->roll.g[i] = (struct cf_group){.player = player, .n = d, .thwacko = -1};
	}
	out->n = n;
	out->roll.ng = n;
	conflict_roll_turn(rng, &out->roll, FUNGEON_DIE, turn);
	for (int i = 0; i < n; i++) {
		conflict_sort(&out->roll.g[i]);
		pp[i].g = &out->roll.g[i];
		pp[i].side = p[i].member >= 0 ? 0 : 1;
		pp[i].hits = p[i].member >= 0 ? m[p[i].member].hits : p[i].hits;
		pp[i].target = p[i].target;
		pp[i].held = p[i].held;
	}
	conflict_pain(pp, n, &out->res);
	for (int k = 0; k < out->res.nranks; k++) {
		const struct cf_pain_rank *rk = &out->res.rank[k];

		if (rk->winner >= 0 && rk->target >= 0 && p[rk->winner].member >= 0)
			out->xp[rk->winner] += p[rk->target].worth;
	}
	for (int i = 0; i < n; i++) {
		out->hits[i] = out->res.hits[i];
		if (p[i].member >= 0)
			out->died[i] = out->res.taken[i] > 0 && out->hits[i] <= 0;
		else
			out->defeated[i] = p[i].hits > 0 && out->hits[i] == 0;
	}
	conflict_narrator_turn(rng, &out->roll, FUNGEON_DIE, turn, &out->nar);
	return 0;
}

void
fungeon_play_pain_apply(struct fungeon_member *m, const struct fungeon_play_part *p,
                        struct fungeon_play_pain *o)
{
	for (int i = 0; i < o->n; i++) {
		struct fungeon_member *f;

		if (p[i].member < 0)
			continue;
		f = &m[p[i].member];
		fungeon_damage(f, o->res.taken[i]);
		o->capped[i] = fungeon_add_xp(f, o->xp[i]) < 0;
	}
}

int
fungeon_play_retreat(struct rng *rng, const struct fungeon_member *m, const int *members, int n,
                     const bool *bonus, int floor, struct fungeon_play_retreat *out, char *err,
                     size_t errlen)
{
	struct fungeon_play_obstacle o;

	memset(out, 0, sizeof(*out));
	fungeon_play_floor_obstacle(floor, &o);
	out->floor = floor;
	if (fungeon_play_annoy(rng, m, members, n, bonus, &o, floor, NULL, &out->annoy, err,
	                       errlen) < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		int64_t pts;

		if (!out->annoy.fails[i])
			continue;
		pts = (int64_t)m[members[i]].level + floor;
		out->wander[i] = pts < floor ? floor : pts;
	}
	return 0;
}

void
fungeon_play_retreat_apply(struct fungeon_member *m, struct fungeon_play_retreat *r)
{
	fungeon_play_annoy_apply(m, &r->annoy);
	for (int i = 0; i < r->annoy.n; i++)
		if (r->wander[i] > 0)
			fungeon_add_wanderer(&m[r->annoy.member[i]], r->wander[i]);
}
