/* fungeon_trap: searching for, triggering and disarming a trap; see
 * fungeon_trap.h. */
#include "rules/fungeon/fungeon_trap.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

void
fungeon_trap_obstacle(const struct fungeon_piece *t, int roller, struct fungeon_play_obstacle *o)
{
	memset(o, 0, sizeof(*o));
	snprintf(o->label, sizeof(o->label), "%s", t->name);
	o->annoy = t->d.annoy;
	o->pain = t->d.pain;
	snprintf(o->type, sizeof(o->type), "%s", t->d.type);
	o->universal = t->d.universal;
	o->continuous = t->d.continuous;
	o->from = FUNGEON_FROM_TRAP;
	o->xp = t->cost;
	o->roller = roller;
	snprintf(o->maker, sizeof(o->maker), "%s", t->maker);
}

/* Whether trap t can be rolled against at all for action a. */
static int
check_state(const struct fungeon_piece *t, enum fungeon_trap_act a, char *err, size_t errlen)
{
	if (t->state == FUNGEON_TRAP_DISARMED)
		return fail(err, errlen, "%s is disarmed; it springs no more.", t->name);
	if (t->state == FUNGEON_TRAP_SPRUNG)
		return fail(err, errlen,
		            "%s has sprung already; a trap without Unlimited Use springs once.",
		            t->name);
	if (a == FUNGEON_TRAP_SEARCH && t->state == FUNGEON_TRAP_FOUND)
		return fail(err, errlen,
		            "%s is found already; there is nothing left to search for.", t->name);
	if (a == FUNGEON_TRAP_DISARM && t->state == FUNGEON_TRAP_HIDDEN)
		return fail(err, errlen,
		            "Nobody has found %s yet, and a trap is found before it is disarmed "
		            "(a Ruling): search for it first.",
		            t->name);
	return 0;
}

int
fungeon_trap_check(const struct fungeon_piece *t, enum fungeon_trap_act a,
                   const struct fungeon_member *m, const int *members, int n, char *err,
                   size_t errlen)
{
	for (int i = 0; a == FUNGEON_TRAP_DISARM && t->state == FUNGEON_TRAP_HIDDEN && i < n; i++)
		if (t->unaware & (1u << members[i]))
			return fail(err, errlen,
			            "%s searched for %s and found nothing, so cannot disarm it "
			            "(blissful ignorance, a Ruling): another may search for it, or "
			            "anyone may get past it by triggering it.",
			            m[members[i]].name, t->name);
	if (check_state(t, a, err, errlen) < 0)
		return -1;
	if (n < 1)
		return fail(err, errlen,
		            "Nobody can go near %s: no Fungeoneer of the party is alive and in "
		            "the room.",
		            t->name);
	if (a == FUNGEON_TRAP_DISARM && n > 1)
		return fail(err, errlen, "One Fungeoneer disarms %s at a time; name one.", t->name);
	for (int i = 0; i < n; i++) {
		const struct fungeon_member *f = &m[members[i]];

		for (int k = 0; k < i; k++)
			if (members[k] == members[i])
				return fail(err, errlen,
				            "%s is named twice; name each Fungeoneer once.",
				            f->name);
		if (f->dead)
			return fail(err, errlen,
			            "%s is dead: %s is out of the game until the next hallway.",
			            f->name, f->player);
		if (f->fresh)
			return fail(
			    err, errlen,
			    "%s is a replacement: %s is out until the next hallway, where %s "
			    "joins the party.",
			    f->name, f->player, f->name);
		if (a == FUNGEON_TRAP_SEARCH && (t->unaware & (1u << members[i])))
			return fail(err, errlen,
			            "%s searched for %s and found nothing; a Fungeoneer who failed "
			            "stays in blissful ignorance of it (a Ruling).",
			            f->name, t->name);
	}
	return 0;
}

/* The Pain roll of trap o against the member who failed. */
static int
pain_of(struct rng *rng, const struct fungeon_member *m, int member, bool bonus,
        const struct fungeon_play_obstacle *o, struct fungeon_trap_pain *p, char *err,
        size_t errlen)
{
	memset(p, 0, sizeof(*p));
	p->member = member;
	p->part[0] = (struct fungeon_play_part){.member = member, .target = -1, .bonus = bonus};
	p->part[1] = (struct fungeon_play_part){
	    .member = -1, .dice = o->pain, .hits = -1, .player = o->roller, .target = 0};
	return fungeon_play_pain(rng, m, p->part, 2, o->type, o->universal, 0, NULL, &p->roll, err,
	                         errlen);
}

/* Several trigger it at once: one die + level each, the highest avoids
 * it; those tied for highest re-roll one die each until one is highest. */
static void
draw_several(struct rng *rng, const struct fungeon_member *m, struct fungeon_trap_out *out)
{
	int tied[FUNGEON_PARTY_MAX], nt = 0, top[FUNGEON_PARTY_MAX];

	for (int i = 0; i < out->n; i++) {
		out->level[i] = m[out->member[i]].level;
		out->draw.g[i] = (struct cf_group){.player = out->member[i], .n = 1, .thwacko = -1};
	}
	out->draw.ng = out->n;
	conflict_roll(rng, &out->draw, FUNGEON_DIE);
	conflict_trigger(&out->draw, out->level, &out->t);
	for (int i = 0; i < out->n; i++) {
		out->tied[i] = out->t.avoids[i];
		if (out->tied[i])
			tied[nt++] = i;
	}
	if (nt > 1) {
		for (int k = 0; k < nt; k++)
			top[k] = out->t.total[tied[k]];
		conflict_rank(rng, top, nt, 1, FUNGEON_DIE, &out->tie);
		for (int k = 0; k < nt; k++)
			out->t.avoids[tied[k]] = k == out->tie.order[0];
	} else {
		out->tied[tied[0]] = false;
	}
	conflict_narrator(rng, &out->draw, FUNGEON_DIE, &out->draw_nar);
	for (int i = 0; i < out->n; i++)
		out->caught[i] = !out->t.avoids[i];
}

int
fungeon_trap_play(struct rng *rng, const struct fungeon_member *m, const int *members, int n,
                  const bool *bonus, const struct fungeon_piece *t, int roller,
                  enum fungeon_trap_act a, struct fungeon_trap_out *out, char *err, size_t errlen)
{
	int caught[FUNGEON_PARTY_MAX], nc = 0, dice;
	bool cbonus[FUNGEON_PARTY_MAX];

	memset(out, 0, sizeof(*out));
	out->act = a;
	fungeon_trap_obstacle(t, roller, &out->o);
	out->n = n;
	out->state = t->state;
	out->passed = t->passed;
	for (int i = 0; i < n; i++) {
		out->member[i] = members[i];
		out->annoy_of[i] = -1;
		out->caught[i] = true;
	}
	if (a == FUNGEON_TRAP_TRIGGER && n > 1) {
		out->several = true;
		draw_several(rng, m, out);
	}
	for (int i = 0; i < n; i++) {
		if (!out->caught[i])
			continue;
		out->annoy_of[i] = nc;
		cbonus[nc] = bonus[i];
		caught[nc++] = members[i];
	}
	if (nc == 0) {
		out->state = t->d.unlimited ? FUNGEON_TRAP_FOUND : FUNGEON_TRAP_SPRUNG;
		out->passed = true;
		return 0;
	}
	if (a == FUNGEON_TRAP_SEARCH) {
		out->o.hold = out->o.continuous = false; /* searching springs nothing */
		if (t->cost > CF_DICE_MAX)
			return fail(
			    err, errlen,
			    "Finding %s would roll %lld dice (its cost); a roll has at most "
			    "%d.",
			    t->name, (long long)t->cost, CF_DICE_MAX);
	}
	dice = a == FUNGEON_TRAP_SEARCH ? (int)t->cost : t->d.annoy;
	if (fungeon_play_annoy(rng, m, caught, nc, cbonus, &out->o, dice, NULL, &out->annoy, err,
	                       errlen) < 0)
		return -1;
	out->annoyed = true;
	if (a == FUNGEON_TRAP_SEARCH) {
		for (int k = 0; k < nc; k++) {
			if (out->annoy.fails[k])
				out->unaware |= 1u << caught[k];
			else
				out->state = FUNGEON_TRAP_FOUND;
		}
		return 0;
	}
	for (int k = 0; k < nc; k++) {
		if (!out->annoy.fails[k])
			continue;
		if (t->d.pain > 0 && pain_of(rng, m, caught[k], cbonus[k], &out->o,
		                             &out->pain[out->npain++], err, errlen) < 0)
			return -1;
	}
	out->passed = true;
	if (a == FUNGEON_TRAP_DISARM && !out->annoy.fails[0])
		out->state = FUNGEON_TRAP_DISARMED;
	else
		out->state = t->d.unlimited ? FUNGEON_TRAP_FOUND : FUNGEON_TRAP_SPRUNG;
	return 0;
}

void
fungeon_trap_apply(struct fungeon_member *m, struct fungeon_piece *t, struct fungeon_trap_out *out)
{
	if (out->annoyed)
		fungeon_play_annoy_apply(m, &out->annoy);
	for (int k = 0; k < out->npain; k++)
		fungeon_play_pain_apply(m, out->pain[k].part, &out->pain[k].roll);
	t->state = out->state;
	t->passed = out->passed;
	t->unaware |= out->unaware;
}
